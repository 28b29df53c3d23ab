// A shop's filter facets and sort controls inside the main content (left-out.ts): blocks named so,
// unnamed filter forms of many checkboxes, and custom selects (ARIA listboxes: a facet's values and
// their counts, picked by a script).
import { classId, elementChildren, eachLive, subtreeEnd, weight, type Tree } from './content-tree.ts';
import { GRID, HOLDS_GRID, pricedGrids } from './link-blocks.ts';
import type { PageType } from './page-type.ts';

/** A shop's filter facets and sort controls, by whole class token or id ("facets-container",
 * "collection-filters"; not a bare "filter", a CSS utility, nor a layout's "facet-row"). */
const FACETS =
  /^(?:[a-z]+[-_]+)*(?:facets|facet-?filters?|filters|filters?-?(?:bar|panel|sidebar|drawer|menu|form|group|wrapper|container|header)|refinements?|sort-?by|sorting)(?:[-_]+(?:wrapper|container|form|list|panel|sidebar|menu|drawer|nav|block|section))*$/;
/** A CSS module's hash after a class name (`filters_OOvCaqUpUN`) and a version (`facets-v2`). */
const SUFFIX = /(?:_(?=[a-z\d]*[A-Z\d])[A-Za-z\d]{5,}|-v\d+)$/;
/** A facet panel's wrapper named by the singular (`facet-wrapper`, `facetWrapper`; not a layout's `facet-row`). */
const FACET_PART = /^(?:[a-z]+-)*facet-(?:wrapper|container|panel|sidebar|drawer|menu|nav|group|bar)$/;

/**
 * Whether a class or id token names filter facets once a CSS module's hash or a version is cut off
 * and camelCase split (`filters_OOvCaqUpUN`, `facets-v2`, `searchFilters`, `facetWrapper`).
 */
function facetName(a: Record<string, string>): boolean {
  return `${a.class ?? ''} ${a.id ?? ''}`
    .split(/\s+/)
    .map((w) =>
      w
        .replace(SUFFIX, '')
        .replace(/([a-z])(?=[A-Z])/g, '$1-')
        .toLowerCase(),
    )
    .some((w) => w !== '' && (FACETS.test(w) || FACET_PART.test(w)));
}
const CONTROLS = new Set(['input', 'select', 'label', 'button']);
/** A block holding this share of the content is its wrapper, not its facets. */
export const FACET_SHARE = 0.5;
/** A block of this many checkboxes and radio buttons or more, with at most BOX_TEXT characters for each, is a filter form... */
const MIN_BOXES = 6;
const BOX_TEXT = 30;
/** ... and at most this share of its text in links. */
const BOX_LINKS = 0.2;
const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);

/**
 * Filter facets and sort controls (colour, size and price checkboxes with their counts): blocks
 * named so that hold form controls or are mostly links, and little of the content.
 */
export function facets(t: Tree, node: number, type: PageType, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  // Checkboxes and radio buttons under each element of the content.
  const last = subtreeEnd(t, node);
  const boxes = new Int32Array(last - node + 1);
  for (let i = last; i > node; i--) {
    const a = t.els[i].attribs;
    if (t.els[i].name === 'input' && (a.type === 'checkbox' || a.type === 'radio')) boxes[i - node]++;
    boxes[t.parent[i] - node] += boxes[i - node];
  }
  // A shop's grid of priced cards inside a block named so (`plp-tablet-filters` around the results)
  // is the results, not filters: such a block is looked into.
  let grid: Uint8Array | null = null;
  const stack = elementChildren(t, node);
  while (stack.length) {
    const k = stack.pop()!;
    const el = t.els[k];
    const named =
      (el.attribs.class !== undefined || el.attribs.id !== undefined) &&
      (classId(el)
        .split(/\s+/)
        .some((w) => FACETS.test(w)) ||
        facetName(el.attribs));
    const w = weight(t, k);
    if (named && w < FACET_SHARE * whole && (t.lnk[k] > t.txt[k] || hasControl(t, k)) && !((grid ??= pricedGrids(t, node))[k - node] & (GRID | HOLDS_GRID)))
      out.push(k);
    // Unnamed: a block of many checkboxes or radio buttons, each with a short label and few links (a
    // filter form; not a product's options, nor a block holding the title, nor rows of a table or cards
    // to select, which have text or links of their own).
    else if (
      type !== 'product' &&
      !TABLE_PARTS.has(el.name) &&
      boxes[k - node] >= MIN_BOXES &&
      w < FACET_SHARE * whole &&
      t.txt[k] + t.lnk[k] < BOX_TEXT * boxes[k - node] &&
      t.lnk[k] < BOX_LINKS * (t.txt[k] + t.lnk[k]) &&
      !holdsTitle(k)
    )
      out.push(k);
    else stack.push(...elementChildren(t, k));
  }
  return [...out, ...optionLists(t, node)];
}

function hasControl(t: Tree, k: number): boolean {
  const last = subtreeEnd(t, k);
  for (let i = k + 1; i <= last; i++) if (CONTROLS.has(t.els[i].name)) return true;
  return false;
}

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
    for (let p = t.parent[k]; p !== node && p !== -1 && t.txt[p] + t.lnk[p] - own <= LABEL_TEXT && !(grid[p - node] & (GRID | HOLDS_GRID)); p = t.parent[p])
      k = p;
    out.push(k);
    return true;
  });
  return out;
}
