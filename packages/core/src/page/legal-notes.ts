// A product's legal notes inside the content (left-out.ts): the publisher's licence terms, trademark
// and copyright lines and account conditions a shop prints under a product's description and
// requirements, in a block named for them (`area_legal`, `product-legal`, a class word `legal`). What
// they say is the publisher's terms for every product it sells, not this product's description.
// (Named `legal-copy`, `legal-notice` or `small-legal`, such a block is chrome on any page:
// content-tree.ts; `legal-text`, `legal-link` are not this: a marketplace's credit notice, a link.)
import { named, weight, type Tree } from './content-tree.ts';

/** A class or id word ending in the word `legal` (`game_area_legal`, `product-legal`, `legal`). */
const LEGAL = /(?:^|[-_\s])legal(?:$|\s)/;
/** The notes hold at most this share of the content. */
const MAX_SHARE = 0.5;

/**
 * On a product page, the blocks inside the content `node` named as legal notes, under MAX_SHARE of
 * the content and not holding the page's title (`holdsTitle`).
 */
export function legalNotes(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const whole = weight(t, node);
  return named(t, node, LEGAL).filter((i) => !holdsTitle(i) && weight(t, i) <= MAX_SHARE * whole);
}
