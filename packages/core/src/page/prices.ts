// Prices in a page's text: the pattern link-blocks.ts's grids of priced cards are found by, and the
// same test on the DOM before the tree is measured (content-tree.ts).
import type { AnyNode, Element, Text } from 'domhandler';

/** A price: a currency sign or code next to an amount (`$30`, `£1,099.00`, `44,99€`, `1305,02 лв`; `$  2,099` as
 * a template's indented markup writes it). */
export const PRICE = /(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|CAD|AUD)\b)\s{0,4}\d|\d(?:[.,]\d{2})?\s?(?:[€£₽]|\b(?:лв|kr|zł|Kč|Ft|lei|CHF|EUR|USD)(?![\p{L}]))/u;
/** Cards of one kind (same tag and classes), each holding a price, this many or more under one parent: a shop's grid. */
export const PRICED_CARDS = 5;

/**
 * Whether `el` holds a grid of priced cards: PRICED_CARDS or more like children (same signature) of
 * one element by `signature` (content-tree.ts's), each holding a price in its text (its own text's
 * pieces joined, as grids() reads them).
 */
export function holdsPricedGrid(el: Element, signature: (el: Element) => string): boolean {
  let found = false;
  const priced = (e: Element): boolean => {
    let own = '';
    let any = false;
    const count = new Map<string, number>();
    for (const c of e.children) {
      if (c.type === 'text') own += (c as Text).data;
      else if (c.type === 'tag' && isShown(c)) {
        if (!priced(c as Element)) continue;
        any = true;
        const sig = signature(c as Element);
        const n = (count.get(sig) ?? 0) + 1;
        count.set(sig, n);
        if (n >= PRICED_CARDS) found = true;
      }
    }
    return any || (own !== '' && PRICE.test(own));
  };
  priced(el);
  return found;
}

const isShown = (c: AnyNode) => (c as Element).name !== 'script' && (c as Element).name !== 'style' && (c as Element).name !== 'template';
