// Placeholder text a page template left in ("Lorem ipsum dolor sit amet"), found inside the main
// content (left-out.ts) to be left out: no page means it, whether its stylesheet hides the unused
// component or shows it by mistake.
import { eachLive, outermost, subtreeEnd, type Tree } from './content-tree.ts';

/** Placeholder text, as an element's own text begins. */
const LOREM = /^\s*lorem ipsum\b/i;
/** A block around placeholder text holding at most this much other text (characters: its heading "Head Line 1", its "Learn more") is the template's. */
const OTHER_TEXT = 100;

/**
 * Blocks of placeholder text inside the content `node`: the largest block around an element whose
 * own text begins "Lorem ipsum" that holds at most OTHER_TEXT characters of other text (the unused
 * component's heading, its button), not the content around it.
 */
export function placeholders(t: Tree, node: number): number[] {
  const last = subtreeEnd(t, node);
  const lorem = new Float64Array(last - node + 1);
  const found: number[] = [];
  eachLive(t, node, (i) => {
    const first = t.els[i].children.find((c) => c.type === 'text' && c.data.trim() !== '');
    if (first === undefined || first.type !== 'text' || !LOREM.test(first.data)) return false;
    found.push(i);
    lorem[i - node] = t.txt[i] + t.lnk[i];
    return true;
  });
  if (found.length === 0) return [];
  for (let i = last; i > node; i--) lorem[t.parent[i] - node] += lorem[i - node];
  const out = new Set<number>();
  for (const f of found) {
    let a = f;
    for (let p = t.parent[a]; p !== node && p !== -1 && t.txt[p] + t.lnk[p] - lorem[p - node] <= OTHER_TEXT; p = t.parent[p]) a = p;
    out.add(a);
  }
  return outermost(t, out);
}
