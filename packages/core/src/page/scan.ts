// A fast pre-pass over raw HTML for the markdown endpoint. It never builds a tree: it jumps from one
// '<' to the next (skipping script/style bodies with one search each) and records
//  - cuts: byte ranges to drop (comments, script/style/svg/noscript/template/iframe/select, tracking
//    pixels) or to replace (a lazy <img> rewritten to its real source);
//  - the main content range (<main>, else a single top-level <article>) and the top-level page chrome
//    (header/nav/footer/aside outside article/main/section), so main content can come first;
//  - navigation menus (<nav> outside article/main/section, pagination excepted), which are cut.
// dropOverlays() then removes hidden nodes, consent banners and modals from an assembled part.
// Every step moves forward or inspects a bounded window, so both passes are linear in the page size.
import { blockSpace } from './block-space.ts';
import { isHidden, isOverlay } from './boilerplate.ts';
import { isName, tagName } from './tag-names.ts';
import { isTrackingPixel, pickImageSrc } from './urls.ts';

export type Cut = { s: number; e: number; rep: string };
export type Range = [number, number];
/** `blockEnds`: the offsets of the closing tags of blocks (`</div>`, `</p>`, `</h2>`, ...) outside raw text, in order. */
/** `definitions`: the page has a `<dl>`, `<dt>` or `<dd>` (the markdown rewrites them, markdown.ts). */
export type Plan = { cuts: Cut[]; main: Range | null; chrome: Range[]; base: string | null; blockEnds: number[]; definitions: boolean };

const RAW = new Set(['script', 'style', 'svg', 'noscript', 'template', 'iframe', 'math', 'object', 'textarea']);
const CHROME = new Set(['header', 'footer', 'nav', 'aside']);
const MEDIA = new Set(['video', 'audio']);
const PAGINATION = /pagination|pager|paging|page-numbers/i;
const CONTENT = new Set(['main', 'article', 'section']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const PROBE = /hidden|display:|cookie|consent|newsletter|dialog|modal|gdpr/gi;
const LAZY = /data-src|data-lazy|data-original|srcset|\b(?:width|height)\s*=\s*["']?[01]["'\s/>]|\bsrc\s*=\s*["']?\s*data:/i;
/** An href whose value holds whitespace (a line break in the markup): browsers strip it, so do we. */
const HREF_WS = /(\shref\s*=\s*)(["'])([^"']*?[\t\n\r][^"']*)\2/i;
const ATTR = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
const WINDOW = 4000;

function decode(v: string): string {
  return v.indexOf('&') === -1
    ? v
    : v
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#0?39;|&apos;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>');
}
const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** Attributes of one start tag's text (`<name a="b" ...>`). */
export function parseAttrs(tagText: string, nameEnd: number): Record<string, string> {
  const out: Record<string, string> = {};
  ATTR.lastIndex = nameEnd;
  for (let m = ATTR.exec(tagText); m; m = ATTR.exec(tagText)) {
    const k = m[1].toLowerCase();
    if (!(k in out)) out[k] = decode(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

/** End (exclusive) of the element whose start tag is `<name ...>` ending at `tagEnd`. */
function elementEnd(html: string, name: string, tagEnd: number): number {
  if (VOID.has(name) || html.charCodeAt(tagEnd - 2) === 47) return tagEnd;
  const open = `<${name}`;
  const close = `</${name}`;
  let depth = 1;
  let i = tagEnd;
  let nextOpen = html.indexOf(open, i);
  while (depth > 0) {
    const c = html.indexOf(close, i);
    if (c === -1) return html.length;
    while (nextOpen !== -1 && nextOpen < c) {
      if (!isName(html.charCodeAt(nextOpen + open.length))) depth++;
      nextOpen = html.indexOf(open, nextOpen + 1);
    }
    depth--;
    const gt = html.indexOf('>', c);
    i = gt === -1 ? html.length : gt + 1;
  }
  return i;
}

/**
 * Drops hidden nodes, consent banners and modals from HTML that has no scripts or styles left (an
 * assemble() result). They are found from a few attribute words with one search each, not by
 * visiting every tag; each hit looks only at its own tag and, if dropped, the element's extent.
 */
export function dropOverlays(html: string): string {
  const cuts: Cut[] = [];
  // The last '<' and '>' before the hit and the first '>' after it, maintained incrementally so
  // that no character is searched twice however many hits there are.
  let cursor = 0;
  let lastLt = -1;
  let lastGt = -1;
  let nextGt = -1;
  PROBE.lastIndex = 0;
  for (let m = PROBE.exec(html); m; m = PROBE.exec(html)) {
    const p = m.index;
    if (p > cursor) {
      const seg = html.slice(cursor, p);
      const a = seg.lastIndexOf('<');
      const b = seg.lastIndexOf('>');
      if (a !== -1) lastLt = cursor + a;
      if (b !== -1) lastGt = cursor + b;
      cursor = p;
    }
    const lt = lastLt;
    if (lt === -1 || lastGt > lt || p - lt > WINDOW) continue; // in text, or an absurdly long tag
    const c1 = html.charCodeAt(lt + 1);
    if (c1 === 47 || c1 === 33) continue;
    if (nextGt < p) nextGt = html.indexOf('>', p);
    if (nextGt === -1) break;
    const gt = nextGt;
    const name = tagName(html, lt + 1);
    if (!name || name === 'html' || name === 'body' || name === 'main' || name === 'article') continue;
    const a = parseAttrs(html.slice(lt, gt + 1), name.length + 1);
    if (!isHidden(name, a) && !isOverlay(name, a)) {
      PROBE.lastIndex = gt + 1;
      continue;
    }
    const end = elementEnd(html, name, gt + 1);
    cuts.push({ s: lt, e: end, rep: '' });
    PROBE.lastIndex = end;
  }
  return cuts.length ? assemble(html, [[0, html.length]], cuts) : html;
}

// Two-letter prefixes of the tag names the scan cares about (see scan()).
const PREFIX = new Uint8Array(128 * 128);
for (const k of ['ar', 'as', 'ba', 'fo', 'he', 'im', 'if', 'ma', 'na', 'no', 'ob', 'pr', 'sc', 'st', 'sv', 'se', 'te', 'vi', 'au']) {
  PREFIX[k.charCodeAt(0) * 128 + k.charCodeAt(1)] = 1;
}
const closeRe = new Map<string, RegExp>();
/** Block elements whose end the markdown writes a space at (markdown.ts), and their first two letters. */
const BLOCK_END = new Set(['div', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'header', 'footer', 'figure', 'figcaption', 'blockquote']);
const BLOCK_START = new Uint8Array(128 * 128);
/** The block names by their first two letters (as read, lower-cased), to match a closing tag without slicing it. */
const BLOCK_BY_PREFIX = new Map<number, string[]>();
for (const k of BLOCK_END) {
  if (k.length < 2) continue;
  const at = k.charCodeAt(0) * 128 + k.charCodeAt(1);
  BLOCK_START[at] = 1;
  BLOCK_BY_PREFIX.set(at, [...(BLOCK_BY_PREFIX.get(at) ?? []), k]);
}
// `</p>`: its second character as read (lower-cased) is the `>` or a space.
for (const c of '> \t\n\r') {
  const at = 112 * 128 + ((c.charCodeAt(0) | 32) & 127);
  BLOCK_START[at] = 1;
  BLOCK_BY_PREFIX.set(at, ['p']);
}

/** Whether the closing tag whose name starts at `at` (first two letters read as `prefix`) closes a BLOCK_END element. */
function closesBlock(html: string, at: number, prefix: number): boolean {
  for (const name of BLOCK_BY_PREFIX.get(prefix)!) {
    if (name.length === 1) return true; // `</p>`: the prefix already holds the `>` or space after it
    let k = 2;
    while (k < name.length && (html.charCodeAt(at + k) | 32) === name.charCodeAt(k)) k++;
    if (k === name.length && !isName(html.charCodeAt(at + k))) return true;
  }
  return false;
}

export function scan(html: string): Plan {
  const cuts: Cut[] = [];
  /** Raw-text elements with no lower-case closing tag further on (`</SCRIPT>`). */
  const noLowerClose = new Set<string>();
  const blockEnds: number[] = [];
  let definitions = false;
  let nextNl = 0;
  let nextCr = 0;
  let nextTab = 0;
  const chrome: Range[] = [];
  let main: Range | null = null;
  let mainStart = -1;
  let base: string | null = null;
  let content = 0;
  let chromeName = '';
  let chromeStart = 0;
  let chromeDepth = 0;
  let article = 0;
  const articles: Range[] = [];
  let navStart = -1;
  let navDepth = 0;
  let articleStart = 0;
  const n = html.length;
  let i = 0;
  const unclosed = new Set<string>();
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt === -1) break;
    const c1 = html.charCodeAt(lt + 1);
    if (c1 === 33) {
      if (html.startsWith('!--', lt + 1)) {
        const e = html.indexOf('-->', lt + 4);
        const end = e === -1 ? n : e + 3;
        cuts.push({ s: lt, e: end, rep: '' });
        i = end;
      } else i = lt + 2;
      continue;
    }
    const closing = c1 === 47;
    const at = closing ? lt + 2 : lt + 1;
    const c = (html.charCodeAt(at) | 32) & 127;
    const d = (html.charCodeAt(at + 1) | 32) & 127;
    if (c === 97 && !closing && (d === 32 || d === 41 || d === 42 || d === 45)) {
      // <a ...>: only its href is looked at, and only when it spans lines.
      const g = html.indexOf('>', at);
      const end = g === -1 ? n : g + 1;
      // Most tags hold no line break at all: the backtracking HREF_WS is tried only on those that do
      // (the next tab, newline and carriage return are each searched for once they lie behind).
      if (nextNl !== -1 && nextNl < at) nextNl = html.indexOf('\n', at);
      if (nextCr !== -1 && nextCr < at) nextCr = html.indexOf('\r', at);
      if (nextTab !== -1 && nextTab < at) nextTab = html.indexOf('\t', at);
      const broken = (nextNl !== -1 && nextNl < end) || (nextCr !== -1 && nextCr < end) || (nextTab !== -1 && nextTab < end);
      const tag = broken ? html.slice(lt, end) : '';
      const m = broken ? HREF_WS.exec(tag) : null;
      if (m) {
        const href = m[3]
          .replace(/[\t\n\r]+/g, '')
          .trim()
          .replace(/ /g, '%20');
        cuts.push({ s: lt, e: end, rep: tag.slice(0, m.index) + m[1] + m[2] + href + m[2] + tag.slice(m.index + m[0].length) });
      }
      i = end;
      continue;
    }
    if (closing && BLOCK_START[c * 128 + d] && closesBlock(html, at, c * 128 + d)) blockEnds.push(lt);
    else if (c === 100 && (d === 108 || d === 116 || d === 100)) definitions = true;
    if (!PREFIX[c * 128 + d]) {
      i = lt + 1;
      continue;
    }
    const name = tagName(html, at);
    const gtRaw = html.indexOf('>', at);
    const gt = gtRaw === -1 ? n : gtRaw + 1;
    if (closing) {
      if (name === 'main' && mainStart !== -1 && !main) main = [mainStart, gt];
      if (CONTENT.has(name) && content > 0) content--;
      if (name === 'article' && article > 0 && --article === 0) articles.push([articleStart, gt]);
      if (chromeDepth > 0 && name === chromeName && --chromeDepth === 0) chrome.push([chromeStart, gt]);
      if (name === 'nav' && navDepth > 0 && --navDepth === 0 && navStart !== -1) cuts.push({ s: navStart, e: gt, rep: '' });
      i = gt;
      continue;
    }
    // A <video>'s or <audio>'s children are its sources and the text a browser without the player
    // shows ("Your browser does not support the video tag."): cut with it, unless it is never closed.
    // (a search that found no closing tag is not made again: linear on a page of unclosed ones)
    if (MEDIA.has(name) && html.charCodeAt(gt - 2) !== 47 && !unclosed.has(name)) {
      const e = html.indexOf(`</${name}`, gt);
      const g2 = e === -1 ? -1 : html.indexOf('>', e);
      if (g2 === -1) unclosed.add(name);
      else {
        cuts.push({ s: lt, e: g2 + 1, rep: '' });
        i = g2 + 1;
        continue;
      }
    }
    if (RAW.has(name) || name === 'select') {
      // Lower-case closing tags are the rule; a case-insensitive search only when that fails (and
      // from then on: none is further on, and searching to the end each time would be quadratic).
      let e = noLowerClose.has(name) ? -1 : html.indexOf(`</${name}`, gt);
      if (e === -1) {
        noLowerClose.add(name);
        let re = closeRe.get(name);
        if (!re) closeRe.set(name, (re = new RegExp(`</${name}`, 'gi')));
        re.lastIndex = gt;
        e = re.exec(html)?.index ?? -1;
      }
      const g2 = e === -1 ? -1 : html.indexOf('>', e);
      const end = g2 === -1 ? n : g2 + 1;
      cuts.push({ s: lt, e: end, rep: '' });
      i = end;
      continue;
    }
    if (name === 'img') {
      const tag = html.slice(lt, gt);
      if (LAZY.test(tag)) {
        const a = parseAttrs(tag, 4);
        const src = pickImageSrc(a);
        if (!src || isTrackingPixel(a, src)) cuts.push({ s: lt, e: gt, rep: '' });
        else if (src !== a.src) cuts.push({ s: lt, e: gt, rep: `<img src="${esc(src)}" alt="${esc(a.alt ?? '')}">` });
      }
    } else if (name === 'base' && base === null) {
      base = parseAttrs(html.slice(lt, gt), 5).href ?? null;
    } else if (name === 'main' && mainStart === -1) {
      mainStart = lt;
    } else if (name === 'pre') {
      codeLines(html, gt, cuts);
    }
    if (name === 'article' && article++ === 0) articleStart = lt;
    if (name === 'nav' && (navDepth > 0 || content === 0) && navDepth++ === 0) {
      navStart = PAGINATION.test(html.slice(lt, gt)) ? -1 : lt;
    }
    if (chromeDepth > 0) {
      if (name === chromeName) chromeDepth++;
    } else if (content === 0 && CHROME.has(name)) {
      chromeName = name;
      chromeStart = lt;
      chromeDepth = 1;
    }
    if (CONTENT.has(name)) content++;
    i = gt;
  }
  if (chromeDepth > 0) chrome.push([chromeStart, n]);
  if (!main && mainStart !== -1) main = [mainStart, n];
  if (!main && articles.length === 1) main = articles[0];
  return { cuts: mergeCuts(cuts), main, chrome: main ? [] : chrome, base, blockEnds, definitions };
}

/** A highlighter's element for one line of code (Shiki `line`, prism-react-renderer `token-line`,
 * CodeMirror `cm-line`, Monaco `view-line`). */
export const CODE_LINE = /(?:^|\s)(?:line|token-line|cm-line|view-line|code-line)(?:\s|$)/;
const LINE_TAG = /<span\s[^>]*?\bclass\s*=\s*(?:"([^"]*)"|'([^']*)')[^>]*>/gi;

/**
 * Inside a `<pre>` from `from`: a newline before each highlighter's line element that no newline
 * precedes (Shiki writes `<span class="line">` after `<span class="line">`, a stylesheet making each a
 * block), so that the code keeps its lines.
 */
function codeLines(html: string, from: number, cuts: Cut[]): void {
  const end = html.indexOf('</pre', from);
  const code = html.slice(from, end === -1 ? html.length : end);
  let pos = 0;
  let text = false;
  let newline = false;
  for (const m of code.matchAll(LINE_TAG)) {
    const between = code.slice(pos, m.index).replace(/<[^>]*>/g, '');
    if (/\S/.test(between)) text = true;
    if (between) newline = /\n\s*$/.test(between) || (newline && !/\S/.test(between));
    if (text && !newline && CODE_LINE.test(m[1] ?? m[2])) {
      cuts.push({ s: from + m.index, e: from + m.index, rep: '\n' });
      newline = true;
    }
    pos = m.index + m[0].length;
  }
}

/** Sorted, non-overlapping cuts (an edit inside a dropped range goes with it). */
/** The parts of [0, n) outside sorted `ranges`. */
export function complement(ranges: Range[], n: number): Range[] {
  const out: Range[] = [];
  let pos = 0;
  for (const [s, e] of ranges) {
    if (s > pos) out.push([pos, s]);
    pos = Math.max(pos, e);
  }
  if (pos < n) out.push([pos, n]);
  return out;
}

export function mergeCuts(cuts: Cut[]): Cut[] {
  cuts.sort((a, b) => a.s - b.s || b.e - a.e);
  const out: Cut[] = [];
  for (const c of cuts) {
    const last = out[out.length - 1];
    if (last && c.s < last.e) {
      if (c.e > last.e) {
        last.e = c.e;
        last.rep = '';
      }
    } else out.push(c);
  }
  return out;
}

/**
 * The HTML of the given sorted ranges with the cuts applied. With `spaceAt` (sorted offsets: a plan's
 * `blockEnds`), a space the converter keeps (block-space.ts) is written before each of those offsets in
 * the text kept, in the same pass (a second pass over the page would cost as much again).
 */
export function assemble(html: string, ranges: Range[], cuts: Cut[], spaceAt?: number[]): string {
  const parts: string[] = [];
  let p = 0;
  let limit = 0;
  const keep = (a: number, b: number) => {
    if (spaceAt) {
      while (p < spaceAt.length && spaceAt[p] < a) p++;
      for (; p < spaceAt.length && spaceAt[p] < b; p++) {
        parts.push(html.slice(a, spaceAt[p]), blockSpace(html, spaceAt[p], limit));
        a = spaceAt[p];
      }
    }
    parts.push(html.slice(a, b));
  };
  let k = 0;
  for (const [s, e] of ranges) {
    let pos = s;
    limit = e;
    while (k < cuts.length && cuts[k].e <= s) k++;
    let j = k;
    for (; j < cuts.length && cuts[j].s < e; j++) {
      const cut = cuts[j];
      if (cut.s > pos) keep(pos, cut.s);
      if (cut.s >= s && cut.e <= e) parts.push(cut.rep);
      pos = Math.max(pos, cut.e);
    }
    if (pos < e) keep(pos, e);
  }
  return parts.join('');
}
