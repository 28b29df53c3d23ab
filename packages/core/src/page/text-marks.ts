// Which elements hold a word somewhere in their text, found in one pass over the elements' own text
// nodes: a cheap test before reading an element's whole text (textOf) for a pattern.
import type { Tree } from './content-tree.ts';

/**
 * A mark (indexed from `node`) on every element inside `node`, `node` too, whose text holds a text
 * node `re` matches, with all its ancestors up to `node`.
 */
export function holdingText(t: Tree, node: number, re: RegExp): Uint8Array {
  const last = t.last[node];
  const marks = new Uint8Array(last - node + 1);
  for (let i = node; i <= last; i++) {
    if (marks[i - node]) continue;
    if (!t.els[i].children.some((c) => c.type === 'text' && re.test(c.data))) continue;
    for (let a = i; a >= node && !marks[a - node]; a = t.parent[a]) marks[a - node] = 1;
  }
  return marks;
}
