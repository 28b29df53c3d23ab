// A card's second link to its item, taken out of the tab order (`tabindex="-1"`), whose words mostly
// repeat the first link's: the keyboard and screen readers skip it because the first one says it all
// (`<a href="/p/1">Topo Athletic - ST-5. Color Grey. On sale for $108.00…</a>` … `<a tabindex="-1"
// href="/p/1"><dl>…Topo Athletic…ST-5…Grey…$108…</dl></a>`). Found inside the main content (left-out.ts).
import type { AnyNode, Element } from 'domhandler';
import { subtreeEnd, type Tree } from './content-tree.ts';

/** The repeat's words found in the first link's, at least this share. */
const REPEATED = 0.7;
/** A card holds at most this many elements (a bound on the work: a grid is not a card). */
const MAX_CARD = 300;
/** A repeat holds this many words or more (a lone "Shop" is a control, cards.ts's). */
const MIN_WORDS = 3;
/** Ancestors climbed from the repeat to find the card holding the first link. */
const UP = 4;
/**
 * An element's words, lower-cased, from its first 200 text nodes, its elements' texts kept apart; not
 * the words of an `<svg>` nor of a `<dt>` (a list's field names, "Color", "Price", which the first
 * link does not print).
 */
function words(el: Element): string[] {
  const parts: string[] = [];
  const stack: AnyNode[] = [el];
  while (stack.length && parts.length < 200) {
    const n = stack.pop()!;
    if (n.type === 'text') parts.push(n.data);
    else if (n.type === 'tag' && n.name !== 'svg' && n.name !== 'dt') for (let c = n.children.length - 1; c >= 0; c--) stack.push(n.children[c]);
  }
  return (
    parts
      .join(' ')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Whether REPEATED of `own`'s words (each counted as often as it occurs) are among `theirs`. */
function repeated(own: string[], theirs: string[]): boolean {
  const left = new Map<string, number>();
  for (const w of theirs) left.set(w, (left.get(w) ?? 0) + 1);
  let seen = 0;
  for (const w of own) {
    const c = left.get(w) ?? 0;
    if (c > 0) {
      seen++;
      left.set(w, c - 1);
    }
  }
  return seen >= REPEATED * own.length;
}

/** The links inside the content `node` out of the tab order whose words mostly repeat those of another link to the same place beside them (in their card: UP ancestors at most), one in the tab order. */
export function repeatLinks(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (t.gone[i] || el.name !== 'a' || el.attribs.tabindex !== '-1' || !el.attribs.href) continue;
    const own = words(el);
    if (own.length < MIN_WORDS) continue;
    // (the nearest ancestor, UP at most, holding another link to the same place, in the tab order)
    const end = subtreeEnd(t, i);
    let first = -1;
    for (let card = t.parent[i], k = 0; k < UP && card > node && first === -1; k++, card = t.parent[card]) {
      const cardEnd = subtreeEnd(t, card);
      if (cardEnd - card > MAX_CARD) break;
      for (let j = card + 1; j <= cardEnd && first === -1; j++) {
        if (j === i) {
          j = end;
          continue;
        }
        const a = t.els[j];
        if (!t.gone[j] && a.name === 'a' && a.attribs.href === el.attribs.href && a.attribs.tabindex !== '-1') first = j;
      }
    }
    if (first !== -1 && repeated(own, words(t.els[first]))) out.push(i);
    i = subtreeEnd(t, i);
  }
  return out;
}
