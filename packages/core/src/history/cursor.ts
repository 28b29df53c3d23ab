/**
 * Keyset pagination over (created_at, id), newest first, shared by the run and task lists. The
 * cursor is opaque to callers: the last row's timestamp as Postgres wrote it (microseconds kept, a
 * JavaScript Date would drop them and skip or repeat rows) and its id, base64url-encoded.
 */
import { validationFailed } from '../errors.ts';

export interface PageQuery {
  /** Rows per page (1..100; the route's schema bounds it). */
  limit: number;
  /** `next_cursor` of the previous page; absent for the first page. */
  cursor?: string;
}

export interface Cursor {
  at: string;
  id: string;
}

/** SQL for a row's cursor timestamp: UTC, microseconds, ISO 8601. */
export const CURSOR_AT_SQL = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.at, c.id])).toString('base64url');
}

/** The decoded cursor, or a 422 at `query.cursor` when it was not one of ours. */
export function decodeCursor(value: string | undefined): Cursor | null {
  if (!value) return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at))) return { at, id };
  } catch {
    /* reported below */
  }
  throw validationFailed([
    { loc: ['query', 'cursor'], msg: 'Not a cursor of this list: pass next_cursor from the previous page unchanged', type: 'value_error' },
  ]);
}

/**
 * A page of rows fetched newest first with one extra row to know whether more follow. `fetch` gets
 * the keyset condition's parameters (null for the first page) and the row count to ask for.
 */
export async function keysetPage<Row extends { cursor_at: string; id: string }>(
  query: PageQuery,
  fetch: (after: Cursor | null, take: number) => Promise<Row[]>,
): Promise<{ rows: Row[]; next_cursor: string | null }> {
  const rows = await fetch(decodeCursor(query.cursor), query.limit + 1);
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page[page.length - 1];
  return { rows: page, next_cursor: more && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null };
}

/** The WHERE fragment of keyset pagination, with its parameters numbered from `first`. */
export function afterCondition(after: Cursor | null, first: number, prefix = ''): { sql: string; params: unknown[] } {
  if (!after) return { sql: 'TRUE', params: [] };
  return { sql: `(${prefix}created_at, ${prefix}id) < ($${first}::timestamptz, $${first + 1})`, params: [after.at, after.id] };
}
