// Links that run a script instead of leading anywhere (left-out.ts): `<a href="javascript:void(0)">`
// is a control drawn as a link, a thread's "[–]" and "(3 children)" that fold a comment, a card's
// "Open for more information about …", a "Show more" toggle. Its text names what a click does, not
// what the page says. Not such a link inside a heading (an accordion's question, opened by its
// script) nor one set in a sentence ("you can receive a <a href="javascript:…">rebate</a> of up to
// $100"): there its words are the text's.
import type { AnyNode, Element, Text } from 'domhandler';
import { HEADINGS, subtreeEnd, type Tree } from './content-tree.ts';
import { underTag } from './labels.ts';

/** A script link's href. */
const SCRIPT = /^\s*javascript:/i;
/** Such a link's text is at most this long (characters): a control's label, not a passage. (One
 * without text is an icon's, left out too, the markdown writing `[](javascript:;)` for it; not one
 * holding a picture, which may open a viewer on it.) */
const MAX = 80;
/** Script links holding this share of the content's text or more are its items (a list whose every
 * title opens its entry by a script), not controls beside them: then none is left out. */
const ITEMS_SHARE = 0.2;

/** The script links inside the content `node` that are controls. */
export function scriptLinks(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name !== 'a' || t.gone[i] || !SCRIPT.test(el.attribs.href ?? '')) continue;
    const end = subtreeEnd(t, i);
    const chars = t.txt[i] + t.lnk[i];
    if ((chars === 0 && hasPicture(t, i)) || chars > MAX || underTag(t, node, i, HEADINGS) || inSentence(el)) {
      i = end;
      continue;
    }
    out.push(i);
    i = end;
  }
  const chars = out.reduce((s, i) => s + t.txt[i] + t.lnk[i], 0);
  return chars >= ITEMS_SHARE * (t.txt[node] + t.lnk[node]) && chars > 0 ? [] : out;
}

const PICTURES = new Set(['img', 'picture', 'video', 'object', 'embed']);

/** Whether element `i` holds a picture. */
function hasPicture(t: Tree, i: number): boolean {
  const end = subtreeEnd(t, i);
  for (let k = i + 1; k <= end; k++) if (PICTURES.has(t.els[k].name)) return true;
  return false;
}

/** Whether a link has words of a sentence right beside it: a text sibling holding a letter. */
function inSentence(el: Element): boolean {
  const words = (n: AnyNode | null) => n !== null && n.type === 'text' && /\p{L}/u.test((n as Text).data);
  return words(el.prev) || words(el.next);
}
