/**
 * Record-level change tracking between runs of a schedule: per URL, each record is matched with the
 * URL's records in the last run where that URL succeeded, by its key, and gets a state.
 *
 * The key is the values of the schedule's `key_attributes` when it names some. Otherwise it is a
 * SHA-256 of the record's identifying fields: those named `id`, `sku`, `url`, `link`, `href`,
 * `slug`, `code`, `ref`, `key`, `name` or `title`, or ending in `_id`, `_url`, `_sku`, `_code` or
 * `_key`; a record with none of them is identified by all its fields (a change then reads as one
 * record removed and one new). Records sharing a key on one page are told apart by their order.
 */
import { createHash } from 'node:crypto';
import type { ExtractedRecord } from '../records/attributes.ts';
import type { CHANGED_RECORD_STATES } from '../schemas/statuses.ts';

export type ChangeState = (typeof CHANGED_RECORD_STATES)[number] | 'unchanged';

export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
}

export interface RecordChange {
  url: string;
  key: string;
  state: ChangeState;
  /** The record as it is now (new, changed, unchanged) or as it was last seen (removed, unknown). */
  record: ExtractedRecord;
  /** What changed (state 'changed'). */
  fields?: FieldChange[];
}

/** A record a change report lists: every state but 'unchanged'. */
export interface ReportedChange extends RecordChange {
  state: (typeof CHANGED_RECORD_STATES)[number];
}

/** The records of a comparison that a change report lists (the unchanged ones left out). */
export function reportedChanges(records: readonly RecordChange[]): ReportedChange[] {
  return records.filter((r): r is ReportedChange => r.state !== 'unchanged');
}

export interface ChangeCounts {
  new: number;
  unchanged: number;
  changed: number;
  removed: number;
  unknown: number;
}

/** One URL of the run: its records now (null when its page failed) and when it last succeeded (null: never). */
export interface UrlComparison {
  url: string;
  current: ExtractedRecord[] | null;
  previous: ExtractedRecord[] | null;
}

const IDENTIFYING = /^(id|sku|url|link|href|slug|code|ref|key|name|title)$|_(id|url|sku|code|key)$/i;

/** JSON with sorted object keys, so equal values compare equal whatever their key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The record's key (see the module comment). */
export function recordKey(record: ExtractedRecord, keyAttributes: readonly string[] | null): string {
  if (keyAttributes?.length) return canonical(keyAttributes.map((k) => record[k] ?? null));
  const fields = Object.keys(record).filter((k) => IDENTIFYING.test(k));
  const identity = fields.length ? Object.fromEntries(fields.map((k) => [k, record[k]])) : record;
  return createHash('sha256').update(canonical(identity)).digest('hex').slice(0, 32);
}

function keyed(records: readonly ExtractedRecord[], keyAttributes: readonly string[] | null): Map<string, ExtractedRecord> {
  const out = new Map<string, ExtractedRecord>();
  const seen = new Map<string, number>();
  for (const r of records) {
    const base = recordKey(r, keyAttributes);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.set(n === 1 ? base : `${base}#${n}`, r);
  }
  return out;
}

function fieldChanges(before: ExtractedRecord, after: ExtractedRecord): FieldChange[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names.filter((f) => canonical(before[f]) !== canonical(after[f])).map((f) => ({ field: f, old: before[f] ?? null, new: after[f] ?? null }));
}

export const emptyCounts = (): ChangeCounts => ({ new: 0, unchanged: 0, changed: 0, removed: 0, unknown: 0 });

/** Compares each URL's records with its previous ones; every record gets one entry. */
export function compareRuns(urls: readonly UrlComparison[], keyAttributes: readonly string[] | null): { counts: ChangeCounts; records: RecordChange[] } {
  const counts = emptyCounts();
  const records: RecordChange[] = [];
  const add = (c: RecordChange) => {
    counts[c.state]++;
    records.push(c);
  };
  for (const { url, current, previous } of urls) {
    const before = keyed(previous ?? [], keyAttributes);
    if (current === null) {
      // A page that failed removes nothing: what it had is unknown until it succeeds again.
      for (const [key, record] of before) add({ url, key, state: 'unknown', record });
      continue;
    }
    const after = keyed(current, keyAttributes);
    for (const [key, record] of after) {
      const old = before.get(key);
      if (!old) add({ url, key, state: 'new', record });
      else {
        const fields = fieldChanges(old, record);
        add(fields.length ? { url, key, state: 'changed', record, fields } : { url, key, state: 'unchanged', record });
      }
    }
    for (const [key, record] of before) if (!after.has(key)) add({ url, key, state: 'removed', record });
  }
  return { counts, records };
}

/** Something a `notify: "changes"` callback reports: a record new, changed or removed. */
export const hasChanges = (c: ChangeCounts): boolean => c.new + c.changed + c.removed > 0;
