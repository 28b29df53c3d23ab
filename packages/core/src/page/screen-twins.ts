// Layouts of one block for different screen widths (copies.ts): sibling blocks whose classes show each
// on some widths only (`lg:hidden` beside `hidden lg:block`, `d-md-none` beside `d-none d-md-block`,
// `mobile-only` beside `desktop-only`), the narrower one saying the same thing as the wider one in other
// words or marks (a date and reading time joined by `·` in one, by `|` in the other). The widest is kept.
import type { AnyNode, Element } from 'domhandler';
import { elementChildren, subtreeEnd, type Tree } from './content-tree.ts';
import { HIDDEN_CLASS, SHOWN_CLASS } from './hidden.ts';

/** Breakpoints, narrowest first (Tailwind's and Bootstrap's names, Foundation's `small`/`medium`/`large`). */
const RANK: Record<string, number> = { xs: 1, sm: 1, small: 1, md: 2, medium: 2, lg: 3, large: 3, xl: 4, xlarge: 4, '2xl': 5, xxl: 5 };
/** Wider than any breakpoint: a block shown on the desktop. */
const WIDEST = 9;
/** Hidden from a breakpoint up (`lg:hidden`, `d-md-none`, Bootstrap 3's `hidden-lg`, Foundation's `hide-for-large`): shown below it. */
const HIDDEN_FROM = /^(?:(xs|sm|md|lg|xl|2xl):hidden|d-(sm|md|lg|xl|xxl)-none|hidden-(md|lg|xl)|hide-for-(medium|large|xlarge)(?:-up)?)$/;
/** Shown on small screens only (`visible-xs`, `show-for-small-only`). */
const SMALL_ONLY = /^(?:visible-(?:xs|sm)|show-for-small(?:-only)?)$/;
/** Class words of a mobile layout (`mobile-only`, `show-mobile`, `hide-desktop`) and of a desktop one (`desktop-only`, `hide-mobile`). */
const MOBILE =
  /^(?:(?:show|visible|only)[-_]?(?:on[-_]?)?(?:mobile|phone)|(?:mobile|phone)[-_]?(?:only|show|visible)|(?:hide|hidden|no)[-_]?(?:on[-_]?)?desktop|desktop[-_]?(?:hide|hidden|none))$/;
const DESKTOP =
  /^(?:(?:show|visible|only)[-_]?(?:on[-_]?)?desktop|desktop[-_]?(?:only|show|visible)|(?:hide|hidden|no)[-_]?(?:on[-_]?)?(?:mobile|phone)|(?:mobile|phone)[-_]?(?:hide|hidden|none)|hidden-(?:xs|sm)|hide-for-small(?:-only)?)$/;

/** The widest screen a block is shown on by its classes (a rank, WIDEST for the desktop), or 0 when they do not say. */
function screenWidth(cls: string | undefined): number {
  if (!cls) return 0;
  const words = cls.toLowerCase().split(/\s+/);
  let narrow = WIDEST;
  let marked = false;
  for (const w of words) {
    const m = HIDDEN_FROM.exec(w);
    if (m) {
      narrow = Math.min(narrow, RANK[m[1] ?? m[2] ?? m[3] ?? m[4]] - 0.5);
      marked = true;
    } else if (SMALL_ONLY.test(w) || MOBILE.test(w)) {
      narrow = Math.min(narrow, 1);
      marked = true;
    } else if (DESKTOP.test(w)) marked = true;
  }
  // (hidden, then shown from a breakpoint up: `hidden lg:block`, `d-none d-md-flex`)
  if (!marked && words.some((w) => HIDDEN_CLASS.test(w)) && words.some((w) => SHOWN_CLASS.test(w))) marked = true;
  return marked ? narrow : 0;
}

/** A word missing from the wider layout may be this short, and letters only (`by`, `on`: a byline's lead-in). */
const LEAD_IN = 2;
/** The narrower layout must have at least this many words (a block, not a lone label). */
const MIN_WORDS = 3;
/** An element's words, lower-cased (text nodes apart: `Jake` and `Mar` in two elements are two words). */
function words(el: Element): string[] {
  const out: string[] = [];
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') out.push(...(n.data.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));
    else if (n.type === 'tag') for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return out;
}

/**
 * Blocks inside the content `node` shown on narrower screens than a sibling whose text holds every
 * word of theirs (but for a short lead-in such as `by`): the narrower layouts of one block.
 */
export function screenTwins(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  // (each wider layout's words, read once however many narrower siblings it has)
  const wideWords = new Map<number, Set<string>>();
  for (let i = node + 1; i <= last; i++) {
    if (t.gone[i] || t.txt[i] + t.lnk[i] === 0) continue;
    const w = screenWidth(t.els[i].attribs.class);
    if (!w || w === WIDEST) continue;
    const own = words(t.els[i]);
    if (own.length < MIN_WORDS) continue;
    const twin = elementChildren(t, t.parent[i]).some((k) => {
      if (k === i || t.gone[k] || screenWidth(t.els[k].attribs.class) <= w || t.txt[k] + t.lnk[k] === 0) return false;
      let wide = wideWords.get(k);
      if (!wide) wideWords.set(k, (wide = new Set(words(t.els[k]))));
      return own.every((x) => wide.has(x) || (x.length <= LEAD_IN && /^\p{L}+$/u.test(x)));
    });
    if (twin) {
      out.push(i);
      i = subtreeEnd(t, i);
    }
  }
  return out;
}
