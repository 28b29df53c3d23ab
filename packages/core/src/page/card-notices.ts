// The shop's notices on the cards of its grid of priced cards (left-out.ts): "In stock", "Free
// shipping", "Sale ends Mar 9", "Offer valid Dec. 17 - Jan. 7" — what the shop says of its stock,
// delivery and this week's offer under each item, not the item's name, options or price.
import { HEADINGS, subtreeEnd, textOf, type Tree } from './content-tree.ts';
import { pricedCards } from './cards.ts';

/**
 * A notice's whole text: the item in stock (not "Out of stock", "Sold out" or "Only 2 left", which say
 * whether it can be had at all), its delivery free, the end or the dates of the offer on it (a date
 * of at most eight words after "Sale ends", "Offer valid"); the first two in French, German, Dutch,
 * Italian and Spanish too ("En stock", "Auf Lager", "Op voorraad", "Livraison offerte", "Envío gratis").
 */
const NOTICE =
  /^(?:in stock|low stock|free (?:shipping|delivery)|en stock|auf lager|op voorraad|in magazzino|livraison (?:offerte|gratuite)|kostenloser versand|envío gratis|spedizione gratuita|gratis verzending|(?:(?:sale|offer|deal) ends|offers? valid)(?: \S+){1,8})$/;
/** A notice is at most this long (characters). */
const NOTICE_TEXT = 50;

/**
 * The blocks inside the cards of the shop's grids of priced cards inside `node` (pricedCards) whose
 * whole text is a notice (NOTICE) of at most NOTICE_TEXT characters, holding no link and no heading.
 */
export function cardNotices(t: Tree, node: number): number[] {
  return pricedCards(t, node).flatMap((c) => notices(t, c));
}

/** The notices inside the card `c`. */
function notices(t: Tree, c: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, c);
  for (let i = c + 1; i <= last; i++) {
    if (t.gone[i]) {
      i = subtreeEnd(t, i);
      continue;
    }
    const chars = t.txt[i] + t.lnk[i];
    if (chars === 0 || chars > NOTICE_TEXT || t.lnk[i] > 0 || !NOTICE.test(textOf(t.els[i], NOTICE_TEXT + 10))) continue;
    const end = subtreeEnd(t, i);
    let part = false;
    for (let k = i; k <= end && !part; k++) part = HEADINGS.has(t.els[k].name) || t.els[k].name === 'a';
    if (part) continue;
    out.push(i);
    i = end;
  }
  return out;
}
