/**
 * A compact view of a page's DOM for writing selectors: one line per element with its tag, id,
 * classes, the attributes selectors anchor on (itemprop, data-*, aria-label, href, src, ...) and a
 * short text; wrapper chains folded onto one line; repeated siblings (50 product cards) shown a
 * few times then counted; head meta and JSON-LD summarised. Bounded in size: when too long it is
 * rebuilt tighter (fewer repeats, shorter text, navigation folded) and cut as a last resort. Given
 * the HTML (not a parsed Document), a page too long for full detail is rebuilt with its main
 * content (page/main-content.ts) never counted away as "… N more like the above": a product's
 * block that shares its classes with the page's other sections stays shown.
 */
import { selectAll, selectOne } from 'css-select';
import { DomHandler, isTag, isText } from 'domhandler';
import { Parser } from 'htmlparser2';
import { collapse, INVISIBLE_TAGS, parseHtmlDocument } from './dom.ts';
import type { AnyNode, Document, Element } from './dom.ts';
// Menus, page header and footer are folded; an overlay's class words ("with-cookie-info") can name a page wrapper.
import { isBoilerplate, isOverlay } from '../page/boilerplate.ts';
import { findMainContent, type Range } from '../page/main-content.ts';
import { headLines } from './skeleton-head.ts';
import { alike, shapeOf } from './skeleton-shape.ts';
import { foldToFit, type SkeletonLine } from './skeleton-fold.ts';

export interface SkeletonOptions {
  /** Upper bound of the skeleton's length in characters (default 24,000). */
  maxChars?: number;
}

interface Level {
  repeats: number;
  text: number;
  attr: number;
  /** Leave out elements that show nothing (no text, no attribute but id and classes, no children). */
  dropEmpty: boolean;
}

const LEVELS: Level[] = [
  { repeats: 3, text: 80, attr: 80, dropEmpty: false },
  { repeats: 2, text: 60, attr: 60, dropEmpty: true },
  { repeats: 1, text: 40, attr: 40, dropEmpty: true },
];

const KEY_ATTRS = [
  'itemprop',
  'itemtype',
  'itemscope',
  'role',
  'aria-label',
  'name',
  'type',
  'property',
  'rel',
  'href',
  'src',
  'srcset',
  'alt',
  'title',
  'datetime',
  'content',
  'value',
  'for',
  'lang',
];
/** Folded to one line: page chrome (a product's buy box is a <form>: never folded). */
const CHROME = new Set(['nav', 'footer', 'aside']);

/** Generated ids: dash-joined random groups ("ftp0sy-6ak876-bbnqzm") or long hex/base64 runs. */
const GENERATED = /^(?=.*\d)[a-z0-9]{4,8}(?:-[a-z0-9]{4,8}){2,}$|^[0-9a-f]{16,}$|^(?=.*\d)(?=.*[A-Z])[A-Za-z0-9+/=_-]{24,}$/;

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
/** A URL too long is cut in its middle: its start says where it goes, its end often holds an id
 * (`/p/kettle-14347.html`, `?sku=TK-9`). */
const cutMiddle = (s: string, n: number): string => {
  if (s.length <= n) return s;
  const head = Math.ceil(n * 0.45);
  return `${s.slice(0, head)}…${s.slice(s.length - (n - head - 1))}`;
};

/** aria-hidden on these is a snapshot taken with a dialog open (the page behind it), not hidden content. */
const ARIA_CONTAINERS = new Set(['div', 'section', 'main', 'article', 'form', 'table', 'ul', 'ol', 'dl', 'header', 'footer', 'aside', 'body']);

function isHidden(el: Element): boolean {
  const a = el.attribs;
  return 'hidden' in a || /display\s*:\s*none/i.test(a.style ?? '') || (a['aria-hidden'] === 'true' && !ARIA_CONTAINERS.has(el.name));
}

function elementChildren(el: Element): Element[] {
  return el.children.filter((c): c is Element => isTag(c) && !INVISIBLE_TAGS.has(c.name) && !isHidden(c));
}

function directText(el: Element): string {
  return collapse(el.children.map((c) => (isText(c) ? c.data : isTag(c) && c.name === 'br' ? ' ' : '')).join(''));
}

/** Attributes whose whole value is shown however long (up to VALUE_MAX): a value a recipe reads
 * with `read: "attr"` (a price in `content`, a SKU in `value`) is no use cut. */
const VALUE_ATTRS = new Set(['content', 'value', 'datetime']);
const VALUE_MAX = 200;

/** Attributes that name an element (a selector anchors on them) but hold no value to read. */
const ANCHOR_ONLY = new Set(['role', 'name', 'type', 'rel', 'for', 'lang']);

/** A data-* value that only repeats the element's id or a class (`data-feature-name="price"` on `#price_div`). */
function redundant(v: string, el: Element): boolean {
  const low = v.toLowerCase();
  if (low.length < 3) return false;
  if ((el.attribs.id ?? '').toLowerCase().includes(low)) return true;
  return (el.attribs.class ?? '')
    .toLowerCase()
    .split(/\s+/)
    .some((c) => c.includes(low));
}

/** Attributes that point elsewhere (a link, an image): read by recipes, but rarely a fact of the record. */
const REFERENCE_ATTRS = new Set(['href', 'src', 'srcset', 'alt', 'title', 'aria-label']);

/** The element's line: tag, id, classes and the attributes worth anchoring on or reading; `shows`
 * says how much of a value its attributes show (0: nothing beyond names, tag, id and classes). */
function describe(el: Element, lv: Level, info?: { shows: number }): string {
  let out = el.name;
  const id = el.attribs.id;
  if (id) out += `#${cut(id, 40)}`;
  const classes = (el.attribs.class ?? '').split(/\s+/).filter(Boolean);
  for (const c of classes.slice(0, 6)) out += `.${cut(c, 40)}`;
  if (classes.length > 6) out += '.…';
  const attrs: string[] = [];
  let data = 0;
  let shows = 0;
  for (const [k, v] of Object.entries(el.attribs)) {
    if (!k.startsWith('data-') || data >= 4) continue;
    // A generated id (tracking, render ids) is no selector anchor: its presence is shown, not its
    // value (and, when the page is too long, not even that); a value repeating the id says nothing.
    if (v !== '' && (GENERATED.test(v) || redundant(v, el))) {
      if (lv.dropEmpty) continue;
      attrs.push(`[${k}]`);
    } else {
      attrs.push(v === '' ? `[${k}]` : `[${k}="${cut(collapse(v), lv.attr)}"]`);
      if (v !== '') shows = 1;
    }
    data++;
  }
  for (const k of KEY_ATTRS) {
    const v = el.attribs[k];
    if (v === undefined || (k === 'type' && el.name !== 'input' && el.name !== 'button')) continue;
    if (k === 'itemscope' || v === '') attrs.push(`[${k}]`);
    else {
      if (!ANCHOR_ONLY.has(k)) shows = Math.max(shows, REFERENCE_ATTRS.has(k) ? REFERENCE : 1);
      const shown = k === 'itemtype' ? v.replace(/^https?:\/\/schema\.org\//, '') : collapse(v);
      if (VALUE_ATTRS.has(k)) attrs.push(`[${k}="${cut(shown, Math.max(lv.attr, VALUE_MAX))}"]`);
      else if (k === 'href' || k === 'src') attrs.push(`[${k}="${cutMiddle(shown, lv.attr)}"]`);
      else attrs.push(`[${k}="${cut(shown, lv.attr)}"]`);
    }
  }
  if (info) info.shows = shows;
  return out + attrs.join('');
}

/** Siblings alike for folding: same tag, id and classes, numbers ignored (`item-1`, `item-2`); page
 * parts told apart by their ids alone (#top, #center, #bottom) are not repeats. */
function signature(el: Element): string {
  // An id tells parts apart by its words (care-module-10 and quality-module-10), not by its
  // numbers (post-12) or generated letters (R2UX519NMLCSQS).
  const words = (el.attribs.id ?? '')
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length >= 3 && w !== w.toUpperCase())
    .map((w) => w.toLowerCase());
  const id = words.length ? `#${words.join('-')}` : '';
  const classes = (el.attribs.class ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((c) => c.replace(/\d+/g, '#'));
  return `${el.name}${id}${[...new Set(classes)]
    .sort()
    .map((c) => `.${c}`)
    .join('')}`;
}

interface Render {
  lines: SkeletonLine[];
  chars: number;
  limit: number;
}

function push(r: Render, depth: number, line: string, worth = 0): void {
  const text = `${'  '.repeat(Math.min(depth, 30))}${line}`;
  r.lines.push({ text, depth, worth });
  r.chars += text.length + 1;
}

/** Prose longer than this is worth less per line than a short value (a price, a label, a SKU). */
const SHORT_TEXT = 80;
const PROSE = 0.3;
/** A link's or an image's address, and a link's text: most are the way to another page. */
const REFERENCE = 0.3;
const LINK_TEXT = 0.6;
/** A short text with a digit (a price, a code, a size) is worth this much more. */
const DIGITS = 0.5;
/** A "… N more like the above" line: it says how many records a container will match. */
const REPEATS_WORTH = 0.3;
/** Outside the main content a line is worth this much of one inside it. */
const OUTSIDE = 0.3;

/** Names (id, class, itemprop) of the places a record's facts are kept: a line so named is what a
 * recipe anchors on, worth this much more. */
const FACT_NAME =
  /price|sku|brand|avail|stock|gtin|ean\b|upc|isbn|mpn|model|manufacturer|vendor|seller|merchant|currency|product[-_]?(?:title|name|id|code|number)|part[-_]?(?:no|num)|item[-_]?(?:no|num|code)|article[-_]?(?:no|num)/i;

/** Whether an element's names (id, class, itemprop) say it holds a record's fact. */
function factNamed(el: Element): boolean {
  const a = el.attribs;
  return FACT_NAME.test(`${a.id ?? ''} ${a.class ?? ''} ${a.itemprop ?? ''}`);
}
const NAMED = 4;
const CHOICE = 0.3;

/** How much a line shows that a recipe may read: its text (a short value more than prose, a
 * number or code more than a word, a link's text less), its attribute values, and names that say
 * it holds a fact. */
function lineWorth(el: Element, text: string, shows: number, where: 'in' | 'around' | 'out', named: boolean): number {
  let t = 0;
  if (text) t = text.length > SHORT_TEXT ? PROSE : /\d/.test(text) ? 1 + DIGITS : 1;
  // A choice of a select (a quantity, a size) and a form's hidden state are seldom the record's facts.
  if (el.name === 'option') return CHOICE;
  if (el.name === 'input' && el.attribs.type === 'hidden') shows *= CHOICE;
  let w = (el.name === 'a' ? t * LINK_TEXT : t) + shows;
  if (named) w += NAMED;
  return where === 'out' ? w * OUTSIDE : w;
}

interface Plan {
  level: Level;
  /** The main content's ranges of the HTML (sorted, disjoint): never counted away as a repeat. */
  ranges: Range[] | null;
  /** Blocks inside the main content that it leaves out (reviews, related rails, copies): folded. */
  drop: Range[] | null;
}

/** Sorted ranges made disjoint (nested and overlapping ones merged). */
function merged(ranges: Range[]): Range[] {
  const out: Range[] = [];
  for (const [s, e] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** Form controls, meta and links are never folded as a left-out block: they carry values. */
const VALUE_TAGS = new Set(['input', 'select', 'textarea', 'button', 'meta', 'link', 'option']);

/** Whether the element lies in the main content ('in'), holds part of it ('around') or neither ('out'). */
function region(el: Element, ranges: Range[]): 'in' | 'around' | 'out' {
  const s = el.startIndex ?? 0;
  const e = el.endIndex ?? s;
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid][1] <= s) lo = mid + 1;
    else hi = mid;
  }
  if (lo === ranges.length || ranges[lo][0] > e) return 'out';
  return ranges[lo][0] <= s ? 'in' : 'around';
}

function renderElement(el: Element, depth: number, r: Render, plan: Plan, inMain = false): void {
  if (r.chars > r.limit) return;
  const lv = plan.level;
  const where = inMain || !plan.ranges ? 'in' : region(el, plan.ranges);
  // Fold wrapper chains (one element child, no text of their own) onto one line.
  const chain = [describe(el, lv)];
  let node = el;
  let named = factNamed(el);
  let kids = elementChildren(node);
  while (kids.length === 1 && !directText(node) && chain.length < 6) {
    node = kids[0];
    chain.push(describe(node, lv));
    named ||= factNamed(node);
    kids = elementChildren(node);
  }
  const text = directText(node);
  if (kids.length > 0 && (CHROME.has(el.name) || (isBoilerplate(el.name, el.attribs, false) && !isOverlay(el.name, el.attribs)))) {
    push(r, depth, `${chain.join(' > ')} (${kids.length} children folded)`);
    return;
  }
  // What the main content leaves out (customer reviews, recommendation rails, a mobile copy); a
  // small block is shown still (a "Sold by" line of links names the seller).
  if (kids.length > 0 && plan.drop && where === 'in' && !VALUE_TAGS.has(el.name) && region(el, plan.drop) === 'in' && !isSmall(el, SMALL_DROP)) {
    push(r, depth, `${chain.join(' > ')} (${kids.length} children folded: not main content)`);
    return;
  }
  const info = { shows: 0 };
  describe(node, lv, info);
  // A leaf that shows nothing (an icon, a spacer, an empty slot) is no place a value is read from.
  if (lv.dropEmpty && kids.length === 0 && !text && !info.shows) return;
  push(r, depth, `${chain.join(' > ')}${text ? ` "${cut(text, lv.text)}"` : ''}`, lineWorth(node, text, info.shows, where, named));
  renderChildren(kids, depth + 1, r, plan, lv, where === 'in');
}

/** A row of a label and a value holds at most this many characters of text. */
const ROW_TEXT = 160;
/** Elements of at most this many descendant elements count as data rows. */
const ROW_SIZE = 6;
const ROW_FACTOR = 10;
/** Rows of a label and a value (a specification table): each holds a fact, all are shown up to this
 * many (a page too long for them folds what shows least, see skeleton-fold.ts). */
const MAX_ROWS = 100;

/** A data row: a few elements and no link (a run of small links is a menu, folded like cards).
 * With `links`, a block of at most that many elements, links or not. */
function isSmall(el: Element, links = 0): boolean {
  if (el.name === 'a' && !links) return false;
  const size = links || ROW_SIZE;
  let n = 0;
  const stack: Element[] = [el];
  while (stack.length) {
    for (const c of stack.pop()!.children) {
      if (!isTag(c)) continue;
      if (++n > size || (c.name === 'a' && !links)) return false;
      stack.push(c);
    }
  }
  return true;
}

/** The last of a run is shown when it holds at most this many elements (a link, a short row). */
const LAST_SIZE = 3;
/** A block the main content leaves out that holds at most this many elements is shown all the same. */
const SMALL_DROP = 8;

/** Siblings of one kind met so far: a kind is a signature (or a bare tag) and a shape. */
interface Kind {
  shape: Set<string>;
  n: number;
}

/** The kind `kid` belongs to among `kinds` (same key, alike shape), counted once more. */
function countKind(kinds: Map<string, Kind[]>, key: string, shape: Set<string>): number {
  let list = kinds.get(key);
  if (!list) kinds.set(key, (list = []));
  let kind = list.find((k) => alike(k.shape, shape));
  if (!kind) list.push((kind = { shape, n: 0 }));
  return ++kind.n;
}

/** A row of a table or list holding a label and a value: short text in at least two parts (not
 * a paragraph among others, nor a review's date and text). */
function isRow(el: Element): boolean {
  if (el.name !== 'tr' && el.children.filter(isTag).length < 2) return false;
  let chars = 0;
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (isText(n)) chars += n.data.trim().length;
    else if (isTag(n)) stack.push(...n.children);
    if (chars > ROW_TEXT) return false;
  }
  return true;
}

function renderChildren(kids: Element[], depth: number, r: Render, plan: Plan, lv: Level, inMain = false): void {
  const seen = new Map<string, Kind[]>();
  const perTag = new Map<string, Kind[]>();
  // Which kids are counted away, under which name (a signature, or a bare tag).
  const skip: (string | null)[] = kids.map((kid) => {
    // The main content (or what holds it) is never one of the repeats counted away.
    if (plan.ranges && !inMain && region(kid, plan.ranges) !== 'out') return null;
    // At most `repeats` of one kind, and a few more of one tag whatever their classes: siblings
    // alike in name but not in what they hold (a page laid out in bare <table>s) are not repeats.
    const sig = signature(kid);
    const shape = shapeOf(kid);
    const n = countKind(seen, sig, shape);
    const t = countKind(perTag, kid.name, shape);
    // Small siblings are data rows (a spec table's label and value, a definition list): each row
    // holds a different fact, so many more of them are shown than of cards (all, when label and value).
    const limit = isSmall(kid) ? (isRow(kid) ? MAX_ROWS : lv.repeats * ROW_FACTOR) : lv.repeats;
    if (n > limit) return sig;
    if (t > limit + 3 && !kid.attribs.id) return kid.name;
    return null;
  });
  // The last of a run of small items is shown after their count: a breadcrumb's last link names
  // the page's category or brand.
  const last = new Map<string, number>();
  skip.forEach((k, i) => k !== null && last.set(k, i));
  for (const [k, i] of last) if (!isSmall(kids[i], LAST_SIZE)) last.delete(k);
  const skipped = new Map<string, number>();
  const summary = (key: string, count: number): void =>
    push(r, depth, `… ${count} more ${key}${key.includes('.') ? ' like the above' : ' elements'}`, REPEATS_WORTH);
  kids.forEach((kid, i) => {
    const key = skip[i];
    if (key === null) renderElement(kid, depth, r, plan, inMain);
    else if (last.get(key) !== i) skipped.set(key, (skipped.get(key) ?? 0) + 1);
    else {
      if (skipped.has(key)) summary(key, skipped.get(key)!);
      skipped.delete(key);
      renderElement(kid, depth, r, plan, inMain);
    }
  });
  for (const [key, count] of skipped) summary(key, count);
}

const BODY_INTRO =
  '# body (one element per line; indentation = nesting; "a > b" = wrappers folded; "…" = repeated siblings counted; "(N lines folded)" = left out for length)';
/** The last level renders up to this many times the budget before folding it to fit. */
const FOLD_SPAN = 10;

/** Main-content detection builds its own tree: above this many characters the skeleton does without it. */
const MAX_MAIN_DETECT = 3_000_000;

/** The document with source offsets on every element (for the main content's ranges). */
function parseWithOffsets(html: string): Document {
  const handler = new DomHandler(undefined, { withStartIndices: true, withEndIndices: true });
  const parser = new Parser(handler, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.end(html);
  return handler.root;
}

/** The page skeleton the recipe generator shows the model. */
export function pageSkeleton(page: string | Document, opts: SkeletonOptions = {}): string {
  const withMain = typeof page === 'string' && page.length <= MAX_MAIN_DETECT;
  const doc = typeof page !== 'string' ? page : withMain ? parseWithOffsets(page) : parseHtmlDocument(page);
  const maxChars = opts.maxChars ?? 24_000;
  const all = (q: string): Element[] => selectAll<AnyNode, Element>(q, doc);
  const body = selectOne<AnyNode, Element>('body', doc);
  const title = selectOne<AnyNode, Element>('title', doc);
  let text = '';
  const found = withMain ? findMainContent(page as string) : null;
  const main = found?.ranges.length ? found.ranges : null;
  const drop = main && found?.drop.length ? merged(found.drop) : null;
  const top = body ? elementChildren(body) : doc.children.filter((c): c is Element => isTag(c) && !INVISIBLE_TAGS.has(c.name));
  for (let i = 0; i < LEVELS.length; i++) {
    const lv = LEVELS[i];
    const last = i === LEVELS.length - 1;
    const plan: Plan = { level: lv, ranges: main, drop };
    const head = headLines(lv.attr, all, title);
    const intro = `${head.length ? `# head\n${head.join('\n')}\n` : ''}${BODY_INTRO}`;
    // The last level renders the whole page (up to a bound) and folds what shows least to fit.
    const r: Render = { lines: [], chars: 0, limit: last ? maxChars * FOLD_SPAN : maxChars * 1.5 };
    renderChildren(top, 0, r, plan, lv);
    text = last ? `${intro}\n${foldToFit(r.lines, maxChars - intro.length - 1)}` : `${intro}\n${r.lines.map((l) => l.text).join('\n')}`;
    if (text.length <= maxChars) return text;
    // Far too long at full detail: the middle level would not fit either.
    if (r.chars > r.limit && i < LEVELS.length - 2) i = LEVELS.length - 2;
  }
  return `${text.slice(0, maxChars - 40)}\n… (skeleton cut at ${maxChars} characters)`;
}
