// A page's drawing of its product inside the content (left-out.ts): a block named as a picture
// (`illustration`, `hero-graphic`, `mockup`) that holds a code block is a software product's screen
// drawn in HTML (an editor window with its tabs and a code sample, an app's sidebar and issue list)
// on its home or product page, shown to be looked at, not read: not the page's text.
import { elementChildren, named, type Tree } from './content-tree.ts';

/**
 * Class words naming a picture drawn in markup (`PageSection_illustration`, `hero-graphic-container`,
 * `app-mockup`); not an id, which names a section by its subject (`id="graphics"` on a graphics API's
 * reference).
 */
const PICTURE = /(?:^|[\s_-])(?:illustrations?|graphics?|mockups?)(?=$|[\s_-])/;

/** Blocks in the content `node` named as a picture by a class word, holding a `<pre>` and not the title. */
export function illustrations(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  return named(t, node, PICTURE).filter((i) => PICTURE.test((t.els[i].attribs.class ?? '').toLowerCase()) && !holdsTitle(i) && holdsPre(t, i));
}

function holdsPre(t: Tree, i: number): boolean {
  const stack = elementChildren(t, i);
  while (stack.length) {
    const k = stack.pop()!;
    if (t.els[k].name === 'pre') return true;
    stack.push(...elementChildren(t, k));
  }
  return false;
}
