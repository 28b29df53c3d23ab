// Custom selects inside the main content (left-out.ts): a list marked up as ARIA's listbox, its
// options picked by a script (a shop's filter facet, "Item Type" with its values and their counts).
import { eachLive, weight, type Tree } from './content-tree.ts';
import { GRID, HOLDS_GRID, pricedGrids } from './link-blocks.ts';

/** A listbox holding this share of the content is its wrapper (a page marking its results up so), not a control. */
const LISTBOX_SHARE = 0.5;
/** The block around a listbox adds at most this many characters to it (its facet's name, "Item Type"). */
const LABEL_TEXT = 40;

/**
 * The listboxes inside the content `node` (`role="listbox"`, options to pick: a filter facet whose
 * values are links with their counts, `<div role="listbox" aria-label="Item Type options">`), each
 * with the blocks around it that add at most LABEL_TEXT characters (its heading and the accordion
 * holding it); not one holding a shop's grid of priced cards, nor one holding LISTBOX_SHARE of the content.
 */
export function optionLists(t: Tree, node: number): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  let grid: Uint8Array | null = null;
  eachLive(t, node, (i) => {
    if (t.els[i].attribs.role !== 'listbox') return false;
    if (weight(t, i) >= LISTBOX_SHARE * whole || (grid ??= pricedGrids(t, node))[i - node] & (GRID | HOLDS_GRID)) return false;
    const own = t.txt[i] + t.lnk[i];
    let k = i;
    for (let p = t.parent[k]; p !== node && p !== -1 && t.txt[p] + t.lnk[p] - own <= LABEL_TEXT && !(grid[p - node] & (GRID | HOLDS_GRID)); p = t.parent[p]) k = p;
    out.push(k);
    return true;
  });
  return out;
}
