// A product page's FAQ section inside the content (left-out.ts): the shop's questions and answers
// about ordering, shipping, returns and the product line ("When will my order arrive?", "Does it
// need Wi-Fi?"), under a heading or a label whose whole text says so ("Frequently asked questions",
// "FAQs", "Common questions"). Ground truths of product pages mostly leave it out with the buy box
// and the delivery notes; a category's or a service page's FAQ is its content and stays.
import { subtreeEnd, textOf, weight, type Tree } from './content-tree.ts';
import { headingLevel as level, holdsRankedHeading } from './rails.ts';
import { holdingText } from './text-marks.ts';

/** The whole text of an FAQ's heading. */
const FAQ = /^(?:[^\s?]+ ){0,3}(?:faqs?|f\.\s?a\.\s?q\.?s?|(?:frequently asked|common|customer) questions|questions (?:&|and) answers)[\s:.!?]*$/;
/** A word of such a heading, looked for in text nodes first. */
const FAQ_WORD = /faq|f\.\s?a|question/i;
/** A label (no heading) naming the section holds at most this many characters. */
const LABEL_MAX = 40;
/** The section holds at most this share of the content. */
const MAX_SHARE = 0.5;

/**
 * On a product page, the FAQ sections inside the content `node`: the largest block around a heading
 * (or a label outside links, of at most LABEL_MAX characters) whose whole text names an FAQ, holding
 * no other heading of its rank or above (a label ranks as an h2), at most MAX_SHARE of the content
 * and not the page's title (`holdsTitle`).
 */
export function productFaqs(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const last = subtreeEnd(t, node);
  const whole = weight(t, node);
  const out: number[] = [];
  const marks = holdingText(t, node, FAQ_WORD);
  for (let i = node + 1; i <= last; i++) {
    if (!marks[i - node]) {
      i = subtreeEnd(t, i);
      continue;
    }
    const el = t.els[i];
    const chars = t.txt[i] + t.lnk[i];
    // (a heading may link to its own panel, an accordion's or a tab's title; a label in a link is a menu's)
    if (t.gone[i] || chars === 0 || chars > LABEL_MAX || (t.lnk[i] > 0 && !level(el))) continue;
    const name = textOf(el, LABEL_MAX + 10);
    if (!FAQ.test(name)) continue;
    const rank = level(el) || 2;
    let a = i;
    // (the label's own wrappers, holding its text alone)
    for (let p = t.parent[a]; p !== node && p !== -1 && t.txt[p] + t.lnk[p] === chars; p = t.parent[p]) a = p;
    for (
      let p = t.parent[a];
      p !== node && p !== -1 && !holdsTitle(p) && weight(t, p) <= MAX_SHARE * whole && !holdsRankedHeading(t, p, rank, i, { withText: true });
      p = t.parent[p]
    )
      a = p;
    if (t.txt[a] + t.lnk[a] > chars) out.push(a);
    i = subtreeEnd(t, i);
  }
  return out;
}
