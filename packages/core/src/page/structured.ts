// Structured data found while streaming a page: microdata items (itemscope/itemprop), JSON-LD
// blocks and the useful <meta>/<link> values. Everything here is fed by the reducer's SAX events.

type Attrs = Record<string, string>;

type Item = { type?: string; id?: string; props: Map<string, unknown[]> };
type Collector = { item: Item; names: string[]; text: string };
/** What an element opened, so its close undoes exactly that. */
export type MicroFrame = { scope: boolean; collector: Collector | null };

const SRC_TAGS = new Set(['audio', 'embed', 'iframe', 'source', 'track', 'video']);
const HREF_TAGS = new Set(['a', 'area', 'link']);
const COLLECT_CAP = 4000;
/** Text-valued properties collected at once (deeper nesting is pathological; bounds the work per text node). */
const MAX_COLLECTORS = 32;

export class Microdata {
  readonly items: Item[] = [];
  private readonly scopes: Item[] = [];
  private readonly collectors: Collector[] = [];

  get collecting(): boolean {
    return this.collectors.length > 0;
  }

  /** Called for every element that has itemscope or itemprop. */
  open(tag: string, attrs: Attrs, resolve: (u: string) => string | null, imgSrc?: string): MicroFrame {
    const names = attrs.itemprop?.trim().split(/\s+/).filter(Boolean) ?? [];
    const parent = this.scopes[this.scopes.length - 1];
    if (attrs.itemscope !== undefined) {
      const item: Item = { props: new Map() };
      if (attrs.itemtype) item.type = attrs.itemtype.trim();
      if (attrs.itemid) item.id = attrs.itemid.trim();
      if (names.length && parent) for (const n of names) add(parent, n, item);
      else this.items.push(item);
      this.scopes.push(item);
      return { scope: true, collector: null };
    }
    if (!names.length || !parent) return { scope: false, collector: null };
    let v: string | null | undefined;
    if (attrs.content !== undefined) v = attrs.content;
    else if (tag === 'meta') v = '';
    else if (HREF_TAGS.has(tag)) v = resolve(attrs.href ?? '') ?? attrs.href ?? '';
    else if (tag === 'img') v = imgSrc ? resolve(imgSrc) : '';
    else if (SRC_TAGS.has(tag)) v = resolve(attrs.src ?? '') ?? '';
    else if (tag === 'object') v = resolve(attrs.data ?? '') ?? '';
    else if (tag === 'time' && attrs.datetime !== undefined) v = attrs.datetime;
    else if ((tag === 'data' || tag === 'meter') && attrs.value !== undefined) v = attrs.value;
    if (v !== undefined) {
      for (const n of names) add(parent, n, v ?? '');
      return { scope: false, collector: null };
    }
    if (this.collectors.length >= MAX_COLLECTORS) return { scope: false, collector: null };
    const c: Collector = { item: parent, names, text: '' };
    this.collectors.push(c);
    return { scope: false, collector: c };
  }

  text(t: string): void {
    for (const c of this.collectors) if (c.text.length < COLLECT_CAP) c.text += t;
  }

  close(frame: MicroFrame): void {
    if (frame.scope) this.scopes.pop();
    const c = frame.collector;
    if (c) {
      const i = this.collectors.lastIndexOf(c);
      if (i !== -1) this.collectors.splice(i, 1);
      const v = c.text.replace(/\s+/g, ' ').trim();
      for (const n of c.names) add(c.item, n, v);
    }
  }

  /** Top-level items as plain objects: {"@type", prop: value | [values]}. */
  toJSON(): unknown[] {
    return this.items.map((i) => plain(i, false)).filter((o) => o !== null);
  }

  /** For the model's text: per item its type, name and the values the model does not already read in
   * `shown` (the page text it is given): attribute values, and text values of parts left out. */
  summary(shown: string): unknown[] {
    return this.items.map((i) => plain(i, shown)).filter((o) => o !== null);
  }
}

function add(item: Item, name: string, v: unknown): void {
  const list = item.props.get(name);
  if (list) list.push(v);
  else item.props.set(name, [v]);
}

function shortType(t: string): string {
  const cut = Math.max(t.lastIndexOf('/'), t.lastIndexOf('#'));
  return cut >= 0 ? t.slice(cut + 1) : t;
}

/** Longer values are looked up in the shown text by their first this many characters. */
const PROBE_CHARS = 200;

function plain(item: Item, shown: string | false): Record<string, unknown> | null {
  const o: Record<string, unknown> = {};
  const summary = shown !== false;
  if (item.type) o['@type'] = summary ? item.type.split(/\s+/).map(shortType).join(' ') : item.type;
  if (item.id) o['@id'] = item.id;
  let useful = false;
  for (const [name, values] of item.props) {
    const out: unknown[] = [];
    for (const v of values) {
      if (typeof v === 'string') {
        const unseen = summary && v !== '' && !shown.includes(v.slice(0, PROBE_CHARS)) && !(v.length >= SHOWN_MIN && shownAsWords(v, shown));
        if (!summary || unseen || name === 'name') out.push(v);
        if (unseen) useful = true;
      } else {
        const nested = plain(v as Item, shown);
        if (nested) {
          out.push(nested);
          useful = true;
        }
      }
    }
    if (out.length) o[name] = out.length === 1 ? out[0] : out;
  }
  if (!summary) return Object.keys(o).length ? o : null;
  return useful ? o : null;
}

/** Parses one JSON-LD block, forgiving the usual breakage (comments, CDATA, trailing commas, raw newlines). */
export function parseJsonLd(raw: string): unknown {
  const text = raw.trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // Wrappers around the JSON (<!-- -->, CDATA markers, /* */ or // comments): from the first
    // opening bracket to the last closing one.
    const bare = text
      .replace(/^\s*(?:<!--|\/\*\s*<!\[CDATA\[\s*\*\/|\/\/\s*<!\[CDATA\[|<!\[CDATA\[)/, '')
      .replace(/(?:\/\*\s*\]\]>\s*\*\/|\/\/\s*\]\]>|\]\]>|-->)\s*$/, '');
    const start = bare.search(/[{[]/);
    const end = Math.max(bare.lastIndexOf('}'), bare.lastIndexOf(']'));
    if (start === -1 || end < start) return undefined;
    const fixed = bare
      .slice(start, end + 1)
      .replace(/[\u0000-\u001f]+/g, ' ')
      .replace(/,\s*([}\]])/g, '$1');
    try {
      return JSON.parse(fixed);
    } catch {
      return undefined;
    }
  }
}

/** Keys that carry no fact for the model: JSON-LD plumbing and site-search URL templates. */
const NOISE_KEYS = new Set(['@context', 'potentialAction']);
/** Strings at least this long that the model already reads in the page text are left out. */
const SHOWN_MIN = 60;

/** Page chrome written as structured data: a site's menu (`SiteNavigationElement`), its header,
 * footer and sidebar. The model reads the page's content, not its menus. */
const CHROME_TYPE = /^(?:https?:\/\/schema\.org\/)?(?:SiteNavigationElement|WPHeader|WPFooter|WPSideBar)$/;
const isChromeData = (v: unknown): boolean => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const t = (v as Record<string, unknown>)['@type'];
  return typeof t === 'string' ? CHROME_TYPE.test(t) : Array.isArray(t) && t.length > 0 && t.every((x) => typeof x === 'string' && CHROME_TYPE.test(x));
};

/** Compact JSON for the model: no @context noise; with `shown` (the page text the model is given),
 * long strings it already reads there are left out, so a description is not read twice, and so is
 * page chrome written as data (a menu as `SiteNavigationElement` items). */
export function compactJson(v: unknown, shown?: string): string {
  if (shown !== undefined && isChromeData(v)) return '';
  return (
    JSON.stringify(v, (k, val) => {
      if (NOISE_KEYS.has(k)) return undefined;
      if (shown !== undefined && Array.isArray(val) && val.some(isChromeData)) return val.filter((x) => !isChromeData(x));
      if (shown !== undefined && k !== '' && isChromeData(val)) return undefined;
      if (shown && typeof val === 'string' && val.length >= SHOWN_MIN && (shown.includes(collapse(val).slice(0, PROBE_CHARS)) || shownAsWords(val, shown)))
        return undefined;
      return val;
    }) ?? ''
  );
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A long string is also shown when most of its runs of PROBE_WORDS words (letters and digits, case
 * folded; at most PROBE_RUNS of them, spread over it) occur in the page text's words, link targets
 * and images left out: a forum post's text in its `Comment` data, written there without the post's
 * line breaks, links and smileys, and with the quote the page shows apart. */
const PROBE_WORDS = 12;
const PROBE_RUNS = 8;
const PROBE_SHARE = 2 / 3;
const WORD = /[\p{L}\p{N}]+/gu;
/** Every run of PROBE_WORDS words of the last page text seen (every structured-data string of a page
 * is checked against the same text): built once, each lookup then costs one run's length. */
let runsOf: { shown: string; runs: Set<string> } | null = null;
/** The page's runs let go once its structured data is written (reduce.ts): a large page's would
 * otherwise stay in memory until the next page. */
export function forgetShownRuns(): void {
  runsOf = null;
}
function shownAsWords(val: string, shown: string): boolean {
  const w = val.toLowerCase().match(WORD) ?? [];
  const runs = Math.floor(w.length / PROBE_WORDS);
  if (runs < 2) return false;
  if (runsOf?.shown !== shown) {
    const all =
      shown
        .replace(/!\[[^\]]*\]\([^)\s]*\)/g, ' ')
        .replace(/\[([^\]]*)\]\([^)\s]*\)/g, ' $1 ')
        .toLowerCase()
        .match(WORD) ?? [];
    const set = new Set<string>();
    for (let k = 0; k + PROBE_WORDS <= all.length; k++) set.add(all.slice(k, k + PROBE_WORDS).join(' '));
    runsOf = { shown, runs: set };
  }
  const n = Math.min(runs, PROBE_RUNS);
  let found = 0;
  for (let k = 0; k < n; k++) {
    const at = Math.floor((k * runs) / n) * PROBE_WORDS;
    if (runsOf.runs.has(w.slice(at, at + PROBE_WORDS).join(' '))) found++;
  }
  return found >= PROBE_SHARE * n;
}

const META_NAME =
  /^(?:description|author|date|pubdate|publish[-_]?date|last-modified|keywords|news_keywords|og:.+|product:.+|article:.+|book:.+|profile:.+|video:.+|music:.+|citation_.+|dc\.\w+|dcterms\.\w+|twitter:(?:label|data)\d)$/i;
/** Distinct meta keys kept (real pages have a few dozen). */
const MAX_META = 64;
const META_URL = /(?:image|url|video|audio)(?::secure_url|:url)?$/;

/** Records a useful <meta> value (description, og:*, product:*, article:*, ...) into `meta`. */
export function collectMeta(attrs: Attrs, meta: Record<string, string>, resolve: (u: string) => string | null): void {
  const key = (attrs.property ?? attrs.name)?.trim();
  const content = attrs.content?.trim();
  if (!key || !content || !META_NAME.test(key)) return;
  const k = key.toLowerCase();
  const v = META_URL.test(k) ? (resolve(content) ?? content) : content.replace(/\s+/g, ' ');
  if (meta[k] === undefined) {
    if (Object.keys(meta).length < MAX_META) meta[k] = v;
  } else if (meta[k].length < 1000 && meta[k] !== v && !meta[k].split(' | ').includes(v)) meta[k] += ` | ${v}`;
}
