/** The fixed list of recipe transforms, applied in order; on a list each applies to every item. */
import { absoluteUrl, coerceValue } from '../records/attributes.ts';
import type { CompiledTransform } from './compile.ts';
import { collapse } from './dom.ts';
import { REGEX_INPUT_LIMIT } from './safe-regex.ts';

/** Query parameters that only track a click; removed by `strip_tracking`. */
const TRACKING_PARAMS = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  '_ga',
  '_gl',
  'spm',
  'srsltid',
]);

export function isEmptyValue(v: unknown): boolean {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}

/** Applies `fn` to a value, or to each item of a list (dropping items that become empty). */
function each(v: unknown, fn: (x: unknown) => unknown): unknown {
  if (Array.isArray(v)) return v.map(fn).filter((x) => !isEmptyValue(x));
  return isEmptyValue(v) ? v : fn(v);
}

const onString =
  (fn: (s: string) => unknown) =>
  (x: unknown): unknown =>
    typeof x === 'string' ? fn(x) : x;

/** The `absolute_url` transform: the same resolution as an `image` attribute's coercion. */
export function absolutize(s: string, baseUrl: string): string | null {
  return absoluteUrl(s, baseUrl);
}

function stripTracking(s: string): string {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return s;
  }
  for (const key of [...u.searchParams.keys()]) {
    if (/^utm_/i.test(key) || TRACKING_PARAMS.has(key.toLowerCase())) u.searchParams.delete(key);
  }
  return u.href.replace(/\?$/, '').replace(/\?#/, '#');
}

function applyOne(t: CompiledTransform, v: unknown, baseUrl: string): unknown {
  switch (t.op) {
    case 'trim':
      return each(
        v,
        onString((s) => s.trim()),
      );
    case 'collapse_whitespace':
      return each(v, onString(collapse));
    case 'lowercase':
      return each(
        v,
        onString((s) => s.toLowerCase()),
      );
    case 'uppercase':
      return each(
        v,
        onString((s) => s.toUpperCase()),
      );
    case 'regex':
      return each(v, (x) => {
        const m = t.re!.exec(String(x).slice(0, REGEX_INPUT_LIMIT));
        return m ? (m[t.group!] ?? null) : null;
      });
    case 'replace':
      return each(v, (x) => {
        const s = String(x);
        return s.slice(0, REGEX_INPUT_LIMIT).replace(t.re!, t.with!) + s.slice(REGEX_INPUT_LIMIT);
      });
    case 'split': {
      const parts = (x: unknown): unknown[] =>
        typeof x === 'string'
          ? x
              .split(t.separator!)
              .map((p) => p.trim())
              .filter(Boolean)
          : [x];
      if (isEmptyValue(v)) return v;
      return Array.isArray(v) ? v.flatMap(parts) : parts(v);
    }
    case 'join':
      return Array.isArray(v)
        ? v
            .filter((x) => !isEmptyValue(x))
            .map(String)
            .join(t.separator!) || null
        : v;
    case 'number':
    case 'integer':
    case 'bool':
      return each(v, (x) => coerceValue(x, t.op === 'bool' ? 'bool' : t.op === 'integer' ? 'integer' : 'number', baseUrl));
    case 'absolute_url':
      return each(
        v,
        onString((s) => absolutize(s, baseUrl)),
      );
    case 'strip_tracking':
      return each(v, onString(stripTracking));
    case 'first':
      return Array.isArray(v) ? (v[0] ?? null) : v;
    case 'last':
      return Array.isArray(v) ? (v.at(-1) ?? null) : v;
    case 'prefix':
      return each(
        v,
        onString((s) => t.value! + s),
      );
    case 'suffix':
      return each(
        v,
        onString((s) => s + t.value!),
      );
  }
}

export function applyTransforms(transforms: CompiledTransform[], value: unknown, baseUrl: string): unknown {
  let v = value;
  for (const t of transforms) v = applyOne(t, v, baseUrl);
  return v;
}
