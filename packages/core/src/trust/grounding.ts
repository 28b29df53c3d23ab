/**
 * The grounding check: is each value a model returned in the text it was shown? Found verbatim,
 * found after normalisation (case, whitespace, quotes and dashes, number formats, URL forms, date
 * forms), or not found — a value the model may have made up. Values that are judgements rather
 * than quotes are exempt (docs/api.md, "Grounding"). The result is also each field's provenance:
 * the span of the page text and its quote, or the JSON-LD / microdata / meta path it came from.
 */
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import { stripTrackingParams } from '../page/urls.ts';
import type { PageText } from './page-text.ts';
import type { FieldProvenance, ItemProvenance, PageSource } from './provenance.ts';

/** A description that asks for a judgement or a summary rather than a quote exempts its attribute. */
const JUDGEMENT =
  /\b(summar(?:y|ies|ise|ize|ising|izing)|judge?ment|judge|classif(?:y|ied|ication)|categori[sz]e|sentiment|opinion|in (?:your|its) own words|translat(?:e|ed|ion)|infer(?:red)?|guess|estimate[ds]?|assess(?:ment)?|evaluat(?:e|ion)|whether|yes\/no|true\/false|explain)\b/i;
/** Longest quote returned; the span is exact either way. */
export const MAX_QUOTE = 300;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Why an attribute's values are not checked, or null when they are. */
export function exemption(attribute: Attribute | undefined, value: unknown): string | null {
  if (value !== null && typeof value === 'object' && (!Array.isArray(value) || value.some((v) => v !== null && typeof v === 'object')))
    return 'a structured value (type object, or any holding an object) is composed by the model';
  if (attribute?.type === 'bool') return 'a yes/no value is a judgement';
  if (attribute?.description && JUDGEMENT.test(attribute.description)) return 'the description asks for a judgement or summary';
  return null;
}

interface Found {
  span: [number, number];
  normalised: boolean;
  transform: string[];
}

function dateForms(v: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(v);
  if (!m) return [];
  const [y, mm, dd] = [m[1], m[2], m[3]];
  const month = MONTHS[Number(mm) - 1];
  if (!month) return [];
  const d = String(Number(dd));
  const short = month.slice(0, 3);
  return [
    `${y}-${mm}-${dd}`,
    `${month} ${d}, ${y}`,
    `${d} ${month} ${y}`,
    `${short} ${d}, ${y}`,
    `${d} ${short} ${y}`,
    `${mm}/${dd}/${y}`,
    `${dd}/${mm}/${y}`,
    `${dd}.${mm}.${y}`,
  ];
}

function urlForms(v: string, pageUrl: string): string[] {
  let u: URL;
  try {
    u = new URL(v, pageUrl);
  } catch {
    return [];
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return [];
  const forms = new Set<string>([u.href, stripTrackingParams(u.href), u.href.replace(/\/$/, '')]);
  try {
    forms.add(decodeURI(u.href));
  } catch {
    /* not encoded */
  }
  if (u.hostname.startsWith('www.')) forms.add(u.href.replace('//www.', '//'));
  else forms.add(u.href.replace('//', '//www.'));
  if (u.pathname.length > 1) forms.add(u.pathname + u.search);
  forms.delete(v);
  return [...forms];
}

function findString(page: PageText, v: string, pageUrl: string): Found | null {
  const exact = page.findVerbatim(v);
  if (exact) return { span: exact, normalised: false, transform: [] };
  for (const compact of [false, true]) {
    const span = page.findNormalised(v, compact);
    if (span) return { span, normalised: true, transform: [] };
  }
  if (/^(https?:)?\/\/|^\/[^\s]|^[\w.-]+\.[a-z]{2,}\//i.test(v)) {
    for (const form of urlForms(v, pageUrl)) {
      const span = page.findVerbatim(form);
      if (span) return { span, normalised: true, transform: ['url'] };
    }
  }
  for (const form of dateForms(v)) {
    const span = page.findNormalised(form, false);
    if (span) return { span, normalised: true, transform: ['date'] };
  }
  // A number written as a string ("1299" for "$1,299.00"); not a code such as "000123".
  if (/^[-+]?(?:0|[1-9][\d,\s]*)(?:\.\d+)?$/.test(v.trim())) {
    const n = Number(v.replace(/[,\s]/g, ''));
    if (Number.isFinite(n)) return findNumber(page, n, false);
  }
  return null;
}

function findNumber(page: PageText, n: number, integer: boolean): Found | null {
  const exact = page.findVerbatimNumber(String(n));
  if (exact) return { span: exact, normalised: false, transform: [] };
  const index = page.numbers();
  const span = index.get(n);
  if (span) return { span, normalised: true, transform: ['number'] };
  if (integer) {
    for (const [k, s] of index) if (Math.round(k) === n) return { span: s, normalised: true, transform: ['number', 'round'] };
  }
  return null;
}

function findValue(page: PageText, value: unknown, attribute: Attribute | undefined, pageUrl: string): Found | null {
  if (typeof value === 'number') {
    const found = findNumber(page, value, attribute?.type === 'integer');
    return found && (attribute?.type === 'number' || attribute?.type === 'integer')
      ? { ...found, transform: found.transform.length ? found.transform : ['number'] }
      : found;
  }
  if (typeof value === 'boolean') return findString(page, String(value), pageUrl);
  const found = findString(page, String(value), pageUrl);
  if (found && attribute?.type === 'image' && !found.transform.includes('url')) found.transform.push('url');
  return found;
}

/** The section of the model's text a span falls in: the page body, or the JSON-LD, microdata or meta appendix. */
function sectionAt(page: PageText, at: number): 'body' | 'json-ld' | 'microdata' | 'meta' {
  for (const [name, start] of page.sections()) if (start !== -1 && at > start) return name;
  return 'body';
}

/** The path (recipe syntax: `[@type=Product].offers.price`) of the first leaf of `roots` that `matches`. */
function structuredPath(roots: unknown[], matches: (leaf: string | number) => boolean): string | null {
  const walk = (node: unknown, path: string, depth: number): string | null => {
    if (depth > 12) return null;
    if (typeof node === 'string' || typeof node === 'number') return matches(node) ? path : null;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const hit = walk(node[i], `${path}[${i}]`, depth + 1);
        if (hit) return hit;
      }
      return null;
    }
    if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '@context') continue;
        const hit = walk(v, path ? `${path}.${k}` : k, depth + 1);
        if (hit) return hit;
      }
    }
    return null;
  };
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i] as Record<string, unknown>;
    const type = root && typeof root === 'object' && typeof root['@type'] === 'string' ? root['@type'] : null;
    const hit = walk(root, type ? `[@type=${type}]` : `[${i}]`, 0);
    if (hit) return hit;
  }
  return null;
}

function quoteOf(text: string, span: [number, number]): string {
  const q = text.slice(span[0], span[1]);
  return q.length > MAX_QUOTE ? `${q.slice(0, MAX_QUOTE)}…` : q;
}

/** One value (or list item) checked against the page: its grounding and where it was found. */
function checkOne(src: PageSource, value: unknown, attribute: Attribute | undefined): ItemProvenance {
  const found = findValue(src.text, value, attribute, src.url);
  if (!found) return { grounding: 'not_found', transform: [] };
  const item: ItemProvenance = {
    grounding: found.normalised ? 'normalised' : 'verbatim',
    span: found.span,
    quote: quoteOf(src.text.text, found.span),
    transform: found.transform,
  };
  const section = sectionAt(src.text, found.span[0]);
  if (section !== 'body') {
    item.source = section;
    const quote = src.text.text.slice(found.span[0], found.span[1]);
    const leaf = (l: string | number) => String(l) === quote || String(l) === String(value) || (typeof value === 'number' && Number(l) === value);
    if (section === 'json-ld') item.path = structuredPath(src.structured?.jsonLd ?? [], leaf) ?? undefined;
    else if (section === 'microdata') item.path = structuredPath(src.structured?.microdata ?? [], leaf) ?? undefined;
    else {
      const lineStart = src.text.text.lastIndexOf('\n', found.span[0]) + 1;
      const key = /^([^:\n]+): /.exec(src.text.text.slice(lineStart, found.span[0] + 1))?.[1];
      if (key) item.path = key;
    }
  }
  return item;
}

/** Checks every field of a record read by a model from `src`: its provenance per field. */
export function groundRecord(src: PageSource, record: ExtractedRecord, attributes: Attribute[]): Record<string, FieldProvenance> {
  const byName = new Map(attributes.map((a) => [a.name, a]));
  const out: Record<string, FieldProvenance> = {};
  for (const [name, value] of Object.entries(record)) {
    const base = { url: src.url, content_hash: src.contentHash };
    const attribute = byName.get(name);
    if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
      out[name] = { ...base, method: 'absent', grounding: null, transform: [] };
      continue;
    }
    const exempt = exemption(attribute, value);
    if (exempt) {
      out[name] = { ...base, method: 'computed', grounding: 'exempt', exempt, transform: attribute?.type === 'bool' ? ['bool'] : [] };
      continue;
    }
    if (Array.isArray(value)) {
      const items = value.map((v) => checkOne(src, v, attribute));
      const grounding = items.some((i) => i.grounding === 'not_found')
        ? 'not_found'
        : items.some((i) => i.grounding === 'normalised')
          ? 'normalised'
          : 'verbatim';
      out[name] = { ...base, method: 'text', grounding, transform: [], items };
      continue;
    }
    const one = checkOne(src, value, attribute);
    out[name] = { ...base, method: one.source ? 'structured' : 'text', ...one };
  }
  return out;
}
