// The cards of a shop's grid of priced cards inside the main content (main-content.ts), and the
// parts of each card the page does not show (left-out.ts); the copies inside each card are copies.ts's.
import { elementChildren, HEADINGS, hiddenByClass, isPanel, signature, subtreeEnd, type Tree } from './content-tree.ts';
import { GRID, PRICED, pricedGrids } from './link-blocks.ts';
import { PRICED_CARDS } from './prices.ts';

const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);

/**
 * The cards of one item each in the shop's grids of priced cards inside `node`: the priced children
 * of a grid of the kind (tag and classes) there are PRICED_CARDS of or more (not a table, a list or a
 * figure beside them, nor a table's rows), whose links all lead to one page (paths, queries and
 * fragments aside; a carousel's slide of several items is not one card).
 */
export function gridCards(t: Tree, node: number): number[] {
  const grid = pricedGrids(t, node);
  const last = subtreeEnd(t, node);
  const out: number[] = [];
  for (let g = node; g <= last; g++) {
    if (!(grid[g - node] & GRID) || t.gone[g]) continue;
    const priced = elementChildren(t, g).filter((c) => grid[c - node] & PRICED && !TABLE_PARTS.has(t.els[c].name));
    const kinds = new Map<string, number>();
    const kind = priced.map((c) => signature(t.els[c]));
    for (const k of kind) kinds.set(k, (kinds.get(k) ?? 0) + 1);
    priced.forEach((c, j) => {
      if (kinds.get(kind[j])! >= PRICED_CARDS && oneItem(t, c)) out.push(c);
    });
  }
  return out;
}

/**
 * The cards of the shop's grids of priced cards inside `node`, whatever they link to: the priced
 * children of a grid (pricedGrids), not a table's parts (a card linking to its brand's page or to its
 * other colours beside the item's is one too).
 */
export function pricedCards(t: Tree, node: number): number[] {
  const grid = pricedGrids(t, node);
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let c = node + 1; c <= last; c++) {
    if (t.gone[c]) c = subtreeEnd(t, c);
    else if (grid[c - node] & PRICED && grid[t.parent[c] - node] & GRID && !TABLE_PARTS.has(t.els[c].name)) {
      out.push(c);
      c = subtreeEnd(t, c);
    }
  }
  return out;
}

/** Whether the card `c` links to one page only. */
function oneItem(t: Tree, c: number): boolean {
  let href: string | null = null;
  const last = subtreeEnd(t, c);
  for (let i = c; i <= last; i++) {
    const h = t.els[i].name === 'a' ? t.els[i].attribs.href?.replace(/[?#].*$/, '') : undefined;
    if (!h) continue;
    if (href !== null && h !== href) return false;
    href = h;
  }
  return true;
}

/**
 * Inside each card of a shop's grid, the parts hidden by a utility class (`hidden`, `d-none`, not
 * shown again on some screens; not a disclosure panel): the unit price a theme prints in every card
 * for its script to show when the item has one (`<small class="unit-price hidden">/ per</small>`).
 */
export function cardHidden(t: Tree, node: number): number[] {
  const out: number[] = [];
  for (const c of gridCards(t, node)) {
    const last = subtreeEnd(t, c);
    for (let i = c + 1; i <= last; i++) {
      if (t.gone[i] || !hiddenInCard(t, i)) continue;
      out.push(i);
      i = subtreeEnd(t, i);
    }
  }
  return out;
}

/** Whether element `i` of a card is hidden by a utility class (not a disclosure panel). */
export function hiddenInCard(t: Tree, i: number): boolean {
  const el = t.els[i];
  return el.attribs.class !== undefined && hiddenByClass(el.attribs.class) && !isPanel(el.name, el.attribs);
}

/** A banner's pitch: a paragraph of this many characters or more... */
const PITCH = 60;
/** ... in a tile of at most this many. */
const BANNER_TEXT = 400;
/** The cards are this share of the grid's children at least (an article's sections around its product boxes are not a grid's tiles). */
const GRID_SHARE = 0.8;

/**
 * A banner put among a grid's cards (a store card's offer, "Bundle & save", between two rows of
 * products): a child of a grid of priced cards, of the cards' tag but not their classes, holding a heading
 * and a paragraph of prose and at most BANNER_TEXT characters: the shop's promotion, not an item of
 * the category (only on a grid whose cards are of one kind, PRICED_CARDS or more, and GRID_SHARE of its
 * children: an article's sections between its product boxes are its text).
 */
export function gridBanners(t: Tree, node: number): number[] {
  const grid = pricedGrids(t, node);
  const last = subtreeEnd(t, node);
  const out: number[] = [];
  for (let g = node; g <= last; g++) {
    if (!(grid[g - node] & GRID) || t.gone[g]) continue;
    const kids = elementChildren(t, g);
    const kinds = new Map<string, number>();
    for (const c of kids) if (grid[c - node] & PRICED) kinds.set(signature(t.els[c]), (kinds.get(signature(t.els[c])) ?? 0) + 1);
    const cards = [...kinds].filter(([, n]) => n >= PRICED_CARDS);
    if (cards.length !== 1 || cards[0][1] < GRID_SHARE * kids.length) continue;
    const tag = t.els[kids.find((c) => signature(t.els[c]) === cards[0][0])!].name;
    for (const c of kids) if (t.els[c].name === tag && signature(t.els[c]) !== cards[0][0] && banner(t, c)) out.push(c);
  }
  return out;
}

/** Whether the tile `c` holds a heading and a paragraph of prose, in at most BANNER_TEXT characters. */
function banner(t: Tree, c: number): boolean {
  if (t.txt[c] + t.lnk[c] > BANNER_TEXT) return false;
  let heading = false;
  let pitch = false;
  const last = subtreeEnd(t, c);
  for (let i = c + 1; i <= last; i++) {
    if (t.gone[i]) continue;
    if (HEADINGS.has(t.els[i].name)) heading = true;
    else if (t.els[i].name === 'p' && t.txt[i] >= PITCH) pitch = true;
  }
  return heading && pitch;
}
