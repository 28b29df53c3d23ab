// Copies inside the main content (main-content.ts): blocks whose text repeats an earlier block's
// (responsive mobile/desktop copies, cloned slides, quoted posts, a shop card's title or price
// printed twice), to be left out.
import type { Element } from 'domhandler';
import { gridCards, hiddenInCard } from './cards.ts';
import { elementChildren, HEADINGS, isAncestor, subtreeEnd, type Tree } from './content-tree.ts';
import { PRICE } from './prices.ts';
import { NearCopies } from './near-copies.ts';
import { screenTwins } from './screen-twins.ts';
import type { PageType } from './page-type.ts';

/** A block repeating this many characters (or more) of text already seen is a copy. */
const MIN_COPY = 30;
/** Blocks longer than this are not compared (a bound on the work). */
const MAX_COPY = 20000;
/** A block this long is a copy however often it repeats; a shorter one only when it occurs twice. */
const LONG_COPY = 100;
/** Class words of a part shown on some screens only (responsive copies, hidden variants; a framework's prefixed `wt-show-lg`, `u-hide-md`). */
const SCREEN =
  /^(?!is-|has-)(?:[\w-]*[-_])?(?:mobile|desktop|tablet)(?:[-_][\w-]*)?$|^(?:hidden|visible|hide|show)(?:-[\w-]+)?$|^(?:hidden|visible|hide|show)-for-|^d-(?:sm-|md-|lg-|xl-)?none$|^(?:sm|md|lg|xl):hidden$|^[a-z]{1,4}-(?:hidden|visible|hide|show)-(?:xs|sm|md|lg|xl|xxl)$/;
const ROW = new Set(['tr', 'td', 'th', 'tbody', 'thead']);
/** A block holding two like headings is a card when its text is at most this many times as long as one of them. */
const CARD = 8;

/** The nearest common ancestor of `a` and `b`. */
function common(t: Tree, a: number, b: number): number {
  while (!isAncestor(t, a, b)) a = t.parent[a];
  return a;
}
const onSomeScreens = (cls: string) => cls.split(/\s+/).some((w) => SCREEN.test(w.toLowerCase()));

/**
 * Blocks inside the content whose text repeats an earlier block's: responsive pages render the same
 * part twice (a desktop and a mobile buy box, a carousel's cloned slides, a sticky copy of the title).
 * Texts are compared without whitespace, case folded; a block is compared with what came before it,
 * never with its own ancestors.
 */
export function duplicates(t: Tree, node: number, type: PageType): number[] {
  const out: number[] = [];
  // Each element's text, bottom-up (elements are in pre-order: children come after their parent).
  const last = subtreeEnd(t, node);
  const text: (string | null)[] = new Array(last - node + 1).fill(null);
  for (let i = last; i >= node; i--) {
    if (t.gone[i]) {
      text[i - node] = '';
      continue;
    }
    let s = '';
    for (const c of t.els[i].children) {
      if (c.type === 'text') s += c.data.replace(/\s+/g, '').toLowerCase();
      else if (c.type === 'tag') {
        const k = t.index.get(c as Element);
        if (k === undefined) continue;
        const ks = text[k - node];
        if (ks === null) {
          s = '';
          break;
        }
        s += ks;
      }
      if (s.length > MAX_COPY) break;
    }
    text[i - node] = s.length > MAX_COPY || (s === '' && t.txt[i] + t.lnk[i] > 0) ? null : s;
  }
  // How often each text occurs (once per element whose parent's text differs): a short line repeated
  // in every card of a grid is the cards' content, a short block seen exactly twice is a copy.
  const count = new Map<string, number>();
  for (let i = node + 1; i <= last; i++) {
    const s = text[i - node];
    if (s && s.length >= MIN_COPY && text[t.parent[i] - node] !== s) count.set(s, (count.get(s) ?? 0) + 1);
  }
  // Blocks inside a part shown on some screens only (a mobile copy, a hidden variant).
  const screen = new Uint8Array(last - node + 1);
  for (let i = node + 1; i <= last; i++) {
    const c = t.els[i].attribs.class;
    screen[i - node] = screen[t.parent[i] - node] || (c !== undefined && onSomeScreens(c) ? 1 : 0);
  }
  if (type !== 'product') out.push(...cardCopies(t, node, text));
  out.push(...titleLinkCopies(t, node, text, out));
  // (a narrower screen's layout of a block, left out in favour of the widest's, whichever comes first: not the copy seen first)
  const narrow = new Set(screenTwins(t, node));
  out.push(...narrow);
  const seen = new Set<string>();
  // (the first block of each text, for cardTwin())
  const first = new Map<string, number>();
  // The last heading: a heading repeating its text with no other heading between, both in a small
  // block (a card), is a copy (a card's title rendered twice, once for a picture-less layout), however
  // short; a tab's label repeated as its panel's heading is not.
  let heading = -1;
  // (blocks saying nearly what an earlier one said: near-copies.ts)
  const near = type === 'product' ? new NearCopies(t) : null;
  // Pre-order with exit markers (-1 - i): a block's text joins `seen` when its subtree is done.
  const stack = [node];
  while (stack.length) {
    const i = stack.pop()!;
    if (narrow.has(i)) continue;
    if (i < 0) {
      const s = text[-1 - i - node];
      if (s && s.length >= MIN_COPY) seen.add(s);
      if (s && s.length >= MIN_TWIN && !first.has(s)) first.set(s, -1 - i);
      if (s && near && text[t.parent[-1 - i] - node] !== s) near.add(-1 - i, s);
      continue;
    }
    const s = text[i - node];
    if (s && s.length >= MIN_TWIN && first.has(s) && cardTwin(t, node, text, first.get(s)!, i)) {
      out.push(i);
      continue;
    }
    if (s && HEADINGS.has(t.els[i].name)) {
      if (heading !== -1 && s === text[heading - node] && (text[common(t, heading, i) - node] ?? '').length <= CARD * s.length) {
        out.push(i);
        continue;
      }
      heading = i;
    }
    if (
      s &&
      s.length >= MIN_COPY &&
      seen.has(s) &&
      (screen[i - node] ||
        type === 'forum' ||
        t.els[i].name === 'blockquote' ||
        (type !== 'documentation' && s.length >= LONG_COPY && count.get(s) === 2 && !ROW.has(t.els[i].name)) ||
        (type !== 'documentation' && s.length >= LONG_COPY && !ROW.has(t.els[i].name) && besideTwin(t, node, text, i)))
    ) {
      out.push(i);
      continue;
    }
    if (s && near && !seen.has(s) && !ROW.has(t.els[i].name) && text[t.parent[i] - node] !== s && near.repeats(i, s, (a) => unlikeItems(t, a, i))) {
      out.push(i);
      continue;
    }
    stack.push(-1 - i);
    const kids = elementChildren(t, i);
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return out;
}

/**
 * A card's title link printed again outside its heading, to the same page with the same words (a
 * link over the whole card for screen readers and clicks, `<a href="/p/1" class="story__link">Title</a>`
 * before `<h2><a href="/p/1">Title</a></h2>`), inside one card (a common ancestor whose text is at
 * most CARD times the title's): the heading's is the title, the other a copy; unless the heading is
 * itself one of the `copies` found (a shop card's heading repeating its picture's link). `text`: each
 * element's text from `node`, as duplicates() reads it.
 */
function titleLinkCopies(t: Tree, node: number, text: (string | null)[], copies: number[]): number[] {
  const last = subtreeEnd(t, node);
  const gone = new Set(copies);
  const copied = (h: number) => {
    for (let a = h; a > node; a = t.parent[a]) if (gone.has(a)) return true;
    return false;
  };
  const links = new Map<string, number[]>();
  const titles: [number, string][] = [];
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name !== 'a' || t.gone[i] || !el.attribs.href) continue;
    const s = text[i - node];
    if (!s || s.length < MIN_TWIN) continue;
    const key = `${el.attribs.href} ${s}`;
    let h = t.parent[i];
    while (h > node && !HEADINGS.has(t.els[h].name)) h = t.parent[h];
    if (h > node) {
      // (the heading's whole text is the link's: its title)
      if (text[h - node] === s && !copied(h)) titles.push([i, key]);
    } else (links.get(key) ?? links.set(key, []).get(key)!).push(i);
  }
  const out: number[] = [];
  for (const [i, key] of titles)
    for (const k of links.get(key) ?? []) if ((text[common(t, i, k) - node] ?? '').length <= CARD * text[i - node]!.length) out.push(k);
  return out;
}

/** A card's block repeated (its byline and date) this long or longer (characters, as duplicates() reads texts) is a copy. */
const MIN_TWIN = 10;
/** The blocks cardTwin() compares: a layout's parts, not a phrase's (a term in `code` repeated in one paragraph), list items or rows. */
const TWIN_TAGS = new Set(['div', 'section', 'header', 'footer', 'aside', 'p', 'figure', 'address']);

/**
 * Whether `i` repeats the earlier block `a` inside one card: the same tag and the same classes (not
 * empty), the same text, in a common ancestor whose text is at most CARD times as long (a card
 * printing its byline and date twice, for two layouts, one hidden by the stylesheet at each width;
 * CSS-in-JS classes share no word with a twin's, but a twin's are the same). Not list items or rows
 * (like items), not inside `a`; in two branches of the common ancestor unlike in tag or classes and
 * text (a card's two layouts, not two like cards or a carousel's cloned slides).
 */
function cardTwin(t: Tree, node: number, text: (string | null)[], a: number, i: number): boolean {
  const ea = t.els[a];
  const ei = t.els[i];
  const ca = ea.attribs.class?.trim();
  if (ea.name !== ei.name || !TWIN_TAGS.has(ei.name) || !ca || ca !== ei.attribs.class?.trim() || isAncestor(t, a, i)) return false;
  const c = common(t, a, i);
  if ((text[c - node] ?? '').length > CARD * text[i - node]!.length) return false;
  // (two layouts of one card, not two like cards: the branches of the common ancestor holding each differ in tag or classes)
  // that are not whole copies of each other (a carousel's cloned slides, left to the rules above)
  const ba = branch(t, c, a);
  const bi = branch(t, c, i);
  if (text[ba - node] === text[bi - node]) return false;
  return t.els[ba].name !== t.els[bi].name || (t.els[ba].attribs.class ?? '').trim() !== (t.els[bi].attribs.class ?? '').trim();
}

/** An element's tag and classes without digits (`card card--6` and `card card--8` are alike). */
const shape = (t: Tree, i: number) => `${t.els[i].name} ${(t.els[i].attribs.class ?? '').replace(/\d+/g, '').trim()}`;

/**
 * Whether blocks `a` and `i` are not like items: the paths down from their common ancestor differ in
 * length or in an element's tag or classes (two parts of a page, not two cards of a list or a grid
 * printing one template with another name and price).
 */
function unlikeItems(t: Tree, a: number, i: number): boolean {
  const c = common(t, a, i);
  for (; a !== c && i !== c; a = t.parent[a], i = t.parent[i]) if (shape(t, a) !== shape(t, i)) return true;
  return a !== i;
}

/** The child of `top` holding `i`. */
function branch(t: Tree, top: number, i: number): number {
  while (t.parent[i] !== top) i = t.parent[i];
  return i;
}

/**
 * Whether the element sibling just before `i` (not a list item), of the same tag and other classes
 * with a class word in common, has the same text: the same block printed once per screen size, side by side (`excerpt view--lrg`,
 * `view--med`, `view--sml`; `plan__desktopCopy`, `plan__mobileCopy`), however many times (the count
 * rule above wants exactly two). Like items (same classes: a job posted twice) are not copies.
 */
function besideTwin(t: Tree, node: number, text: (string | null)[], i: number): boolean {
  if (i === node) return false;
  const kids = elementChildren(t, t.parent[i]);
  const at = kids.indexOf(i);
  let prev = at - 1;
  while (prev >= 0 && t.txt[kids[prev]] + t.lnk[kids[prev]] === 0) prev--;
  if (prev < 0) return false;
  const a = t.els[kids[prev]];
  const b = t.els[i];
  const ca = a.attribs.class?.trim();
  const cb = b.attribs.class?.trim();
  if (a.name !== b.name || b.name === 'li' || !ca || !cb || ca === cb || text[kids[prev] - node] !== text[i - node]) return false;
  // (one component's variants: a class word in common, `excerpt view--lrg` and `excerpt view--med`)
  const words = new Set(ca.split(/\s+/));
  return cb.split(/\s+/).some((w) => words.has(w));
}

/**
 * Inside each card of a shop's grid of priced cards (gridCards), a block whose text repeats an earlier
 * block's of the same card: the card's title rendered twice as a heading (once for a layout without
 * the picture), its price twice (the regular and the sale price block, the latter shown only on sale).
 * `text`: each element's text from `node`, as duplicates() reads it.
 */
function cardCopies(t: Tree, node: number, text: (string | null)[]): number[] {
  const out: number[] = [];
  for (const c of gridCards(t, node)) {
    const seen = new Set<string>();
    // (pre-order with exit markers, as in duplicates(): a block's text is seen once its subtree is done)
    const stack = elementChildren(t, c).reverse();
    while (stack.length) {
      const i = stack.pop()!;
      if (i < 0) {
        const s = text[-1 - i - node];
        if (s) seen.add(s);
        continue;
      }
      const s = text[i - node];
      // (a part hidden by its class is not shown, so not what a later block repeats: cardHidden())
      if (!s || hiddenInCard(t, i)) continue;
      if (seen.has(s) && (HEADINGS.has(t.els[i].name) || priceAlone(s))) {
        out.push(i);
        continue;
      }
      stack.push(-1 - i);
      const kids = elementChildren(t, i);
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    }
  }
  return out;
}

/** A price alone (`$1,999.95`, `from£148.00`, `44,99€`; as duplicates() reads texts, without spaces): a price with at most this many letters beside it. */
const PRICE_LETTERS = 4;
const priceAlone = (s: string) => PRICE.test(s) && s.replace(/[^\p{L}]/gu, '').length <= PRICE_LETTERS;
