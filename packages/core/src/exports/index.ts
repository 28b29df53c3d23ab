/**
 * Results as files (a Gleaner extension): a run's or a task's records as CSV or JSON Lines, one row
 * per record, each with the source URL and status of its item, and one row for an item without
 * records (failed, not yet done, or empty) so that every URL appears. Rows are produced as they are
 * read, a page of items at a time, so a 10,000-URL run is never held in memory.
 */
import { GleanerError } from '../errors.ts';
import type { Owner } from '../auth/owners.ts';
import type { Queryable } from '../store/db.ts';

export type ExportFormat = 'csv' | 'jsonl';

/** The columns every row starts with; the records' own fields follow. */
export const EXPORT_COLUMNS = ['_source_url', '_status', '_error'] as const;

export interface ResultFile {
  contentType: string;
  /** For Content-Disposition. */
  filename: string;
  /** The file, in pieces (the first is the CSV header). */
  chunks: AsyncIterable<string>;
}

interface ItemRows {
  url: string;
  status: string;
  error: string | null;
  records: unknown[] | null;
}

/** Items per query while streaming. */
const PAGE = 200;

/** A spreadsheet would run a cell starting with one of these as a formula: such text is quoted with '. */
const FORMULA = /^[=+\-@\t\r]/;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The rows of one item: one per record, or one without fields. */
function* itemRows(item: ItemRows): Generator<Record<string, unknown>> {
  const meta = { _source_url: item.url, _status: item.status, _error: item.error ?? null };
  const records = (item.records ?? []).filter((r): r is Record<string, unknown> => Boolean(r) && typeof r === 'object' && !Array.isArray(r));
  if (!records.length) yield meta;
  for (const record of records) {
    const row: Record<string, unknown> = { ...meta }; // a record's own "_status" cannot pass for the item's
    for (const [k, v] of Object.entries(record)) if (!Object.hasOwn(meta, k)) row[k] = v;
    yield row;
  }
}

function lineOf(format: ExportFormat, columns: string[], row: Record<string, unknown>): string {
  if (format === 'jsonl') return `${JSON.stringify(row)}\n`;
  return `${columns.map((c) => csvCell(Object.hasOwn(row, c) ? row[c] : null)).join(',')}\r\n`;
}

async function* render(format: ExportFormat, columns: string[], pages: AsyncIterable<ItemRows[]>): AsyncIterable<string> {
  if (format === 'csv') yield `${columns.map(csvCell).join(',')}\r\n`;
  for await (const items of pages) {
    let out = '';
    for (const item of items) for (const row of itemRows(item)) out += lineOf(format, columns, row);
    if (out) yield out;
  }
}

const CONTENT_TYPES: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' };

/** A run's results (GET /v1/scrapers/run_async/{run_id}?format=csv|jsonl); NOT_FOUND before anything is sent. */
export async function exportRun(db: Queryable, owner: Owner, runId: string, format: ExportFormat): Promise<ResultFile> {
  const { rows } = await db.query<{ attributes: unknown }>(
    'SELECT s.attributes FROM runs r LEFT JOIN scrapers s ON s.id = r.scraper_id WHERE r.id = $1 AND r.owner_id = $2',
    [runId, owner.id],
  );
  if (!rows[0]) throw new GleanerError('NOT_FOUND', `Run ${runId} not found`);
  // The records' fields in order of first appearance, read by Postgres rather than by loading them.
  const keys = await db.query<{ key: string }>(
    `SELECT k.key FROM run_items i, jsonb_array_elements(CASE WHEN jsonb_typeof(i.records) = 'array' THEN i.records ELSE '[]' END) WITH ORDINALITY AS e(r, n),
            jsonb_object_keys(CASE WHEN jsonb_typeof(e.r) = 'object' THEN e.r ELSE '{}' END) AS k(key)
      WHERE i.run_id = $1 GROUP BY k.key ORDER BY min(i.position), min(e.n), k.key`,
    [runId],
  );
  async function* pages(): AsyncIterable<ItemRows[]> {
    for (let from = 0; ; from += PAGE) {
      const page = await db.query<ItemRows>(
        `SELECT url, status, error, records FROM run_items WHERE run_id = $1 AND position >= $2 AND position < $3 ORDER BY position`,
        [runId, from, from + PAGE],
      );
      if (page.rows.length) yield page.rows;
      if (page.rows.length < PAGE) return; // positions run 0..total-1 without gaps
    }
  }
  return file(
    format,
    `run-${runId}`,
    ordered(
      rows[0].attributes,
      keys.rows.map((r) => r.key),
    ),
    pages(),
  );
}

/** A task's results (agent or async extraction: `kind`); its one URL is the task's. */
export async function exportTask(db: Queryable, owner: Owner, taskId: string, kind: 'agent' | 'extract', format: ExportFormat): Promise<ResultFile> {
  const { rows } = await db.query<{ url: string; status: string; error: string | null; data: unknown; attributes: unknown }>(
    `SELECT request->>'url' AS url, request->'attributes' AS attributes, status, error, data FROM tasks WHERE id = $1 AND owner_id = $2 AND kind = $3`,
    [taskId, owner.id, kind],
  );
  const task = rows[0];
  if (!task) throw new GleanerError('NOT_FOUND', `${kind === 'agent' ? 'agent task' : 'task'} ${taskId} not found`);
  const records = task.status === 'completed' && Array.isArray(task.data) ? task.data : [];
  const keys: string[] = [];
  for (const r of records) if (r && typeof r === 'object') for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  const item: ItemRows = { url: task.url ?? '', status: task.status, error: task.status === 'failed' ? (task.error ?? 'the task failed') : null, records };
  async function* one(): AsyncIterable<ItemRows[]> {
    yield [item];
  }
  return file(format, `${kind}-task-${taskId}`, ordered(task.attributes, keys), one());
}

/**
 * The records' fields as columns: the attributes asked for first, in their order (Postgres' jsonb
 * keeps an object's keys in its own order, not the model's), then any other field found.
 */
function ordered(attributes: unknown, found: string[]): string[] {
  const named = Array.isArray(attributes)
    ? attributes.map((a) => (a && typeof a === 'object' ? (a as { name?: unknown }).name : a)).filter((n): n is string => typeof n === 'string')
    : [];
  return [...new Set([...named.filter((n) => found.includes(n)), ...found])];
}

function file(format: ExportFormat, name: string, keys: string[], pages: AsyncIterable<ItemRows[]>): ResultFile {
  const columns = [...EXPORT_COLUMNS, ...keys.filter((k) => !(EXPORT_COLUMNS as readonly string[]).includes(k))];
  return { contentType: CONTENT_TYPES[format], filename: `${name}.${format}`, chunks: render(format, columns, pages) };
}
