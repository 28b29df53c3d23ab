/**
 * GET /v1/runs (a Gleaner extension): the caller's runs, newest first, with their progress, for the
 * console's Runs page and scripts that lost a run id. Owner-scoped like every read.
 */
import type { Queryable } from '../store/db.ts';
import type { RunStatus } from '../runs/status.ts';
import type { ChangeCounts } from '../schedules/changes.ts';
import type { ScraperType } from '../schemas/statuses.ts';
import { afterCondition, CURSOR_AT_SQL, keysetPage, type PageQuery } from './cursor.ts';

export interface RunListItem {
  run_id: string;
  scraper_id: string;
  /** Null once the scraper was deleted (its runs stay readable). */
  scraper_name: string | null;
  scraper_type: ScraperType | null;
  status: RunStatus;
  /** URLs recorded (completed or failed), of `total`. */
  completed: number;
  failed: number;
  total: number;
  credits_charged: number;
  source: string | null;
  created_at: string;
  finished_at: string | null;
  /** Gleaner: the schedule that started the run, and its change counts once compared. */
  schedule_id: string | null;
  changes: ChangeCounts | null;
}

export interface RunListQuery extends PageQuery {
  scraper_id?: string;
  schedule_id?: string;
  status?: RunStatus;
}

interface Row {
  id: string;
  cursor_at: string;
  scraper_id: string;
  name: string | null;
  kind: 'extractor' | 'agentic' | null;
  status: RunStatus;
  completed: number;
  failed: number;
  total: number;
  credits_charged: string;
  source: string | null;
  created_at: Date;
  finished_at: Date | null;
  schedule_id: string | null;
  changes: ChangeCounts | null;
}

export async function listRuns(db: Queryable, ownerId: string, query: RunListQuery): Promise<{ runs: RunListItem[]; next_cursor: string | null }> {
  const page = await keysetPage<Row>(query, async (after, take) => {
    const params: unknown[] = [ownerId, query.scraper_id ?? null, query.status ?? null, take, query.schedule_id ?? null];
    const keyset = afterCondition(after, params.length + 1, 'r.');
    const { rows } = await db.query<Row>(
      `SELECT r.id, ${CURSOR_AT_SQL('r.created_at')} AS cursor_at, r.scraper_id, s.name, s.kind, r.status, r.completed, r.failed, r.total,
              r.credits_charged, r.options->>'source' AS source, r.created_at, r.finished_at,
              r.schedule_id, c.summary->'counts' AS changes
         FROM runs r LEFT JOIN scrapers s ON s.id = r.scraper_id AND s.owner_id = r.owner_id LEFT JOIN run_changes c ON c.run_id = r.id
        WHERE r.owner_id = $1 AND ($2::text IS NULL OR r.scraper_id = $2) AND ($3::text IS NULL OR r.status = $3)
          AND ($5::text IS NULL OR r.schedule_id = $5) AND ${keyset.sql}
        ORDER BY r.created_at DESC, r.id DESC LIMIT $4`,
      [...params, ...keyset.params],
    );
    return rows;
  });
  return {
    runs: page.rows.map((r) => ({
      run_id: r.id,
      scraper_id: r.scraper_id,
      scraper_name: r.name,
      scraper_type: r.kind,
      status: r.status,
      completed: r.completed,
      failed: r.failed,
      total: r.total,
      credits_charged: Number(r.credits_charged),
      source: r.source,
      created_at: r.created_at.toISOString(),
      finished_at: r.finished_at?.toISOString() ?? null,
      schedule_id: r.schedule_id,
      changes: r.changes,
    })),
    next_cursor: page.next_cursor,
  };
}
