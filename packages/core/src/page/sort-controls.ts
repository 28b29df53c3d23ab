// A list's sort control ("Sort: Best Match", "Sort by Featured"): the <select> that orders the items,
// with the label and current choice written beside it. Found inside the main content (left-out.ts).
import type { Element } from 'domhandler';
import { subtreeEnd, type Tree } from './content-tree.ts';

/** A select named for sorting, by its accessible name, name or id ("Sort By", `sort-order`, `orderby`). */
const SORT = /\bsort|sort(?:er|ing|by)?\b|order[-_ ]?by/i;
/** The control with its label and current choice holds at most this many characters. */
const SORT_TEXT = 40;

/** A label's own text naming a sort ("Sort by", "Sort:"). */
const SORT_LABEL = /^\s*sort\b/i;

/** An element holding a select named for sorting, or a label around a select whose own text names a sort
 * (phpBB's `<label>Sort by<select name="sk">`). */
const sortSelect = (el: Element) =>
  el.children.some((c) => {
    if (c.type !== 'tag' || (c as Element).name !== 'select') return false;
    const a = (c as Element).attribs;
    return (
      SORT.test(`${a['aria-label'] ?? ''} ${a.name ?? ''} ${a.id ?? ''}`) ||
      (el.name === 'label' && el.children.some((d) => d.type === 'text' && SORT_LABEL.test(d.data)))
    );
  });

/**
 * Sort controls: the largest block around a <select> named for sorting that holds at most SORT_TEXT
 * characters (the control's label and current choice, "Sort: Best Match", and the buttons beside it),
 * not the items it sorts.
 */
export function sortControls(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    if (t.gone[i] || !sortSelect(t.els[i]) || t.txt[i] + t.lnk[i] > SORT_TEXT) continue;
    let a = i;
    for (let p = t.parent[a]; p !== node && p !== -1 && t.txt[p] + t.lnk[p] <= SORT_TEXT; p = t.parent[p]) a = p;
    // (a control alone, its label written elsewhere: nothing to leave out)
    if (t.txt[a] + t.lnk[a] > 0) out.push(a);
    i = subtreeEnd(t, a);
  }
  return out;
}
