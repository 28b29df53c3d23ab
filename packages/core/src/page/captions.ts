// A picture's caption inside an article's content (left-out.ts): the line under a photo or a chart
// (`<figcaption>`), which names what the picture shows and whom it is credited to. A figure holding a
// quote, a table or code is not a picture: its caption (a quote's speaker, a table's title) stays; so do
// the captions of a photo essay, whose text they are.
import { elementChildren, type Tree } from './content-tree.ts';

/** What a figure holds when it is not a picture. */
const NOT_PICTURE = new Set(['blockquote', 'q', 'table', 'pre', 'code']);

/** The `<figcaption>`s of pictures inside the content `node`, not holding the title. */
export function captions(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  // (each figure read once, however many captions it holds: a gallery of thousands)
  const figures = new Map<number, boolean>();
  const stack = elementChildren(t, node);
  while (stack.length) {
    const k = stack.pop()!;
    if (t.els[k].name === 'figcaption') {
      if (!holdsTitle(k) && !quoteOrTable(t, node, k, figures)) out.push(k);
    } else stack.push(...elementChildren(t, k));
  }
  // (a photo essay: the captions are half of the content's text or more, they are what it says)
  const chars = (i: number) => t.txt[i] + t.lnk[i];
  if (out.length && 2 * out.reduce((sum, k) => sum + chars(k), 0) >= chars(node)) return [];
  return out;
}

/** Whether the figure around the caption `k` (below `node`) holds a quote, a table or code (outside its captions). */
function quoteOrTable(t: Tree, node: number, k: number, figures: Map<number, boolean>): boolean {
  let fig = t.parent[k];
  for (let a = fig; a !== -1 && a !== node; a = t.parent[a])
    if (t.els[a].name === 'figure') {
      fig = a;
      break;
    }
  if (fig === -1) return false;
  let held = figures.get(fig);
  if (held === undefined) {
    held = false;
    const stack = elementChildren(t, fig);
    while (stack.length) {
      const i = stack.pop()!;
      if (t.els[i].name === 'figcaption') continue;
      if (NOT_PICTURE.has(t.els[i].name)) {
        held = true;
        break;
      }
      stack.push(...elementChildren(t, i));
    }
    figures.set(fig, held);
  }
  return held;
}
