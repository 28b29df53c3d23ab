// Main-content detection: which parts of a page are its content (the article, the whole thread, the
// whole grid or listing, the product's description and specifications, every section of a service
// page, the documentation body) and which are chrome (navigation, header, footer, sidebars, consent
// text, related rails, share bars, ads). One htmlparser2 pass builds a light tree with source offsets;
// boilerplate subtrees are set aside by markup (tags, roles, class/id words, hidden state); every
// element then carries how much text it holds and how much of it is link text, and the main content
// is the deepest element that still holds most of the page's text weight (so a grid, a thread or a
// long article is taken whole, and a sidebar or footer never pulls it up). The page type is detected
// from structured data and the shape of what was found. The answer is ranges of the original HTML,
// so callers (the markdown endpoint, the model input) keep their own pipelines.
import { DomHandler, type AnyNode, type Element } from 'domhandler';
import { isBoilerplate, isHidden, isOverlay } from './boilerplate.ts';
import { linearParser } from './sax.ts';

export type Range = [number, number];
export type PageType = 'article' | 'forum' | 'listing' | 'product' | 'documentation' | 'service' | 'empty';
export type MainContent = {
  /** The detected page type ('empty' for a page with no main content, such as an app shell). */
  type: PageType;
  /** The main content: sorted, disjoint ranges of the HTML (start inclusive, end exclusive). */
  ranges: Range[];
  /** Boilerplate inside those ranges to leave out (sorted, disjoint). */
  drop: Range[];
};

/** Never content: their text is not visible or is a control's. (A <noscript> can hold the whole page
 * for crawlers, as forum software does: it is read.) */
const SKIP = new Set([
  'script',
  'style',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'textarea',
  'button',
  'input',
  'head',
  'title',
  'meta',
  'link',
  'dialog',
]);
const CONTENT = new Set(['article', 'main', 'section']);
/** Chrome and clutter named in class or id (in addition to boilerplate.ts's page chrome). */
const NEGATIVE =
  /(?:^|[-_\s])(?:related|share|sharing|sharebar|social|breadcrumbs?|newsletter|subscribe|subscription|sponsored|sponsor|promo|advert|ads|adslot|banner-ad|disqus|respond|comment-form|reply-form|recommended|recommendations|read-?next|more-stories|trending|popular-posts|outbrain|taboola|cookie|consent|skip-link|toolbar|widget-area|widgets|site-footer|site-header|footer|masthead|top-bar|utility-bar|author-box|post-navigation|nav-links|print|feedback|rating-form|signup|login|search-form|searchform)(?:$|[-_\s])/;
/** A link's text counts this much of plain text when weighing where the content is. */
const LINK_WEIGHT = 0.4;
/** The main content is the deepest element holding at least this share of the page's weight. */
const SHARE = 0.6;
/** Below this much text weight, the page has no main content (an app shell, a bare redirect). */
const MIN_WEIGHT = 40;
/** A class- or id-named block holding at least this share of the page's weight is a wrapper, not chrome. */
const KEEP = 0.4;
/** Like siblings weighing this much of the heaviest one make the content their parent. */
const LIKE = 0.1;

type Tree = {
  els: Element[];
  parent: Int32Array;
  txt: Float64Array;
  lnk: Float64Array;
  removed: Uint8Array;
  /** Topmost dropped subtrees are marked; what lies inside them is not. */
  index: Map<Element, number>;
};

const classId = (el: Element) => `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`.toLowerCase();

function countChars(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

/** 2: dropped with what it holds; 1: dropped unless it holds much of the page (a class word can be a wrapper's); 0: kept. */
function removal(el: Element, inContent: boolean): 0 | 1 | 2 {
  const tag = el.name;
  if (SKIP.has(tag)) return 2;
  const a = el.attribs;
  if (tag === 'html' || tag === 'body') return 0;
  // Streamed server rendering parks content in <div hidden id="S:n"> until a script moves it in.
  if (a.hidden !== undefined && a.id !== undefined && /^S:\d+$/.test(a.id)) return 0;
  // aria-hidden on a large part is a snapshot taken with a dialog open: dropped only if small.
  if (a['aria-hidden'] === 'true' && a.hidden === undefined && !a.style) return isOverlay(tag, a) ? 2 : 1;
  if (isHidden(tag, a) || isOverlay(tag, a)) return 2;
  if (tag === 'nav' || ((tag === 'header' || tag === 'footer' || tag === 'aside') && !inContent)) return 2;
  if (isBoilerplate(tag, a, inContent)) return 1;
  if (tag === 'main' || tag === 'article') return 0;
  if (a.class === undefined && a.id === undefined) return 0;
  return NEGATIVE.test(classId(el)) ? 1 : 0;
}

/** The tree in pre-order with text weights summed bottom-up; removed subtrees weigh nothing. */
function measure(html: string): Tree {
  const handler = new DomHandler(undefined, { withStartIndices: true, withEndIndices: true });
  const parser = linearParser(handler);
  parser.end(html);
  const els: Element[] = [];
  const parents: number[] = [];
  const removedList: number[] = [];
  const txtList: number[] = [];
  const lnkList: number[] = [];
  // Iterative pre-order walk: [node, parent index, in content, in link].
  const stack: [AnyNode, number, boolean, boolean][] = [];
  for (let i = handler.root.children.length - 1; i >= 0; i--) stack.push([handler.root.children[i], -1, false, false]);
  while (stack.length) {
    const [node, p, inContent, inLink] = stack.pop()!;
    if (node.type === 'text') {
      if (p === -1) continue;
      const n = countChars(node.data);
      if (inLink) lnkList[p] += n;
      else txtList[p] += n;
      continue;
    }
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
    const el = node as Element;
    const idx = els.length;
    const how = removal(el, inContent);
    els.push(el);
    parents.push(p);
    removedList.push(how);
    txtList.push(0);
    lnkList.push(0);
    if (how === 2) continue; // what it holds does not count
    const c = inContent || CONTENT.has(el.name);
    const l = inLink || el.name === 'a';
    for (let i = el.children.length - 1; i >= 0; i--) stack.push([el.children[i], idx, c, l]);
  }
  const n = els.length;
  const parent = Int32Array.from(parents);
  const txt = Float64Array.from(txtList);
  const lnk = Float64Array.from(lnkList);
  const removed = Uint8Array.from(removedList);
  for (let i = n - 1; i > 0; i--) {
    const p = parent[i];
    if (p >= 0 && removed[i] !== 2) {
      txt[p] += txt[i];
      lnk[p] += lnk[i];
    }
  }
  // Soft removals: dropped (their weight taken from their ancestors) unless they hold much of the page.
  let total = 0;
  for (let i = 0; i < n; i++) if (els[i].name === 'body') total = txt[i] + LINK_WEIGHT * lnk[i];
  const gone = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const p = parent[i];
    if (p >= 0 && gone[p]) {
      gone[i] = 1;
      removed[i] = 0;
      continue;
    }
    if (removed[i] === 1) {
      if (txt[i] + LINK_WEIGHT * lnk[i] >= KEEP * total) removed[i] = 0;
      else
        for (let a = p; a >= 0; a = parent[a]) {
          txt[a] -= txt[i];
          lnk[a] -= lnk[i];
        }
    }
    if (removed[i]) gone[i] = 1;
  }
  const index = new Map<Element, number>();
  for (let i = 0; i < n; i++) index.set(els[i], i);
  return { els, parent, txt, lnk, removed, index };
}

const weight = (t: Tree, i: number) => t.txt[i] + LINK_WEIGHT * t.lnk[i];

function elementChildren(t: Tree, i: number): number[] {
  const out: number[] = [];
  for (const c of t.els[i].children) {
    if (c.type !== 'tag') continue;
    const k = t.index.get(c as Element);
    if (k !== undefined && !t.removed[k]) out.push(k);
  }
  return out;
}

/** Tag and classes without digits: the posts of a thread share one (post_1, post_2). */
const signature = (el: Element) => `${el.name}.${(el.attribs.class ?? '').replace(/\d+/g, '')}`;

function inRemoved(t: Tree, i: number): boolean {
  for (let a = i; a >= 0; a = t.parent[a]) if (t.removed[a]) return true;
  return false;
}

function rangeOf(el: Element, html: string): Range {
  const s = el.startIndex ?? 0;
  const e = el.endIndex == null ? html.length : el.endIndex + 1;
  return [s, Math.max(s, e)];
}

/** Page-level signals: schema.org types in JSON-LD or microdata, Open Graph type. */
function declaredType(html: string): PageType | null {
  const types = new Set<string>();
  for (const m of html.matchAll(/"@type"\s*:\s*\[?\s*"(?:https?:\/\/schema\.org\/)?([A-Za-z]+)"/g)) types.add(m[1]);
  for (const m of html.matchAll(/itemtype\s*=\s*["']?https?:\/\/schema\.org\/([A-Za-z]+)/gi)) types.add(m[1]);
  const og = /<meta[^>]+property\s*=\s*["']og:type["'][^>]*content\s*=\s*["']([^"']+)/i.exec(html)?.[1]?.toLowerCase();
  if (types.has('QAPage') || types.has('DiscussionForumPosting') || types.has('SocialMediaPosting')) return 'forum';
  if (types.has('Product') || og === 'product' || og === 'og:product') return 'product';
  if (types.has('ItemList') || types.has('CollectionPage') || types.has('SearchResultsPage')) return 'listing';
  if (types.has('TechArticle') || types.has('APIReference')) return 'documentation';
  if (types.has('NewsArticle') || types.has('BlogPosting') || types.has('Article') || og === 'article') return 'article';
  return null;
}

/** Finds the page's main content and its type. */
export function findMainContent(html: string): MainContent {
  const t = measure(html);
  const n = t.els.length;
  let body = t.els.findIndex((el) => el.name === 'body');
  if (body === -1) body = 0;
  if (n === 0 || weight(t, body) < MIN_WEIGHT) return { type: 'empty', ranges: [], drop: [] };
  const total = weight(t, body);
  let node = body;
  for (;;) {
    let best = -1;
    let bestW = 0;
    for (const c of elementChildren(t, node)) {
      const w = weight(t, c);
      if (w > bestW) {
        bestW = w;
        best = c;
      }
    }
    if (best === -1 || bestW < SHARE * total) break;
    // One of a run of like siblings (posts of a thread, cards of a grid, sections of a page): the
    // content is the run, not its heaviest member.
    const sig = signature(t.els[best]);
    let like = 0;
    for (const c of elementChildren(t, node)) if (c !== best && signature(t.els[c]) === sig) like += weight(t, c);
    if (like >= LIKE * bestW) break;
    node = best;
  }
  const ranges: Range[] = [rangeOf(t.els[node], html)];
  // The page's title heading, when it sits just outside the content element (a hero above the body).
  const [s0] = ranges[0];
  for (let i = 0; i < n; i++) {
    const el = t.els[i];
    if (el.name !== 'h1') continue;
    if (inRemoved(t, i)) continue;
    const r = rangeOf(el, html);
    if (r[1] <= s0) ranges.unshift(r);
    break;
  }
  const drop: Range[] = [];
  for (let i = 0; i < n; i++) {
    if (!t.removed[i] || inRemoved(t, t.parent[i])) continue;
    const r = rangeOf(t.els[i], html);
    if (ranges.some(([s, e]) => r[0] >= s && r[1] <= e)) drop.push(r);
  }
  drop.sort((a, b) => a[0] - b[0]);
  return { type: detectType(html, t, node), ranges, drop };
}

function detectType(html: string, t: Tree, node: number): PageType {
  const declared = declaredType(html);
  if (declared) return declared;
  const main = t.els[node];
  const kids = elementChildren(t, node);
  // Repeated siblings (same tag and class) holding most of the content: a listing, or a thread.
  const groups = new Map<string, number[]>();
  for (const k of kids) {
    const el = t.els[k];
    const key = signature(el);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(k);
  }
  const w = weight(t, node);
  for (const g of groups.values()) {
    if (g.length < 3) continue;
    const gw = g.reduce((a, k) => a + weight(t, k), 0);
    if (gw < 0.5 * w) continue;
    const linky =
      g.reduce((a, k) => a + t.lnk[k], 0) /
      Math.max(
        1,
        g.reduce((a, k) => a + t.txt[k] + t.lnk[k], 0),
      );
    return linky > 0.3 ? 'listing' : /post|comment|message|reply|answer/.test(classId(t.els[g[0]])) ? 'forum' : 'listing';
  }
  if (/<pre[\s>]/i.test(html.slice(main.startIndex ?? 0, (main.endIndex ?? 0) + 1))) return 'documentation';
  if (main.name === 'article' || t.els.some((el) => el.name === 'article')) return 'article';
  return 'service';
}
