// A thread's info line beside its title (thread-parts.ts): when it was started or asked, last
// modified, how often viewed ("Asked 3 years ago · Modified 1 year ago · Viewed 6k times", "Thread
// starter ann · Start date Jul 9, 2022"): facts about the thread, not its posts.
import { elementChildren, signature, subtreeEnd, type Tree } from './content-tree.ts';

/** The info line holds at most this much text (characters), and each of its items at most `ITEM_TEXT`. */
const INFO_TEXT = 250;
const ITEM_TEXT = 60;
/** It is a row of this many items. */
const MIN_ITEMS = 2;
const MAX_ITEMS = 6;

/**
 * The thread's info line inside the content `node`: the row of short items around the content's
 * first `time` element (the largest block holding it with at most `INFO_TEXT` characters, whose
 * items, below any lone wrapper, are two to six of at most `ITEM_TEXT`), not holding the title and
 * not inside a post (a block with a like sibling, as every post's own author-and-date header is).
 * One walk down to the first `time`, then up its ancestors: linear.
 */
export function threadInfo(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const last = subtreeEnd(t, node);
  let time = -1;
  for (let i = node + 1; i <= last && time === -1; i++) if (!t.gone[i] && t.els[i].name === 'time') time = i;
  if (time === -1) return [];
  let row = -1;
  for (let a = t.parent[time]; a > node && t.txt[a] + t.lnk[a] <= INFO_TEXT && !holdsTitle(a); a = t.parent[a]) row = a;
  if (row === -1) return [];
  let items = elementChildren(t, row);
  while (items.length === 1) items = elementChildren(t, items[0]);
  if (items.length < MIN_ITEMS || items.length > MAX_ITEMS || items.some((k) => t.txt[k] + t.lnk[k] > ITEM_TEXT)) return [];
  for (let a = row; a > node; a = t.parent[a]) if (likeSibling(t, a)) return [];
  return [row];
}

/** Whether an element sibling of `i` has its tag and classes (digits aside): one of a run of posts. */
function likeSibling(t: Tree, i: number): boolean {
  const p = t.parent[i];
  if (p < 0) return false;
  const key = signature(t.els[i]);
  return elementChildren(t, p).some((k) => k !== i && signature(t.els[k]) === key);
}
