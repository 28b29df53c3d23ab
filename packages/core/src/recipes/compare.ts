/**
 * Comparison of a recipe's records with what standard extraction found on the same page. Values are
 * compared after normalisation (whitespace, case, punctuation, number formats, relative vs absolute
 * URLs), records are paired by their best-matching fields, and what is missing or wrong is counted
 * per field with examples, for the feedback sent back to the model.
 */
import { coerceValue } from '../records/attributes.ts';
import type { ExtractedRecord } from '../records/attributes.ts';

export interface FieldComparison {
  /** Paired records where standard extraction has a value for this field. */
  expected: number;
  matched: number;
  /** The recipe gave nothing. */
  missing: number;
  /** The recipe gave another value. */
  wrong: number;
  /** A few (expected, actual) pairs that differ. */
  examples: Array<{ expected: unknown; actual: unknown }>;
}

export interface RecipeComparison {
  expectedCount: number;
  actualCount: number;
  /** Expected records paired with a record of the recipe. */
  matchedRecords: number;
  /** Expected records with no counterpart (at most 20 kept). */
  missingRecords: ExtractedRecord[];
  missingRecordCount: number;
  /** Records of the recipe that pair with no expected record. */
  extraRecords: number;
  fields: Record<string, FieldComparison>;
  /** Expected non-empty values the recipe reproduced, over all expected non-empty values. */
  score: number;
  /** Every expected record found, every expected value reproduced. */
  ok: boolean;
}

const MAX_RECORDS = 500;
// A number with at most a currency symbol or code or a short unit around it: "$1,299.00", "EUR 12", "1.7 l".
const NUMERIC = /^(?:[^\p{L}\d]{0,3}|\p{Lu}{3}\s?)[-+]?\d[\d.,\s\u00a0\u202f]*(?:[^\p{L}\d]{0,3}|\s?\p{L}{1,3})$/u;

const isEmpty = (v: unknown): boolean => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

function looksLikeUrl(s: string): boolean {
  return /^(https?:)?\/\//i.test(s) || /^\.{0,2}\/[^\s]*$/.test(s) || /^[\w-]+(\/[\w.%~+-]*)+(\?\S*)?$/.test(s);
}

function canonicalUrl(s: string, baseUrl: string): string | null {
  try {
    const u = new URL(s.trim(), baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    for (const key of [...u.searchParams.keys()]) if (/^utm_/i.test(key)) u.searchParams.delete(key);
    return u.href.replace(/\/$/, '').replace(/\?$/, '');
  } catch {
    return null;
  }
}

function canonicalText(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

function asNumber(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && NUMERIC.test(v.trim())) return coerceValue(v, 'number', 'http://x/') as number | null;
  return null;
}

/** Whether two single values mean the same. */
function sameScalar(a: unknown, b: unknown, baseUrl: string): boolean {
  if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return coerceValue(a, 'bool', baseUrl) === coerceValue(b, 'bool', baseUrl);
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== null && nb !== null) return Math.abs(na - nb) <= 1e-9 * Math.max(1, Math.abs(na));
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  const sa = String(a).trim();
  const sb = String(b).trim();
  if (looksLikeUrl(sa) && looksLikeUrl(sb)) {
    const ua = canonicalUrl(sa, baseUrl);
    if (ua !== null && ua === canonicalUrl(sb, baseUrl)) return true;
  }
  const ta = canonicalText(sa);
  return ta !== '' ? ta === canonicalText(sb) : sa.toLowerCase() === sb.toLowerCase();
}

/** Whether two values mean the same; lists compare as sets, and a one-item list equals its item. */
export function sameValue(a: unknown, b: unknown, baseUrl: string): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    const la = (Array.isArray(a) ? a : [a]).filter((x) => !isEmpty(x));
    const lb = (Array.isArray(b) ? b : [b]).filter((x) => !isEmpty(x));
    if (la.length !== lb.length) return false;
    return la.every((x) => lb.some((y) => sameScalar(x, y, baseUrl))) && lb.every((y) => la.some((x) => sameScalar(x, y, baseUrl)));
  }
  return sameScalar(a, b, baseUrl);
}

/**
 * Compares the recipe's records (`actual`) with standard extraction's (`expected`). Only values
 * standard extraction found count: a value the recipe finds in addition is not an error.
 */
export function compareRecipeOutput(actual: ExtractedRecord[], expected: ExtractedRecord[], opts: { baseUrl: string; fields?: string[] }): RecipeComparison {
  const exp = expected.filter((r) => Object.values(r).some((v) => !isEmpty(v))).slice(0, MAX_RECORDS);
  const act = actual.slice(0, MAX_RECORDS);
  const names = opts.fields ?? [...new Set(exp.flatMap((r) => Object.keys(r)))];

  // Pair records greedily by the number of equal fields, closest positions first on ties.
  const pairs: Array<{ i: number; j: number; sim: number }> = [];
  exp.forEach((e, i) => {
    act.forEach((a, j) => {
      let sim = 0;
      for (const n of names) if (!isEmpty(e[n]) && sameValue(e[n], a[n], opts.baseUrl)) sim++;
      if (sim > 0) pairs.push({ i, j, sim });
    });
  });
  pairs.sort((p, q) => q.sim - p.sim || Math.abs(p.i - p.j) - Math.abs(q.i - q.j) || p.i - q.i);
  const partner = new Map<number, number>();
  const taken = new Set<number>();
  for (const p of pairs) {
    if (partner.has(p.i) || taken.has(p.j)) continue;
    partner.set(p.i, p.j);
    taken.add(p.j);
  }

  const fields: Record<string, FieldComparison> = Object.fromEntries(names.map((n) => [n, { expected: 0, matched: 0, missing: 0, wrong: 0, examples: [] }]));
  let total = 0;
  let matched = 0;
  const missingRecords: ExtractedRecord[] = [];
  exp.forEach((e, i) => {
    const j = partner.get(i);
    const a = j === undefined ? undefined : act[j];
    for (const n of names) {
      if (isEmpty(e[n])) continue;
      total++;
      if (!a) continue;
      const f = fields[n];
      f.expected++;
      if (sameValue(e[n], a[n], opts.baseUrl)) {
        f.matched++;
        matched++;
      } else {
        if (isEmpty(a[n])) f.missing++;
        else f.wrong++;
        if (f.examples.length < 3) f.examples.push({ expected: e[n], actual: a[n] ?? null });
      }
    }
    if (!a && missingRecords.length < 20) missingRecords.push(e);
  });
  const missingRecordCount = exp.length - partner.size;
  const fieldsOk = Object.values(fields).every((f) => f.missing === 0 && f.wrong === 0);
  return {
    expectedCount: exp.length,
    actualCount: actual.length,
    matchedRecords: partner.size,
    missingRecords,
    missingRecordCount,
    extraRecords: act.length - taken.size,
    fields,
    score: total === 0 ? (act.length > 0 ? 1 : 0) : matched / total,
    ok: missingRecordCount === 0 && fieldsOk && (exp.length > 0 || act.length > 0),
  };
}
