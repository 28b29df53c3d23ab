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
//
// The parts: content-tree.ts (the measured tree, chrome set aside by markup), page-type.ts (the page
// type), link-blocks.ts (link blocks inside the content), left-out.ts (reviews, facets and the
// other parts left out inside it), thread-parts.ts (a thread's and an article's comments and the
// posts' extras), rails.ts (related-content rails named by their heading), references.ts (reference lists),
// copies.ts (repeated blocks), cards.ts (the cards of a shop's grid), placeholders.ts (a template's
// lorem ipsum); here the descent to the content element.
import type { Element, Text } from 'domhandler';
import {
  classId,
  elementChildren,
  hiddenByClass,
  isAncestor,
  isPanel,
  LINK_WEIGHT,
  measure,
  named,
  rangeOf,
  setAside,
  signature,
  subtreeEnd,
  weight,
  within,
  type Range,
  type Tree,
} from './content-tree.ts';
import { duplicates } from './copies.ts';
import { CUSTOMER_REVIEWS, leftOut, shopParts } from './left-out.ts';
import { GRID, HOLDS_GRID, linkBlocks, pricedGrids } from './link-blocks.ts';
import { declaredType, detectType, namedProductTitle, productList, type PageType } from './page-type.ts';
import { otherProducts, rails } from './rails.ts';
import { references } from './references.ts';
import { policies, protectionPlans, sellingPoints } from './policies.ts';
import { loyaltyNotes } from './loyalty.ts';
import { bylines } from './bylines.ts';
import { featuredAbove } from './featured.ts';
import { skipTarget } from './skip-target.ts';
import { HIDDEN_CLASS, SHOWN_CLASS } from './hidden.ts';

export type { Range } from './content-tree.ts';
export type { PageType } from './page-type.ts';
export type MainContent = {
  /** The detected page type ('empty' for a page with no main content, such as an app shell). */
  type: PageType;
  /** The main content: sorted, disjoint ranges of the HTML (start inclusive, end exclusive). */
  ranges: Range[];
  /** Boilerplate inside those ranges to leave out (sorted, disjoint). */
  drop: Range[];
  /**
   * A shop's buy box, delivery, payment-plan and seller boxes, and links styled as buttons, inside
   * the ranges (sorted, disjoint): not the content to read, but where a product's facts and a page's
   * next steps are (price, availability, seller, "Get started"), so only the markdown leaves them out.
   * An article's byline and dateline (bylines.ts) too: its metadata, which a caller may ask for.
   */
  shop: Range[];
  /**
   * Start offsets of elements that look like chrome or are hidden by their markup (a `#Header` or
   * an inline `display:none` around the page, revealed by a script) but hold much of the page and
   * its title: a wrapper, whose text is read.
   */
  wrappers: number[];
};

/** The main content is the deepest element holding at least this share of the page's weight. */
const SHARE = 0.6;
/** Below this much text weight, the page has no main content (an app shell, a bare redirect). */
const MIN_WEIGHT = 20;
/** Like siblings weighing this much of the heaviest one make the content their parent. */
const LIKE = 0.1;
/** The content grows up to the title's common ancestor when that adds at most this factor of weight. */
const TITLE_SPAN = 1.5;
/** Link blocks (with their like siblings) holding this share of the content are content. */
const RUN_SHARE = 0.3;
/** The main landmark is the content's root when it holds at least this share of what the descent found. */
const LANDMARK_SHARE = 0.3;
/**
 * The descent stops above its heaviest child when the other children hold this much prose (text
 * outside links) for its weight: an intro above a table, a grid or a list is the content's too.
 */
const PROSE = 0.3;

/** A block hidden by a utility class off a product page is set aside up to this weight. */
const SHORT_HIDDEN = 200;

/** Finds the page's main content and its type. */
export function findMainContent(html: string): MainContent {
  const declared = declaredType(html);
  // (a category page marking up every card as a schema.org product is a category all the same: its
  // grid is its results, not other products, and its buying guide beside the grid is its text)
  const listed = declared === 'product' && productList(html);
  const listing = declared !== 'product' || listed;
  const t = measure(html, { results: listing });
  const n = t.els.length;
  let body = t.els.findIndex((el) => el.name === 'body');
  if (body === -1) body = 0;
  if (n === 0 || weight(t, body) < MIN_WEIGHT) return { type: 'empty', ranges: [], drop: [], shop: [], wrappers: [] };
  // The page's title heading: its first h1 still counted; on a page with no `<h1>`, its first
  // element marked as a level-one heading (`<div role="heading" aria-level="1">`), still counted.
  let title = -1;
  for (let i = 0; i < n && title === -1; i++) if (t.els[i].name === 'h1' && !t.gone[i]) title = i;
  if (title === -1 && !t.els.some((el) => el.name === 'h1')) for (let i = 0; i < n && title === -1; i++) if (ariaTitle(t.els[i]) && !t.gone[i]) title = i;
  const holdsTitle = (i: number) => title !== -1 && isAncestor(t, i, title);
  const productPage = declared === 'product' || (declared === null && namedProductTitle(t));
  // On a product page, blocks hidden by a utility class (`hide`, `d-none`) and not holding the title
  // are not shown: the shop's data for its scripts (custom fields, every variant's image URL). On
  // other pages only the short ones holding text of their own (a card's "3 colors", a post's raw
  // timestamp, a table's rows beyond the first few): a long hidden block there is mostly text a
  // script shows (a tab's data, a mobile layout's copy, a methodology behind a toggle), a run of
  // link-only ones (colour swatches beyond the first few) is the options a "+12" shows, and one right
  // after a button is the answer that button opens.
  for (const i of hiddenByClassAll(t, body))
    if (!holdsTitle(i) && (productPage || overlay(t, i) || (t.txt[i] > 0 && weight(t, i) <= SHORT_HIDDEN && !afterToggle(t.els[i])))) setAside(t, i);
  let node = descend(t, body, !productPage);
  // The page's one main landmark (`<main>`, `role=main`), when the descent stopped above it: the
  // chrome around it (menus, a mobile drawer, a footer of links) outweighed it, so the content is
  // looked for inside the landmark the page itself names.
  const ownMain = mainLandmark(t, body);
  let landmark = ownMain;
  if (landmark === -1) landmark = skipTarget(t, body);
  if (
    landmark !== -1 &&
    landmark !== node &&
    isAncestor(t, node, landmark) &&
    (title === -1 || holdsTitle(landmark)) &&
    weight(t, landmark) >= LANDMARK_SHARE * weight(t, node)
  )
    node = descend(t, landmark, !productPage);
  // A sidebar kept as a wrapper for holding much of the page (a shop's category tree beside a few
  // category tiles), found as the content while the page's heading lies outside it: set aside, and
  // the descent made again.
  const side = sidebarHolding(t, html, node);
  if (side !== -1) {
    setAside(t, side);
    node = descend(t, body, !productPage);
  }
  // A product page's customer reviews can outweigh its description and specifications (a hundred
  // reviews under a short feature list): when the content found is the reviews, they are set aside
  // and the descent made again (else they would be dropped as reviews, leaving the title alone). So
  // is a marketplace's list of its buyers' feedback on the seller, found as the content or holding
  // most of it (the seller's card around it).
  if (productPage && (within(t, node, body, BUYER_WORDS) || mostly(t, node, named(t, node, SELLER_FEEDBACK)))) {
    for (const i of named(t, body, BUYER_WORDS)) if (!holdsTitle(i)) setAside(t, i);
    node = descend(t, body, false);
  }
  // The page's footer kept as a wrapper for holding most of its text, with the content found inside
  // it, on a page without a title: an app shell whose content a script loads, its footer all it sends
  // (no main content).
  if ((title === -1 || t.txt[title] + t.lnk[title] === 0) && shellFooter(t, node)) return { type: 'empty', ranges: [], drop: [], shop: [], wrappers: [] };
  // (the category text after the page's `</main>`, outside the grid's wrappers: a range of its own)
  let after = -1;
  if (listing) {
    const grown = withCategoryText(t, body, node);
    if (grown === node) after = categoryTextAfter(t, body, node);
    node = grown;
  }
  const total = weight(t, body);
  // The title, when it sits outside the content element: the content starts at the title (a
  // product's name and price above its description) when their common ancestor adds little else;
  // otherwise the heading alone comes first (a hero above the body).
  const ranges: Range[] = [];
  if (title !== -1 && !isAncestor(t, node, title)) {
    let lca = t.parent[title];
    while (lca !== -1 && !isAncestor(t, lca, node)) lca = t.parent[lca];
    if (lca !== -1 && lca !== body && weight(t, lca) <= TITLE_SPAN * weight(t, node)) node = lca;
    else if (t.els[title].startIndex! < t.els[node].startIndex!) ranges.push(titleWithLead(t, html, title, node));
  }
  // (the page's main landmark holding featured stories above the feed found: a range of its own, featured.ts)
  if (featuredAbove(t, ownMain, node) && !ranges.some(([, e]) => e > t.els[ownMain].startIndex!)) ranges.push(rangeOf(t.els[ownMain], html));
  ranges.push(rangeOf(t.els[node], html));
  if (after !== -1 && !isAncestor(t, node, after)) ranges.push(rangeOf(t.els[after], html));
  streamed(t, html, ranges);
  const drop: Range[] = [];
  for (let i = 0; i < n; i++) {
    if (!t.removed[i] || (t.parent[i] >= 0 && t.gone[t.parent[i]])) continue;
    const r = rangeOf(t.els[i], html);
    if (ranges.some(([s, e]) => r[0] >= s && r[1] <= e)) drop.push(r);
  }
  const type = detectType(html, t, node, declared);
  // (an article's byline, left out of the markdown only below, is no link block for linking its author's name)
  const byline = type === 'article' ? bylines(t, node) : [];
  if (type !== 'listing')
    for (const i of linkBlocks(t, node, RUN_SHARE, type, title, declared !== null))
      if (!byline.some((b) => isAncestor(t, b, i))) drop.push(rangeOf(t.els[i], html));
  for (const i of leftOut(t, node, type, holdsTitle)) drop.push(rangeOf(t.els[i], html));
  for (const i of duplicates(t, node, type)) drop.push(rangeOf(t.els[i], html));
  for (const i of rails(t, node, type)) drop.push(rangeOf(t.els[i], html));
  // (a book's page keeps its author's bio: its product's description)
  if (type !== 'documentation') for (const i of references(t, node, type)) drop.push(rangeOf(t.els[i], html));
  if (type === 'product' && !listed) for (const i of otherProducts(t, node, title)) drop.push(rangeOf(t.els[i], html));
  // (a part streamed into a block left out goes with it; not for its placeholder alone, a template, left out as such)
  streamed(t, html, drop, true);
  const shop = [
    ...shopParts(t, node, total),
    ...byline,
    ...(type === 'product'
      ? [...policies(t, node, holdsTitle), ...sellingPoints(t, node, holdsTitle), ...protectionPlans(t, node, holdsTitle), ...loyaltyNotes(t, node, holdsTitle)]
      : []),
  ]
    .map((i) => rangeOf(t.els[i], html))
    .sort((a, b) => a[0] - b[0])
    .filter((r, k, all) => k === 0 || r[0] >= all[k - 1][1]);
  // A wrapper that holds the page's title is the page's (a sidebar holding most of a short page is not).
  const wrappers = t.wrappers.filter(holdsTitle).map((i) => t.els[i].startIndex ?? 0);
  return { type, ranges, drop, shop, wrappers };
}

/**
 * Customers' words on a product page: their reviews, and a marketplace's buyer feedback on the
 * seller (`feedback-list`, `feedback-detail`, `seller-feedback`; not a feedback form or button).
 */
const SELLER_FEEDBACK = /(?:^|[-_\s])(?:feedback-(?:list|detail|cards?|entries|comments?)|seller-feedback)(?:$|[-_\s])/;
const BUYER_WORDS = new RegExp(`${CUSTOMER_REVIEWS.source}|${SELLER_FEEDBACK.source}`);

/** An element marked as a level-one heading by ARIA (`<div role="heading" aria-level="1">`). */
function ariaTitle(el: Element): boolean {
  return el.attribs.role === 'heading' && el.attribs['aria-level']?.trim() === '1';
}

/** Whether the blocks `parts` hold more than half of `node`'s weight. */
function mostly(t: Tree, node: number, parts: number[]): boolean {
  let w = 0;
  for (const i of parts) w += weight(t, i);
  return w > 0.5 * weight(t, node);
}

/** A sidebar's class or id word (`sidebar`, `left-sidebar`, `widget-area`). */
const SIDEBAR = /(?:^|\s)(?![\w-]*(?:has|with|no|not)[-_]side-?bar)(?:[\w-]*[-_])?(?:sidebar|side-bar|widget-area)(?=[\s_-]|$)/;

/**
 * The wrapper (content-tree.ts: a block named as chrome but holding much of the page) around the
 * content found, `node`, that is a sidebar (`<aside>`, or a class or id word `sidebar`,
 * `left-sidebar`, `widget-area`; not a layout's `has-sidebar`) and does not hold the page's first
 * `<h1>`, counted or not (a theme's `<header>` around it is set aside as chrome); -1 if none, or
 * the page has no `<h1>`.
 */
function sidebarHolding(t: Tree, html: string, node: number): number {
  for (const w of t.wrappers) {
    const el = t.els[w];
    if (!isAncestor(t, w, node) || !(el.name === 'aside' || SIDEBAR.test(classId(el)))) continue;
    const h1 = html.search(/<h1[\s>]/i);
    return h1 !== -1 && (h1 < el.startIndex! || h1 > el.endIndex!) ? w : -1;
  }
  return -1;
}

/**
 * The title heading's range, with the paragraphs right after it (its siblings, prose: more text outside
 * links than in them), up to the first other element: the lead under the title (a hero's subtitle, a
 * guide's introduction), which the content found below does not hold.
 */
function titleWithLead(t: Tree, html: string, title: number, node: number): Range {
  const r = rangeOf(t.els[title], html);
  for (let s = t.els[title].next; s; s = s.next) {
    if (s.type === 'text') {
      if ((s as Text).data.trim() !== '') break;
      continue;
    }
    if (s.type !== 'tag') continue;
    const el = s as Element;
    const i = t.index.get(el);
    if (el.name !== 'p' || i === undefined || t.gone[i] || isAncestor(t, i, node) || t.txt[i] <= t.lnk[i]) break;
    const e = rangeOf(el, html)[1];
    if (e > t.els[node].startIndex!) break;
    r[1] = e;
  }
  return r;
}

/** A page footer's class or id word (`site-footer`, `part-footer`, `footer`), not a layout's (`has-footer`, `not-footer`, `footer-sticky`). */
const FOOTER_WORD = /(?:^|\s)(?![\w-]*(?:has|with|no|not)[-_]footer)(?:[\w-]*[-_])?footer(?=\s|$)/;

/**
 * Whether the content found, `node`, lies in a wrapper (content-tree.ts: a block named as chrome but
 * holding much of the page) that is the page's footer, by tag or class word.
 */
function shellFooter(t: Tree, node: number): boolean {
  for (const w of t.wrappers) {
    if (!isAncestor(t, w, node)) continue;
    const el = t.els[w];
    if (el.name === 'footer' || el.attribs.role === 'contentinfo' || FOOTER_WORD.test(classId(el))) return true;
  }
  return false;
}

/** Topmost elements under `top` hidden by a utility class (not disclosure panels, opened by a click). */
function hiddenByClassAll(t: Tree, top: number): number[] {
  const out: number[] = [];
  for (let i = top + 1; i <= subtreeEnd(t, top); i++) {
    const el = t.els[i];
    if (t.gone[i] || el.attribs.class === undefined || !hiddenByClass(el.attribs.class) || isPanel(el.name, el.attribs)) continue;
    out.push(i);
    i = subtreeEnd(t, i);
  }
  return out;
}

/** A close button's class word or label (`modal-close`, `comparison-close`, `aria-label="Dismiss"`). */
const CLOSE = /(?:^|[-_\s])(?:close|dismiss)(?:$|[-_\s])/i;

/**
 * Whether the block `i` holds a `<button>` named as closing it: a hidden overlay (a modal, a
 * comparison drawer) a click opens. Not when the button itself is hidden or shown by breakpoint
 * (`hide show@medium`): a responsive layout's panel, open on some screens.
 */
function overlay(t: Tree, i: number): boolean {
  for (let k = i + 1; k <= subtreeEnd(t, i); k++) {
    const el = t.els[k];
    if (el.name !== 'button' || !CLOSE.test(`${el.attribs.class ?? ''} ${el.attribs['aria-label'] ?? ''}`)) continue;
    if (!(el.attribs.class ?? '').split(/\s+/).some((w) => HIDDEN_CLASS.test(w) || SHOWN_CLASS.test(w))) return true;
  }
  return false;
}

/** Whether the element's previous element sibling is a button or a control naming its state (`aria-expanded`). */
function afterToggle(el: Element): boolean {
  let s = el.prev;
  while (s && s.type !== 'tag') s = s.prev;
  if (!s) return false;
  const b = s as Element;
  return b.name === 'button' || b.attribs.role === 'button' || b.attribs['aria-expanded'] !== undefined;
}

/** The page's main landmark: its one `<main>` or `role=main` element still counted (-1 if none, or several). */
function mainLandmark(t: Tree, body: number): number {
  let found = -1;
  for (let i = body; i < t.els.length; i++) {
    const el = t.els[i];
    if (el.name !== 'main' && el.attribs.role !== 'main') continue;
    if (t.gone[i]) continue;
    if (found !== -1 && isAncestor(t, found, i)) continue;
    if (found !== -1) return -1;
    found = i;
  }
  return found;
}

/**
 * The deepest element holding most of the page's weight, stopping at a run of like siblings and, when
 * `prosaic`, at prose beside the heaviest child (the intro above a table or a grid). On a product page
 * the text beside the description is the buy box, delivery and seller boxes: there it goes on.
 */
function descend(t: Tree, body: number, prosaic: boolean): number {
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
    if (best === -1 || bestW < SHARE * total) return node;
    // One of a run of like siblings (posts of a thread, cards of a grid, sections of a page): the
    // content is the run, not its heaviest member.
    const sig = signature(t.els[best]);
    // An element without classes is named by its id alone: like siblings share it, digits aside
    // (`post_1`, `post_2`), so an app's root (`<div id="root">`) is not one of a run with a bare
    // `<div>` beside it.
    const byId = t.els[best].attribs.class === undefined && t.els[best].attribs.id !== undefined;
    const idSig = (c: number) => (t.els[c].attribs.id ?? '').replace(/\d+/g, '');
    let like = 0;
    let prose = 0;
    for (const c of elementChildren(t, node)) {
      if (c === best) continue;
      if (signature(t.els[c]) === sig && (!byId || idSig(c) === idSig(best))) like += weight(t, c);
      prose += t.txt[c];
    }
    if (like >= LIKE * bestW || (prosaic && prose >= PROSE * bestW)) return node;
    node = best;
  }
}

/** Text beside a shop's grid holding this share of the page is the category's own (its buying guide, its FAQ)... */
const CATEGORY_TEXT = 0.15;
/** A step adding more link text than this share, and CATEGORY_TEXT of the page, is a sidebar or a rail: the walk ends. */
const PROSE_LINKS = 0.35;
/** Levels walked up from the grid. */
const CATEGORY_UP = 8;

/**
 * A category page's grid of priced cards can hold 60% of the page while its buying guide or FAQ lies
 * beside it (a sibling of the grid or of one of its wrappers): the content grows to the lowest
 * ancestor that adds unlinked text of CATEGORY_TEXT of the page, unless a step below it adds that much
 * mostly linked text (a sidebar of links, a rail).
 */
function withCategoryText(t: Tree, body: number, node: number): number {
  if (node === body) return node;
  const grid = pricedGrids(t, node);
  if (!(grid[0] & (GRID | HOLDS_GRID))) return node;
  const total = weight(t, body);
  let out = node;
  for (let a = t.parent[node], c = node, up = 0; a !== -1 && a !== body && up < CATEGORY_UP; c = a, a = t.parent[a], up++) {
    const txt = t.txt[a] - t.txt[c];
    const lnk = t.lnk[a] - t.lnk[c];
    if (txt >= CATEGORY_TEXT * total) {
      out = a;
      break;
    }
    // A step adding much link text and no prose (a sidebar of links, a rail) ends the walk; a
    // results bar and pagination beside the grid do not (link blocks, left out later).
    if (lnk > PROSE_LINKS * (txt + lnk) && txt + LINK_WEIGHT * lnk > CATEGORY_TEXT * total) break;
  }
  return out;
}

/** A paragraph this long (characters) is prose... */
const PARAGRAPH = 80;
/** ... and a block holding this share of its text in such paragraphs is the category's text, not a widget. */
const PARAGRAPHS_SHARE = 0.5;

/**
 * A shop's category text can lie outside the grid's wrappers altogether, after the page's `</main>`
 * (its buying guide and FAQ in a band of their own between the grid and the footer): when the walk
 * up from the grid found none, the first block after the grid or one of its wrappers that holds
 * unlinked text of CATEGORY_TEXT of the page, mostly in paragraphs (a quiz or a filter form is not),
 * is content too, as a range of its own (-1 if none).
 */
function categoryTextAfter(t: Tree, body: number, node: number): number {
  if (!(pricedGrids(t, node)[0] & (GRID | HOLDS_GRID))) return -1;
  const total = weight(t, body);
  for (let a = node; a !== body && t.parent[a] !== -1; a = t.parent[a]) {
    const kids = elementChildren(t, t.parent[a]);
    const at = kids.indexOf(a);
    if (at === -1) continue;
    for (const s of kids.slice(at + 1))
      if (t.txt[s] >= CATEGORY_TEXT * total && t.lnk[s] <= PROSE_LINKS * (t.txt[s] + t.lnk[s]) && paragraphs(t, s) >= PARAGRAPHS_SHARE * t.txt[s]) return s;
  }
  return -1;
}

/** Text in paragraphs of PARAGRAPH characters or more under `i`. */
function paragraphs(t: Tree, i: number): number {
  const last = subtreeEnd(t, i);
  let n = 0;
  for (let k = i; k <= last; k++) if (t.els[k].name === 'p' && !t.gone[k] && t.txt[k] >= PARAGRAPH) n += t.txt[k];
  return n;
}

/**
 * React's streamed server rendering sends a part finished late as `<div hidden id="S:n">` at the end
 * of the body, for a script to move into its placeholder `<template id="B:n">` (or `"P:n"`): when the
 * placeholder lies in the content, so does the part (added to `ranges`, kept sorted; the tree has
 * already moved it there, content-tree.ts). The same for the blocks left out (`drop`).
 */
function streamed(t: Tree, html: string, ranges: Range[], around = false): void {
  const parts = new Map<string, number>();
  const holders: number[] = [];
  for (let i = 0; i < t.els.length; i++) {
    const id = t.els[i].attribs.id;
    if (id === undefined) continue;
    if (t.els[i].name === 'template' && (id.startsWith('B:') || id.startsWith('P:'))) holders.push(i);
    else if (id.startsWith('S:') && t.els[i].attribs.hidden !== undefined && !t.gone[i]) parts.set(id.slice(2), i);
  }
  const inside = (at: number) => ranges.some(([s, e]) => at >= s && at < e);
  const holds = (at: number) => ranges.some(([s, e]) => (around ? at > s : at >= s) && at < e);
  for (let added = true; added;) {
    added = false;
    for (const h of holders) {
      const part = parts.get(t.els[h].attribs.id.slice(2));
      if (part === undefined || !holds(t.els[h].startIndex ?? -1) || inside(t.els[part].startIndex ?? -1)) continue;
      ranges.push(rangeOf(t.els[part], html));
      added = true;
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  // (one inside another, as a block left out inside a part left out, is the other's)
  const outer: Range[] = [];
  for (const r of ranges) if (outer.length === 0 || r[1] > outer[outer.length - 1][1]) outer.push(r);
  ranges.splice(0, ranges.length, ...outer);
}
