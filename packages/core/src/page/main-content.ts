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
// type), rails.ts (related-content rails named by their heading), copies.ts (repeated blocks); here
// the descent to the content element and the link blocks, reviews and comments left out inside it.
import type { AnyNode, Element, Text } from 'domhandler';
import {
  classId,
  elementChildren,
  isAncestor,
  LINK_WEIGHT,
  measure,
  rangeOf,
  setAside,
  signature,
  subtreeEnd,
  textOf,
  weight,
  type Range,
  type Tree,
} from './content-tree.ts';
import { duplicates } from './copies.ts';
import { declaredType, detectType, namedProductTitle, type PageType } from './page-type.ts';
import { rails } from './rails.ts';

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
/** A block whose text is more than this share link text is a link block. */
const LINKY = 0.5;
/** Link blocks (with their like siblings) holding this share of the content are content. */
const RUN_SHARE = 0.3;
/** The same link block in this many rows or cards (each in a parent of its own) is part of each. */
const ROWS = 5;
/** The main landmark is the content's root when it holds at least this share of what the descent found. */
const LANDMARK_SHARE = 0.3;
/**
 * The descent stops above its heaviest child when the other children hold this much prose (text
 * outside links) for its weight: an intro above a table, a grid or a list is the content's too.
 */
const PROSE = 0.3;
/** A heading this long (characters) is a headline. */
const HEADLINE = 25;

/** Finds the page's main content and its type. */
export function findMainContent(html: string): MainContent {
  const t = measure(html);
  const n = t.els.length;
  let body = t.els.findIndex((el) => el.name === 'body');
  if (body === -1) body = 0;
  if (n === 0 || weight(t, body) < MIN_WEIGHT) return { type: 'empty', ranges: [], drop: [], shop: [], wrappers: [] };
  const declared = declaredType(html);
  // The page's title heading: its first h1 still counted.
  let title = -1;
  for (let i = 0; i < n && title === -1; i++) if (t.els[i].name === 'h1' && !t.gone[i]) title = i;
  const holdsTitle = (i: number) => title !== -1 && isAncestor(t, i, title);
  const productPage = declared === 'product' || (declared === null && namedProductTitle(t));
  let node = descend(t, body, !productPage);
  // The page's one main landmark (`<main>`, `role=main`), when the descent stopped above it: the
  // chrome around it (menus, a mobile drawer, a footer of links) outweighed it, so the content is
  // looked for inside the landmark the page itself names.
  const landmark = mainLandmark(t, body);
  if (
    landmark !== -1 &&
    landmark !== node &&
    isAncestor(t, node, landmark) &&
    (title === -1 || holdsTitle(landmark)) &&
    weight(t, landmark) >= LANDMARK_SHARE * weight(t, node)
  )
    node = descend(t, landmark, !productPage);
  // A product page's customer reviews can outweigh its description and specifications (a hundred
  // reviews under a short feature list): when the content found is the reviews, they are set aside
  // and the descent made again (else they would be dropped as reviews, leaving the title alone).
  if (productPage && within(t, node, body, CUSTOMER_REVIEWS)) {
    for (const i of named(t, body, CUSTOMER_REVIEWS)) if (!holdsTitle(i)) setAside(t, i);
    node = descend(t, body, false);
  }
  if (declared !== 'product') node = withCategoryText(t, body, node);
  const total = weight(t, body);
  // The title, when it sits outside the content element: the content starts at the title (a
  // product's name and price above its description) when their common ancestor adds little else;
  // otherwise the heading alone comes first (a hero above the body).
  const ranges: Range[] = [];
  if (title !== -1 && !isAncestor(t, node, title)) {
    let lca = t.parent[title];
    while (lca !== -1 && !isAncestor(t, lca, node)) lca = t.parent[lca];
    if (lca !== -1 && lca !== body && weight(t, lca) <= TITLE_SPAN * weight(t, node)) node = lca;
    else if (t.els[title].startIndex! < t.els[node].startIndex!) ranges.push(rangeOf(t.els[title], html));
  }
  ranges.push(rangeOf(t.els[node], html));
  streamed(t, html, ranges);
  const drop: Range[] = [];
  for (let i = 0; i < n; i++) {
    if (!t.removed[i] || (t.parent[i] >= 0 && t.gone[t.parent[i]])) continue;
    const r = rangeOf(t.els[i], html);
    if (ranges.some(([s, e]) => r[0] >= s && r[1] <= e)) drop.push(r);
  }
  const type = detectType(html, t, node, declared);
  if (type !== 'listing') for (const i of linkBlocks(t, node, RUN_SHARE, type)) drop.push(rangeOf(t.els[i], html));
  if (type === 'product') for (const i of named(t, node, REVIEWS)) drop.push(rangeOf(t.els[i], html));
  // A shop's review widget is its customers' reviews on any page it is put on (a product page typed
  // as something else, a collection, a landing page).
  else if (type !== 'forum') for (const i of named(t, node, REVIEW_WIDGETS)) drop.push(rangeOf(t.els[i], html));
  // An article's comment thread is not the article (on a forum the posts are the content).
  // A comment section holding most of the content is still dropped when the article's title lies
  // outside it and the rest is an article's worth of text (a short story under a long thread).
  if (type === 'article')
    for (const i of named(t, node, COMMENTS)) {
      const rest = weight(t, node) - weight(t, i);
      if (weight(t, i) <= COMMENT_SHARE * weight(t, node) || (rest >= MIN_ARTICLE && (title === -1 || !isAncestor(t, i, title))))
        drop.push(rangeOf(t.els[i], html));
    }
  // A forum post's signature and its author's profile box (join date, post count) are not the post.
  if (type === 'forum') for (const i of named(t, node, POSTER)) drop.push(rangeOf(t.els[i], html));
  if (type === 'forum') for (const i of postComments(t, node)) drop.push(rangeOf(t.els[i], html));
  for (const i of facets(t, node, type, holdsTitle)) drop.push(rangeOf(t.els[i], html));
  for (const i of cardToggles(t, node)) drop.push(rangeOf(t.els[i], html));
  for (const i of disclosureMenus(t, node, holdsTitle)) drop.push(rangeOf(t.els[i], html));
  if (type === 'product') for (const i of signups(t, node, holdsTitle)) drop.push(rangeOf(t.els[i], html));
  for (const i of headingAnchors(t, node)) drop.push(rangeOf(t.els[i], html));
  for (const i of skipLinks(t, node)) drop.push(rangeOf(t.els[i], html));
  for (const i of duplicates(t, node, type)) drop.push(rangeOf(t.els[i], html));
  if (type !== 'listing') for (const i of rails(t, node)) drop.push(rangeOf(t.els[i], html));
  drop.sort((a, b) => a[0] - b[0]);
  const shop = [...named(t, node, SHOP).filter((i) => weight(t, i) < SHOP_SHARE * total), ...buttons(t, node)]
    .map((i) => rangeOf(t.els[i], html))
    .sort((a, b) => a[0] - b[0])
    .filter((r, k, all) => k === 0 || r[0] >= all[k - 1][1]);
  // A wrapper that holds the page's title is the page's (a sidebar holding most of a short page is not).
  const wrappers = t.wrappers.filter(holdsTitle).map((i) => t.els[i].startIndex ?? 0);
  return { type, ranges, drop, shop, wrappers };
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
    let like = 0;
    let prose = 0;
    for (const c of elementChildren(t, node)) {
      if (c === best) continue;
      if (signature(t.els[c]) === sig) like += weight(t, c);
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

/** Whether `node` or one of its ancestors below `top` is named so (class or id). */
function within(t: Tree, node: number, top: number, re: RegExp): boolean {
  for (let a = node; a !== -1 && a !== top; a = t.parent[a]) {
    const el = t.els[a];
    if ((el.attribs.class !== undefined || el.attribs.id !== undefined) && re.test(classId(el))) return true;
  }
  return false;
}

/**
 * Elements holding a headline, by index from `node`: a heading (h1 to h6) that is mostly a link of a
 * title's length (not a name) to another page (an item's title, not a section's anchor), not in a comment.
 */
function headlines(t: Tree, node: number): Uint8Array {
  const last = subtreeEnd(t, node);
  const out = new Uint8Array(last - node + 1);
  const linkOut = new Uint8Array(last - node + 1);
  for (let i = last; i > node; i--) {
    const el = t.els[i];
    const href = el.attribs.href;
    if (el.name === 'a' && href !== undefined && href !== '' && !href.startsWith('#')) linkOut[i - node] = 1;
    if (HEADINGS.has(el.name) && linkOut[i - node] && !t.gone[i] && t.lnk[i] >= HEADLINE && t.txt[i] <= LINKY * t.lnk[i] && !within(t, i, -1, COMMENTS))
      out[i - node] = 1;
    const p = t.parent[i] - node;
    linkOut[p] |= linkOut[i - node];
    out[p] |= out[i - node];
  }
  return out;
}

/**
 * React's streamed server rendering sends a part finished late as `<div hidden id="S:n">` at the end
 * of the body, for a script to move into its placeholder `<template id="B:n">`: when the placeholder
 * lies in the content, so does the part (added to `ranges`, kept sorted).
 */
function streamed(t: Tree, html: string, ranges: Range[]): void {
  const parts = new Map<string, number>();
  const holders: number[] = [];
  for (let i = 0; i < t.els.length; i++) {
    const id = t.els[i].attribs.id;
    if (id === undefined) continue;
    if (t.els[i].name === 'template' && id.startsWith('B:')) holders.push(i);
    else if (id.startsWith('S:') && t.els[i].attribs.hidden !== undefined && !t.gone[i]) parts.set(id.slice(2), i);
  }
  const inside = (at: number) => ranges.some(([s, e]) => at >= s && at < e);
  for (let added = true; added;) {
    added = false;
    for (const h of holders) {
      const part = parts.get(t.els[h].attribs.id.slice(2));
      if (part === undefined || !inside(t.els[h].startIndex ?? -1) || inside(t.els[part].startIndex ?? -1)) continue;
      ranges.push(rangeOf(t.els[part], html));
      added = true;
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
}

const BLOCK_TAGS = new Set(['div', 'ul', 'ol', 'section', 'aside', 'nav', 'table', 'dl', 'header', 'footer', 'form', 'span', 'details']);

/** A list of links that the paragraph before it introduces ("refer to the following pages:"). */
function introduced(t: Tree, k: number): boolean {
  const el = t.els[k];
  if (el.name !== 'ul' && el.name !== 'ol') return false;
  let prev = el.prev;
  while (prev && prev.type !== 'tag') prev = prev.prev;
  if (!prev || (prev as Element).name !== 'p') return false;
  return /:\s*$/.test(textEnd(prev as Element));
}

/** An element with text of the sentence it is in right beside it (a text sibling with a word). */
function inSentence(el: Element): boolean {
  return [el.prev, el.next].some((c) => c?.type === 'text' && /[\p{L}\p{N}]/u.test((c as Text).data));
}

/** The last characters of an element's text. */
function textEnd(el: Element): string {
  let s = '';
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') s += (n as Text).data;
    else if (n.type === 'tag') for (let i = (n as Element).children.length - 1; i >= 0; i--) stack.push((n as Element).children[i]);
  }
  return s.slice(-40);
}

/**
 * Blocks inside the content that are mostly links (a table of contents, tag lists, recent-post and
 * archive widgets, "read next" lists): dropped, unless they make up much of the content together with
 * the link blocks beside them (the rows of a product grid, the sections of a listing), kept whole.
 */
function linkBlocks(t: Tree, node: number, runShare: number, type: PageType): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  if (t.lnk[node] > LINKY * (t.txt[node] + t.lnk[node])) return out; // a listing: its links are the content
  // A shop's grid of priced cards (each card one link around its name and price) is the content of a
  // category page, not a link block: kept whole, and blocks holding it are looked into (not on a product
  // page, where such cards are other products).
  const grid = type === 'product' ? null : pricedGrids(t, node);
  const stack = [node];
  while (stack.length) {
    const at = stack.pop()!;
    const kids = elementChildren(t, at);
    const linky = (k: number) => t.lnk[k] > LINKY * (t.txt[k] + t.lnk[k]);
    for (const k of kids) {
      // A link's own inner elements are its text (`<a><span>Connection Pool</span></a>` in a sentence).
      if (t.txt[k] + t.lnk[k] === 0 || t.els[k].name === 'a') continue;
      if (!BLOCK_TAGS.has(t.els[k].name) || !linky(k)) {
        stack.push(k);
        continue;
      }
      if (grid && (grid[k - node] & GRID || (grid[at - node] & GRID && grid[k - node] & PRICED))) continue;
      if (grid && grid[k - node] & HOLDS_GRID) {
        stack.push(k);
        continue;
      }
      if (introduced(t, k)) continue;
      // So is a span around a link in a sentence (`My goal is <span class="keyword"><a>MBB</a></span> since`).
      if (t.els[k].name === 'span' && inSentence(t.els[k])) continue;
      let run = 0;
      for (const o of kids) if (BLOCK_TAGS.has(t.els[o].name) && linky(o)) run += weight(t, o);
      if (run < runShare * whole) out.push(k);
    }
  }
  // The same link block in every row of a table or card of a grid (each row's name cell) is the
  // rows' content when, all together, they make up as much of it as a run of link blocks would; and
  // so is one holding an item's headline in five or more rows or cards (a listing's titles), except
  // on a product page, where such cards are other products.
  const bySig = new Map<string, number>();
  const parents = new Map<string, Set<number>>();
  for (const k of out) {
    const sig = signature(t.els[k]);
    bySig.set(sig, (bySig.get(sig) ?? 0) + weight(t, k));
    if (!parents.has(sig)) parents.set(sig, new Set());
    parents.get(sig)!.add(t.parent[k]);
  }
  const rows = type !== 'product' && [...parents.values()].some((p) => p.size >= ROWS) ? headlines(t, node) : null;
  return out.filter((k) => {
    const sig = signature(t.els[k]);
    return bySig.get(sig)! < runShare * whole && (!rows || parents.get(sig)!.size < ROWS || !(rows[k - node] || namesList(t.els[k])));
  });
}

/** Between the links of a list of names: a comma, a semicolon, an "and". */
const NAME_SEPARATOR = /^[\s,;]*(?:(?:and|&)[\s,]*)?$/;

/**
 * A list of names, each a link, separated by commas (`<a>Ann Lee</a>, <a>Bo Chen</a> and <a>Cy Diaz</a>`):
 * in every row of a listing, the item's authors, as much the item's as its title.
 */
function namesList(el: Element): boolean {
  let links = 0;
  let separators = 0;
  for (const c of el.children) {
    if (c.type === 'text') {
      const data = (c as Text).data;
      if (!NAME_SEPARATOR.test(data)) return false;
      if (data.trim() && links > 0) separators++;
    } else if (c.type === 'tag' && (c as Element).name === 'a') links++;
    else if (c.type === 'tag') return false;
  }
  // (tags side by side, parted by spaces alone, are not names)
  return links >= 2 && separators >= links - 1;
}

/** A price: a currency sign or code next to an amount (`$30`, `£1,099.00`, `44,99€`, `1305,02 лв`). */
const PRICE = /(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|CAD|AUD)\b)\s?\d|\d(?:[.,]\d{2})?\s?(?:[€£₽]|\b(?:лв|kr|zł|Kč|Ft|lei|CHF|EUR|USD)(?![\p{L}]))/u;
/** Cards of one kind (same tag and classes), each holding a price, this many or more under one parent: a shop's grid. */
const PRICED_CARDS = 5;
const PRICED = 1;
const GRID = 2;
const HOLDS_GRID = 4;

/**
 * By index from `node`: PRICED for an element holding a price in its text, GRID for the parent of
 * PRICED_CARDS or more like children (same signature) that each hold one, HOLDS_GRID for its ancestors.
 */
function pricedGrids(t: Tree, node: number): Uint8Array {
  const last = subtreeEnd(t, node);
  const out = new Uint8Array(last - node + 1);
  const count = new Map<string, number>();
  for (let i = last; i >= node; i--) {
    if (t.gone[i]) continue;
    const el = t.els[i];
    if (!(out[i - node] & PRICED)) {
      // The element's own text, its pieces joined (`$<!-- -->30` as rendered by React).
      let own = '';
      for (const c of el.children) if (c.type === 'text') own += (c as Text).data;
      if (own !== '' && PRICE.test(own)) out[i - node] |= PRICED;
    }
    count.clear();
    for (const c of elementChildren(t, i)) {
      if (!(out[c - node] & PRICED)) continue;
      const sig = signature(t.els[c]);
      const n = (count.get(sig) ?? 0) + 1;
      count.set(sig, n);
      if (n >= PRICED_CARDS) out[i - node] |= GRID;
    }
    if (i > node) out[t.parent[i] - node] |= (out[i - node] & PRICED) | (out[i - node] & (GRID | HOLDS_GRID) ? HOLDS_GRID : 0);
  }
  return out;
}

/**
 * A product's customer reviews and questions, the shop's recommendations and its comparison of this
 * product with its others: the shop's content is the description and specifications.
 * Editorial reviews (a book's blurbs and description from the publisher) are content.
 */
const REVIEWS =
  /(?<!editorial[-_]?)review|rating|okendo|yotpo|bazaarvoice|stamped|jdgm|judgeme|trustpilot|questions|recently-viewed|recommend|upsell|cross-sell|product-?comparison|compare-?products/;

/** Customer reviews only (not questions, ratings or recommendations, which can name a product's FAQ or its spec cards). */
const CUSTOMER_REVIEWS = /(?<!editorial[-_]?)review|okendo|yotpo|bazaarvoice|jdgm|judgeme|trustpilot/;

/** The review widgets shops embed, by their class or id prefixes. */
const REVIEW_WIDGETS = /okendo|yotpo|jdgm|judgeme|stamped-|bazaarvoice|trustpilot|junip/;

/** A shop's buy box (product form, add to cart, quantity), delivery estimate, payment-plan note and seller's card, by class or id. */
const SHOP =
  /(?:^|[-_\s])(?:buy-?box|add-to-cart|addtocart|delivery|quantity|qty|payments?|installments?|klarna|afterpay|seller-?info|seller-?card|product-?form)(?:$|[-_\s])/;
/** A block named so that holds this share of the page is a wrapper. */
const SHOP_SHARE = 0.4;

/** A button's class (`button`, `btn`, `button--primary`, `btn-lg`), as a whole token. */
const BUTTON = /^(?:button|btn)(?:--?[a-z]+)*$/i;

/** Links styled as buttons: calls to action ("Get started", "Try it now"), not the content's text. */
function buttons(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name === 'a' && !t.gone[i] && el.attribs.class !== undefined && el.attribs.class.split(/\s+/).some((w) => BUTTON.test(w))) out.push(i);
  }
  return out;
}

/** A sign-up block around an email field holds at most this much text (its heading, its pitch, its sent and failed messages). */
const SIGNUP_TEXT = 600;
const EMAIL = /e-?mail/i;

/**
 * A product page's sign-up blocks (notify me when back in stock, the newsletter): the largest block
 * around an email field holding little text and not the product's title, with its pitch and its
 * success and error messages. Not the product's content.
 */
function signups(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name !== 'input' || t.gone[t.parent[i]]) continue;
    const a = el.attribs;
    if (a.type !== 'email' && !EMAIL.test(`${a.name ?? ''} ${a.placeholder ?? ''} ${a.autocomplete ?? ''}`)) continue;
    if (out.some((o) => isAncestor(t, o, i))) continue;
    let k = i;
    while (t.parent[k] > node && !holdsTitle(t.parent[k]) && weight(t, t.parent[k]) <= SIGNUP_TEXT) k = t.parent[k];
    if (k !== i) out.push(k);
  }
  return out;
}

/** A forum post's signature and its author's profile box, by class or id. */
const POSTER = /(?:^|[-_\s])(?:signature|signatures|post-?signature|user-?extras|postprofile|user-?info|user-?stats|author-?stats|poster-?info)(?:$|[-_\s])/;

/** An article's comments, by class or id. */
const COMMENTS = /(?:^|[-_\s])(?:comments?|comment-?list(?:ing)?|commentlist|comments-area|disqus_thread|replies)(?:$|[-_\s])/;
/** A block named like comments that holds more than this share of the content is the content's wrapper. */
const COMMENT_SHARE = 0.8;
/** Text (characters) outside a larger comment section that makes the article its own. */
const MIN_ARTICLE = 1500;

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

/**
 * The comments under each post of a questions-and-answers thread (short remarks on the question and
 * on every answer): comment blocks of one kind, two or more, each in a different parent (one per
 * post). A thread whose posts are themselves comments (a run of siblings, a single comment tree)
 * keeps them.
 */
function postComments(t: Tree, node: number): number[] {
  const found = named(t, node, COMMENTS);
  const bySig = new Map<string, number[]>();
  for (const i of found) {
    const sig = signature(t.els[i]);
    if (!bySig.has(sig)) bySig.set(sig, []);
    bySig.get(sig)!.push(i);
  }
  const out: number[] = [];
  for (const group of bySig.values()) {
    if (group.length < 2 || new Set(group.map((i) => t.parent[i])).size < group.length) continue;
    // Each sits beside its post's own text.
    if (group.every((i) => weight(t, t.parent[i]) > weight(t, i))) out.push(...group);
  }
  // By microdata: schema.org Comment items inside an Answer or a Question (a forum's replies, marked
  // as comments of the thread's posting, are not inside either).
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    if (t.gone[i] || !COMMENT_ITEM.test(t.els[i].attribs.itemtype ?? '')) continue;
    let post = false;
    let outer = false;
    for (let a = t.parent[i]; a !== -1 && a >= node; a = t.parent[a]) {
      const it = t.els[a].attribs.itemtype ?? '';
      if (COMMENT_ITEM.test(it)) outer = true;
      if (POST_ITEM.test(it)) post = true;
    }
    if (post && !outer && !out.some((o) => isAncestor(t, o, i))) out.push(i);
  }
  return out;
}
const COMMENT_ITEM = /schema\.org\/Comment\/?$/i;
const POST_ITEM = /schema\.org\/(?:Answer|Question)\/?$/i;

/** A shop's filter facets and sort controls, by whole class token or id ("facets-container",
 * "collection-filters"; not a bare "filter", a CSS utility, nor a layout's "facet-row"). */
const FACETS =
  /^(?:[a-z]+[-_]+)*(?:facets|facet-?filters?|filters|filter-?(?:bar|panel|sidebar|drawer|menu|form|group|wrapper|container)|refinements?|sort-?by|sorting)(?:[-_]+(?:wrapper|container|form|list|panel|sidebar|menu|drawer|nav|block|section))*$/;
const CONTROLS = new Set(['input', 'select', 'label', 'button']);
/** A block holding this share of the content is its wrapper, not its facets. */
const FACET_SHARE = 0.5;
/** A block of this many checkboxes and radio buttons or more, with at most BOX_TEXT characters for each, is a filter form... */
const MIN_BOXES = 6;
const BOX_TEXT = 30;
/** ... and at most this share of its text in links. */
const BOX_LINKS = 0.2;
const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);

/**
 * Filter facets and sort controls (colour, size and price checkboxes with their counts): blocks
 * named so that hold form controls or are mostly links, and little of the content.
 */
function facets(t: Tree, node: number, type: PageType, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  // Checkboxes and radio buttons under each element of the content.
  const last = subtreeEnd(t, node);
  const boxes = new Int32Array(last - node + 1);
  for (let i = last; i > node; i--) {
    const a = t.els[i].attribs;
    if (t.els[i].name === 'input' && (a.type === 'checkbox' || a.type === 'radio')) boxes[i - node]++;
    boxes[t.parent[i] - node] += boxes[i - node];
  }
  const stack = elementChildren(t, node);
  while (stack.length) {
    const k = stack.pop()!;
    const el = t.els[k];
    const named =
      (el.attribs.class !== undefined || el.attribs.id !== undefined) &&
      classId(el)
        .split(/\s+/)
        .some((w) => FACETS.test(w));
    const w = weight(t, k);
    if (named && w < FACET_SHARE * whole && (t.lnk[k] > t.txt[k] || hasControl(t, k))) out.push(k);
    // Unnamed: a block of many checkboxes or radio buttons, each with a short label and few links (a
    // filter form; not a product's options, nor a block holding the title, nor rows of a table or cards
    // to select, which have text or links of their own).
    else if (
      type !== 'product' &&
      !TABLE_PARTS.has(el.name) &&
      boxes[k - node] >= MIN_BOXES &&
      w < FACET_SHARE * whole &&
      t.txt[k] + t.lnk[k] < BOX_TEXT * boxes[k - node] &&
      t.lnk[k] < BOX_LINKS * (t.txt[k] + t.lnk[k]) &&
      !holdsTitle(k)
    )
      out.push(k);
    else stack.push(...elementChildren(t, k));
  }
  return out;
}

/**
 * A disclosure menu (`<details>` opening a list of links: a sort order, a language or date filter, a
 * menu of options): mostly link text, and little of the content. A disclosure of prose (an FAQ's
 * answer) is not one. A closed one is left out however long its list (a hundred languages to filter by).
 */
function disclosureMenus(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    if (t.els[i].name !== 'details' || t.gone[i]) continue;
    // (a closed one is hidden until opened: however long its list, it is not what the page shows)
    const closed = t.els[i].attribs.open === undefined;
    if (t.lnk[i] > LINKY * (t.txt[i] + t.lnk[i]) && (closed || weight(t, i) < FACET_SHARE * whole) && !holdsTitle(i)) {
      out.push(i);
      i = subtreeEnd(t, i);
    }
  }
  return out;
}

/** A checkbox's label of at most this many characters, the same in this many places or more, is every card's toggle. */
const TOGGLE_TEXT = 30;
const TOGGLES = 5;

const isCheckbox = (n: AnyNode | null) => n?.type === 'tag' && (n as Element).name === 'input' && (n as Element).attribs.type === 'checkbox';

/**
 * The toggle every card of a grid carries ("Compare", "Add to compare"): a checkbox's label (around
 * it, or after it) whose short text recurs, the same, in five places or more. Facets' labels each
 * differ ("Red (12)", "Steel (30)"); a form's options are not repeated.
 */
function cardToggles(t: Tree, node: number): number[] {
  const byText = new Map<string, number[]>();
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name !== 'label' || t.gone[i] || t.txt[i] + t.lnk[i] === 0 || t.txt[i] + t.lnk[i] > TOGGLE_TEXT) continue;
    let sib: AnyNode | null = el.prev;
    // (past the other labels of the same box: "Compare", then "Remove from comparison" shown once ticked)
    while (sib && ((sib.type === 'text' && !(sib as Text).data.trim()) || (sib.type === 'tag' && (sib as Element).name === 'label'))) sib = sib.prev;
    let box = isCheckbox(sib);
    for (let k = i + 1; !box && k <= last && t.els[k].startIndex! < el.endIndex!; k++) box = isCheckbox(t.els[k]);
    if (!box) continue;
    const text = textOf(el);
    if (!byText.has(text)) byText.set(text, []);
    byText.get(text)!.push(i);
  }
  return [...byText.values()].filter((g) => g.length >= TOGGLES).flat();
}

function hasControl(t: Tree, k: number): boolean {
  const last = subtreeEnd(t, k);
  for (let i = k + 1; i <= last; i++) if (CONTROLS.has(t.els[i].name)) return true;
  return false;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * A heading's own permalink (`<h3><a href="#usage">Direct link to heading</a>Usage</h3>`, a `¶` or
 * `#` after the title): a link to a fragment inside a heading that has text of its own besides.
 */
function headingAnchors(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name !== 'a' || t.gone[i] || !(el.attribs.href ?? '').startsWith('#')) continue;
    for (let h = t.parent[i], up = 0; h > node && up < 3; h = t.parent[h], up++) {
      if (!HEADINGS.has(t.els[h].name)) continue;
      if (t.txt[h] > 0) out.push(i);
      break;
    }
  }
  return out;
}

/** A keyboard user's shortcut: "Skip to product list", "Skip listing", "Skip to filters". */
const SKIP_LINK = /^skip\b/;

/** In-page links (`#fragment`) whose text is a skip link's, left out everywhere. */
function skipLinks(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name === 'a' && !t.gone[i] && (el.attribs.href ?? '').startsWith('#') && t.lnk[i] < 60 && SKIP_LINK.test(textOf(el))) out.push(i);
  }
  return out;
}
