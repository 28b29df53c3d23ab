// Page reduction: what the model reads for standard/precision extraction. Keeps every fact a caller
// could ask for (text, link targets, image sources, table structure, JSON-LD, microdata, meta) and
// drops what carries none. One streaming pass (see render.ts); linear in the page size.
import { findMainContent } from './main-content.ts';
import { chromeLine, PAGE_LINK } from './outline-chrome.ts';
import { productList } from './page-type.ts';
import { renderPage, type Range, type Rendered } from './render.ts';
import { complement } from './scan.ts';
import { compactJson, forgetShownRuns } from './structured.ts';

export type ReduceMode = 'standard' | 'precision';
export type ReduceOptions = {
  /** The page's URL: the base for relative links and image sources (a <base href> overrides it). */
  url: string;
  /** standard: drop hidden nodes and page chrome; precision: keep them and show element attributes. */
  mode: ReduceMode;
  /** Links and images on the page's own origin written from the site's root (`/path`) instead of
   * absolute (default: true in standard mode). Callers resolve them against the page URL again:
   * `absoluteLinks()`. */
  siteRelative?: boolean;
  /** Standard mode: leave out parts hidden until a click (tab panels, accordion bodies, slides), as a
   * browser shows the page; the agent, which can open them, reads it so. Default: they are read. */
  asShown?: boolean;
};
export type ReducedPage = {
  title: string;
  /** What the model reads: compact markdown of the page, then JSON-LD, microdata and meta sections. */
  text: string;
  jsonLd: unknown[];
  microdata: unknown[];
  meta: Record<string, string>;
  /** Links and images rendered into `text`. */
  links: number;
  images: number;
};

/** Below this many characters of body text, chrome removal is assumed to have eaten the page. */
const MIN_BODY = 200;
/** Blocks at least this long that repeat verbatim are kept once (repeated menus, footers, promos). */
const MIN_DEDUPE = 60;
/** Main-content detection builds a tree (several times the cost of the streaming pass): above this
 * many characters the page is reduced in one streaming pass, chrome dropped by markup, so the cost per
 * page stays bounded. */
const MAX_MAIN_DETECT = 1_000_000;
/** Outside the main content, a line with fewer words than this is left out unless it holds a number
 * (a price, a date, a phone number), a labelled value or a table row: "Add to cart", "Privacy
 * Policy", "Related products", "Share:" are chrome; a sentence, a card's description, a
 * specification are what the page says. */
const REST_WORDS = 6;
/** Outside the main content, a block whose text is at least this much link text is dropped. */
const LINK_SHARE = 0.5;
/** ... in a run of lines holding at least this many links (a linked title with its text is content). */
const MIN_LINKS = 3;
/** ... and inside a product page's main content, in a run of at least this many (a breadcrumb or a
 * few variant links stay). */
const MIN_PRODUCT_LINKS = 8;

export function reducePage(html: string, opts: ReduceOptions): ReducedPage {
  const precision = opts.mode === 'precision';
  // Standard mode: the main content first (page/main-content.ts), then what else the page says
  // outside it, without its link lists (menus, related rails, footers); structured data, meta and the
  // title come from the whole page.
  const main = precision || html.length > MAX_MAIN_DETECT ? null : findMainContent(html);
  const only = main && main.ranges.length ? { ranges: main.ranges, drop: main.drop, main: true } : undefined;
  const siteOrigin = (opts.siteRelative ?? !precision) ? originOf(opts.url) : undefined;
  const asShown = opts.asShown;
  const wrappers = main?.wrappers.length ? new Set(main.wrappers) : undefined;
  let r = renderPage(html, { url: opts.url, precision, dropChrome: !precision, only, siteOrigin, asShown, wrappers });
  let body = r.body;
  // On a product page, link lists inside the main content are its menus and rails (a mega-menu the
  // detected content holds, "customers also viewed"), not its facts; not on a list of many products
  // (page-type.ts's productList(): a category page marking up every card as a product), whose cards they are.
  if (main ? main.type === 'product' && !productList(html) : !precision && typedProduct(r)) body = dropLinkLists(body, MIN_PRODUCT_LINKS);
  if (only) {
    // The rest is everything outside the main content as rendered, the parts it left out too (a
    // product's reviews, a sidebar inside the content): still facts a caller may ask for.
    const rest = renderPage(html, {
      url: opts.url,
      precision: false,
      dropChrome: true,
      // The parts left out lie inside the main content's article, main or section (not rendered
      // here): a byline's header there is the article's, not the page's.
      only: { ranges: complement(subtract(only.ranges, only.drop), html.length), drop: [], main: 'header' },
      siteOrigin,
      asShown,
      wrappers,
      formChoices: true,
    });
    const extra = outline(rest.body);
    if (extra) body = body ? `${body}\n\n${extra}` : extra;
  }
  // No main content found (its text set aside as chrome, or too little of it): the whole page is read
  // as the rest of a page is, without its link lists (menus, category trees, footers).
  const noMain = main !== null && !only;
  if (noMain) body = unlessAllLinks(body);
  // A page read whole (too large for main-content detection, or none found): its controls and
  // prompts ("Add to cart", "Get started for free", "Customers also bought") go, as in the outline.
  if (!precision && !only) body = dropChromeLines(body);
  if (!precision) body = dropRepeatedImages(dedupeBlocks(body));
  if (!precision && body.length < MIN_BODY) {
    // A page whose content lives inside something that looks like chrome: keep the chrome.
    const all = renderPage(html, { url: opts.url, precision: false, dropChrome: false, siteOrigin, asShown, wrappers });
    const allBody = dedupeBlocks(noMain ? unlessAllLinks(all.body) : all.body);
    if (allBody.length > body.length) {
      r = all;
      body = allBody;
    }
  }
  const microdata = r.microdata.toJSON();
  const parts: string[] = [];
  if (r.title) parts.push(`Page title: ${r.title}`);
  if (body) parts.push(body);

  const seen = new Set<string>();
  const ld: string[] = [];
  for (const v of r.jsonLd) {
    const s = compactJson(v, precision ? undefined : body);
    if (s && !seen.has(s)) {
      seen.add(s);
      ld.push(s);
    }
  }
  if (ld.length) parts.push(`## JSON-LD\n${ld.join('\n')}`);

  const md = (precision ? microdata : r.microdata.summary(body)).map((v) => compactJson(v, precision ? undefined : '')).filter((s) => s && !seen.has(s));
  if (md.length) parts.push(`## Microdata\n${md.join('\n')}`);
  forgetShownRuns();

  const metaLines: string[] = [];
  const shown = new Set<string>([r.title]);
  for (const [k, v] of Object.entries(r.meta)) {
    if (!precision && (shown.has(v) || (v.length > 20 && body.includes(v)))) continue;
    shown.add(v);
    metaLines.push(`${k}: ${v}`);
  }
  if (metaLines.length) parts.push(`## Meta\n${metaLines.join('\n')}`);

  return {
    title: r.title,
    text: parts.join('\n\n'),
    jsonLd: r.jsonLd,
    microdata,
    meta: r.meta,
    links: r.links,
    images: r.images,
  };
}

/** A page its own structured data calls a product (`og:type` product or product.item, in any
 * namespace — not product.group, a shop's collection — or one JSON-LD or microdata `Product`: a
 * listing carries one per card): the page type when main-content detection does not run (a page too
 * large for it). */
function typedProduct(r: Rendered): boolean {
  if (/(?:^|:)product(?:\.item)?$/i.test((r.meta['og:type'] ?? '').trim())) return true;
  const isProduct = (t: unknown): boolean => (Array.isArray(t) ? t.some(isProduct) : typeof t === 'string' && /(?:^|[/#\s])Product$/.test(t));
  let n = 0;
  const count = (v: unknown, depth: number): void => {
    if (depth > 3 || !v || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach((x) => count(x, depth + 1));
    const o = v as Record<string, unknown>;
    if (isProduct(o['@type'])) n++;
    count(o['@graph'], depth + 1);
  };
  r.jsonLd.forEach((v) => count(v, 0));
  for (const i of r.microdata.items) if (i.type !== undefined && isProduct(i.type)) n++;
  return n === 1;
}

function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** How reducePage writes an absolute URL of a page at `pageUrl` in standard mode: from the site's
 * root when it is on the page's origin, else as it is. */
export function siteRelativeUrl(url: string, pageUrl: string): string {
  const o = originOf(pageUrl);
  return o && url.length > o.length && url.startsWith(o) && url[o.length] === '/' && url[o.length + 1] !== '/' ? url.slice(o.length) : url;
}

/** Link and image targets written from the site's root in a reduced page's text (`](/path)`). */
const ROOT_TARGET = /\]\((\/(?!\/)[^)\s]*)\)/g;

/**
 * A model's answer with the site-relative URLs of the text it read made absolute again: a string
 * value (or a list's string item) equal to a `/path` link or image target of `text` is resolved
 * against `pageUrl`. Anything else is returned as it came.
 */
export function absoluteLinks<T>(value: T, text: string, pageUrl: string): T {
  let targets: Set<string> | null = null;
  const fix = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v[0] !== '/' || v[1] === '/') return v;
      targets ??= new Set([...text.matchAll(ROOT_TARGET)].map((m) => m[1]));
      if (!targets.has(v.trim())) return v;
      try {
        return new URL(v.trim(), pageUrl).href;
      } catch {
        return v;
      }
    }
    if (Array.isArray(v)) return v.map(fix);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fix(x)]));
    return v;
  };
  return fix(value) as T;
}

/** An image shown at least this many times (an icon, a rating star, a placeholder) is written with
 * its URL once; its other occurrences keep only their alt text. */
const REPEATED_IMAGE = 3;
const IMAGE_MD = /!\[([^\]]*)\]\(([^)\s]+)\)/g;

function dropRepeatedImages(body: string): string {
  const count = new Map<string, number>();
  for (const m of body.matchAll(IMAGE_MD)) count.set(m[2], (count.get(m[2]) ?? 0) + 1);
  let repeated = false;
  for (const n of count.values()) if (n >= REPEATED_IMAGE) repeated = true;
  if (!repeated) return body;
  const seen = new Set<string>();
  return body.replace(IMAGE_MD, (all, alt: string, src: string) => {
    if ((count.get(src) ?? 0) < REPEATED_IMAGE || !seen.has(src)) {
      seen.add(src);
      return all;
    }
    return alt;
  });
}

/** Drops repeats of long blocks (blank-line separated); short ones ("In stock", "Add to cart") stay. */
function dedupeBlocks(body: string): string {
  const blocks = body.split('\n\n');
  if (blocks.length < 2) return body;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const b of blocks) {
    if (b.length >= MIN_DEDUPE) {
      if (seen.has(b)) continue;
      seen.add(b);
    }
    out.push(b);
  }
  return out.length === blocks.length ? body : out.join('\n\n');
}

/** The text without its link lists, unless they are nearly all it says (a page of links is its links). */
function unlessAllLinks(body: string): string {
  const rest = dropLinkLists(body);
  return rest.length >= MIN_BODY ? rest : body;
}

/** `ranges` without `drop` (both sorted and disjoint). */
function subtract(ranges: Range[], drop: Range[]): Range[] {
  const out: Range[] = [];
  let d = 0;
  for (const [s0, e] of ranges) {
    let s = s0;
    while (d < drop.length && drop[d][1] <= s) d++;
    for (let k = d; k < drop.length && drop[k][0] < e; k++) {
      if (drop[k][0] > s) out.push([s, drop[k][0]]);
      s = Math.max(s, drop[k][1]);
    }
    if (s < e) out.push([s, e]);
  }
  return out;
}

const LINK = /\[([^\]]*)\]\([^)\s]*\)/g;
const IMAGE = /!\[[^\]]*\]\([^)\s]*\)/g;
const letters = (s: string) => s.replace(/[^\p{L}\p{N}]+/gu, '').length;

/** What the page says outside its main content, as a compact outline: link lists without their short
 * labels (a menu's items go; a headline's or a card's long link text stays), then the lines of at
 * least REST_WORDS words with the short line above them and their paragraph's first line, lines with
 * a number, labelled values and table rows; the page's controls and prompts (outline-chrome.ts) never. */
function outline(text: string): string {
  const lines = dropLinkLists(text, MIN_LINKS, REST_WORDS).split('\n');
  const long = lines.map((line) => wordCount(undoubled(line)) >= REST_WORDS);
  const keep = lines.map((line, i) => !line || long[i] || line[0] === '|' || FACT.test(plainText(line)) || PAGE_LINK.test(line) || BREADCRUMB.test(line));
  let prev = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]) continue;
    if (prev !== -1) {
      // A label on a line of its own ("Brand:") and its value on the next ("Acme"), blank lines between.
      if (lines[prev].endsWith(':') && !lines[i].endsWith(':')) keep[prev] = keep[i] = true;
      // The title or name above a text (a heading, the reviewer above a review).
      if (long[i]) keep[prev] = true;
    }
    prev = i;
  }
  // The first line of a paragraph with a long one: its title, or the name above a review. The
  // paragraph's other short lines (a badge, a button, a label between) go.
  for (let start = 0; start < lines.length;) {
    let end = start;
    while (end < lines.length && lines[end]) end++;
    if (end > start && long.slice(start, end).includes(true)) keep[start] = true;
    start = end + 1;
  }
  return lines
    .filter((line, i) => keep[i] && !(line && chromeLine(line, plainText(line))))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The text without its lines that are the page's controls or prompts (outline-chrome.ts); a code
 * block's lines are the page's own and stay. */
function dropChromeLines(body: string): string {
  let code = false;
  return body
    .split('\n')
    .filter((line) => {
      if (line.startsWith('```')) code = !code;
      return code || !line || line.startsWith('```') || !chromeLine(line, plainText(line));
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/** A line written twice over ("Show list Show list": a button's text and a screen reader's copy),
 * once; only a short line is looked at (a label's length). */
const MAX_DOUBLED = 200;
const undoubled = (line: string) => (line.length <= MAX_DOUBLED ? (/^(.+?) \1$/.exec(line.trim())?.[1] ?? line) : line);
/** A short line that still says something: a number, or a labelled value ("Brand: Acme"). */
const FACT = /\p{N}|\p{L}[^:]{0,40}:\s*[\p{L}\p{N}]/u;
const WORD = /[\p{L}\p{N}_]+/gu;
const plainText = (line: string) => line.replace(IMAGE, ' ').replace(LINK, '$1');
const wordCount = (line: string) => plainText(line).match(WORD)?.length ?? 0;
/** A breadcrumb written with text separators: links joined by `>`, `›`, `»` or `→`, nothing else. */
const BREADCRUMB = /^(?:\[[^\]]+\]\([^)\s]*\)\s*[>›»→]\s*)+\[?[^\]\n]+(?:\]\([^)\s]*\))?$/;
/** The words of a line's longest link text. */
function longestLink(line: string): number {
  let most = 0;
  for (const m of line.replace(IMAGE, ' ').matchAll(LINK)) most = Math.max(most, m[1].match(WORD)?.length ?? 0);
  return most;
}

/** Drops runs of lines that are mostly link text and hold at least MIN_LINKS links (a menu, a list
 * of related pages, a footer's links); a line of text next to them stays. With `keepWords`, a line
 * of the run with at least that many words stays (a headline, a card's text). */
function dropLinkLists(text: string, minLinks = MIN_LINKS, keepWords = Infinity): string {
  const out: string[] = [];
  let run: string[] = [];
  let runLinks = 0;
  const flush = () => {
    if (runLinks < minLinks) out.push(...run);
    else if (keepWords < Infinity) for (const line of run) if (longestLink(line) >= keepWords || BREADCRUMB.test(line)) out.push(line);
    run = [];
    runLinks = 0;
  };
  for (const line of text.split('\n')) {
    const links = linkShare(line);
    if (links > 0) {
      run.push(line);
      runLinks += links;
    } else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The number of links of a line that is mostly link text, else 0. */
function linkShare(line: string): number {
  const text = line.replace(IMAGE, '');
  let linked = 0;
  let links = 0;
  for (const m of text.matchAll(LINK)) {
    linked += letters(m[1]);
    links++;
  }
  return links && linked >= LINK_SHARE * letters(text.replace(LINK, '$1')) ? links : 0;
}
