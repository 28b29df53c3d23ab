/** The schedules table: rows, their API view, and the reads the operations and jobs share. */
import type { Queryable } from '../store/db.ts';
import type { ChangeCounts } from './changes.ts';
import type { RunStatus, ScheduleHealth, ScheduleStatus } from '../schemas/statuses.ts';

export const SCHEDULE_FIRE_JOB = 'schedule.fire';
export const SCHEDULE_FINISH_JOB = 'schedule.finish';

export type { ScheduleStatus };
export type Notify = 'always' | 'changes' | 'failures';

/** What each firing runs (POST /v1/scrapers/run_async's fields). */
export interface ScheduleRunRequest {
  url: string | string[] | null;
  parameters: Record<string, unknown> | null;
  max_pages: number | null;
}

export interface ScheduleRow {
  id: string;
  owner_id: string;
  scraper_id: string;
  name: string | null;
  cron: string;
  timezone: string;
  request: ScheduleRunRequest;
  callback_url: string | null;
  notify: Notify;
  key_attributes: string[] | null;
  snapshots: boolean;
  status: ScheduleStatus;
  status_reason: string | null;
  health: ScheduleHealth;
  health_reason: string | null;
  health_changed_at: Date | null;
  consecutive_failures: number;
  last_records: number | null;
  created_at: Date;
  updated_at: Date;
}

interface LastRun {
  last_run_id: string | null;
  last_run_status: RunStatus | null;
  last_run_at: Date | null;
  last_changes: ChangeCounts | null;
}

const LAST_RUN = `
  LEFT JOIN LATERAL (
    SELECT r.id AS last_run_id, r.status AS last_run_status, r.created_at AS last_run_at, c.summary->'counts' AS last_changes
      FROM runs r LEFT JOIN run_changes c ON c.run_id = r.id
     WHERE r.schedule_id = s.id AND r.owner_id = s.owner_id ORDER BY r.created_at DESC LIMIT 1
  ) l ON true`;

export async function loadSchedule(db: Queryable, ownerId: string, id: string, opts: { forUpdate?: boolean } = {}): Promise<ScheduleRow | null> {
  const { rows } = await db.query<ScheduleRow>(`SELECT * FROM schedules WHERE id = $1 AND owner_id = $2${opts.forUpdate ? ' FOR UPDATE' : ''}`, [id, ownerId]);
  return rows[0] ?? null;
}

export async function loadScheduleById(db: Queryable, id: string, opts: { forUpdate?: boolean } = {}): Promise<ScheduleRow | null> {
  const { rows } = await db.query<ScheduleRow>(`SELECT * FROM schedules WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] ?? null;
}

export async function listScheduleRows(db: Queryable, ownerId: string, limit: number): Promise<Array<ScheduleRow & LastRun>> {
  const { rows } = await db.query<ScheduleRow & LastRun>(
    `SELECT s.*, l.* FROM schedules s ${LAST_RUN} WHERE s.owner_id = $1 ORDER BY s.created_at DESC, s.id DESC LIMIT $2`,
    [ownerId, limit],
  );
  return rows;
}

export async function loadScheduleWithLastRun(db: Queryable, ownerId: string, id: string): Promise<(ScheduleRow & LastRun) | null> {
  const { rows } = await db.query<ScheduleRow & LastRun>(`SELECT s.*, l.* FROM schedules s ${LAST_RUN} WHERE s.id = $1 AND s.owner_id = $2`, [id, ownerId]);
  return rows[0] ?? null;
}

/** The schedule as the API shows it; `nextRunAt` is computed by the caller (null unless active). */
export function scheduleView(s: ScheduleRow & Partial<LastRun>, nextRunAt: Date | null) {
  return {
    schedule_id: s.id,
    name: s.name,
    template_id: s.scraper_id,
    cron: s.cron,
    timezone: s.timezone,
    url: s.request.url,
    parameters: s.request.parameters,
    max_pages: s.request.max_pages,
    callback_url: s.callback_url,
    notify: s.notify,
    key_attributes: s.key_attributes,
    snapshots: s.snapshots,
    status: s.status,
    status_reason: s.status_reason,
    health: s.health,
    health_reason: s.health_reason,
    health_changed_at: s.health_changed_at?.toISOString() ?? null,
    consecutive_failures: s.consecutive_failures,
    next_run_at: nextRunAt?.toISOString() ?? null,
    last_run: s.last_run_id
      ? { run_id: s.last_run_id, status: s.last_run_status!, created_at: s.last_run_at!.toISOString(), changes: s.last_changes ?? null }
      : null,
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

export type ScheduleView = ReturnType<typeof scheduleView>;
