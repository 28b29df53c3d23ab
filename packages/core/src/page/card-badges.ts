// The badges on the cards of a shop's grid of priced cards (left-out.ts): "New", "Best seller",
// "Sale!", "Top Rated", printed over the card's picture or beside its name, marketing's flags and not
// the item's name, options or price.
import { HEADINGS, subtreeEnd, textOf, type Tree } from './content-tree.ts';
import { gridCards } from './cards.ts';
import { PRICE } from './prices.ts';

/**
 * A badge's name, a whole word of its class, id or data attribute's name (`product-badge`,
 * `sale-flag`, `tag_tag__x1`, `productBadgeWr`, `data-product-badge`, `ribbon`, `sticker`), camelCase
 * split; not `tagline`, nor `label`, which names a price's or a colour's caption too.
 */
const BADGE = /(?:^|[^a-z])(?:badges?|flags?|tags?|ribbons?|stickers?)(?![a-z])/;
/**
 * A badge's whole text, however the block is named (a CSS module's hashed classes say nothing): the
 * shop's flags of popularity and novelty ("Top Rated", "Best seller", "Award Winner", "New arrival",
 * "Back in stock", "Last chance"); not "Sale" or "Sold out", which say what the item costs or whether
 * it can be had.
 */
const BADGE_WORDS = /^(?:#\d+ )?(?:top[- ]rated|best[- ]?sellers?|award[- ]winner|new arrivals?|back in stock|last chance|staff picks?)!?$/;
/** A badge is at most this long (characters). */
const BADGE_TEXT = 30;

/** Whether the element's class, id or data attribute names call it a badge. */
function badgeNamed(a: Record<string, string>): boolean {
  const names = [a.class ?? '', a.id ?? '', ...Object.keys(a).filter((k) => k.startsWith('data-'))].join(' ');
  return BADGE.test(names.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
}

/**
 * The badges inside the cards of the shop's grids of priced cards inside `node`: blocks named as a
 * badge (BADGE) whose text is at most BADGE_TEXT characters, holding no link text, no heading and no
 * price (the card's name and price are its content; a "Save $20" is no badge of this kind).
 */
export function cardBadges(t: Tree, node: number): number[] {
  const out: number[] = [];
  for (const c of gridCards(t, node)) {
    const last = subtreeEnd(t, c);
    for (let i = c + 1; i <= last; i++) {
      if (t.gone[i]) {
        i = subtreeEnd(t, i);
        continue;
      }
      const el = t.els[i];
      if (t.txt[i] === 0 || t.txt[i] > BADGE_TEXT || t.lnk[i] > 0 || !(badgeNamed(el.attribs) || BADGE_WORDS.test(textOf(el, BADGE_TEXT + 10)))) continue;
      const end = subtreeEnd(t, i);
      let heading = false;
      for (let k = i; k <= end && !heading; k++) heading = HEADINGS.has(t.els[k].name);
      if (heading || PRICE.test(textOf(el, BADGE_TEXT + 10))) continue;
      out.push(i);
      i = end;
    }
  }
  return out;
}
