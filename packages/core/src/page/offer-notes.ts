// Notes under a page's text, each opening with the footnote mark it explains: a shop's fine print on
// the offers it advertises (financing, coupons: "‡ Subject to credit approval…", "^° Not combinable
// with other offers…"), a wiki's references ("^ a b Lundestad, Geir (2001)…"). Found inside the main
// content (left-out.ts).
import type { AnyNode, Element } from 'domhandler';
import { subtreeEnd, textOf, type Tree } from './content-tree.ts';
import { GRID, HOLDS_GRID, inPricedCard, PRICED, pricedGrids } from './link-blocks.ts';

/** A note's opening footnote mark (a dagger, a double dagger, a section sign, a lozenge, a caret or a
 * degree sign, an asterisk after one of them) and the start of its text. */
const NOTE = /^[†‡§◊^°][†‡§◊^°*]*\s*[\p{L}"“$]/u;
/** The blocks a note is written in. */
const BLOCKS = new Set(['p', 'li', 'div', 'dd']);
/** Notes, this many or more: one alone can be a line of the text ("§ Only available with $5k cover. † For pets aged 8+."). */
const MIN_NOTES = 2;

/**
 * The outermost blocks (paragraphs, list items, `<div>`s, `<dd>`s) inside the content `node` whose
 * text opens with a footnote mark and whose child blocks are notes too (a `<div>` whose first
 * paragraph is a note and the next the page's text gives its notes alone), when there are MIN_NOTES of them or more: the notes the page's
 * marks point to, not its text. Not a note inside a card of a grid of priced cards (the card's own
 * "† Limited time"), nor a block holding a grid.
 */
export function offerNotes(t: Tree, node: number): number[] {
  const grid = pricedGrids(t, node);
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    if (t.gone[i] || !BLOCKS.has(t.els[i].name) || grid[i - node] & (GRID | HOLDS_GRID)) continue;
    if (!NOTE.test(textOf(t.els[i], 40)) || inPricedCard(t, node, grid, i)) continue;
    // (a block whose first note is followed by blocks of text that are not notes: its notes are found inside it)
    if (mixed(t, i)) continue;
    out.push(i);
    i = subtreeEnd(t, i);
  }
  return out.length >= MIN_NOTES ? out : [];
}

/** Whether block `i` holds a child block with text that does not open with a footnote mark. */
function mixed(t: Tree, i: number): boolean {
  for (const c of t.els[i].children) if (c.type === 'tag' && BLOCKS.has(c.name) && /\S/.test(textOf(c, 40)) && !NOTE.test(textOf(c, 40))) return true;
  return false;
}

/** Print a page sets small (`<small>`, the HTML element for side comments such as small print; `<sub>`, written for it). */
const SMALL = new Set(['small', 'sub']);
/** Fine print holds this many characters or more: a sentence, not a "from" before a price. */
const FINE_PRINT = 40;

/**
 * The characters (spaces aside) of `el`'s text when all of them are set small, or -1 as soon as one
 * is not: a block of ordinary text is given up at its first word, not read whole.
 */
function smallOnly(el: Element): number {
  let small = 0;
  const stack: [AnyNode, boolean][] = [[el, false]];
  while (stack.length) {
    const [n, inSmall] = stack.pop()!;
    if (n.type === 'text') {
      const k = n.data.replace(/\s+/g, '').length;
      if (k > 0 && !inSmall) return -1;
      small += k;
    } else if (n.type === 'tag') for (const c of n.children) stack.push([c, inSmall || SMALL.has(n.name)]);
  }
  return small;
}

/**
 * On a shop's category page (the content `node` holds a grid of priced cards), a paragraph set wholly
 * in small print (`<p><sub>Sale ends 03/31. While supplies last. Use coupon code SPRING at
 * checkout.</sub></p>`) outside the grid's cards: an offer's terms.
 */
export function finePrint(t: Tree, node: number): number[] {
  const grid = pricedGrids(t, node);
  if (!(grid[0] & (GRID | HOLDS_GRID))) return [];
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    if (t.gone[i] || !BLOCKS.has(t.els[i].name) || grid[i - node] & (GRID | HOLDS_GRID | PRICED)) continue;
    if (smallOnly(t.els[i]) < FINE_PRINT) continue;
    out.push(i);
    i = subtreeEnd(t, i);
  }
  return out;
}
