// The reader's own rating input inside the main content (left-out.ts): a row of star links or
// buttons that go nowhere ("1 of 5 stars" … "5 of 5 stars", each a link to "#"), with its labels
// ("Rate this book", "Clear rating"). A list of books, films or recipes carries one in every row;
// it is a form control, not what the page says (a shown rating, "4.35 avg rating", is text, not links).
import type { Element } from 'domhandler';
import { eachLive, elementChildren, outermost, textOf, type Tree } from './content-tree.ts';

/** One star of the input, by its text or its title: "3 of 5 stars", "3 out of 5", "3 stars", "Rate 3". */
const STAR = /^\s*(?:rate\s*)?[1-9](?:\s*(?:of|out of|\/)\s*(?:5|10)\b)?\s*(?:stars?)?\s*$/i;
/** Stars an input has at least. */
const STARS = 3;
/** A block around the stars holding at most this much other text (characters: "Rate this book", "Clear rating") is the input's. */
const OTHER_TEXT = 80;

const inert = (el: Element) =>
  el.name === 'button' || (el.name === 'a' && (el.attribs.href === undefined || el.attribs.href.startsWith('#') || el.attribs.href.startsWith('javascript:')));

/** Whether the element `i` is a row of star links or buttons that go nowhere, each naming its star. */
function stars(t: Tree, i: number): boolean {
  const kids = elementChildren(t, i);
  if (kids.length < STARS) return false;
  let n = 0;
  for (const k of kids) {
    const el = t.els[k];
    if (!inert(el)) return false;
    const text = textOf(el).trim();
    if (!(STAR.test(text) && /\d/.test(text) && (/star|of|rate|\//i.test(text) || STAR.test(el.attribs.title ?? '')))) return false;
    n++;
  }
  return n >= STARS;
}

/** The reader's rating inputs inside the content `node`: the largest block around each star row holding at most OTHER_TEXT characters of other text. */
export function ratingInputs(t: Tree, node: number): number[] {
  const out = new Set<number>();
  eachLive(t, node, (i) => {
    if (!stars(t, i)) return false;
    const own = t.txt[i] + t.lnk[i];
    let a = i;
    for (let p = t.parent[a]; p !== node && p !== -1 && t.txt[p] + t.lnk[p] - own <= OTHER_TEXT; p = t.parent[p]) a = p;
    out.add(a);
    return true;
  });
  return outermost(t, out);
}
