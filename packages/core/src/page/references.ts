// An article's apparatus named by its heading: its reference list, bibliography or sources
// ("References", "Works cited", "Sources") and its author's bio box ("About the author", "About
// <a href="/author/…">Ann Lee</a>"), found inside the main content (main-content.ts) to be left out:
// the works it cites and who wrote it, not what it says; and, on an article, its author blocks named
// by their class (its byline and bio box: authorBlocks, called from left-out.ts).
import { elementChildren, isAncestor, signature, subtreeEnd, textOf, weight, within, type Tree } from './content-tree.ts';
import type { PageType } from './page-type.ts';
import { headingLevel as level, holdsRankedHeading } from './rails.ts';

/** A heading's whole text naming a reference list. */
const REFERENCES =
  /^(?:(?:list of )?sources|bibliography|select(?:ed)? bibliography|works cited|literature cited|citations|footnotes|(?:notes|sources) and references|references and (?:notes|sources|further reading)|how we reviewed this article)[\s:.]*$/;
/** "References" alone: an article's reference list, but a firm's or a shop's client references (their projects, their customers). */
const BARE = /^references?[\s:.]*$/;
/** The types whose "References" is a reference list. */
const CITING = new Set<PageType>(['article', 'listing', 'forum']);
/** A heading's whole text naming an author's bio box ("About the author", "Meet the author"). */
const AUTHOR_BOX = /^(?:about|meet) the authors?[\s:.]*$|^author spotlight$/;
/** A link to an author's page on the site (`/author/amar/`): "About <Amar Hussain>" names that author's bio box. */
const AUTHOR_PAGE = /\/(?:author|authors)\/[^/?#]+/i;

/** Whether heading `h` (its text `name`) names a reference list on a page of type `type` or, with `authors`, an author's bio box. */
function apparatus(t: Tree, h: number, name: string, type: PageType, authors: boolean): boolean {
  if (REFERENCES.test(name) || (BARE.test(name) && CITING.has(type))) return true;
  if (!authors) return false;
  if (AUTHOR_BOX.test(name)) return true;
  if (!name.startsWith('about ')) return false;
  const last = subtreeEnd(t, h);
  for (let k = h + 1; k <= last; k++) if (t.els[k].name === 'a' && AUTHOR_PAGE.test(t.els[k].attribs.href ?? '')) return true;
  return false;
}

/** A reference list holds at most this share of the content. */
const MAX_SHARE = 0.5;

/** Whether nothing with text comes before child `c` in element `p`. */
function startsWith(t: Tree, p: number, c: number): boolean {
  for (const k of elementChildren(t, p)) {
    if (k === c) return true;
    if (weight(t, k) > 0) return false;
  }
  return true;
}

/**
 * Reference lists inside the content `node`: under a heading whose whole text names one
 * ("References", "Bibliography", "Works cited", "Sources"), the largest block starting with the
 * heading and holding no other heading of its rank (`<div class="footnotes"><h4>References</h4><ol>…`), or, when
 * the heading stands among the article's other sections (`<h2>References</h2><ol>…` beside the
 * body's paragraphs), the heading and its siblings up to the next heading of its rank. At most
 * MAX_SHARE of the content; a heading "References" alone only on an article, a listing or a thread
 * (CITING). Not on a product page (where a book's author bio is its description's), the author's bio
 * box under its heading the same way.
 */
export function references(t: Tree, node: number, type: PageType): number[] {
  const authors = type !== 'product';
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  const whole = weight(t, node);
  for (let h = node + 1; h <= last; h++) {
    if (t.gone[h]) {
      h = subtreeEnd(t, h);
      continue;
    }
    const l = level(t.els[h]);
    if (l < 1 || l > 6 || !apparatus(t, h, textOf(t.els[h]), type, authors)) continue;
    // (the heading's own wrapper, `<div class="mw-heading"><h2>References</h2></div>`)
    let a = h;
    while (t.parent[a] !== node && t.parent[a] !== -1 && weight(t, t.parent[a]) === weight(t, a)) a = t.parent[a];
    // The largest block starting with it and holding no other heading of its rank ...
    let b = a;
    // (the cheap share bound first: holdsRankedHeading reads the whole block)
    for (
      let p = t.parent[b];
      p !== node && p !== -1 && weight(t, p) <= MAX_SHARE * whole && startsWith(t, p, b) && !holdsRankedHeading(t, p, l, h, { self: true });
      p = t.parent[p]
    )
      b = p;
    const found: number[] = [];
    if (b !== a) found.push(b);
    else {
      // ... or the heading and its siblings up to the next heading of its rank.
      const kids = t.parent[a] === -1 ? [] : elementChildren(t, t.parent[a]);
      const from = kids.indexOf(a);
      found.push(a);
      for (const k of kids.slice(from + 1)) {
        if (holdsRankedHeading(t, k, l, -1, { self: true })) break;
        found.push(k);
      }
      if (found.length === 1) continue;
    }
    if (found.reduce((s, k) => s + weight(t, k), 0) > MAX_SHARE * whole) continue;
    if (found.some((k) => isAncestor(t, k, node))) continue;
    out.push(...found);
    h = subtreeEnd(t, found[found.length - 1]);
  }
  return out;
}

/**
 * A class word naming a block as an article's author or contributor (`author`, `post__author`,
 * `blog-bottom-authorbox`, `authorInfo`, `sno-story-contributor-box`, `author-meta-container`): the
 * word ends it or a word naming a part follows; not a post's class naming its author
 * (`author-jennifer-charles` on every card of a blog's list).
 */
const AUTHOR_CLASS =
  /(?:^|[-_])(?:authors?|contributors?)[-_]*(?:box|info|bio|block|details?|section|credit|meta|card|profile|about|post|wrap(?:per)?|container|area)?$/;
/** Cards each naming its author, this many or more: a list of posts. */
const AUTHOR_CARDS = 3;
/** An author's block holds at most this share of the content. */
const AUTHOR_SHARE = 0.3;

/**
 * An article's author blocks named by their class inside the content `node`: the byline's "By Ann
 * Lee, Senior Editor" and the bio box under the text ("Ann Lee is a writer at …"), who wrote it, not
 * what it says; not holding the title, under AUTHOR_SHARE of the content, and not a quote's speaker
 * (a testimonial's "Susan Hallam, Managing Director" under its quote).
 */
export function authorBlocks(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  const stack = elementChildren(t, node);
  while (stack.length) {
    const k = stack.pop()!;
    const cls = t.els[k].attribs.class;
    if (
      cls !== undefined &&
      cls
        .toLowerCase()
        .split(/\s+/)
        .some((w) => AUTHOR_CLASS.test(w))
    ) {
      if (weight(t, k) <= AUTHOR_SHARE * whole && !holdsTitle(k) && !quoted(t, node, k)) {
        out.push(k);
        continue;
      }
    }
    stack.push(...elementChildren(t, k));
  }
  // (a list's cards each naming its post's author, three or more of one kind each in its own card,
  // keep them: the list's text, as bylines.ts keeps their dates; an article's several bio boxes
  // stand side by side)
  const kinds = new Map<string, number[]>();
  for (const k of out) {
    const s = signature(t.els[k]);
    const ks = kinds.get(s);
    if (ks) ks.push(k);
    else kinds.set(s, [k]);
  }
  const cards = new Set<number>();
  for (const ks of kinds.values()) if (ks.length >= AUTHOR_CARDS && new Set(ks.map((k) => t.parent[k])).size === ks.length) for (const k of ks) cards.add(k);
  return out.filter((k) => !cards.has(k));
}

/** A block named as a quote or a testimonial (`testimonial`, `quote-card`, `review`). */
const QUOTE_CLASS = /testimonial|quote|review/;
/** A quote's card holds at most this many parts. */
const QUOTE_PARTS = 4;
/** A quotation mark opening a text. */
const OPENING_QUOTE = /^["“„«‘']/;

/** Whether the author block `k` (inside `node`) names a quote's speaker: inside a block named as a quote, or in a card beside a quote. */
function quoted(t: Tree, node: number, k: number): boolean {
  if (within(t, k, node, QUOTE_CLASS)) return true;
  const p = t.parent[k];
  if (p === -1 || p === node) return false;
  // (a card's few parts: the quote and its speaker; not an article's body beside its bio box)
  const parts = elementChildren(t, p);
  if (parts.length > QUOTE_PARTS) return false;
  for (const c of parts) {
    if (c === k) continue;
    const el = t.els[c];
    if (el.name === 'blockquote' || el.name === 'q' || OPENING_QUOTE.test(textOf(el, 4))) return true;
  }
  return false;
}
