// Related-content rails named by their heading ("Similar items", "You may also like", "Related
// posts"), found inside the main content (main-content.ts) to be left out.
import type { Element } from 'domhandler';
import { HEADINGS, subtreeEnd, textOf, weight, type Tree } from './content-tree.ts';

/** Headings that name a related-content rail or a recommendation block (not the page's own content). */
const RAIL =
  /^(?:similar (?:items|products)|related(?: (?:items|products|articles|posts|stories|content|reading|links|videos|guides|topics|searches))?|you (?:may|might) also (?:like|enjoy|be interested in)|(?:customers|people) (?:who (?:viewed|bought) this(?: item)? )?also (?:viewed|bought|liked)|frequently bought together|recently viewed(?: items| products)?|recommended(?: for you| products| articles| reading)?|more (?:from|like this|to explore|stories|articles|products)\b|explore (?:related|more)\b|read next|up next|popular (?:posts|articles|products)|complete the look|shop the look|sponsored(?: products| items)?)(?:[\s:.!?]|$)/;
/** A rail holds at most this share of the content. */
const RAIL_SHARE = 0.85;
/** A paragraph this long (characters, not link text) is prose, never part of a rail. */
const PROSE = 150;

/**
 * Related-content rails named by their heading ("Similar items", "You may also like", "Related
 * posts"): the largest block around such a heading that holds no other heading of its rank, no
 * paragraph of prose and at most RAIL_SHARE of the content.
 */
export function rails(t: Tree, node: number): number[] {
  const last = subtreeEnd(t, node);
  // heads[l][i]: headings of level l+1 or above (h1..h(l+1)) under element i.
  const heads = Array.from({ length: 6 }, () => new Int32Array(last - node + 1));
  const level = (el: Element) => (HEADINGS.has(el.name) ? Number(el.name[1]) : el.attribs.role === 'heading' ? Number(el.attribs['aria-level'] ?? 2) || 2 : 0);
  const found: [number, number][] = [];
  // prose[i]: paragraphs of prose (PROSE characters or more) under element i.
  const prose = new Int32Array(last - node + 1);
  for (let i = last; i > node; i--) {
    const el = t.els[i];
    if (el.name === 'p' && t.txt[i] >= PROSE) prose[i - node]++;
    prose[t.parent[i] - node] += prose[i - node];
    const l = t.gone[i] ? 0 : level(el);
    if (l >= 1 && l <= 6) {
      for (let k = l - 1; k < 6; k++) heads[k][i - node]++;
      if (RAIL.test(textOf(el))) found.push([i, l]);
    }
    const p = t.parent[i] - node;
    for (let k = 0; k < 6; k++) heads[k][p] += heads[k][i - node];
  }
  const out: number[] = [];
  const whole = weight(t, node);
  for (const [h, l] of found) {
    // The largest block around the heading holding no other heading of its rank, no paragraph of
    // prose and at most RAIL_SHARE of the content.
    let a = h;
    for (let p = t.parent[a]; p !== node && p !== -1 && heads[l - 1][p - node] === 1 && !prose[p - node] && weight(t, p) <= RAIL_SHARE * whole; p = t.parent[p])
      a = p;
    if (a !== h) out.push(a);
  }
  return out;
}
