// The light tree main-content detection works on (main-content.ts): one htmlparser2 pass with source
// offsets; boilerplate subtrees set aside by markup (tags, roles, class/id words, hidden state); every
// element carrying how much text it holds and how much of it is link text; and the queries on it
// the other parts share (an element's ancestors or descendants named by class or id).
import { DomHandler, type AnyNode, type Element, type ParentNode } from 'domhandler';
import { append, removeElement } from 'domutils';
import { isBoilerplate, isHidden, isOverlay, isSheet } from './boilerplate.ts';
import { asksQuestion, hiddenByClass, isPanel, keyedPanel, labelledPart, SCREEN_READER, SLIDE, visibleRepeat } from './hidden.ts';
import { holdsPricedGrid } from './prices.ts';
import { postHeader, postNumber } from './post-headers.ts';
import { linearParser } from './sax.ts';

export type Range = [number, number];
export { hiddenByClass, isPanel };

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
/** The notice a <noscript> shows instead of an app ("You need to enable JavaScript to run this app"). */
const SCRIPT_NOTICE = /\b(?:enable|turn on|activate)\b.{0,40}\bjavascript\b|\bjavascript\b.{0,40}\b(?:required|disabled|needed|turned off)\b/i;
const CONTENT = new Set(['article', 'main', 'section']);
/** Chrome and clutter named in class or id (in addition to boilerplate.ts's page chrome). */
const NEGATIVE =
  /(?:^|[-_\s])(?:related|share|sharing|sharebar|social|breadcrumbs?|newsletter|subscribe|subscription|sponsored|sponsor|promo|advert|ads|adslot|banner-ad|disqus|respond|comment-form|reply-form|recommended|recommendations|read-?next|more-stories|trending|popular-posts|outbrain|taboola|cookie|consent|skip-link|toolbar|widget-area|widgets|site-footer|site-header|footer|masthead|top-bar|utility-bar|author-box|author-bio|about-the-author|about-author|author-info|byline|entry-meta|post-meta|article-meta|post-navigation|nav-links|print|feedback|rating-form|signup|login|search-form|searchform|disclaimers?|navheader|navfooter|copy-legal|legal[-_]?(?:copy|notice|font-size)|small-legal|popover|returns|copyright|sitenotice|printfooter|catlinks|mw-jump-link|jump-to-nav)(?:$|[-_\s])/;
/** NEGATIVE's words (as chromeWord() gives them) naming legal fine print: disclaimers, a marketing page's footnotes, a copyright line. */
const FINE_PRINT = /^(?:disclaimers?|copylegal|legal(?:copy|notice|fontsize)|smalllegal|copyright)$/;
/** A component's own header or footer by BEM name (`card__footer`, `post__header`): its byline, date
 * or title, not the page's; the page's own (`site__footer`, `page__header`) stays chrome. */
const PART_EDGE = /(?:^|\s)(?!(?:site|page|layout|global|main|app)__)[a-z0-9-]+__(?:header|footer)(?=\s|$)/g;
/** A link's text counts this much of plain text when weighing where the content is. */
export const LINK_WEIGHT = 0.4;
/** A block whose text is more than this share link text is a link block. */
export const LINKY = 0.5;
export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** A class- or id-named block holding at least this share of the page's weight is a wrapper, not chrome. */
const KEEP = 0.4;
/** Like blocks named as chrome, this many or more, holding this share of the page together, are its items. */
const MIN_ITEMS = 4;
const ITEMS_KEEP = 0.3;
/** A block named as chrome holding a grid of priced cards and this share of the page's weight is its results. */
const RESULTS_KEEP = 0.3;

export type Tree = {
  els: Element[];
  parent: Int32Array;
  txt: Float64Array;
  lnk: Float64Array;
  /** Topmost dropped subtrees are marked; what lies inside them is not. */
  removed: Uint8Array;
  /** Dropped, or inside a dropped subtree. */
  gone: Uint8Array;
  /** The last element (in pre-order) inside each element's subtree. */
  last: Int32Array;
  /** Elements chrome or hidden by their markup that were kept as holding much of the page (wrappers). */
  wrappers: number[];
  index: Map<Element, number>;
  /** link-blocks.ts's pricedGrids() by the node it was computed from (cleared when a block is set aside). */
  grids: Map<number, Uint8Array>;
};

/** Consent banners, dropped whatever their size. */
const COOKIE = /cookie|consent|gdpr|ccpa|onetrust|cookiebot|didomi|cc-window|cc-banner|(?:^|\s)cky-/;
const isDialog = (a: Record<string, string>) => a['aria-modal'] === 'true' || a.role === 'dialog' || a.role === 'alertdialog';
export const classId = (el: Element) => `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`.toLowerCase();

const PLACEHOLDER = /\$?\{\{[^{}]*\}\}/g;

function countChars(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

/** A screen-reader text that stands in for something shown: a visible twin hidden from screen
 * readers beside it, or an icon in a table cell (a comparison's check marks, a tooltip's note). */
function standsIn(el: Element): boolean {
  if ((el.parent?.children ?? []).some((c) => c !== el && c.type === 'tag' && (c as Element).attribs['aria-hidden'] === 'true')) return true;
  for (let p = el.parent; p && p.type === 'tag'; p = p.parent) if ((p as Element).name === 'td' || (p as Element).name === 'th') return true;
  return false;
}

/** A short <noscript> asking for JavaScript (a page it holds for crawlers is content). */
function isScriptNotice(el: Element): boolean {
  const text = textOf(el); // stops after 200 characters: a notice is shorter
  return text.length < 200 && SCRIPT_NOTICE.test(text);
}

/** A button that is its heading's whole text: marked as a disclosure's, or with no text beside it in the heading. */
function isHeadingButton(el: Element): boolean {
  const heading = el.parent as Element | null;
  if (!heading || !HEADINGS.has(heading.name)) return false;
  if (el.attribs['aria-expanded'] !== undefined || el.attribs['aria-controls'] !== undefined) return true;
  return heading.children.every((c) => c === el || (c.type === 'text' ? !c.data.trim() : c.type !== 'tag' || !textOf(c as Element)));
}

/**
 * An accordion's header written as a button whose whole text is one question, right before the
 * panel it opens, a block of text that is not a control: an FAQ without a
 * heading around its questions (`<button><h5>How much does it cost?</h5></button>`, `<button
 * @click="toggle(0)"><span>How long do shoes last?</span></button><div x-show="open[0]">…`).
 */
function isHeaderButton(el: Element): boolean {
  const text = textOf(el, 201);
  if (text.length > 200 || !QUESTION.test(text)) return false;
  let next = el.nextSibling;
  while (next && next.type !== 'tag') next = next.nextSibling;
  return next !== null && !CONTROL.has((next as Element).name) && textOf(next as Element, 80).length >= 40;
}
/** Controls, not an answer: a row of suggested questions' chips for a chat assistant. */
const CONTROL = new Set(['button', 'a', 'input', 'select', 'label']);
/** One question: a sentence ending in its only question mark. */
const QUESTION = /^[^?.!]{3,}\?$/;

/** 2: dropped with what it holds; 1: dropped unless it holds much of the page (a class word can be a wrapper's), 3 when
 * for its name (class, id or role) alone; 0: kept. */
function removal(el: Element, inContent: boolean): 0 | 1 | 2 | 3 {
  const tag = el.name;
  const a = el.attribs;
  // An accordion's header: the button inside a heading that opens its panel (`<h3><button
  // aria-expanded="false" aria-controls="faq-1">How to choose</button></h3>`) holds the heading's text
  // (not a control beside the heading's own text: `<h1>Crate tokio <button>Copy item path</button></h1>`).
  if (tag === 'button' && (isHeadingButton(el) || isHeaderButton(el))) return 0;
  if (SKIP.has(tag)) return 2;
  if (tag === 'html' || tag === 'body') return 0;
  if (tag === 'noscript' && isScriptNotice(el)) return 2;
  // Streamed server rendering parks content in <div hidden id="S:n"> until a script moves it in (n in
  // hexadecimal: `S:2e`).
  if (a.hidden !== undefined && a.id !== undefined && STREAMED_PART.test(a.id)) return 0;
  // A collapsed section's body right after the heading, `<summary>` or control that opens it is read.
  if (collapsedBody(el)) return 0;
  // aria-hidden on a large part is a snapshot taken with a dialog open: dropped only if small.
  // A link hidden from screen readers and skipped by the keyboard is shown: a redundant link beside
  // another to the same place (a card's teaser), its text visible. (Not an image link, whose picture
  // the other link shows, nor a link stretched over a heading that repeats the heading's words.)
  // So is a link's part hidden from screen readers because the link's label says it (hidden.ts `labelledPart`).
  const shownLink =
    labelledPart(el) ||
    (visibleRepeat(tag, a) && !a.style && !(el.parent?.children ?? []).some((c) => c.type === 'text' && c.data.trim() !== '') && textOf(el) !== '');
  // A collapsed accordion's body hidden from screen readers until opened is read, as below.
  if (a['aria-hidden'] === 'true' && (isPanel(tag, a) || SLIDE.test(a.class ?? '')) && !isOverlay(tag, a)) return 0;
  if (a['aria-hidden'] === 'true' && a.hidden === undefined && !a.style && !shownLink) return isOverlay(tag, a) ? 2 : 1;
  // A dialog by markup is dropped; one named so by class words (newsletter-post, popup-gallery) only
  // when small. An inline-hidden wrapper holding most of the page hides it until scripts have run.
  if (isSheet(el.name, el.attribs)) return 0;
  if (isDialog(a)) return 2;
  if (isOverlay(tag, a)) return COOKIE.test(classId(el)) ? 2 : 1;
  // A collapsed accordion or an inactive tab hides part of the content until clicked: it is read.
  if ((a.hidden !== undefined || a.style !== undefined) && isPanel(tag, a)) return 0;
  if (a.style !== undefined && isHidden(tag, a)) return keyedPanel(el) ? 0 : 1;
  if (isHidden(tag, a) && !shownLink) return 2;
  // Text for screen readers only, kept off the screen by a utility class ("Opens in a new window",
  // "Sale price", a visually hidden copy of the menu); unless it stands in for something shown
  // (`<s aria-hidden="true">$30</s><span class="sr-only">Was $30</span>`).
  if (a.class !== undefined && a.class.split(/\s+/).some((w) => SCREEN_READER.test(w)) && !standsIn(el)) return 1;
  if (tag === 'nav' || ((tag === 'header' || tag === 'footer' || tag === 'aside') && !inContent)) return 2;
  if (isBoilerplate(tag, a, inContent)) return 3;
  if (a.itemprop === 'position' && postNumber(el)) return 2;
  if (tag === 'main' || tag === 'article') return 0;
  if (a.class === undefined && a.id === undefined) return 0;
  const word = chromeWord(el);
  return word !== null && !((word === 'postmeta' || word === 'entrymeta') && postHeader(el)) ? 3 : 0;
}

/** The chrome word naming an element in its class or id (`promo` in `cmp-promo__title`), or null. */
function chromeWord(el: Element): string | null {
  const names = classId(el);
  const m = NEGATIVE.exec(names.includes('__') ? names.replace(PART_EDGE, ' ') : names);
  return m === null ? null : m[0].replace(/[-_\s]/g, '');
}

/** What opens a collapsed section from just before it: a heading or a `<details>`' summary. */
const OPENERS = new Set(['h2', 'h3', 'h4', 'h5', 'h6', 'summary']);
/** Names of what a click opens that is not the page's text (a menu, a tooltip, a popup). */
const NOT_BODY = /nav|menu|modal|popup|drawer|dropdown|tooltip|search|sign-?in|login/;

/**
 * A collapsed section's body (an FAQ's answer, an accordion's panel under its heading): a block
 * hidden by its markup (`hidden`, `aria-hidden`, inline `display:none`) right after the heading or
 * `<summary>` that opens it (`<h3>Question</h3><div style="display:none">Answer</div>`), or after
 * the control naming it (`<button aria-controls="a1">`); shown on a click, it is the page's text.
 * Not a dialog, a menu or a tooltip, nor a block hidden for good (`display:none !important`).
 */
function collapsedBody(el: Element): boolean {
  const a = el.attribs;
  // (`display:none !important` is not a script's toggle: a script showing it could not override it)
  if (a.style !== undefined && a.style.includes('!important')) return false;
  if (a.hidden === undefined && a['aria-hidden'] !== 'true' && !(a.style !== undefined && isHidden(el.name, { style: a.style }))) return false;
  if (isOverlay(el.name, a) || (a.role !== undefined && a.role !== 'region' && a.role !== 'tabpanel')) return false;
  if (NOT_BODY.test(classId(el))) return false;
  let prev = el.prev;
  while (prev && prev.type !== 'tag') prev = prev.prev;
  if (!prev) return false;
  const p = prev as Element;
  if (OPENERS.has(p.name) || asksQuestion(p)) return !isHidden(p.name, p.attribs);
  return a.id !== undefined && (p.attribs['aria-controls'] ?? '').split(/\s+/).includes(a.id);
}

/** The tree in pre-order with text weights summed bottom-up; removed subtrees weigh nothing. */
export function measure(html: string, opts: { results?: boolean } = {}): Tree {
  const handler = new DomHandler(undefined, { withStartIndices: true, withEndIndices: true });
  const parser = linearParser(handler);
  parser.end(html);
  placeStreamed(handler.root);
  const els: Element[] = [];
  const parents: number[] = [];
  const removedList: number[] = [];
  /** Soft removals for a name alone, by index. */
  const byName = new Set<number>();
  const txtList: number[] = [];
  const lnkList: number[] = [];
  // Iterative pre-order walk: [node, parent index, in content, in link].
  const stack: [AnyNode, number, boolean, boolean][] = [];
  for (let i = handler.root.children.length - 1; i >= 0; i--) stack.push([handler.root.children[i], -1, false, false]);
  while (stack.length) {
    const [node, p, inContent, inLink] = stack.pop()!;
    if (node.type === 'text') {
      if (p === -1) continue;
      // A client-side template's placeholders ({{ price }}, ${{amount}}) are not text yet.
      const n = countChars(node.data.includes('{{') ? node.data.replace(PLACEHOLDER, '') : node.data);
      if (inLink) lnkList[p] += n;
      else txtList[p] += n;
      continue;
    }
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
    const el = node as Element;
    const idx = els.length;
    let how = removal(el, inContent);
    if (how === 3) {
      byName.add(idx);
      how = 1;
    }
    els.push(el);
    parents.push(p);
    removedList.push(how);
    txtList.push(0);
    lnkList.push(0);
    if (how === 2) continue; // what it holds does not count
    const c = inContent || CONTENT.has(el.name);
    // A date in a link (a post's permalink on its date) is the post's text, not a way elsewhere.
    const l = (inLink || el.name === 'a') && el.name !== 'time';
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
  // Like blocks named as chrome, four or more in one run (children or grandchildren of one element),
  // that together hold much of the page are its items (every card of a grid named "promo"), not chrome.
  const groups = new Map<string, { n: number; w: number }>();
  const runKeys = (i: number) => {
    const sig = signature(els[i]);
    const p = parent[i];
    return p < 0 ? [] : [`${sig}|${p}`, `${sig}|${parent[p]}|2`];
  };
  for (const i of byName) {
    for (const key of runKeys(i)) {
      const g = groups.get(key) ?? { n: 0, w: 0 };
      g.n++;
      g.w += txt[i] + LINK_WEIGHT * lnk[i];
      groups.set(key, g);
    }
  }
  // ... unless inside a block named as chrome too (the slides of a promotion bar). Inside wrappers
  // alone (blocks so named holding much of the page, kept below), items each holding a heading are
  // cards ("promo" cards under their titles in a "promo-container"), slides of text are not.
  const wrapper = (i: number) => txt[i] + LINK_WEIGHT * lnk[i] >= KEEP * total;
  const namedAbove = new Uint8Array(n);
  const chromeAbove = new Uint8Array(n);
  for (let i = 1; i < n; i++) {
    const p = parent[i];
    if (p < 0) continue;
    namedAbove[i] = namedAbove[p] || (byName.has(p) ? 1 : 0);
    chromeAbove[i] = chromeAbove[p] || (byName.has(p) && !wrapper(p) ? 1 : 0);
  }
  const headed = new Uint8Array(n);
  for (let i = n - 1; i > 0; i--) if (parent[i] >= 0 && (headed[i] || HEADINGS.has(els[i].name))) headed[parent[i]] = 1;
  const items = (i: number) =>
    byName.has(i) &&
    (!namedAbove[i] || (!chromeAbove[i] && headed[i] === 1)) &&
    runKeys(i).some((key) => {
      const g = groups.get(key)!;
      return g.n >= MIN_ITEMS && g.w >= ITEMS_KEEP * total;
    });
  // Legal fine print (`copy-legal`, `disclaimers`) holding much of a page whose other text is short is
  // still fine print when the page has an <h1> and the block holds no heading (so not the title: a
  // legal notice page's `legal-notice` block holding its <h1> is its text).
  const h1 = els.some((el) => el.name === 'h1');
  const finePrint = (i: number) => h1 && !headed[i] && FINE_PRINT.test(chromeWord(els[i]) ?? '');
  const gone = new Uint8Array(n);
  const wrappers: number[] = [];
  // An item's parts named by the same word (`promo__title` inside a card named `promo`) are its own.
  const itemWord: (string | null)[] = new Array(n).fill(null);
  for (let i = 0; i < n; i++) {
    const p = parent[i];
    if (p >= 0 && gone[p]) {
      gone[i] = 1;
      removed[i] = 0;
      continue;
    }
    if (p >= 0) itemWord[i] = itemWord[p];
    if (removed[i] === 1 && wrapper(i) && !finePrint(i)) {
      removed[i] = 0;
      wrappers.push(i);
    } else if (removed[i] === 1 && items(i)) {
      removed[i] = 0;
      itemWord[i] = chromeWord(els[i]);
    } else if (removed[i] === 1 && byName.has(i) && itemWord[i] !== null && chromeWord(els[i]) === itemWord[i]) removed[i] = 0;
    // A shop theme's name for the grid of a category page (`related-products` around the results):
    // a block named as chrome that holds a grid of priced cards and much of the page (not on a product
    // page, `opts.results` false, where such a grid is other products).
    else if (removed[i] === 1 && opts.results && byName.has(i) && txt[i] + LINK_WEIGHT * lnk[i] >= RESULTS_KEEP * total && holdsPricedGrid(els[i], signature))
      removed[i] = 0;
    if (removed[i]) gone[i] = 1;
  }
  sum(1);
  const index = new Map<Element, number>();
  for (let i = 0; i < n; i++) index.set(els[i], i);
  const last = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) if (parent[i] >= 0 && last[i] > last[parent[i]]) last[parent[i]] = last[i];
  return { els, parent, txt, lnk, removed, gone, last, wrappers, index, grids: new Map() };
}

export const weight = (t: Tree, i: number) => t.txt[i] + LINK_WEIGHT * t.lnk[i];

export function elementChildren(t: Tree, i: number): number[] {
  const out: number[] = [];
  for (const c of t.els[i].children) {
    if (c.type !== 'tag') continue;
    const k = t.index.get(c as Element);
    if (k !== undefined && !t.removed[k]) out.push(k);
  }
  return out;
}

export function isAncestor(t: Tree, a: number, i: number): boolean {
  for (let k = i; k !== -1; k = t.parent[k]) if (k === a) return true;
  return false;
}

/** Tag and classes without digits: the posts of a thread share one (post_1, post_2). */
/** An element's kind: its tag and classes, digits aside (`cls`: the classes to use instead of its own). */
export const signature = (el: Element, cls = el.attribs.class ?? '') => `${el.name}.${cls.replace(/\d+/g, '')}`;

export function rangeOf(el: Element, html: string): Range {
  const s = el.startIndex ?? 0;
  const e = el.endIndex == null ? html.length : el.endIndex + 1;
  return [s, Math.max(s, e)];
}

/** The last element (in pre-order) inside `node`'s subtree. */
export const subtreeEnd = (t: Tree, node: number): number => t.last[node];

/**
 * Visits the elements inside `node` in pre-order, skipping those set aside with what they hold; when
 * `visit` returns true, the element's subtree is skipped too (it was taken whole).
 */
export function eachLive(t: Tree, node: number, visit: (i: number) => boolean): void {
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) if (t.gone[i] || visit(i)) i = subtreeEnd(t, i);
}

/** The outermost of `nodes` (sorted): each one not inside another of them. */
export function outermost(t: Tree, nodes: Iterable<number>): number[] {
  const out: number[] = [];
  for (const a of [...nodes].sort((x, y) => x - y)) if (!out.length || a > subtreeEnd(t, out[out.length - 1])) out.push(a);
  return out;
}

/** A streamed part's id (`S:2e`, hexadecimal) and its placeholder's (`B:2e` for a boundary, `P:2e` for a segment). */
const STREAMED_PART = /^S:[\da-f]+$/i;
const PLACEHOLDER_ID = /^[BP]:[\da-f]+$/i;

/**
 * React's streamed server rendering sends a part finished late as `<div hidden id="S:n">` at the end
 * of the body, for a script to move into its placeholder (`<template id="B:n">` or `"P:n"`): the part
 * is moved there in the tree, so that it weighs where the page shows it (its source offsets kept).
 */
function placeStreamed(root: ParentNode): void {
  const parts = new Map<string, Element>();
  const holders: Element[] = [];
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type !== 'tag') continue;
    const el = node as Element;
    const id = el.attribs.id;
    if (id !== undefined && el.name === 'template' && PLACEHOLDER_ID.test(id)) holders.push(el);
    else if (id !== undefined && el.attribs.hidden !== undefined && STREAMED_PART.test(id)) parts.set(id.slice(2).toLowerCase(), el);
    stack.push(...el.children);
  }
  for (const holder of holders) {
    const part = parts.get(holder.attribs.id.slice(2).toLowerCase());
    if (part === undefined || !holder.parent) continue;
    // (never into itself: a placeholder inside its own part)
    let inside = false;
    for (let p: ParentNode | null = holder.parent; p && !inside; p = p.parent) inside = p === part;
    if (inside) continue;
    parts.delete(holder.attribs.id.slice(2).toLowerCase());
    removeElement(part);
    append(holder, part);
  }
}

/**
 * Sets a subtree aside after measuring (a product page's customer reviews, set aside before the
 * descent): it weighs nothing in its ancestors and counts as dropped, as chrome found by markup does.
 */
export function setAside(t: Tree, i: number): void {
  if (t.gone[i]) return;
  t.grids.clear();
  for (let a = t.parent[i]; a !== -1; a = t.parent[a]) {
    t.txt[a] -= t.txt[i];
    t.lnk[a] -= t.lnk[i];
  }
  const last = subtreeEnd(t, i);
  for (let k = i; k <= last; k++) {
    t.gone[k] = 1;
    t.removed[k] = 0;
  }
  t.removed[i] = 1;
}

/** Up to `max` characters of an element's text, whitespace collapsed, lower-cased; without what the tag `skip` holds (`svg`: an icon's title), nor, given the tree `live`, its elements set aside. */
export function textOf(el: Element, max = 200, skip?: string, live?: Tree): string {
  let s = '';
  const stack: AnyNode[] = [el];
  while (stack.length && s.length < max) {
    const n = stack.pop()!;
    if (n.type === 'text') s += n.data;
    else if ('children' in n && n.type === 'tag' && n.name !== skip && !(live && live.gone[live.index.get(n) ?? -1]))
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Whether `node` or one of its ancestors below `top` is named so (class or id). */
export function within(t: Tree, node: number, top: number, re: RegExp): boolean {
  for (let a = node; a !== -1 && a !== top; a = t.parent[a]) {
    const el = t.els[a];
    if ((el.attribs.class !== undefined || el.attribs.id !== undefined) && re.test(classId(el))) return true;
  }
  return false;
}

/** Topmost elements under `node` whose class or id matches. */
export function named(t: Tree, node: number, re: RegExp): number[] {
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
