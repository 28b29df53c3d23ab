// Related-content rails named by their heading ("Similar items", "You may also like", "Related
// posts") or by a label on a div ("Also in the news"), found inside the main content (main-content.ts) to be left out.
import type { Element } from 'domhandler';
import { elementChildren, HEADINGS, isAncestor, signature, subtreeEnd, textOf, weight, type Tree } from './content-tree.ts';
import type { PageType } from './page-type.ts';
import { GRID, HOLDS_GRID, PRICED, pricedGrids, pricedItself } from './link-blocks.ts';

/** A heading's level: `<h1>`–`<h6>`'s, an ARIA heading's `aria-level` (2 when it has none); 0 for any other element. */
export const headingLevel = (el: Element) =>
  HEADINGS.has(el.name) ? Number(el.name[1]) : el.attribs.role === 'heading' ? Number(el.attribs['aria-level'] ?? 2) || 2 : 0;

/**
 * Whether element `p` holds a live heading of level `rank` or above (h1..h`rank`, or a role=heading)
 * other than `except` and what is inside it; `p` itself counted when `self`, a heading without text
 * not counted when `withText` (an icon's empty `<h3>`).
 */
export function holdsRankedHeading(t: Tree, p: number, rank: number, except: number, { self = false, withText = false } = {}): boolean {
  const end = subtreeEnd(t, p);
  for (let i = self ? p : p + 1; i <= end; i++) {
    if (i === except || t.gone[i]) {
      i = subtreeEnd(t, i);
      continue;
    }
    const l = headingLevel(t.els[i]);
    if (l >= 1 && l <= rank && (!withText || t.txt[i] + t.lnk[i] > 0)) return true;
  }
  return false;
}

/** Headings that name a related-content rail or a recommendation block (not the page's own content). */
const RAIL =
  /^(?:similar (?:items|products)|related(?: (?:items|products|articles|posts|stories|content|reading|links|videos|guides|topics|searches|services|solutions))?|you (?:may|might) also (?:like|enjoy|be interested in)|(?:customers|people|others|shoppers|guests|buyers)(?: like you)? (?:who (?:viewed|bought) this(?: item)? )?also (?:viewed|bought|liked|purchased)|frequently bought together|recently viewed(?: items| products)?|recommended(?: for you| products| articles| reading)?|more (?:from|like this|to explore|stories|articles|products)\b|explore (?:related|more)\b|featured (?:\w+ )?(?:insights|stories|articles|posts|news)|(?:latest|recent) (?:insights|articles|posts|news|stories|blogs?)|read next|up next|popular (?:posts|articles|products)|complete the look|shop the look|sponsored(?: products| items)?)(?:[\s:.!?]|$)/;
/**
 * Headings that name a shop's or a search's filter panel ("Filters", "Refine by", "Narrow your
 * results"): its facets (the values to pick, often with no input of their own once rendered) are
 * controls, not content. Left out like a rail, whatever their share of links.
 */
const FACETS =
  /^(?:filters?|filter (?:by|results|products|options|&|and)\b.*|refine(?: by| results| your (?:search|results))?|narrow (?:by|your results|results)|facets)[\s:.]*$/;
/** A rail holds at most this share of the content. */
const RAIL_SHARE = 0.85;
/** A paragraph this long (characters, not link text) is prose, never part of a rail. */
const PROSE = 150;

/**
 * A rail points elsewhere: a block under such a heading whose text is links for less than this share,
 * holding PROSE characters of text besides its heading, is text shown here (the summaries of a
 * shop's buying guides under "Related Expert Advice articles", opened in place), not a rail.
 */
const RAIL_LINKS = 0.1;

/**
 * Related-content rails named by their heading ("Similar items", "You may also like", "Related
 * posts"): the largest block around such a heading that holds no other heading of its rank, no
 * paragraph of prose and at most RAIL_SHARE of the content, and links (RAIL_LINKS; on a page of
 * type `type`).
 */
export function rails(t: Tree, node: number, type: PageType): number[] {
  const last = subtreeEnd(t, node);
  // heads[l][i]: headings of level l+1 or above (h1..h(l+1)) under element i.
  const heads = Array.from({ length: 6 }, () => new Int32Array(last - node + 1));
  const level = headingLevel;
  const found: [number, number, boolean][] = [];
  // prose[i]: paragraphs of prose (PROSE characters or more) under element i.
  const prose = new Int32Array(last - node + 1);
  for (let i = last; i > node; i--) {
    const el = t.els[i];
    if (el.name === 'p' && t.txt[i] >= PROSE) prose[i - node]++;
    prose[t.parent[i] - node] += prose[i - node];
    const l = t.gone[i] ? 0 : level(el);
    if (l >= 1 && l <= 6) {
      for (let k = l - 1; k < 6; k++) heads[k][i - node]++;
      const name = textOf(el).trim().toLowerCase();
      // (a listing's rails are its content; its filter panel is not)
      if (type !== 'listing' && RAIL.test(name)) found.push([i, l, false]);
      else if (FACETS.test(name)) found.push([i, l, true]);
    }
    const p = t.parent[i] - node;
    for (let k = 0; k < 6; k++) heads[k][p] += heads[k][i - node];
  }
  const out: number[] = [];
  const whole = weight(t, node);
  for (const [h, l, facets] of found) {
    // The largest block around the heading holding no other heading of its rank, no paragraph of
    // prose and at most RAIL_SHARE of the content.
    let a = h;
    // (a filter panel never holds the grid of items it filters)
    const grid = facets ? pricedGrids(t, node) : undefined;
    for (
      let p = t.parent[a];
      p !== node &&
      p !== -1 &&
      heads[l - 1][p - node] === 1 &&
      !prose[p - node] &&
      weight(t, p) <= RAIL_SHARE * whole &&
      !(grid && grid[p - node] & (GRID | HOLDS_GRID));
      p = t.parent[p]
    )
      a = p;
    if (a === h) continue;
    // (beside a product, a block of recommendations whose cards carry no link is still one)
    if (!facets && type !== 'product' && t.lnk[a] < RAIL_LINKS * (t.txt[a] + t.lnk[a]) && t.txt[a] - t.txt[h] >= PROSE) continue;
    out.push(a);
  }
  if (type !== 'listing') out.push(...labelledRails(t, node, whole));
  return out;
}

/** A label's class (`mainColumnLabel`, `section-title`, `rail-heading`): a heading styled on a div. */
const LABEL_CLASS = /label|title|heading|header/i;
/** A rail label's whole text is at most this long (characters). */
const LABEL_MAX = 60;
/** A rail's own labels beyond the headings' ("Also in the news", "More news", "Also on the site"). */
const RAIL_LABEL = /^(?:also in (?:the news|this section|this category|the series)|more (?:news|headlines)|other news|also on (?:the )?site)(?:[\s:.!?]|$)/;

/** A plain label's rail holds this many links or more. */
const RAIL_MIN_LINKS = 2;

/** The links (`<a href>`) in element `i`. */
function links(t: Tree, i: number): number {
  let n = 0;
  const last = subtreeEnd(t, i);
  for (let k = i; k <= last; k++) if (!t.gone[k] && t.els[k].name === 'a' && t.els[k].attribs.href !== undefined) n++;
  return n;
}

/** Plain elements a label is written as without a class saying so (`<span class="xcaps">Related Services</span>`). */
const LABEL_TAGS = new Set(['span', 'div', 'p', 'strong', 'b']);

/**
 * Whether element `i` is a plain element opening its block: the first of its parent's children with
 * text, the parent holding no text of its own (not words set in a sentence, `<p>Our <strong>related
 * services</strong> include <a>…</a></p>`). `firsts` keeps each parent's answer (its first child with
 * text, -1 when it has text of its own), so that a parent of many short children is read once.
 */
function leads(t: Tree, i: number, firsts: Map<number, number>): boolean {
  const p = t.parent[i];
  if (!LABEL_TAGS.has(t.els[i].name) || p === -1) return false;
  let first = firsts.get(p);
  if (first === undefined) {
    const own = t.els[p].children.some((c) => c.type === 'text' && c.data.trim() !== '');
    first = own ? -1 : (elementChildren(t, p).find((k) => !t.gone[k] && t.txt[k] + t.lnk[k] > 0) ?? -1);
    firsts.set(p, first);
  }
  return first === i;
}

/**
 * A rail named by a label that is no heading (`<div class="mainColumnLabel">Also in the news</div>`,
 * standing alone in its block, its class saying label, title or heading) and the block just after it,
 * when that block is links for RAIL_LINKS or more of its text and at most RAIL_SHARE of the content
 * (`whole`): the label's widget and the rail's widget side by side.
 */
function labelledRails(t: Tree, node: number, whole: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  const firsts = new Map<number, number>();
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    const chars = t.txt[i] + t.lnk[i];
    if (t.gone[i] || chars === 0 || chars > LABEL_MAX || HEADINGS.has(el.name) || !(LABEL_CLASS.test(el.attribs.class ?? '') || leads(t, i, firsts))) continue;
    const name = textOf(el);
    if (!RAIL.test(name) && !RAIL_LABEL.test(name)) continue;
    // (the block holding the label alone)
    let a = i;
    while (t.parent[a] !== node && t.parent[a] !== -1 && t.txt[t.parent[a]] + t.lnk[t.parent[a]] === chars) a = t.parent[a];
    const kids = elementChildren(t, t.parent[a]);
    const next = kids.slice(kids.indexOf(a) + 1).find((k) => !t.gone[k] && t.txt[k] + t.lnk[k] > 0);
    i = subtreeEnd(t, i);
    if (next === undefined || t.lnk[next] < RAIL_LINKS * (t.txt[next] + t.lnk[next]) || weight(t, next) > RAIL_SHARE * whole) continue;
    // (a plain label's rail is a block of links, not a card's tag above its linked title: "Sponsored")
    if (!LABEL_CLASS.test(el.attribs.class ?? '') && (HEADINGS.has(t.els[next].name) || links(t, next) < RAIL_MIN_LINKS)) continue;
    out.push(a, next);
  }
  return out;
}

/** A grid of other products grows to an ancestor adding at most this share of the grid's weight (its heading, its controls). */
const GRID_GROWTH = 0.25;
/** Linked cards of one kind, each holding a price, this many or more under one parent: other products. */
const PRODUCT_CARDS = 5;
/** The product's own part (outside the grids) holds at least this share of the content... */
const OWN_SHARE = 0.25;

/**
 * On a product page, a grid of linked priced cards (five or more like cards, each holding a price and
 * link text) that does not hold the title is other products (the variations of this
 * one, a carousel of alternatives, "often bought together"): left out, with the ancestors around it
 * that add little else and no price of their own (its heading). Only when what is left is the
 * product's: its own price outside the grids and OWN_SHARE of the content (a category page declaring
 * its items as products is its grid).
 */
export function otherProducts(t: Tree, node: number, title: number): number[] {
  const grid = pricedGrids(t, node);
  const last = subtreeEnd(t, node);
  const out: number[] = [];
  const count = new Map<string, number>();
  const isGrid = (i: number) => {
    if (!(grid[i - node] & GRID)) return false;
    count.clear();
    for (const c of elementChildren(t, i)) {
      if (!(grid[c - node] & PRICED) || t.lnk[c] === 0) continue;
      const sig = signature(t.els[c]);
      const n = (count.get(sig) ?? 0) + 1;
      count.set(sig, n);
      if (n >= PRODUCT_CARDS) return true;
    }
    return false;
  };
  for (let i = node + 1; i <= last; i++) {
    if (t.gone[i] || (title !== -1 && isAncestor(t, i, title)) || !isGrid(i)) continue;
    let a = i;
    for (let p = t.parent[a]; p !== node && p !== -1; p = t.parent[p]) {
      if (title !== -1 && isAncestor(t, p, title)) break;
      if (weight(t, p) > (1 + GRID_GROWTH) * weight(t, i)) break;
      if (elementChildren(t, p).some((c) => c !== a && grid[c - node] & PRICED)) break;
      a = p;
    }
    out.push(a);
    i = subtreeEnd(t, a);
  }
  if (out.length === 0 || out.reduce((s, a) => s + weight(t, a), 0) > (1 - OWN_SHARE) * weight(t, node)) return [];
  // (the product's own price: an element holding a price in its own text, outside the grids)
  for (let i = node, k = 0; i <= last; i++) {
    while (k < out.length && subtreeEnd(t, out[k]) < i) k++;
    if (k < out.length && i >= out[k]) {
      i = subtreeEnd(t, out[k]);
      continue;
    }
    if (!t.gone[i] && pricedItself(t, grid, node, i)) return out;
  }
  return [];
}
