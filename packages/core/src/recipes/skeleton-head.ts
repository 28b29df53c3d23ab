/**
 * The head of the page skeleton: the title, the meta a recipe reads with `read: "meta"`, the
 * canonical and paging links, and the page's JSON-LD blocks compacted (what `read: "jsonld"` and a
 * `{"jsonld": …}` container select).
 */
import { isText } from 'domhandler';
import { collapse, jsonLdRoots } from './dom.ts';
import type { Element } from './dom.ts';

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Object keys of JSON whose values are rarely a fact a recipe reads: left out of the compact view. */
const NOISE_KEYS = new Set(['@context', 'potentialAction', 'query-input']);

/** JSON with long strings cut and long arrays counted; objects beyond `maxDepth` summarised. */
export function compactJson(v: unknown, depth = 0, text = 80): unknown {
  if (typeof v === 'string') return cut(v, text);
  if (Array.isArray(v)) {
    const head = v.slice(0, 3).map((x) => compactJson(x, depth + 1, text));
    return v.length > 3 ? [...head, `… ${v.length - 3} more`] : head;
  }
  if (v && typeof v === 'object') {
    if (depth > 6) return '{…}';
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !NOISE_KEYS.has(k))
        .map(([k, x]) => [k, compactJson(x, depth + 1, text)]),
    );
  }
  return v;
}

/** schema.org types whose blocks carry the record a page is about: shown first and with more room. */
const MAIN_TYPES =
  /^(?:Product|ProductGroup|Offer|AggregateOffer|Book|Vehicle|Car|SoftwareApplication|Event|Recipe|JobPosting|Article|NewsArticle|BlogPosting)$/;

function mainTyped(root: unknown): boolean {
  if (!root || typeof root !== 'object') return false;
  const t = (root as Record<string, unknown>)['@type'];
  return (Array.isArray(t) ? t : [t]).some((x) => typeof x === 'string' && MAIN_TYPES.test(x.replace(/^https?:\/\/schema\.org\//, '')));
}

export function headLines(attrCut: number, all: (q: string) => Element[], title: Element | null): string[] {
  const lines: string[] = [];
  if (title) lines.push(`title "${cut(collapse(title.children.map((c) => (isText(c) ? c.data : '')).join('')), 120)}"`);
  for (const m of all('head meta').slice(0, 40)) {
    const key = m.attribs.property ? 'property' : m.attribs.name ? 'name' : m.attribs.itemprop ? 'itemprop' : null;
    if (!key || !m.attribs.content) continue;
    // A URL is shown whole: an id or SKU often sits at its end (…/p/kettle-14347.html).
    const url = /^https?:\/\//.test(m.attribs.content);
    lines.push(`meta[${key}="${m.attribs[key]}"] content="${cut(collapse(m.attribs.content), url ? 300 : Math.max(attrCut, 120))}"`);
  }
  // The page's own addresses: canonical, paging, and a few alternates (mobile, AMP, languages).
  let alternates = 0;
  for (const l of all('link[rel]')) {
    const rel = l.attribs.rel.toLowerCase();
    if (/canonical|next|prev/.test(rel) || (/alternate/.test(rel) && !l.attribs.type && alternates++ < 3)) {
      lines.push(`link[rel="${l.attribs.rel}"]${l.attribs.hreflang ? `[hreflang="${l.attribs.hreflang}"]` : ''}[href="${cut(l.attribs.href ?? '', 300)}"]`);
    }
  }
  const blocks = all('script[type="application/ld+json" i]')
    .slice(0, 8)
    .map((s, i) => ({ i, roots: jsonLdRoots([s]) }))
    .filter((b) => b.roots.length);
  // The blocks about the page's record (a Product and its offers) first, with room for their facts.
  const main = blocks.filter((b) => b.roots.some(mainTyped));
  for (const b of [...main, ...blocks.filter((x) => !main.includes(x))].slice(0, 5)) {
    // The block as written: the items of an @graph are shown inside it, not again beside it.
    const top = b.roots.filter(
      (r) =>
        !b.roots.some(
          (o) => o !== r && Array.isArray((o as Record<string, unknown>)?.['@graph']) && ((o as Record<string, unknown>)['@graph'] as unknown[]).includes(r),
        ),
    );
    const value = top.length === 1 ? top[0] : top;
    const room = main.includes(b) ? 4000 : 1500;
    lines.push(`JSON-LD block ${b.i + 1}: ${cut(JSON.stringify(compactJson(value)), room)}`);
  }
  return lines;
}
