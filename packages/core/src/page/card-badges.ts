// The badges on the cards of a shop's grid of priced cards (left-out.ts): "New", "Best seller",
// "Sale!", "Top Rated", printed over the card's picture or beside its name, marketing's flags and not
// the item's name, options or price; and the field names every card's description list repeats.
import { HEADINGS, subtreeEnd, textOf, type Tree } from './content-tree.ts';
import { pricedCards } from './cards.ts';
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

/** Laid over the card's picture: positioned absolutely, by a utility class or an inline style. */
const overPicture = (a: Record<string, string>) => /(?:^|\s)absolute(?:\s|$)/.test(a.class ?? '') || /position:\s*absolute/i.test(a.style ?? '');

/** Over the picture, unnamed, a flag saying the item is on sale or sold out is kept: it says what the item costs or whether it can be had. */
const OFFER = /\bsale\b|sold out/;

/** Whether the element's class, id or data attribute names call it a badge. */
function badgeNamed(a: Record<string, string>): boolean {
  const names = [a.class ?? '', a.id ?? '', ...Object.keys(a).filter((k) => k.startsWith('data-'))].join(' ');
  return BADGE.test(names.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
}

/**
 * The badges inside the cards of the shop's grids of priced cards inside `node` (pricedCards: a card
 * linking to the item's other colours or its brand's page too): blocks named as a
 * badge (BADGE), saying one (BADGE_WORDS) or laid over the picture, whose text is at most BADGE_TEXT
 * characters, holding no link, no heading and no price (the card's name and price are its content; a
 * "Save $20" is no badge of this kind); inside the card's image link is where one often sits.
 */
export function cardBadges(t: Tree, node: number): number[] {
  const out: number[] = [];
  for (const c of pricedCards(t, node)) {
    const last = subtreeEnd(t, c);
    for (let i = c + 1; i <= last; i++) {
      if (t.gone[i]) {
        i = subtreeEnd(t, i);
        continue;
      }
      const el = t.els[i];
      const chars = t.txt[i] + t.lnk[i];
      const text = textOf(el, BADGE_TEXT + 10);
      if (chars === 0 || chars > BADGE_TEXT || !(badgeNamed(el.attribs) || (overPicture(el.attribs) && !OFFER.test(text)) || BADGE_WORDS.test(text))) continue;
      // (inside the card's link is where a badge over its picture sits; a link of its own is the card's)
      const end = subtreeEnd(t, i);
      let part = false;
      for (let k = i; k <= end && !part; k++) part = HEADINGS.has(t.els[k].name) || t.els[k].name === 'a';
      if (part || PRICE.test(text)) continue;
      out.push(i);
      i = end;
    }
  }
  return out;
}

/** A term every card repeats: in this share of the grid's cards or more... */
const TERM_SHARE = 0.8;
/** ... and in this many at least. */
const TERM_CARDS = 5;

/**
 * The terms of the description lists inside the cards of the shop's grids of priced cards inside
 * `node` (pricedCards) that every card repeats, the same (`<dl><dt>Brand Name</dt><dd>Saucony</dd><dt>Price</dt>…`):
 * the names of the fields each card fills, which the page styles as hidden labels, not what the card
 * says about its item (its values, the `<dd>`s, stay).
 */
export function cardTerms(t: Tree, node: number): number[] {
  const cards = pricedCards(t, node);
  const byText = new Map<string, { holding: Set<number>; terms: number[] }>();
  for (const c of cards) {
    const last = subtreeEnd(t, c);
    for (let i = c + 1; i <= last; i++) {
      if (t.gone[i] || t.els[i].name !== 'dt') continue;
      const text = textOf(t.els[i], BADGE_TEXT + 10);
      if (text === '' || text.length > BADGE_TEXT) continue;
      const entry = byText.get(text) ?? { holding: new Set<number>(), terms: [] };
      entry.holding.add(c);
      entry.terms.push(i);
      byText.set(text, entry);
    }
  }
  const out: number[] = [];
  for (const { holding, terms } of byText.values()) if (holding.size >= TERM_CARDS && holding.size >= TERM_SHARE * cards.length) out.push(...terms);
  return out;
}
