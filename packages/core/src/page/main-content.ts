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
  /(?:^|[-_\s])(?:related|share|sharing|sharebar|social|breadcrumbs?|newsletter|subscribe|subscription|sponsored|sponsor|promo|advert|ads|adslot|banner-ad|disqus|respond|comment-form|reply-form|recommended|recommendations|read-?next|more-stories|trending|popular-posts|outbrain|taboola|cookie|consent|skip-link|toolbar|widget-area|widgets|site-footer|site-header|footer|masthead|top-bar|utility-bar|author-box|author-bio|about-the-author|about-author|author-info|byline|entry-meta|post-meta|article-meta|post-navigation|nav-links|print|feedback|rating-form|signup|login|search-form|searchform)(?:$|[-_\s])/;
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
/** The content grows up to the title's common ancestor when that adds at most this factor of weight. */
const TITLE_SPAN = 1.5;
/** A block whose text is more than this share link text is a link block. */
const LINKY = 0.5;
/** Link blocks (with their like siblings) holding this share of the content are content. */
const RUN_SHARE = 0.3;

type Tree = {
  els: Element[];
  parent: Int32Array;
  txt: Float64Array;
  lnk: Float64Array;
  /** Topmost dropped subtrees are marked; what lies inside them is not. */
  removed: Uint8Array;
  /** Dropped, or inside a dropped subtree. */
  gone: Uint8Array;
  index: Map<Element, number>;
};

/** Consent banners, dropped whatever their size. */
const COOKIE = /cookie|consent|gdpr|ccpa|onetrust|cookiebot|didomi|cc-window|cc-banner|(?:^|\s)cky-/;
const isDialog = (a: Record<string, string>) => a['aria-modal'] === 'true' || a.role === 'dialog' || a.role === 'alertdialog';
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
  // A dialog by markup is dropped; one named so by class words (newsletter-post, popup-gallery) only
  // when small. An inline-hidden wrapper holding most of the page hides it until scripts have run.
  if (isDialog(a)) return 2;
  if (isOverlay(tag, a)) return COOKIE.test(classId(el)) ? 2 : 1;
  if (a.style !== undefined && isHidden(tag, a)) return 1;
  if (isHidden(tag, a)) return 2;
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
  const removed = Uint8Array.from(removedList);
  const txt = new Float64Array(n);
  const lnk = new Float64Array(n);
  const sum = (skip: number) => {
    txt.set(txtList);
    lnk.set(lnkList);
    for (let i = n - 1; i > 0; i--) {
      const p = parent[i];
      if (p >= 0 && removed[i] < skip) {
        txt[p] += txt[i];
        lnk[p] += lnk[i];
      }
    }
  };
  sum(2);
  // Soft removals: dropped unless they hold much of the page; then the sums again without them.
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
    if (removed[i] === 1 && txt[i] + LINK_WEIGHT * lnk[i] >= KEEP * total) removed[i] = 0;
    if (removed[i]) gone[i] = 1;
  }
  sum(1);
  const index = new Map<Element, number>();
  for (let i = 0; i < n; i++) index.set(els[i], i);
  return { els, parent, txt, lnk, removed, gone, index };
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

function isAncestor(t: Tree, a: number, i: number): boolean {
  for (let k = i; k !== -1; k = t.parent[k]) if (k === a) return true;
  return false;
}

/** Tag and classes without digits: the posts of a thread share one (post_1, post_2). */
const signature = (el: Element) => `${el.name}.${(el.attribs.class ?? '').replace(/\d+/g, '')}`;

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
  // The page's title heading, when it sits outside the content element: the content starts at the
  // title (a product's name and price above its description) when their common ancestor adds little
  // else; otherwise the heading alone comes first (a hero above the body).
  let title = -1;
  for (let i = 0; i < n && title === -1; i++) if (t.els[i].name === 'h1' && !t.gone[i]) title = i;
  const ranges: Range[] = [];
  if (title !== -1 && !isAncestor(t, node, title)) {
    let lca = t.parent[title];
    while (lca !== -1 && !isAncestor(t, lca, node)) lca = t.parent[lca];
    if (lca !== -1 && lca !== body && weight(t, lca) <= TITLE_SPAN * weight(t, node)) node = lca;
    else if (t.els[title].startIndex! < t.els[node].startIndex!) ranges.push(rangeOf(t.els[title], html));
  }
  ranges.push(rangeOf(t.els[node], html));
  const drop: Range[] = [];
  for (let i = 0; i < n; i++) {
    if (!t.removed[i] || (t.parent[i] >= 0 && t.gone[t.parent[i]])) continue;
    const r = rangeOf(t.els[i], html);
    if (ranges.some(([s, e]) => r[0] >= s && r[1] <= e)) drop.push(r);
  }
  const type = detectType(html, t, node);
  if (type !== 'listing') for (const i of linkBlocks(t, node, RUN_SHARE)) drop.push(rangeOf(t.els[i], html));
  if (type === 'product') for (const i of named(t, node, REVIEWS)) drop.push(rangeOf(t.els[i], html));
  // An article's comment thread is not the article (on a forum the posts are the content).
  if (type === 'article') for (const i of named(t, node, COMMENTS)) if (weight(t, i) <= COMMENT_SHARE * weight(t, node)) drop.push(rangeOf(t.els[i], html));
  for (const i of duplicates(t, node, type)) drop.push(rangeOf(t.els[i], html));
  if (type !== 'listing') for (const i of rails(t, node)) drop.push(rangeOf(t.els[i], html));
  drop.sort((a, b) => a[0] - b[0]);
  return { type, ranges, drop };
}

/** Headings that name a related-content rail or a recommendation block (not the page's own content). */
const RAIL =
  /^(?:similar (?:items|products)|related(?: (?:items|products|articles|posts|stories|content|reading|links|videos|guides|topics|searches))?|you (?:may|might) also (?:like|enjoy|be interested in)|(?:customers|people) (?:who (?:viewed|bought) this(?: item)? )?also (?:viewed|bought|liked)|frequently bought together|recently viewed(?: items| products)?|recommended(?: for you| products| articles| reading)?|more (?:from|like this|to explore|stories|articles|products)\b|explore (?:related|more)\b|read next|up next|popular (?:posts|articles|products)|complete the look|shop the look|sponsored(?: products| items)?)(?:[\s:.!?]|$)/;
const HEADING = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** A rail holds at most this share of the content. */
const RAIL_SHARE = 0.85;
/** A paragraph this long (characters, not link text) is prose, never part of a rail. */
const PROSE = 150;

function textOf(el: Element): string {
  let s = '';
  const stack: AnyNode[] = [el];
  while (stack.length && s.length < 200) {
    const n = stack.pop()!;
    if (n.type === 'text') s += n.data;
    else if ('children' in n && n.type === 'tag') for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Related-content rails named by their heading ("Similar items", "You may also like", "Related
 * posts"): the largest block around such a heading that holds no other heading and at most half the
 * content.
 */
function rails(t: Tree, node: number): number[] {
  const end = t.els[node].endIndex ?? Infinity;
  let last = node;
  while (last + 1 < t.els.length && (t.els[last + 1].startIndex ?? 0) < end) last++;
  // heads[l][i]: headings of level l+1 or above (h1..h(l+1)) under element i.
  const heads = Array.from({ length: 6 }, () => new Int32Array(last - node + 1));
  const level = (el: Element) => (HEADING.has(el.name) ? Number(el.name[1]) : el.attribs.role === 'heading' ? Number(el.attribs['aria-level'] ?? 2) || 2 : 0);
  const found: [number, number][] = [];
  // prose[i]: paragraphs of prose (PROSE characters or more) under element i.
  const prose = new Int32Array(last - node + 1);
  for (let i = last; i > node; i--) {
    const el = t.els[i];
    if (el.name === 'p' && t.txt[i] >= PROSE) prose[i - node]++;
    prose[t.parent[i] - node] += prose[i - node];
    const l = t.gone[i] ? 0 : level(el);
    if (l >= 1 && l <= 6) {
      for (let k = l - 1; k < 6; k++) heads[k][i - node]++;
      if (RAIL.test(textOf(el))) found.push([i, l]);
    }
    const p = t.parent[i] - node;
    for (let k = 0; k < 6; k++) heads[k][p] += heads[k][i - node];
  }
  const out: number[] = [];
  const whole = weight(t, node);
  for (const [h, l] of found) {
    // The largest block around the heading holding no other heading of its rank, no paragraph of
    // prose and at most RAIL_SHARE of the content.
    let a = h;
    for (let p = t.parent[a]; p !== node && p !== -1 && heads[l - 1][p - node] === 1 && !prose[p - node] && weight(t, p) <= RAIL_SHARE * whole; p = t.parent[p])
      a = p;
    if (a !== h) out.push(a);
  }
  return out;
}

/** A block repeating this many characters (or more) of text already seen is a copy. */
const MIN_COPY = 30;
/** Blocks longer than this are not compared (a bound on the work). */
const MAX_COPY = 20000;
/** A block this long is a copy however often it repeats; a shorter one only when it occurs twice. */
const LONG_COPY = 100;
/** Class words of a part shown on some screens only (responsive copies, hidden variants). */
const SCREEN =
  /^(?!is-|has-)(?:[\w-]*[-_])?(?:mobile|desktop|tablet)(?:[-_][\w-]*)?$|^(?:hidden|visible|hide|show)(?:-[\w-]+)?$|^(?:hidden|visible|hide|show)-for-|^d-(?:sm-|md-|lg-|xl-)?none$|^(?:sm|md|lg|xl):hidden$/;
const ROW = new Set(['tr', 'td', 'th', 'tbody', 'thead']);
const onSomeScreens = (cls: string) => cls.split(/\s+/).some((w) => SCREEN.test(w.toLowerCase()));

/**
 * Blocks inside the content whose text repeats an earlier block's: responsive pages render the same
 * part twice (a desktop and a mobile buy box, a carousel's cloned slides, a sticky copy of the title).
 * Texts are compared without whitespace, case folded; a block is compared with what came before it,
 * never with its own ancestors.
 */
function duplicates(t: Tree, node: number, type: PageType): number[] {
  const out: number[] = [];
  // Each element's text, bottom-up (elements are in pre-order: children come after their parent).
  const end = t.els[node].endIndex ?? Infinity;
  let last = node;
  while (last + 1 < t.els.length && (t.els[last + 1].startIndex ?? 0) < end) last++;
  const text: (string | null)[] = new Array(last - node + 1).fill(null);
  for (let i = last; i >= node; i--) {
    if (t.gone[i]) {
      text[i - node] = '';
      continue;
    }
    let s = '';
    for (const c of t.els[i].children) {
      if (c.type === 'text') s += c.data.replace(/\s+/g, '').toLowerCase();
      else if (c.type === 'tag') {
        const k = t.index.get(c as Element);
        if (k === undefined) continue;
        const ks = text[k - node];
        if (ks === null) {
          s = '';
          break;
        }
        s += ks;
      }
      if (s.length > MAX_COPY) break;
    }
    text[i - node] = s.length > MAX_COPY || (s === '' && t.txt[i] + t.lnk[i] > 0) ? null : s;
  }
  // How often each text occurs (once per element whose parent's text differs): a short line repeated
  // in every card of a grid is the cards' content, a short block seen exactly twice is a copy.
  const count = new Map<string, number>();
  for (let i = node + 1; i <= last; i++) {
    const s = text[i - node];
    if (s && s.length >= MIN_COPY && text[t.parent[i] - node] !== s) count.set(s, (count.get(s) ?? 0) + 1);
  }
  // Blocks inside a part shown on some screens only (a mobile copy, a hidden variant).
  const screen = new Uint8Array(last - node + 1);
  for (let i = node + 1; i <= last; i++) {
    const c = t.els[i].attribs.class;
    screen[i - node] = screen[t.parent[i] - node] || (c !== undefined && onSomeScreens(c) ? 1 : 0);
  }
  const seen = new Set<string>();
  // Pre-order with exit markers (-1 - i): a block's text joins `seen` when its subtree is done.
  const stack = [node];
  while (stack.length) {
    const i = stack.pop()!;
    if (i < 0) {
      const s = text[-1 - i - node];
      if (s && s.length >= MIN_COPY) seen.add(s);
      continue;
    }
    const s = text[i - node];
    if (
      s &&
      s.length >= MIN_COPY &&
      seen.has(s) &&
      (screen[i - node] ||
        type === 'forum' ||
        t.els[i].name === 'blockquote' ||
        (type !== 'documentation' && s.length >= LONG_COPY && count.get(s) === 2 && !ROW.has(t.els[i].name)))
    ) {
      out.push(i);
      continue;
    }
    stack.push(-1 - i);
    const kids = elementChildren(t, i);
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return out;
}

const BLOCK_TAGS = new Set(['div', 'ul', 'ol', 'section', 'aside', 'nav', 'table', 'dl', 'header', 'footer', 'form', 'span', 'details']);

/**
 * Blocks inside the content that are mostly links (a table of contents, tag lists, recent-post and
 * archive widgets, "read next" lists): dropped, unless they make up much of the content together with
 * the link blocks beside them (the rows of a product grid, the sections of a listing), kept whole.
 */
function linkBlocks(t: Tree, node: number, runShare: number): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  if (t.lnk[node] > LINKY * (t.txt[node] + t.lnk[node])) return out; // a listing: its links are the content
  const stack = [node];
  while (stack.length) {
    const at = stack.pop()!;
    const kids = elementChildren(t, at);
    const linky = (k: number) => t.lnk[k] > LINKY * (t.txt[k] + t.lnk[k]);
    for (const k of kids) {
      if (t.txt[k] + t.lnk[k] === 0) continue;
      if (!BLOCK_TAGS.has(t.els[k].name) || !linky(k)) {
        stack.push(k);
        continue;
      }
      let run = 0;
      for (const o of kids) if (BLOCK_TAGS.has(t.els[o].name) && linky(o)) run += weight(t, o);
      if (run < runShare * whole) out.push(k);
    }
  }
  return out;
}

/** A product's customer reviews and questions: the shop's content is the description and specifications. */
const REVIEWS = /review|rating|okendo|yotpo|bazaarvoice|stamped|jdgm|judgeme|trustpilot|questions|recently-viewed|recommend|upsell|cross-sell/;

/** An article's comments, by class or id. */
const COMMENTS = /(?:^|[-_\s])(?:comments?|comment-?list(?:ing)?|commentlist|comments-area|disqus_thread|replies)(?:$|[-_\s])/;
/** A block named like comments that holds more than this share of the content is the content's wrapper. */
const COMMENT_SHARE = 0.8;

/** Topmost elements under `node` whose class or id matches. */
function named(t: Tree, node: number, re: RegExp): number[] {
  const out: number[] = [];
  const stack = elementChildren(t, node);
  while (stack.length) {
    const k = stack.pop()!;
    const el = t.els[k];
    if ((el.attribs.class !== undefined || el.attribs.id !== undefined) && re.test(classId(el))) out.push(k);
    else stack.push(...elementChildren(t, k));
  }
  return out;
}

const ITEM_TAGS = new Set(['div', 'li', 'article', 'section', 'tr', 'a', 'dl', 'figure']);

/** The run of like items (same tag and classes) holding most of the content at `node` or a few levels down. */
function repeatedRun(t: Tree, node: number): number[] | null {
  for (let depth = 0, at = node; depth < 4 && at !== -1; depth++) {
    const groups = new Map<string, number[]>();
    let heaviest = -1;
    for (const k of elementChildren(t, at)) {
      const el = t.els[k];
      if (heaviest === -1 || weight(t, k) > weight(t, heaviest)) heaviest = k;
      if (!ITEM_TAGS.has(el.name)) continue;
      const key = signature(el);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(k);
    }
    const w = weight(t, at);
    for (const g of groups.values()) if (g.length >= 3 && g.reduce((a, k) => a + weight(t, k), 0) >= 0.5 * w) return g;
    at = heaviest;
  }
  return null;
}

function detectType(html: string, t: Tree, node: number): PageType {
  const declared = declaredType(html);
  if (declared) return declared;
  const run = repeatedRun(t, node);
  const linky = run
    ? run.reduce((a, k) => a + t.lnk[k], 0) /
      Math.max(
        1,
        run.reduce((a, k) => a + t.txt[k] + t.lnk[k], 0),
      )
    : 0;
  if (run && linky < 0.3 && /post|comment|message|reply|answer|thread/.test(classId(t.els[run[0]]))) return 'forum';
  const main = t.els[node];
  if (/<pre[\s>]/i.test(html.slice(main.startIndex ?? 0, (main.endIndex ?? 0) + 1))) return 'documentation';
  if (run && linky >= 0.3) return 'listing';
  if (main.name === 'article' || t.els.some((el) => el.name === 'article')) return 'article';
  return 'service';
}
