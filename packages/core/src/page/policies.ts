// A shop's shipping and returns policy shown beside a product (main-content.ts): a disclosure — an
// accordion item, a `<details>`, a collapsible section, a side sheet's button — titled "Shipping &
// Returns", "Delivery & Returns", "Shipping, Returns & Warranty". What it says is the shop's terms for
// every product (delivery fees and times, the return window), not this product's description; it is
// returned with the shop's parts, which the markdown leaves out and the model input keeps. So are its
// selling points and the warranty or protection plan it offers beside the buy box.
import type { Element } from 'domhandler';
import { signature, textOf, weight, type Tree } from './content-tree.ts';
import { PRICED_CARDS } from './prices.ts';

/** A disclosure's whole title (lower-cased): shipping, delivery, returns, exchanges, refunds, with warranty or payment beside them. */
const POLICY =
  /^(?:(?:free|fast|easy) )*(?:shipping|delivery|returns?|exchanges?|refunds?|warranty|payments?)(?:\s*(?:&|and|,|\+|\/)\s*(?:(?:free|fast|easy) )*(?:shipping|delivery|returns?|exchanges?|refunds?|warranty|payments?))*(?: (?:info|information|policy|policies|details|options))?[\s:.]*$/;
/** ... that names shipping or returns (a warranty alone can be the product's own). */
const SHIPPING = /shipping|delivery|return|exchange|refund/;
/** Class words of a disclosure's title or trigger. */
const TRIGGER_CLASS = /(?:^|[-_\s])(?:trigger|toggle|summary|tab|accordion|collapsible|collapse|expander|disclosure)(?:$|[-_\s])/i;
/** The title is this short (characters). */
const MAX_TITLE = 60;
/** The policy holds at most this share of the content. */
const MAX_SHARE = 0.3;

/**
 * Whether `i` (or an element inside it) is a disclosure's trigger: a `<summary>`, a button (by tag or
 * role), a tab, a control wired to its panel (`aria-expanded`, `aria-controls`) or a block named so
 * (`accordion-title`, `Collapsible__trigger`). A plain heading is not: a section the page shows under
 * "Delivery" (the seller and the delivery estimate) is the page's own.
 */
function isTrigger(t: Tree, i: number): boolean {
  const last = t.last[i];
  for (let k = i; k <= last; k++) {
    const el = t.els[k];
    const a = el.attribs;
    if (el.name === 'summary' || el.name === 'button') return true;
    if (a.role === 'button' || a.role === 'tab' || a['aria-expanded'] !== undefined || a['aria-controls'] !== undefined) return true;
    if (a.class !== undefined && TRIGGER_CLASS.test(a.class)) return true;
  }
  return false;
}

/**
 * On a product page, the shop's shipping and returns disclosures inside the content `node`: the
 * outermost element whose whole text is such a title and that is (or holds) a trigger, with the
 * panel after it — their parent when it holds nothing else of the kind (an accordion item, a
 * `<details>`), else the title and its next siblings up to the next title like it (a flat list of
 * titles and panels). Not a block holding the page's title nor more than MAX_SHARE of the content.
 */
export function policies(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  const last = t.last[node];
  // (a trigger set aside as a control, a `<button>`, still titles the panel after it)
  for (let i = node + 1; i <= last; i++) {
    const p = t.parent[i];
    if (p === -1 || t.gone[p]) continue;
    const text = textOf(t.els[i]);
    if (text.length === 0 || text.length > MAX_TITLE || !POLICY.test(text) || !SHIPPING.test(text) || !isTrigger(t, i)) continue;
    const sig = signature(t.els[i]);
    const siblings: number[] = [];
    for (const c of t.els[p].children) if (c.type === 'tag') siblings.push(t.index.get(c as Element)!);
    const alike = siblings.filter((c) => c !== i && signature(t.els[c]) === sig && textOf(t.els[c]) !== '');
    let found: number[];
    if (p !== node && alike.length === 0 && siblings[0] === i) found = [p];
    else {
      found = [i];
      for (const c of siblings.filter((c) => c > i)) {
        if (signature(t.els[c]) === sig) break;
        found.push(c);
      }
    }
    found = found.filter((k) => !t.gone[k]);
    if (found.length === 0 || found.some(holdsTitle) || found.reduce((s, k) => s + weight(t, k), 0) > MAX_SHARE * whole) continue;
    out.push(...found);
    i = t.last[found[found.length - 1]];
  }
  return out;
}

/** A selling point's text that promises free or fast shipping or easy returns ("Fast & Free Shipping.", "30-day returns"). */
const SELLING_POINT =
  /\b(?:free|fast|express|same[- ]day|next[- ]day)\b(?: [&\w-]+){0,3}? (?:shipping|delivery|returns?)\b|\b(?:easy|free|hassle[- ]free|\d+[- ]days?)(?: [&\w-]+)?? returns?\b|\breturns? (?:are )?(?:always )?free\b/;
/** ... said at the start of its item (its title, not a customer's review mentioning fast delivery). */
const PROMISE_AT = 20;
/** A row of selling points has this many items... */
const POINTS = [2, 6];
/** ... each at most this long (characters), with links for at most a quarter of its text. */
const POINT_TEXT = 200;

/**
 * On a product page, the shop's row of selling points inside the content `node`: a block of two to
 * six like items (same tag and classes) and nothing else, each a short text with few links (an icon,
 * a line, a sentence under it), one of which begins by promising free or fast shipping or easy returns ("Fast &
 * Free Shipping.", "Same day shipping if ordered by 4PM", "Swaps Are Always Free") — the shop's
 * promises beside every product, as the `usp` blocks named so are; with the wrappers around it that
 * hold nothing else. Not a block holding the page's title, nor one of PRICED_CARDS or more like it
 * (every card of a grid saying "Free shipping" under its price).
 */
export function sellingPoints(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const last = t.last[node];
  for (let i = node + 1; i <= last; i++) {
    if (t.gone[i]) {
      i = t.last[i];
      continue;
    }
    const items: number[] = [];
    let other = false;
    for (const c of t.els[i].children) {
      if (c.type === 'text') other ||= c.data.trim() !== '';
      if (c.type !== 'tag') continue;
      const k = t.index.get(c as Element)!;
      if (!t.gone[k] && t.txt[k] + t.lnk[k] > 0) items.push(k);
    }
    if (other || items.length < POINTS[0] || items.length > POINTS[1] || holdsTitle(i)) continue;
    const sig = signature(t.els[items[0]]);
    if (!items.every((k) => signature(t.els[k]) === sig && t.txt[k] + t.lnk[k] <= POINT_TEXT && t.lnk[k] <= 0.25 * (t.txt[k] + t.lnk[k]))) continue;
    if (!items.some((k) => (SELLING_POINT.exec(textOf(t.els[k]))?.index ?? PROMISE_AT) < PROMISE_AT)) continue;
    let a = i;
    while (t.parent[a] > node && t.txt[t.parent[a]] + t.lnk[t.parent[a]] === t.txt[i] + t.lnk[i] && !holdsTitle(t.parent[a])) a = t.parent[a];
    out.push(a);
    i = t.last[a];
  }
  // (a line every card of a grid carries, "$3.99 Free international shipping", is the card's)
  const count = new Map<string, number>();
  for (const a of out) count.set(signature(t.els[a]), (count.get(signature(t.els[a])) ?? 0) + 1);
  return out.filter((a) => count.get(signature(t.els[a]))! < PRICED_CARDS);
}

/** Class words of a warranty or protection plan offered with the product (`warranty-container`, `warranties_gIOV`, `protection-plan-section`). */
const PLAN = /(?:^|[-_\s])(?:warranty|warranties|protection-?plans?)(?:$|[-_\s])/;
/** ... holding at most this much text (characters): an offer, not a warranty's terms in a tab of its own. */
const PLAN_TEXT = 500;

/**
 * On a product page, the warranty or protection plan the shop offers beside the buy box ("Add a
 * protection plan from $79.99", "FREE 2-Year Total Confidence Coverage Warranty"): an add-on the
 * shop sells or gives with every product, not this product's description. The topmost blocks whose
 * class says so, holding at most PLAN_TEXT characters and not the page's title. Not by id: an id
 * names a section by its subject (`id="warranty"`, the maker's terms; `product-warranty`, a tab
 * the ground truths keep on one shop's page and leave out on another's).
 */
export function protectionPlans(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const last = t.last[node];
  for (let i = node + 1; i <= last; i++) {
    const c = t.els[i].attribs.class;
    if (c === undefined || !PLAN.test(c.toLowerCase())) continue;
    if (weight(t, i) <= PLAN_TEXT && !holdsTitle(i)) out.push(i);
    i = t.last[i];
  }
  return out;
}
