// Twin forms of one value printed side by side for different screens (left-out.ts): a long and a
// short form of a date or a label (`<span class="ipsTime__long">April 3, 2024</span><span
// class="ipsTime__short">1 yr</span>`), one shown at a time by the stylesheet; the short one is left out.
import { elementChildren, subtreeEnd, type Tree } from './content-tree.ts';

/** A class word naming the short form (`ipsTime__short`, `date-short`, `label--short`): its stem and separator. */
const SHORT = /^(.*?[a-z0-9])([-_]{1,2})short$/i;
/** The short form holds at most this much text (characters). */
const SHORT_TEXT = 40;

/**
 * The short forms inside the content `node` whose sibling carries the same class word with `long`
 * (or `full`) in place of `short`: the long form says the same thing in full.
 */
export function shortTwins(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    if (t.gone[i]) continue;
    const cls = t.els[i].attribs.class;
    if (!cls || !/short/i.test(cls) || t.txt[i] + t.lnk[i] > SHORT_TEXT) continue;
    const twins = new Set<string>();
    for (const w of cls.split(/\s+/)) {
      const m = SHORT.exec(w);
      if (m) for (const full of ['long', 'full']) twins.add(`${m[1]}${m[2]}${full}`.toLowerCase());
    }
    if (!twins.size || t.parent[i] === -1) continue;
    const siblings = elementChildren(t, t.parent[i]);
    const paired = siblings.some(
      (k) => k !== i && (t.els[k].attribs.class ?? '').split(/\s+/).some((w) => twins.has(w.toLowerCase())) && t.txt[k] + t.lnk[k] > 0,
    );
    if (paired) {
      out.push(i);
      i = subtreeEnd(t, i);
    }
  }
  return out;
}
