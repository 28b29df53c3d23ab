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
import { collapse, INVISIBLE_TAGS, jsonLdRoots, parseHtmlDocument } from './dom.ts';
import type { AnyNode, Document, Element } from './dom.ts';
// Menus, page header and footer are folded; an overlay's class words ("with-cookie-info") can name a page wrapper.
import { isBoilerplate, isOverlay } from '../page/boilerplate.ts';
import { findMainContent, type Range } from '../page/main-content.ts';

export interface SkeletonOptions {
  /** Upper bound of the skeleton's length in characters (default 24,000). */
  maxChars?: number;
}

interface Level {
  repeats: number;
  text: number;
  attr: number;
  foldChrome: boolean;
}

const LEVELS: Level[] = [
  { repeats: 3, text: 80, attr: 80, foldChrome: true },
  { repeats: 2, text: 50, attr: 60, foldChrome: true },
  { repeats: 1, text: 30, attr: 40, foldChrome: true },
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

function describe(el: Element, lv: Level): string {
  let out = el.name;
  const id = el.attribs.id;
  if (id) out += `#${cut(id, 40)}`;
  const classes = (el.attribs.class ?? '').split(/\s+/).filter(Boolean);
  for (const c of classes.slice(0, 6)) out += `.${cut(c, 40)}`;
  if (classes.length > 6) out += '.…';
  const attrs: string[] = [];
  let data = 0;
  for (const [k, v] of Object.entries(el.attribs)) {
    if (k.startsWith('data-') && data < 4) {
      data++;
      // A generated id (tracking, render ids) is no selector anchor: its presence is shown, not its value.
      attrs.push(v === '' || GENERATED.test(v) ? `[${k}]` : `[${k}="${cut(v, lv.attr)}"]`);
    }
  }
  for (const k of KEY_ATTRS) {
    const v = el.attribs[k];
    if (v === undefined || (k === 'type' && el.name !== 'input' && el.name !== 'button')) continue;
    if (k === 'itemscope' || v === '') attrs.push(`[${k}]`);
    else attrs.push(`[${k}="${cut(k === 'itemtype' ? v.replace(/^https?:\/\/schema\.org\//, '') : v, lv.attr)}"]`);
  }
  return out + attrs.join('');
}

/** Siblings alike for folding: same tag, id and classes, numbers ignored (`item-1`, `item-2`); page
 * parts told apart by their ids alone (#top, #center, #bottom) are not repeats. */
function signature(el: Element): string {
  const id = el.attribs.id ? `#${el.attribs.id.replace(/\d+/g, '#')}` : '';
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
  lines: string[];
  chars: number;
  limit: number;
}

function push(r: Render, line: string): void {
  r.lines.push(line);
  r.chars += line.length + 1;
}

interface Plan {
  level: Level;
  /** The main content's ranges of the HTML (sorted, disjoint): never counted away as a repeat. */
  ranges: Range[] | null;
}

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
  let kids = elementChildren(node);
  while (kids.length === 1 && !directText(node) && chain.length < 6) {
    node = kids[0];
    chain.push(describe(node, lv));
    kids = elementChildren(node);
  }
  const text = directText(node);
  const indent = '  '.repeat(Math.min(depth, 30));
  if (lv.foldChrome && (CHROME.has(el.name) || (isBoilerplate(el.name, el.attribs, false) && !isOverlay(el.name, el.attribs))) && kids.length > 0) {
    push(r, `${indent}${chain.join(' > ')} (${kids.length} children folded)`);
    return;
  }
  push(r, `${indent}${chain.join(' > ')}${text ? ` "${cut(text, lv.text)}"` : ''}`);
  renderChildren(kids, depth + 1, r, plan, lv, where === 'in');
}

/** Elements of at most this many descendant elements count as data rows. */
const ROW_SIZE = 6;
const ROW_FACTOR = 10;

/** A data row: a few elements and no link (a run of small links is a menu, folded like cards). */
function isSmall(el: Element): boolean {
  if (el.name === 'a') return false;
  let n = 0;
  const stack: Element[] = [el];
  while (stack.length) {
    for (const c of stack.pop()!.children) {
      if (!isTag(c)) continue;
      if (++n > ROW_SIZE || c.name === 'a') return false;
      stack.push(c);
    }
  }
  return true;
}

function renderChildren(kids: Element[], depth: number, r: Render, plan: Plan, lv: Level, inMain = false): void {
  const seen = new Map<string, number>();
  const perTag = new Map<string, number>();
  const skipped = new Map<string, number>();
  for (const kid of kids) {
    // At most `repeats` of one kind, and a few more of one tag whatever their classes.
    const sig = signature(kid);
    const n = (seen.get(sig) ?? 0) + 1;
    const t = (perTag.get(kid.name) ?? 0) + 1;
    seen.set(sig, n);
    perTag.set(kid.name, t);
    // Small siblings are data rows (a spec table's label and value, a definition list): each row
    // holds a different fact, so many more of them are shown than of cards.
    const limit = isSmall(kid) ? lv.repeats * ROW_FACTOR : lv.repeats;
    // The main content (or what holds it) is never one of the repeats counted away.
    if (plan.ranges && !inMain && region(kid, plan.ranges) !== 'out') renderElement(kid, depth, r, plan, inMain);
    else if (n > limit) skipped.set(sig, (skipped.get(sig) ?? 0) + 1);
    else if (t > limit + 3 && !kid.attribs.id) skipped.set(kid.name, (skipped.get(kid.name) ?? 0) + 1);
    else renderElement(kid, depth, r, plan, inMain);
  }
  const indent = '  '.repeat(Math.min(depth, 30));
  for (const [sig, count] of skipped) {
    push(r, `${indent}… ${count} more ${sig}${sig.includes('.') ? ' like the above' : ' elements'}`);
  }
}

function compactJson(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return cut(v, 80);
  if (Array.isArray(v)) {
    const head = v.slice(0, 3).map((x) => compactJson(x, depth + 1));
    return v.length > 3 ? [...head, `… ${v.length - 3} more`] : head;
  }
  if (v && typeof v === 'object') {
    if (depth > 5) return '{…}';
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, compactJson(x, depth + 1)]));
  }
  return v;
}

function headLines(lv: Level, all: (q: string) => Element[], title: Element | null): string[] {
  const lines: string[] = [];
  if (title) lines.push(`title "${cut(collapse(title.children.map((c) => (isText(c) ? c.data : '')).join('')), 120)}"`);
  for (const m of all('head meta').slice(0, 40)) {
    const key = m.attribs.property ? 'property' : m.attribs.name ? 'name' : m.attribs.itemprop ? 'itemprop' : null;
    if (key && m.attribs.content) lines.push(`meta[${key}="${m.attribs[key]}"] content="${cut(m.attribs.content, lv.attr)}"`);
  }
  for (const l of all('link[rel]')) {
    if (/canonical|next|prev/i.test(l.attribs.rel)) lines.push(`link[rel="${l.attribs.rel}"][href="${cut(l.attribs.href ?? '', lv.attr)}"]`);
  }
  const scripts = all('script[type="application/ld+json" i]').slice(0, 5);
  scripts.forEach((s, i) => {
    const roots = jsonLdRoots([s]);
    if (roots.length) lines.push(`JSON-LD block ${i + 1}: ${cut(JSON.stringify(compactJson(roots.length === 1 ? roots[0] : roots)), 2000)}`);
  });
  return lines;
}

/** Main-content detection builds its own tree: above this many characters the skeleton does without it. */
const MAX_MAIN_DETECT = 1_000_000;

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
  let main: Range[] | null | undefined = withMain ? undefined : null;
  for (let i = 0; ; i++) {
    // The main content is found only when the page does not fit at full detail.
    if (i === 1 && main === undefined) {
      const found = findMainContent(page as string);
      main = found.ranges.length ? found.ranges : null;
    }
    if (i >= LEVELS.length) break;
    const lv = LEVELS[i];
    const plan: Plan = { level: lv, ranges: main ?? null };
    const r: Render = { lines: [], chars: 0, limit: maxChars * 1.5 };
    const head = headLines(lv, all, title);
    if (head.length) push(r, `# head\n${head.join('\n')}`);
    push(r, '# body (one element per line; indentation = nesting; "a > b" = wrappers folded; "…" = repeated siblings counted)');
    if (body) renderChildren(elementChildren(body), 0, r, plan, lv);
    else
      renderChildren(
        doc.children.filter((c): c is Element => isTag(c) && !INVISIBLE_TAGS.has(c.name)),
        0,
        r,
        plan,
        lv,
      );
    text = r.lines.join('\n');
    if (text.length <= maxChars) return text;
  }
  return `${text.slice(0, maxChars - 40)}\n… (skeleton cut at ${maxChars} characters)`;
}
