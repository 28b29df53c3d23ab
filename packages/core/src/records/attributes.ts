/**
 * Attributes: what a caller asks to extract (spec 2.1), in one normal form whatever shape came in,
 * the JSON Schema the model answers under, and coercion of answers to each attribute's type.
 */
import { GleanerError, validationFailed } from '../errors.ts';

export const ATTRIBUTE_TYPES = ['any', 'string', 'integer', 'number', 'bool', 'list', 'object', 'image'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

export interface Attribute {
  name: string;
  description: string;
  type: AttributeType;
}

export type ExtractedRecord = Record<string, unknown>;

// Bounds far above real use: every attribute becomes part of a model prompt and a stored row.
const MAX_ATTRIBUTES = 200;
const MAX_NAME = 200;
const MAX_DESCRIPTION = 4000;

/** Request schema of `attributes`: a list of Attribute, a map name -> AttributeData, or name -> description. */
export const ATTRIBUTES_REQUEST_SCHEMA = {
  anyOf: [
    {
      type: 'array',
      maxItems: MAX_ATTRIBUTES,
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: MAX_NAME },
          description: { type: ['string', 'null'], maxLength: MAX_DESCRIPTION },
          type: { enum: [...ATTRIBUTE_TYPES, null] },
        },
      },
    },
    {
      type: 'object',
      maxProperties: MAX_ATTRIBUTES,
      propertyNames: { maxLength: MAX_NAME },
      additionalProperties: {
        anyOf: [
          { type: 'string', maxLength: MAX_DESCRIPTION },
          { type: 'null' },
          { type: 'object', properties: { description: { type: ['string', 'null'], maxLength: MAX_DESCRIPTION }, type: { enum: [...ATTRIBUTE_TYPES, null] } } },
        ],
      },
    },
    { type: 'null' },
  ],
} as const;

/** The list form, whatever form came in; null, [] and {} give []. Duplicate names are an error. */
export function normalizeAttributes(input: unknown): Attribute[] {
  if (input === null || input === undefined) return [];
  let out: Attribute[];
  if (Array.isArray(input)) {
    out = input.map((a: { name: string; description?: string | null; type?: AttributeType | null }) => ({
      name: a.name.trim(),
      description: a.description ?? '',
      type: a.type ?? 'any',
    }));
  } else if (typeof input === 'object') {
    out = Object.entries(input as Record<string, unknown>).map(([name, v]) => {
      if (v && typeof v === 'object') {
        const d = v as { description?: string | null; type?: AttributeType | null };
        return { name: name.trim(), description: d.description ?? '', type: d.type ?? 'any' };
      }
      return { name: name.trim(), description: typeof v === 'string' ? v : '', type: 'any' as const };
    });
  } else {
    throw new GleanerError('VALIDATION_FAILED', 'attributes must be a list or a map');
  }
  const seen = new Set<string>();
  for (const a of out) {
    if (!a.name) throw validationFailed([{ loc: ['body', 'attributes'], msg: 'attribute names must not be empty', type: 'value_error' }]);
    if (seen.has(a.name)) throw validationFailed([{ loc: ['body', 'attributes'], msg: `attribute "${a.name}" is given twice`, type: 'value_error' }]);
    seen.add(a.name);
  }
  return out;
}

function valueSchema(a: Attribute): Record<string, unknown> {
  const description = [a.description, a.type === 'image' ? 'the image URL (src)' : ''].filter(Boolean).join(' — ');
  const d = description ? { description } : {};
  switch (a.type) {
    case 'string':
    case 'image':
      return { type: ['string', 'null'], ...d };
    case 'integer':
      return { type: ['integer', 'null'], ...d };
    case 'number':
      return { type: ['number', 'null'], ...d };
    case 'bool':
      return { type: ['boolean', 'null'], ...d };
    case 'list':
      return { type: ['array', 'null'], items: {}, ...d };
    case 'object':
      return { type: ['object', 'null'], ...d };
    default:
      return { ...d };
  }
}

/**
 * The JSON Schema a model answers under: `{records: [record, ...]}`. With attributes, each record
 * has exactly those keys (null when absent); prompt-only, records are free-form objects.
 */
export function recordsJsonSchema(attributes: Attribute[]): Record<string, unknown> {
  const record = attributes.length
    ? {
        type: 'object',
        properties: Object.fromEntries(attributes.map((a) => [a.name, valueSchema(a)])),
        required: attributes.map((a) => a.name),
        additionalProperties: false,
      }
    : { type: 'object' };
  return { type: 'object', properties: { records: { type: 'array', items: record } }, required: ['records'], additionalProperties: false };
}

/**
 * What an answer must be to be used: records of any values, since coerceRecord turns "$1,299.00"
 * into 1299 and "In stock" into true (the model still gets the typed schema).
 */
export const RECORDS_ACCEPT_SCHEMA = {
  type: 'object',
  required: ['records'],
  properties: { records: { type: 'array', items: { type: 'object' } } },
} as const;

/** A number read from text as people write it ("$1,299.00", "1.299,99", "12,5"); null when there is none. */
export function parseNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v !== 'string') return null;
  let s = v.replace(/[\s\u00a0\u202f]/g, '').replace(/[^\d.,+-eE]/g, '');
  const m = /[-+]?[\d.,]*\d(?:[eE][-+]?\d+)?/.exec(s);
  if (!m) return null;
  s = m[0];
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma > -1 && lastDot > -1) {
    // "1,299.99" or "1.299,99": the later separator is the decimal one.
    s = lastComma > lastDot ? s.replace(/\./g, '').replace(',', '.') : s.replace(/,/g, '');
  } else if (lastComma > -1) {
    // "1,299" (thousands) vs "12,5" (decimal): three digits after a single comma read as thousands.
    s = /^[-+]?\d{1,3}(,\d{3})+$/.test(s) ? s.replace(/,/g, '') : s.replace(',', '.');
  } else if ((s.match(/\./g) ?? []).length > 1) {
    s = s.replace(/\./g, '');
  }
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

function toText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v))
    return v.length
      ? v
          .map((x) => toText(x) ?? '')
          .filter(Boolean)
          .join(', ') || null
      : null;
  return JSON.stringify(v);
}

/** An image or link value as an absolute http(s) (or data:) URL against `baseUrl`; null when it is none. */
export function absoluteUrl(v: unknown, baseUrl: string): string | null {
  const first = Array.isArray(v) ? v[0] : v;
  const s = toText(first);
  if (!s) return null;
  const candidate = s.split(/\s*,\s+/)[0].split(/\s+/)[0]; // a srcset gives "url 2x, ..." (a data: URL has a bare comma)
  try {
    const u = new URL(candidate, baseUrl);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'data:' ? u.href : null;
  } catch {
    return null;
  }
}

/** One value coerced to its attribute's type; what cannot be read as that type is null. */
export function coerceValue(v: unknown, type: AttributeType, baseUrl: string): unknown {
  if (v === undefined || v === null) return null;
  switch (type) {
    case 'string':
      return toText(v);
    case 'integer': {
      const n = parseNumber(Array.isArray(v) ? v[0] : v);
      return n === null ? null : Math.round(n);
    }
    case 'number':
      return parseNumber(Array.isArray(v) ? v[0] : v);
    case 'bool': {
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number') return v !== 0;
      const s = String(v).trim().toLowerCase();
      if (['true', 'yes', 'y', '1', 'in stock', 'available', 'on'].includes(s)) return true;
      if (['false', 'no', 'n', '0', 'out of stock', 'unavailable', 'off'].includes(s)) return false;
      return null;
    }
    case 'list':
      return Array.isArray(v) ? v : [v];
    case 'object':
      return typeof v === 'object' && !Array.isArray(v) ? v : null;
    case 'image':
      return absoluteUrl(v, baseUrl);
    default:
      return v;
  }
}

/** A record with exactly the requested keys, each coerced; prompt-only records pass through. */
export function coerceRecord(raw: unknown, attributes: Attribute[], baseUrl: string): ExtractedRecord {
  const src = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  if (!attributes.length) return { ...src };
  const out: ExtractedRecord = {};
  for (const a of attributes) out[a.name] = coerceValue(src[a.name], a.type, baseUrl);
  return out;
}

/** True when every value is null/empty: such a record carries nothing. */
export function isEmptyRecord(r: ExtractedRecord): boolean {
  return Object.values(r).every((v) => v === null || v === '' || (Array.isArray(v) && v.length === 0));
}

/**
 * Records from several chunks or pages, in order, without exact duplicates (a record repeated
 * across a chunk boundary or on two pages is kept once) and without empty records.
 */
export function mergeRecords(lists: ExtractedRecord[][]): ExtractedRecord[] {
  const seen = new Set<string>();
  const out: ExtractedRecord[] = [];
  for (const list of lists) {
    for (const r of list) {
      if (isEmptyRecord(r)) continue;
      const key = JSON.stringify(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(r);
    }
  }
  return out;
}
