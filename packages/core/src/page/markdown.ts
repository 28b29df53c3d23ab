// The /v1/extract_markdown conversion: readable markdown of a page, main content first (<main>, else a
// single <article>, else the page without its header/footer/aside), then the rest of the page that
// carries something (page header, sidebars, footer). Dropped: scripts, styles, SVG, comments, forms'
// <select>s, navigation menus outside the main content (pagination kept), and outside the main
// content hidden nodes, consent banners and modals. Links and images are absolute and tracking-free;
// tables stay tables. A linear pre-pass (scan.ts) cuts the junk and finds the main content; mdream's
// native engine converts what is left (less to convert: faster than mdream on the raw page).
import { htmlToMarkdown as mdream } from 'mdream';
import { attributeCards } from './attribute-cards.ts';
import { findMainContent } from './main-content.ts';
import { assemble, complement, dropOverlays, mergeCuts, scan, type Range } from './scan.ts';
import { stripTrackingParams as stripUrl } from './urls.ts';
import { isName } from './tag-names.ts';

export type MarkdownOptions = {
  /** The page's URL: the base for relative links and image sources (a <base href> overrides it). */
  url: string;
  /** Only the page's main content (POST /v1/extract_markdown `only_main_content`, a Gleaner extension). */
  onlyMainContent?: boolean;
};

export function htmlToMarkdown(html: string, opts: MarkdownOptions): string {
  const plan = scan(html);
  const n = html.length;
  let origin: string | undefined;
  try {
    origin = new URL(plan.base ?? opts.url, opts.url).href;
  } catch {
    origin = undefined;
  }
  if (opts.onlyMainContent) {
    const found = findMainContent(html);
    if (!found.ranges.length) return '';
    // A cut enclosing the content is a <noscript> holding the page for crawlers: kept.
    const [first] = found.ranges;
    const kept = plan.cuts.filter((c) => !(c.s <= first[0] && c.e >= first[1]));
    const cuts = mergeCuts([...kept, ...[...found.drop, ...found.shop].map(([s, e]) => ({ s, e, rep: '' }))]);
    return stripTrackingParams(convert(assemble(html, found.ranges, cuts, plan.blockEnds), origin, plan.definitions));
  }
  let mainRanges: Range[];
  let restRanges: Range[];
  if (plan.main) {
    mainRanges = [plan.main];
    restRanges = [
      [0, plan.main[0]],
      [plan.main[1], n],
    ];
  } else if (plan.chrome.length) {
    mainRanges = complement(plan.chrome, n);
    restRanges = plan.chrome;
  } else {
    mainRanges = [[0, n]];
    restRanges = [];
  }
  // Hidden nodes, consent banners and modals are dropped outside the main content (inside it, hidden
  // tabs and accordions hold content); with no <main>/<article> landmark, everywhere.
  const mainHtml = assemble(html, mainRanges, plan.cuts, plan.blockEnds);
  const main = convert(plan.main ? mainHtml : dropOverlays(mainHtml), origin, plan.definitions);
  const rest = restRanges.length ? convert(dropOverlays(assemble(html, restRanges, plan.cuts, plan.blockEnds)), origin, plan.definitions) : '';
  return stripTrackingParams(main && rest ? `${main}\n\n---\n\n${rest}` : main || rest);
}

/**
 * The assembled HTML as markdown. (Assembling writes a space the converter keeps, `&#32;`, at every
 * block's end, scan.ts `blockEnds`: inside a list item or a table cell the converter writes adjacent
 * blocks on one line and glued a block's text to the next block's when that began inside an inline
 * element, `<li><div>$170.00</div><div><span>1,332 reviews</span></div></li>` reading
 * `$170.001,332 reviews`; at a paragraph's end the space is trimmed.)
 */
function convert(html: string, origin: string | undefined, definitions: boolean): string {
  return html.trim()
    ? mdream((definitions ? definitionsAsParagraphs : same)(flattenLinks(plainAlts(separateBoxes(attributeCards(html))))), origin ? { origin } : {}).trim()
    : '';
}

/** A word ending at an inline element's end and the next element starting a capitalised word, nothing between
 * but more such tags closing and opening and comments (a spec row's name and value, each in a span of its own
 * inside another: `<span class="name"><span>Language</span><!--F/--></span><span class="value"><span>English`). */
const BOX = 'span|a|strong|b|em|div|p';
/** The boxes opening next: not a paragraph, which the converter sets apart itself (a space before it
 * would put it on the line before, inside a list item). */
const OPEN = 'span|a|strong|b|em|div';
const COMMENT = '<!--[^>]*-->';
const GLUED_BOXES = new RegExp(
  `([a-z])((?:</(?:${BOX})>|${COMMENT})*</(?:${BOX})>(?:${COMMENT})*)((?:${COMMENT})*<(?:${OPEN})\\b[^>]*>(?:<(?:${OPEN})\\b[^>]*>|${COMMENT})*)(?=[A-Z])`,
  'g',
);
/** A letter, a digit or a name's colon ending an element and the next element, named as a value by
 * its class (`value`, `…_value`, `attr-value`), starting right after it: a name and its value written
 * as two boxes (`<span class="name">ISBN-13</span><span class="value">9780544103054</span>`), digits
 * too; not after a currency sign (`<span>$</span><span class="value">30</span>` is one price). */
const GLUED_VALUES = new RegExp(
  `([A-Za-z0-9).:%])((?:</(?:${BOX})>|${COMMENT})*</(?:${BOX})>(?:${COMMENT})*)(<(?:${OPEN})\\b[^>]*\\bclass="(?:[^"]*[\\s_-])?values?(?:[\\s_-][^"]*)?"[^>]*>(?:<(?:${OPEN})\\b[^>]*>|${COMMENT})*)(?=[^\\s<])`,
  'g',
);
/** An element ending in a letter, a digit or a bracket and, right after it, one holding a `<time>` (a
 * card's author and its date, `<span>Terrence O'Brien</span><span><time>Mar 7</time></span>`, read
 * "O'BrienMar 7"): a date is a datum of its own, set apart. */
const TIME_OPEN = /<time[\s>]/g;
const OPEN_TAG = new RegExp(`^<(?:${OPEN})\\b[^>]*>$|^${COMMENT}$`);
const CLOSE_TAG = new RegExp(`^</(?:${BOX})>$`);
const COMMENT_TAG = new RegExp(`^${COMMENT}$`);
const TIME_BEFORE = /[\p{L}0-9).]/u;
/** The most tags walked back over from a `<time>`. */
const MAX_WALK = 12;
/** The tag ending right before `at` (`...>` at at - 1), or null. */
function tagBefore(s: string, at: number): { start: number; tag: string } | null {
  if (s[at - 1] !== '>') return null;
  const start = s.lastIndexOf('<', at - 1);
  return start === -1 || at - start > 400 ? null : { start, tag: s.slice(start, at) };
}
/** The `<time>`s so glued, a space put between (found from each `<time>` walking back: a page costs
 * one scan for `<time`, a constant per time). */
function apartTimes(s: string): string {
  const out: string[] = [];
  let pos = 0;
  TIME_OPEN.lastIndex = 0;
  for (let m = TIME_OPEN.exec(s); m; m = TIME_OPEN.exec(s)) {
    const gt = s.indexOf('>', m.index);
    if (gt === -1 || /[\s<]/.test(s[gt + 1] ?? '<')) continue;
    // the boxes opening around the time, then the boxes closing before them, at least one
    let at = m.index;
    let walk = 0;
    for (let t = tagBefore(s, at); t && walk < MAX_WALK && OPEN_TAG.test(t.tag); t = tagBefore(s, at), walk++) at = t.start;
    const gap = at;
    let closed = 0;
    for (let t = tagBefore(s, at); t && walk < MAX_WALK && (CLOSE_TAG.test(t.tag) || COMMENT_TAG.test(t.tag)); t = tagBefore(s, at), walk++) {
      if (!COMMENT_TAG.test(t.tag)) closed++;
      at = t.start;
    }
    if (!closed || at <= pos || !TIME_BEFORE.test(s[at - 1])) continue;
    out.push(s.slice(pos, gap), '&#32;');
    pos = gap;
  }
  if (!pos) return s;
  out.push(s.slice(pos));
  return out.join('');
}
/** Two like items side by side, each a box of text alone with the same classes (a card's metadata
 * items, `<span class="metadata-item">2026</span><span class="metadata-item">1h 54m</span>`, read
 * "20261h 54m"): a run of like boxes is a row of items a stylesheet sets apart, not a word's pieces
 * (a price split into spans gives each piece a class of its own: `price-whole`, `price-fraction`).
 * Not a rich-text editor's runs, styled inline and split anywhere, even inside a word (`<span
 * class="run" style="…">Le</span><span class="run" style="…">arn more</span>`): no `style` on the
 * first, and the second not going on with a lower-case letter; nor a label's colon or a sentence's
 * full stop in a box of its own (`Color` `: Black`, `returns` `.`), which belong to the word before.
 * Found where a box closes right where a like one opens (`</span><span`), the boxes then read around
 * it within bounds: one scan of the page for these pairs, a constant per pair. */
const ITEM_TAGS = ['span', 'li', 'div', 'a'];
/** The longest opening tag and box text looked at (a card's item is short). */
const MAX_TAG = 600;
const MAX_BOX = 300;
/** A box's class, and a `style` attribute on it. */
const CLASS_ATTR = /\sclass="([^"]{1,200})"/;
const STYLE_ATTR = /\sstyle=/;
/** What the second box may not start with: a space or a tag, a lower-case letter (a word going on),
 * closing punctuation (a label's colon, a sentence's full stop). */
const GOES_ON = /[\s<a-z.,:;!?)\]}%]/;
/** Like items set apart (above), but not a number's pieces: after a currency sign (`$` `19`), or digits
 * followed by a box of digits alone (`19` `99`, a counter's `1` `9` `9`); `2026` `1h 54m` are apart. */
function apartItems(s: string): string {
  // (a plain search for each `</span><span`: faster than a pattern over the page)
  const found: [number, string][] = [];
  for (const tag of ITEM_TAGS) {
    const pair = `</${tag}><${tag}`;
    for (let k = s.indexOf(pair); k !== -1; k = s.indexOf(pair, k + pair.length)) if (/[\s>]/.test(s[k + pair.length] ?? '')) found.push([k, tag]);
  }
  if (!found.length) return s;
  found.sort((x, y) => x[0] - y[0]);
  const out: string[] = [];
  let pos = 0;
  for (const [close, tag] of found) {
    const after = close + tag.length + 3;
    // the first box: its opening tag right before its text, no tag inside
    const lt = s.lastIndexOf('<', close - 1);
    if (lt < 0 || close - lt > MAX_TAG + MAX_BOX) continue;
    const gt = s.indexOf('>', lt);
    if (gt === -1 || gt >= close || gt - lt > MAX_TAG || close - gt - 1 > MAX_BOX) continue;
    const open = s.slice(lt, gt + 1);
    if (!open.startsWith(`<${tag}`) || !/[\s>]/.test(open[tag.length + 1] ?? '') || STYLE_ATTR.test(open)) continue;
    const cls = CLASS_ATTR.exec(open)?.[1];
    const text = s.slice(gt + 1, close);
    if (!cls || !text || /\s$/.test(text) || text.includes('>')) continue;
    // the second box: the same classes, its text not going on from the first's
    const gt2 = s.indexOf('>', after);
    if (gt2 === -1 || gt2 - after > MAX_TAG || CLASS_ATTR.exec(s.slice(after, gt2 + 1))?.[1] !== cls) continue;
    const next = s[gt2 + 1];
    if (next === undefined || GOES_ON.test(next)) continue;
    if (/[$€£¥₹¢]$/.test(text)) continue;
    if (/\d$/.test(text)) {
      const lt2 = s.indexOf('<', gt2);
      if (/^[\d.,]+$/.test(s.slice(gt2 + 1, lt2 === -1 ? gt2 + 41 : Math.min(lt2, gt2 + 41)))) continue;
    }
    out.push(s.slice(pos, after), '&#32;');
    pos = after;
  }
  if (!pos) return s;
  out.push(s.slice(pos));
  return out.join('');
}
const PRE = /<pre\b[\s\S]*?<\/pre>/gi;

/**
 * Two elements side by side with no space between, the first's text ending in a lower-case letter and
 * the next one's starting with a capital (`<span>Brooks</span><span>Launch 11</span>`, a card's
 * brand and name; `Bags</a><a>Shoes`): a stylesheet sets them apart (flex items, blocks), as no
 * word is written so; a space is put between (not inside `<pre>`, where a highlighter's tokens meet).
 */
function separateBoxes(html: string): string {
  const boxes = GLUED_BOXES.test(html);
  const values = GLUED_VALUES.test(html);
  const items = ITEM_TAGS.some((tag) => html.includes(`</${tag}><${tag}`));
  const times = html.includes('<time');
  if (!boxes && !values && !items && !times) return html;
  GLUED_BOXES.lastIndex = 0;
  GLUED_VALUES.lastIndex = 0;
  const apart = (s: string) => {
    const b = boxes ? s.replace(GLUED_BOXES, '$1$2&#32;$3') : s;
    const v = values ? b.replace(GLUED_VALUES, '$1$2&#32;$3') : b;
    const i = items ? apartItems(v) : v;
    return times ? apartTimes(i) : i;
  };
  const out: string[] = [];
  let pos = 0;
  PRE.lastIndex = 0;
  for (let m = PRE.exec(html); m; m = PRE.exec(html)) {
    out.push(apart(html.slice(pos, m.index)), m[0]);
    pos = m.index + m[0].length;
  }
  out.push(apart(html.slice(pos)));
  return out.join('');
}

/** An image's alt text holding brackets (`alt="[X-Info]"`). */
const BRACKETED_ALT = /(<img\b[^>]*?\balt\s*=\s*")([^"]*[[\]][^"]*)"/gi;

/**
 * Brackets in an image's alt text (`[X-Info]`, a text browser's fallback) are dropped, as the model
 * input's writer drops them: escaped inside `![…]` they break readers that do not parse escapes.
 */
function plainAlts(html: string): string {
  return html.includes('[') || html.includes(']')
    ? html.replace(BRACKETED_ALT, (_, head: string, alt: string) => `${head}${alt.replace(/[[\]]/g, '')}"`)
    : html;
}

const same = (html: string) => html;
const DEFINITION = /<(\/?)(dl|dt|dd)\b[^>]*>/gi;

/** The converter passes <dl> through as raw HTML; a specification list reads as term (bold) and value. */
function definitionsAsParagraphs(html: string): string {
  return html.replace(DEFINITION, (_, close: string, tag: string) => {
    const t = tag.toLowerCase();
    if (t === 'dl') return close ? '</div>' : '<div>';
    if (t === 'dt') return close ? '</strong></p>' : '<p><strong>';
    return close ? '</p>' : '<p>';
  });
}

const BLOCK_IN_LINK =
  /(?:<i><\/i>)?(?:&#32;)?<\/?(?:h[1-6]|p|div|section|article|header|footer|ul|ol|li|dl|dt|dd|figure|figcaption|blockquote|table|thead|tbody|tfoot|tr|td|th|br|hr)\b[^>]*>/gi;

/**
 * A card is often one link around a heading, an image and a price: the converter would keep the
 * block tags inside the link text as raw HTML (`[![…](…)<h3>Name</h3>$92](…)`), so inside links they
 * become spaces. One forward pass: each link is looked at once, up to its end or the next link.
 */
function flattenLinks(html: string): string {
  const parts: string[] = [];
  let pos = 0;
  let i = html.indexOf('<a', 0);
  let close = 0;
  /** A link holding another ends at or after this: the space is not written inside its text. */
  let outer = -1;
  while (i !== -1) {
    const next = html.charCodeAt(i + 2);
    if (next !== 32 && next !== 62 && next !== 10 && next !== 9 && next !== 13) {
      i = html.indexOf('<a', i + 2);
      continue;
    }
    const open = html.indexOf('>', i);
    if (open === -1) break;
    // The next closing tag is searched for only when the last one found lies behind: one pass in all.
    if (close !== -1 && close < open) {
      close = html.indexOf('</a', open);
      while (close !== -1 && isName(html.charCodeAt(close + 3))) close = html.indexOf('</a', close + 3);
    }
    if (close === -1) break;
    const following = html.indexOf('<a', open);
    const end = following !== -1 && following < close ? -1 : close;
    if (end === -1) outer = close;
    else {
      const inner = html.slice(open + 1, end);
      BLOCK_IN_LINK.lastIndex = 0;
      if (BLOCK_IN_LINK.test(inner)) {
        // (a space ending the link's text is written after the link: the converter drops it, and with
        // it the space before the next block's text, `[Art Print](…)Brand New`)
        // (and one starting it, from a block tag opening the link's content, before the link: the
        // converter keeps it inside after a word, `by</p><a><p>AG1</p></a>` reading `by[ AG1](…)`)
        let flat = inner.replace(BLOCK_IN_LINK, ' ');
        // (not after a space: the one written after the link before, `](…)&#32;<a>`)
        let lead = /^\s/.test(flat) && !/^\s/.test(inner) && i > outer;
        if (lead) {
          flat = flat.trimStart();
          lead = !/(?:\s|&#32;)$/.test(i > pos ? html.slice(Math.max(pos, i - 5), i) : (parts[parts.length - 1] ?? ''));
        }
        parts.push(html.slice(pos, i), lead ? '&#32;' : '', html.slice(i, open + 1));
        const gt = html.indexOf('>', end) + 1;
        if (gt > 0 && /\s$/.test(flat)) {
          const spaced = /^(?:\s|&#32;)/.test(html.slice(gt, gt + 5));
          parts.push(flat.trimEnd(), html.slice(end, gt), spaced ? '' : '&#32;');
          pos = gt;
        } else {
          parts.push(flat);
          pos = end;
        }
      }
    }
    i = following === -1 ? -1 : following;
  }
  if (!parts.length) return html;
  parts.push(html.slice(pos));
  return parts.join('');
}

const TRACKED =
  /[?&](?:utm_|fbclid|gclid|gclsrc|dclid|gbraid|wbraid|msclkid|mc_[ce]id|_ga=|_gl=|_hs|mkt_tok|yclid|igshid|twclid|ttclid|li_fat_id|scid=|spm=|ref_src|s_cid|icid)/i;
const TRACKED_URL = /https?:\/\/[^\s()<>?#]*\?[^\s()<>#]*/g;

/** Strips tracking parameters from the URLs in the markdown; a no-op (one search) when there are none. */
function stripTrackingParams(md: string): string {
  if (!TRACKED.test(md)) return md;
  return md.replace(TRACKED_URL, (u) => (TRACKED.test(u) ? stripUrl(u) : u));
}
