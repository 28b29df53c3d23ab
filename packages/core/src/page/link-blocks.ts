// Link blocks inside the main content (main-content.ts): blocks that are mostly link text (a table of
// contents, tag lists, archive widgets, "read next" lists) are left out, unless they are the content
// itself: a run of them making up much of it, the same one in every row or card (each item's title,
// its authors), a list a sentence introduces, or a shop's grid of priced cards.
import type { AnyNode, Element, Text } from 'domhandler';
import { eachLive, elementChildren, HEADINGS, isAncestor, LINKY, signature, subtreeEnd, textOf, weight, within, type Tree } from './content-tree.ts';
import { COMMENTS } from './thread-parts.ts';
import { postAuthor } from './post-authors.ts';
import type { PageType } from './page-type.ts';
import { PRICE, PRICED_CARDS } from './prices.ts';

/** The same link block in this many rows or cards (each in a parent of its own) is part of each. */
const ROWS = 5;
/** A block of the product's header holding this much text outside links is its summary. */
const SUMMARY = 80;
/** A heading this long (characters) is a headline. */
const HEADLINE = 25;

/**
 * Elements holding a headline, by index from `node`: a heading (h1 to h6) that is mostly a link of a
 * title's length (not a name) to another page (an item's title, not a section's anchor), not in a comment.
 */
function headlines(t: Tree, node: number): Uint8Array {
  const last = subtreeEnd(t, node);
  const out = new Uint8Array(last - node + 1);
  const linkOut = new Uint8Array(last - node + 1);
  for (let i = last; i > node; i--) {
    const el = t.els[i];
    const href = el.attribs.href;
    if (el.name === 'a' && href !== undefined && href !== '' && !href.startsWith('#')) linkOut[i - node] = 1;
    if (HEADINGS.has(el.name) && linkOut[i - node] && !t.gone[i] && t.lnk[i] >= HEADLINE && t.txt[i] <= LINKY * t.lnk[i] && !within(t, i, -1, COMMENTS))
      out[i - node] = 1;
    const p = t.parent[i] - node;
    linkOut[p] |= linkOut[i - node];
    out[p] |= out[i - node];
  }
  return out;
}

const BLOCK_TAGS = new Set(['div', 'ul', 'ol', 'section', 'aside', 'nav', 'table', 'dl', 'header', 'footer', 'form', 'span', 'details']);

/** A list of links that the paragraph before it introduces ("refer to the following pages:"). */
function introduced(t: Tree, k: number): boolean {
  const el = t.els[k];
  if (el.name !== 'ul' && el.name !== 'ol') return false;
  let prev = el.prev;
  while (prev && prev.type !== 'tag') prev = prev.prev;
  if (!prev || (prev as Element).name !== 'p') return false;
  return /:\s*$/.test(textEnd(prev as Element));
}

/** A link's heading holds at least this share of its text. */
const HEADING_TEXT = 0.5;

/**
 * Headings that are links into the page itself (`<h5><a href="#">How long does it take?</a></h5>`, an
 * accordion's or a tab's titles opened by a script): all of the block's link text is theirs, so the
 * block is its questions or its sections' titles, not links to elsewhere.
 */
function headingToggles(t: Tree, k: number): boolean {
  const last = subtreeEnd(t, k);
  let toggles = 0;
  for (let i = k + 1; i <= last; i++) {
    const el = t.els[i];
    // (a link without text, the accordion's arrow, does not count)
    if (el.name !== 'a' || t.gone[i] || t.lnk[i] === 0) continue;
    if (!(el.attribs.href ?? '').startsWith('#')) return false;
    // (in a heading, or around one holding most of its text: not a card's link around an empty title)
    let heading = false;
    for (let h = t.parent[i]; h > k && !heading; h = t.parent[h]) heading = HEADINGS.has(t.els[h].name);
    let inner = 0;
    for (let c = i + 1; c <= subtreeEnd(t, i) && !heading; c++)
      if (HEADINGS.has(t.els[c].name) && !t.gone[c]) {
        inner += t.lnk[c];
        c = subtreeEnd(t, c);
      }
    if (!heading && inner < HEADING_TEXT * t.lnk[i]) return false;
    toggles += t.lnk[i];
    i = subtreeEnd(t, i);
  }
  return toggles > 0 && toggles >= t.lnk[k];
}

/** A card's description (its text outside the heading) holds at least this many characters. */
const DESCRIPTION = 60;
/** A grid of described cards holds at least this many. */
const MIN_CARDS = 3;

/**
 * A grid of cards, each one link around a heading and a description (`<a href="/cloud-security"><h3>Cloud
 * Security</h3><p>We help you manage the risks…</p></a>`): a services page's offerings, read as text
 * there, not a menu of links (a menu's links are names, not headings with a paragraph beneath).
 */
function describedCards(t: Tree, k: number): boolean {
  const last = subtreeEnd(t, k);
  let cards = 0;
  let cardText = 0;
  for (let i = k + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name !== 'a' || t.gone[i] || t.lnk[i] === 0) continue;
    const end = subtreeEnd(t, i);
    let heading = 0;
    let picture = false;
    for (let c = i + 1; c <= end; c++)
      if ((t.els[c].name === 'img' && !icon(t.els[c])) || t.els[c].name === 'picture') picture = true;
      else if (HEADINGS.has(t.els[c].name) && !t.gone[c]) {
        heading += t.lnk[c];
        c = subtreeEnd(t, c);
      }
    // (a title set in a paragraph of its own, the card's first: `<a><p>UX Designers</p><p>Top UX designers…</p></a>`)
    if (heading === 0) heading = blockTitle(t, i);
    if (!picture && heading > 0 && t.lnk[i] - heading >= DESCRIPTION) {
      cards++;
      cardText += t.lnk[i];
    }
    i = end;
  }
  return cards >= MIN_CARDS && cardText >= LINKY * t.lnk[k];
}

/** An image that is an icon: an SVG file, or named an icon by its class or its alt text ("terminal icon"). */
const icon = (el: Element) =>
  /\.svg(?:[?#]|$)/i.test(el.attribs.src ?? '') || /(?:^|[-_\s])icon(?:$|[-_\s])/i.test(`${el.attribs.class ?? ''} ${el.attribs.alt ?? ''}`);

/** A card title's length (characters) at most, when set in a plain block. */
const BLOCK_TITLE = 80;

/**
 * The text length of link `a`'s title set in a plain block: its first child with text, a paragraph or
 * a `div` of at most BLOCK_TITLE characters with another block after it (0 if none).
 */
function blockTitle(t: Tree, a: number): number {
  const live = (at: number) => elementChildren(t, at).filter((c) => !t.gone[c] && t.txt[c] + t.lnk[c] > 0);
  let kids = live(a);
  // (through a wrapper holding the card's parts: `<a><div class="flex"><span>Title</span><span>Text…</span></div></a>`)
  while (kids.length === 1 && t.els[kids[0]].name === 'div') kids = live(kids[0]);
  if (kids.length < 2 || (t.els[kids[0]].name !== 'p' && t.els[kids[0]].name !== 'div' && t.els[kids[0]].name !== 'span')) return 0;
  const n = t.txt[kids[0]] + t.lnk[kids[0]];
  return n <= BLOCK_TITLE ? n : 0;
}

/** An element with text of the sentence it is in right beside it (a text sibling with a word). */
function inSentence(el: Element): boolean {
  return [el.prev, el.next].some((c) => c?.type === 'text' && /[\p{L}\p{N}]/u.test((c as Text).data));
}

/** Whether span `k`'s nearest ancestor that is not a span is a list item or a paragraph. */
function inItem(t: Tree, k: number): boolean {
  let p = t.parent[k];
  while (p !== -1 && t.els[p].name === 'span') p = t.parent[p];
  return p !== -1 && (t.els[p].name === 'li' || t.els[p].name === 'p');
}

/** Whether every link with text inside `k` has text of its sentence beside it. */
function linksInSentence(t: Tree, k: number): boolean {
  const last = subtreeEnd(t, k);
  let links = 0;
  for (let i = k + 1; i <= last; i++) {
    if (t.els[i].name !== 'a' || t.lnk[i] === 0) continue;
    if (!inSentence(t.els[i])) return false;
    links++;
    i = subtreeEnd(t, i);
  }
  return links > 0;
}

/** The last characters of an element's text. */
function textEnd(el: Element): string {
  let s = '';
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') s += (n as Text).data;
    else if (n.type === 'tag') for (let i = (n as Element).children.length - 1; i >= 0; i--) stack.push((n as Element).children[i]);
  }
  return s.slice(-40);
}

/**
 * Blocks inside the content that are mostly links (a table of contents, tag lists, recent-post and
 * archive widgets, "read next" lists): dropped, unless they make up much of the content together with
 * the link blocks beside them (the rows of a product grid, the sections of a listing), kept whole.
 * `declared`: whether the page declares its type (schema.org, Open Graph), as declaredType() reads it.
 */
export function linkBlocks(t: Tree, node: number, runShare: number, type: PageType, title = -1, declared = true): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  if (t.lnk[node] > LINKY * (t.txt[node] + t.lnk[node])) return out; // a listing: its links are the content
  // A shop's grid of priced cards (each card one link around its name and price) is the content of a
  // category page, not a link block: kept whole, and blocks holding it are looked into (not on a product
  // page, where such cards are other products).
  const grid = type === 'product' ? null : pricedGrids(t, node);
  // On a product page, the block holding the product's own price (the one nearest its title: its buy
  // box, beside wish-list and cart buttons that make it mostly links) is looked into, not left out whole.
  const own = type === 'product' ? ownPrice(t, node, title) : -1;
  let slots: Set<string> | undefined;
  const header = new Set<number>();
  const stack = [node];
  while (stack.length) {
    const at = stack.pop()!;
    const kids = elementChildren(t, at);
    const linky = (k: number) => t.lnk[k] > LINKY * (t.txt[k] + t.lnk[k]);
    for (const k of kids) {
      // A link's own inner elements are its text (`<a><span>Connection Pool</span></a>` in a sentence).
      if (t.txt[k] + t.lnk[k] === 0 || t.els[k].name === 'a') continue;
      if (!BLOCK_TAGS.has(t.els[k].name) || !linky(k)) {
        stack.push(k);
        continue;
      }
      if (grid && (grid[k - node] & GRID || (grid[at - node] & GRID && grid[k - node] & PRICED))) continue;
      if (grid && grid[k - node] & HOLDS_GRID) {
        stack.push(k);
        continue;
      }
      // A card's own title (a link block holding a heading) in a card of that grid is the card's (not
      // in a thread, whose posts quoting prices are no shop's cards: an author's name links there).
      if (grid && type !== 'forum' && cardTitle(t, node, grid, k)) continue;
      if (own !== -1 && isAncestor(t, k, own) && !isAncestor(t, k, title)) {
        stack.push(k);
        continue;
      }
      // (and so is, on a product page whose name is a heading by its role alone, `<div role="heading"
      // aria-level="1">`, the block holding that name: an app's header, its summary beside its media
      // and its facts among links to its developer, its tags, its reviews; not under an `<h1>`, whose
      // block of links beside the name is a shop's specification box the description repeats)
      if (type === 'product' && title !== -1 && t.els[title].name !== 'h1' && (isAncestor(t, k, title) || (header.has(at) && t.txt[k] >= SUMMARY))) {
        header.add(k);
        stack.push(k);
        continue;
      }
      if (introduced(t, k)) continue;
      if (headingToggles(t, k)) continue;
      // (and on a page read as an article only for an `<article>` element somewhere in it, with no
      // Article markup: a services page whose testimonials or news teasers are such elements)
      if ((type === 'service' || (type === 'article' && !declared)) && describedCards(t, k)) continue;
      // So is a span around a link in a sentence (`My goal is <span class="keyword"><a>MBB</a></span> since`).
      if (t.els[k].name === 'span' && inSentence(t.els[k])) continue;
      // And a span in a list item or a paragraph whose links all sit in a sentence (`<li><span><span>Addressing
      // third-party <a>vendor risks</a></span></span></li>`): one item's text with a link in it.
      if (t.els[k].name === 'span' && inItem(t, k) && linksInSentence(t, k)) continue;
      // A thread's post whose text is short beside its links (a reply of a few words under its date
      // and quote links) is one of the posts all the same: the same block (tag and classes) holds
      // prose in most of the other posts. Looked into, not left out whole.
      if (type === 'forum' && (slots ??= proseSlots(t, node)).has(signature(t.els[k]))) {
        stack.push(k);
        continue;
      }
      // (a post's author, one link to the poster's profile, is the thread's text: post-authors.ts)
      if (type === 'forum' && postAuthor(t, k)) continue;
      let run = 0;
      for (const o of kids) if (BLOCK_TAGS.has(t.els[o].name) && linky(o)) run += weight(t, o);
      if (run < runShare * whole) out.push(k);
    }
  }
  // The same link block in every row of a table or card of a grid (each row's name cell) is the
  // rows' content when, all together, they make up as much of it as a run of link blocks would; and
  // so is one holding an item's headline in five or more rows or cards (a listing's titles), except
  // on a product page, where such cards are other products.
  const bySig = new Map<string, number>();
  const parents = new Map<string, Set<number>>();
  for (const k of out) {
    const sig = signature(t.els[k]);
    bySig.set(sig, (bySig.get(sig) ?? 0) + weight(t, k));
    if (!parents.has(sig)) parents.set(sig, new Set());
    parents.get(sig)!.add(t.parent[k]);
  }
  const rows = type !== 'product' && [...parents.values()].some((p) => p.size >= ROWS) ? headlines(t, node) : null;
  // And so is a row's title followed by its description (`<li><span><a>Lingolia</a></span><div>Great
  // grammar explanations…</div></li>`, a guide's list of resources) in five or more rows (not in a
  // thread, where a post's author's name precedes its text).
  const described = new Set<number>();
  const describedBySig = new Map<string, number>();
  if (rows && type !== 'forum')
    for (const k of out)
      if (describedTitle(t, k)) {
        described.add(k);
        describedBySig.set(signature(t.els[k]), (describedBySig.get(signature(t.els[k])) ?? 0) + 1);
      }
  return out.filter((k) => {
    const sig = signature(t.els[k]);
    if (described.has(k) && describedBySig.get(sig)! >= ROWS) return false;
    return bySig.get(sig)! < runShare * whole && (!rows || parents.get(sig)!.size < ROWS || !(rows[k - node] || namesList(t.els[k])));
  });
}

/** A block named by its classes in this many of a thread's posts or more... */
const SLOTS = 3;
/** ... holding prose (not mostly links) in more than this share of them is the posts' text. */
const SLOT_PROSE = 0.5;
/** ... and this many characters of text outside links each, on average (a post's text, not its date line). */
const SLOT_TEXT = 40;

/**
 * Signatures (tag and classes) of blocks under `node` named by a class, in SLOTS or more parents
 * of their own, more than SLOT_PROSE of them not mostly links: the same part of every post (its
 * body, its main cell), prose in most of them.
 */
function proseSlots(t: Tree, node: number): Set<string> {
  const seen = new Map<string, { n: number; prose: number; text: number; parents: Set<number> }>();
  eachLive(t, node, (i) => {
    const el = t.els[i];
    if ((el.name !== 'div' && el.name !== 'section') || !(el.attribs.class ?? '').trim() || t.txt[i] + t.lnk[i] === 0) return false;
    const sig = signature(el);
    let s = seen.get(sig);
    if (!s) seen.set(sig, (s = { n: 0, prose: 0, text: 0, parents: new Set() }));
    s.n++;
    s.text += t.txt[i];
    s.parents.add(t.parent[i]);
    if (t.lnk[i] <= LINKY * (t.txt[i] + t.lnk[i])) s.prose++;
    return false;
  });
  const out = new Set<string>();
  for (const [sig, s] of seen) if (s.parents.size >= SLOTS && s.prose > SLOT_PROSE * s.n && s.text >= SLOT_TEXT * s.n) out.add(sig);
  return out;
}

/** A row's description holds at least this many characters of text outside links. */
const ROW_DESCRIPTION = 20;

/**
 * Whether link block `k` holds a single link to another page and is its parent's first block with text, the next one
 * (its last) a description: text, not links, of ROW_DESCRIPTION characters or more.
 */
function describedTitle(t: Tree, k: number): boolean {
  const kids = elementChildren(t, t.parent[k]).filter((c) => !t.gone[c] && t.txt[c] + t.lnk[c] > 0);
  if (kids.length !== 2 || kids[0] !== k) return false;
  const d = kids[1];
  if (t.txt[d] < ROW_DESCRIPTION || t.lnk[d] > 0) return false;
  let links = 0;
  const last = subtreeEnd(t, k);
  for (let i = k + 1; i <= last; i++) {
    if (t.els[i].name !== 'a' || t.lnk[i] === 0) continue;
    // (to another page: an accordion's question linking to `#collapse1` opens its answer)
    const href = t.els[i].attribs.href ?? '';
    if (href === '' || href.startsWith('#')) return false;
    // (a name, not a count: a comment's votes, `<a href="/login">8</a>`, precede its text)
    if (!/\p{L}/u.test(textOf(t.els[i]))) return false;
    links++;
  }
  return links === 1;
}

/** Whether `k` holds a heading and lies in a card of a shop's grid of priced cards (a priced child of a grid). */
function cardTitle(t: Tree, node: number, grid: Uint8Array, k: number): boolean {
  if (!inPricedCard(t, node, grid, k)) return false;
  const last = subtreeEnd(t, k);
  for (let i = k + 1; i <= last; i++) if (HEADINGS.has(t.els[i].name) && !t.gone[i] && t.txt[i] + t.lnk[i] > 0) return true;
  return false;
}

/** Between the links of a list of names: a comma, a semicolon, an "and". */
const NAME_SEPARATOR = /^[\s,;]*(?:(?:and|&)[\s,]*)?$/;

/**
 * A list of names, each a link, separated by commas (`<a>Ann Lee</a>, <a>Bo Chen</a> and <a>Cy Diaz</a>`):
 * in every row of a listing, the item's authors, as much the item's as its title.
 */
function namesList(el: Element): boolean {
  let links = 0;
  let separators = 0;
  for (const c of el.children) {
    if (c.type === 'text') {
      const data = (c as Text).data;
      if (!NAME_SEPARATOR.test(data)) return false;
      if (data.trim() && links > 0) separators++;
    } else if (c.type === 'tag' && (c as Element).name === 'a') links++;
    else if (c.type === 'tag') return false;
  }
  // (tags side by side, parted by spaces alone, are not names)
  return links >= 2 && separators >= links - 1;
}

export const PRICED = 1;
export const GRID = 2;
export const HOLDS_GRID = 4;

/**
 * By index from `node`: PRICED for an element holding a price in its text, GRID for the parent of
 * PRICED_CARDS or more like children (same signature) that each hold one, HOLDS_GRID for its ancestors.
 */
/** Whether `i` lies inside a card of a grid of priced cards (a priced child of a grid; `grid` is pricedGrids(t, node)). */
export function inPricedCard(t: Tree, node: number, grid: Uint8Array, i: number): boolean {
  for (let c = i; c !== node && c !== -1; c = t.parent[c]) if (grid[c - node] & PRICED && grid[t.parent[c] - node] & GRID) return true;
  return false;
}

export function pricedGrids(t: Tree, node: number): Uint8Array {
  // (asked for by several passes on the same content: computed once per node)
  const known = t.grids.get(node);
  if (known) return known;
  const out = grids(t, node);
  t.grids.set(node, out);
  return out;
}

function grids(t: Tree, node: number): Uint8Array {
  const last = subtreeEnd(t, node);
  const out = new Uint8Array(last - node + 1);
  const count = new Map<string, number>();
  for (let i = last; i >= node; i--) {
    if (t.gone[i]) continue;
    const el = t.els[i];
    if (!(out[i - node] & PRICED)) {
      // The element's own text, its pieces joined (`$<!-- -->30` as rendered by React).
      let own = '';
      for (const c of el.children) if (c.type === 'text') own += (c as Text).data;
      if (own !== '' && PRICE.test(own)) out[i - node] |= PRICED;
    }
    count.clear();
    for (const c of elementChildren(t, i)) {
      if (!(out[c - node] & PRICED)) continue;
      const sig = signature(t.els[c]);
      const n = (count.get(sig) ?? 0) + 1;
      count.set(sig, n);
      if (n >= PRICED_CARDS) out[i - node] |= GRID;
    }
    if (i > node) out[t.parent[i] - node] |= (out[i - node] & PRICED) | (out[i - node] & (GRID | HOLDS_GRID) ? HOLDS_GRID : 0);
  }
  return out;
}

/**
 * The product's own price: in the nearest ancestor of the title (`title`, inside `node`) that holds a
 * price outside a grid of priced cards and outside links (another product's card), the first element
 * holding one in its own text (-1 if none).
 */
function ownPrice(t: Tree, node: number, title: number): number {
  if (title === -1 || !isAncestor(t, node, title)) return -1;
  const grid = pricedGrids(t, node);
  const first = (a: number) => {
    const last = subtreeEnd(t, a);
    for (let i = a; i <= last; i++) {
      if (t.gone[i] || grid[i - node] & GRID || t.els[i].name === 'a') {
        i = subtreeEnd(t, i);
        continue;
      }
      if (pricedItself(t, grid, node, i)) return i;
    }
    return -1;
  };
  for (let a = title; ; a = t.parent[a]) {
    if (grid[a - node] & PRICED) {
      const i = first(a);
      if (i !== -1) return i;
    }
    if (a === node) return -1;
  }
}

/** Whether element `i` holds a price in its own text, not only in a child's (`grid`: pricedGrids(t, node)). */
export const pricedItself = (t: Tree, grid: Uint8Array, node: number, i: number): boolean =>
  (grid[i - node] & PRICED) !== 0 && !elementChildren(t, i).some((c) => grid[c - node] & PRICED);
