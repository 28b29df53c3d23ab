/**
 * Schedules (a Gleaner extension): create, list, read, change, delete, pause, resume and trigger.
 * Each active schedule is a pg-boss schedule of the `schedule.fire` job kind (key: the schedule's
 * id), so firings come from pg-boss's scheduler on the workers. Owner-scoped: another owner's id is
 * NOT_FOUND.
 */
import { randomUUID } from 'node:crypto';
import type { Owner } from '../auth/owners.ts';
import type { OperationContext } from '../context.ts';
import { GleanerError, validationFailed, type ValidationIssue } from '../errors.ts';
import { normalizeRunRequest, type RunRequest } from '../runs/request.ts';
import { createRun } from '../runs/store.ts';
import { checkRequest } from '../schemas/validate.ts';
import { SCHEDULE_BODY, SCHEDULE_PATCH_BODY, type SchedulePatchRequest, type ScheduleRequest } from '../schemas/schedule-requests.ts';
import type { Queryable } from '../store/db.ts';
import {
  listScheduleRows,
  loadSchedule,
  loadScheduleWithLastRun,
  SCHEDULE_FIRE_JOB,
  scheduleView,
  type Notify,
  type ScheduleRow,
  type ScheduleRunRequest,
  type ScheduleView,
} from './store.ts';

export interface ScheduleOperations {
  create(owner: Owner, body: ScheduleRequest): Promise<ScheduleView>;
  list(owner: Owner, query?: { limit?: number }): Promise<{ schedules: ScheduleView[] }>;
  get(owner: Owner, id: string): Promise<ScheduleView>;
  update(owner: Owner, id: string, body: SchedulePatchRequest): Promise<ScheduleView>;
  remove(owner: Owner, id: string): Promise<{ schedule_id: string; deleted: true }>;
  pause(owner: Owner, id: string): Promise<ScheduleView>;
  resume(owner: Owner, id: string): Promise<ScheduleView>;
  /** Fires now (also while paused): a run like a scheduled firing's. */
  trigger(owner: Owner, id: string): Promise<{ schedule_id: string; run_id: string; status: 'queued' }>;
}

interface Settings {
  cron: string;
  timezone: string;
  request: ScheduleRunRequest;
  callbackUrl: string | null;
  notify: Notify;
  keyAttributes: string[] | null;
  snapshots: boolean;
  name: string | null;
}

/** The time zone, or an issue: Intl knows every IANA zone the scheduler evaluates. */
function checkTimezone(tz: string, issues: ValidationIssue[]): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    issues.push({
      loc: ['body', 'timezone'],
      msg: `Unknown time zone ${JSON.stringify(tz)}: give an IANA name such as "Europe/Paris" or "UTC"`,
      type: 'value_error',
    });
  }
}

/** The expression, as pg-boss's scheduler reads it; at most one firing a minute. */
function checkCron(ctx: OperationContext, cron: string, tz: string, issues: ValidationIssue[]): void {
  const trimmed = cron.trim();
  if (!/^(RRULE:|DTSTART|FREQ=)/i.test(trimmed) && trimmed.split(/\s+/).length !== 5) {
    issues.push({
      loc: ['body', 'cron'],
      msg: 'A cron expression has five fields (minute hour day-of-month month day-of-week), e.g. "0 * * * *"; schedules fire at most once a minute',
      type: 'value_error',
    });
    return;
  }
  try {
    ctx.jobs.preview(trimmed, tz, 1);
  } catch (err) {
    issues.push({ loc: ['body', 'cron'], msg: `Invalid schedule expression: ${(err as Error).message}`, type: 'value_error' });
  }
}

function nextRun(ctx: OperationContext, s: ScheduleRow): Date | null {
  if (s.status !== 'active') return null;
  try {
    return ctx.jobs.preview(s.cron, s.timezone, 1)[0] ?? null;
  } catch {
    return null;
  }
}

/** The run request a firing makes (no callback: the schedule notifies after its own rules). */
/** A schedule's settings as the columns name, cron, timezone, request, callback_url, notify, key_attributes, snapshots. */
function settingColumns(settings: Settings): unknown[] {
  return [
    settings.name,
    settings.cron,
    settings.timezone,
    JSON.stringify(settings.request),
    settings.callbackUrl,
    settings.notify,
    settings.keyAttributes ? JSON.stringify(settings.keyAttributes) : null,
    settings.snapshots,
  ];
}

export function firingRequest(ownerScraper: string, r: ScheduleRunRequest, snapshots: boolean) {
  return { template_id: ownerScraper, url: r.url, parameters: r.parameters, max_pages: r.max_pages, source: 'schedule', snapshots };
}

/**
 * Checks the settings against the scraper with the run rules (404 unknown scraper, 422 / 400 for
 * URLs and parameters); a scraper still being built is accepted, its firings wait for it.
 */
async function checkSettings(ctx: OperationContext, owner: Owner, scraperId: string, s: Settings): Promise<void> {
  const issues: ValidationIssue[] = [];
  checkTimezone(s.timezone, issues);
  if (!issues.length) checkCron(ctx, s.cron, s.timezone, issues);
  let req: RunRequest | null = null;
  try {
    req = await normalizeRunRequest(ctx, owner, { ...firingRequest(scraperId, s.request, s.snapshots), callback_url: s.callbackUrl } as any);
  } catch (err) {
    if (!(err instanceof GleanerError)) throw err;
    if (err.code === 'VALIDATION_FAILED') issues.push(...((err.details as ValidationIssue[]) ?? []));
    else if (err.code !== 'SCRAPER_NOT_READY') throw err;
  }
  // A schedule's request is stored as given: a secret parameter's value is kept only with the scraper (encrypted).
  if (req?.options.secrets)
    issues.push({
      loc: ['body', 'parameters'],
      msg: "a schedule cannot hold a secret parameter's value: give it with the scraper's build (secrets on POST /v1/agent/generate), where it is stored encrypted",
      type: 'value_error',
    });
  const attributes = req?.scraper.attributes.map((a) => a.name) ?? [];
  if (attributes.length) {
    s.keyAttributes?.forEach((k, i) => {
      if (!attributes.includes(k)) {
        issues.push({
          loc: ['body', 'key_attributes', i],
          msg: `${JSON.stringify(k)} is not a field of this scraper (${attributes.join(', ')})`,
          type: 'value_error',
        });
      }
    });
  }
  if (issues.length) throw validationFailed(issues);
}

async function scheduleFirings(ctx: OperationContext, db: Queryable, s: Pick<ScheduleRow, 'id' | 'cron' | 'timezone'>): Promise<void> {
  await ctx.jobs.schedule(SCHEDULE_FIRE_JOB, s.id, s.cron.trim(), s.timezone, { scheduleId: s.id }, { db });
}

export function scheduleOperations(ctx: OperationContext): ScheduleOperations {
  const view = (s: ScheduleRow) => scheduleView(s, nextRun(ctx, s));
  async function found(owner: Owner, id: string): Promise<ScheduleRow> {
    const s = await loadSchedule(ctx.db, owner.id, id);
    if (!s) throw new GleanerError('NOT_FOUND', `Schedule ${id} not found`);
    return s;
  }
  async function fullView(owner: Owner, id: string): Promise<ScheduleView> {
    const s = await loadScheduleWithLastRun(ctx.db, owner.id, id);
    if (!s) throw new GleanerError('NOT_FOUND', `Schedule ${id} not found`);
    return scheduleView(s, nextRun(ctx, s));
  }

  /** Changes the row's status (and the pg-boss schedule with it) under its row lock. */
  async function setStatus(owner: Owner, id: string, to: 'active' | 'paused'): Promise<ScheduleView> {
    await ctx.db.tx(async (tx) => {
      const s = await loadSchedule(tx, owner.id, id, { forUpdate: true });
      if (!s) throw new GleanerError('NOT_FOUND', `Schedule ${id} not found`);
      if (s.status === 'stopped')
        throw new GleanerError('CONFLICT', `Schedule ${id} is stopped (${s.status_reason ?? 'its scraper is gone'}); create a new schedule`);
      if (s.status === to) return;
      await tx.query(`UPDATE schedules SET status = $2, status_reason = NULL, updated_at = now() WHERE id = $1`, [id, to]);
      if (to === 'active') await scheduleFirings(ctx, tx, s);
      else await ctx.jobs.unschedule(SCHEDULE_FIRE_JOB, id, { db: tx });
    });
    ctx.logger.info({ scheduleId: id, status: to }, 'schedule status changed');
    return fullView(owner, id);
  }

  return {
    async create(owner, input) {
      const body = checkRequest<ScheduleRequest>(SCHEDULE_BODY, input);
      const scraperId = body.template_id?.trim();
      if (!scraperId) throw validationFailed([{ loc: ['body', 'template_id'], msg: 'Field required: the scraper each firing runs', type: 'missing' }]);
      const settings: Settings = {
        cron: body.cron.trim(),
        timezone: body.timezone?.trim() || 'UTC',
        request: { url: body.url ?? null, parameters: (body.parameters as Record<string, unknown>) ?? null, max_pages: body.max_pages ?? null },
        callbackUrl: body.callback_url?.trim() || null,
        notify: body.notify ?? 'changes',
        keyAttributes: body.key_attributes ? [...body.key_attributes] : null,
        snapshots: body.snapshots ?? true,
        name: body.name ?? null,
      };
      await checkSettings(ctx, owner, scraperId, settings);
      const id = randomUUID();
      await ctx.db.tx(async (tx) => {
        await tx.query(
          `INSERT INTO schedules (id, owner_id, scraper_id, name, cron, timezone, request, callback_url, notify, key_attributes, snapshots, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'active')`,
          [id, owner.id, scraperId, ...settingColumns(settings)],
        );
        await scheduleFirings(ctx, tx, { id, cron: settings.cron, timezone: settings.timezone });
      });
      ctx.logger.info({ scheduleId: id, scraperId, cron: settings.cron, timezone: settings.timezone }, 'schedule created');
      return fullView(owner, id);
    },

    async list(owner, query = {}) {
      const rows = await listScheduleRows(ctx.db, owner.id, Math.min(200, query.limit ?? 100));
      return { schedules: rows.map(view) };
    },

    get: (owner, id) => fullView(owner, id),

    async update(owner, id, input) {
      const body = checkRequest<SchedulePatchRequest>(SCHEDULE_PATCH_BODY, input);
      const s = await found(owner, id);
      const has = (k: keyof SchedulePatchRequest) => Object.prototype.hasOwnProperty.call(body, k);
      const settings: Settings = {
        cron: has('cron') && body.cron ? body.cron.trim() : s.cron,
        timezone: has('timezone') ? body.timezone?.trim() || 'UTC' : s.timezone,
        request: {
          url: has('url') ? (body.url ?? null) : s.request.url,
          parameters: has('parameters') ? ((body.parameters as Record<string, unknown>) ?? null) : s.request.parameters,
          max_pages: has('max_pages') ? (body.max_pages ?? null) : s.request.max_pages,
        },
        callbackUrl: has('callback_url') ? body.callback_url?.trim() || null : s.callback_url,
        notify: has('notify') ? (body.notify ?? 'changes') : s.notify,
        keyAttributes: has('key_attributes') ? (body.key_attributes ? [...body.key_attributes] : null) : s.key_attributes,
        snapshots: has('snapshots') ? (body.snapshots ?? true) : s.snapshots,
        name: has('name') ? (body.name ?? null) : s.name,
      };
      await checkSettings(ctx, owner, s.scraper_id, settings);
      await ctx.db.tx(async (tx) => {
        const now = await loadSchedule(tx, owner.id, id, { forUpdate: true });
        if (!now) throw new GleanerError('NOT_FOUND', `Schedule ${id} not found`);
        await tx.query(
          `UPDATE schedules SET name = $2, cron = $3, timezone = $4, request = $5, callback_url = $6, notify = $7, key_attributes = $8, snapshots = $9,
                  updated_at = now() WHERE id = $1`,
          [id, ...settingColumns(settings)],
        );
        if (now.status === 'active') await scheduleFirings(ctx, tx, { id, cron: settings.cron, timezone: settings.timezone });
      });
      return fullView(owner, id);
    },

    async remove(owner, id) {
      const deleted = await ctx.db.tx(async (tx) => {
        const { rowCount } = await tx.query('DELETE FROM schedules WHERE id = $1 AND owner_id = $2', [id, owner.id]);
        if (rowCount) await ctx.jobs.unschedule(SCHEDULE_FIRE_JOB, id, { db: tx });
        return Boolean(rowCount);
      });
      if (!deleted) throw new GleanerError('NOT_FOUND', `Schedule ${id} not found`);
      ctx.logger.info({ scheduleId: id }, 'schedule deleted');
      return { schedule_id: id, deleted: true };
    },

    pause: (owner, id) => setStatus(owner, id, 'paused'),
    resume: (owner, id) => setStatus(owner, id, 'active'),

    async trigger(owner, id) {
      const s = await found(owner, id);
      if (s.status === 'stopped') throw new GleanerError('CONFLICT', `Schedule ${id} is stopped (${s.status_reason ?? 'its scraper is gone'})`);
      const runId = await fire(ctx, s, `manual:${randomUUID()}`);
      if (!runId) throw new GleanerError('CONFLICT', `Schedule ${id} stopped: ${(await found(owner, id)).status_reason}`);
      return { schedule_id: id, run_id: runId, status: 'queued' };
    },
  };
}

/**
 * One firing: the schedule's run, created once per firing id (a redelivered firing finds its run).
 * A schedule whose scraper is gone is stopped (status 'stopped' with the reason) and fires no more;
 * returns null then. A scraper still being built fails the firing with SCRAPER_NOT_READY.
 */
export async function fire(ctx: OperationContext, s: ScheduleRow, firingId: string): Promise<string | null> {
  const owner: Owner = { id: s.owner_id, name: '' };
  let req: RunRequest;
  try {
    req = await normalizeRunRequest(ctx, owner, firingRequest(s.scraper_id, s.request, s.snapshots) as any);
  } catch (err) {
    if (err instanceof GleanerError && err.code === 'NOT_FOUND') {
      await stopSchedules(ctx, ctx.db, { scheduleId: s.id }, `its scraper ${s.scraper_id} was deleted`);
      return null;
    }
    throw err;
  }
  return createRun(ctx, s.owner_id, req, { scheduleId: s.id, firingId });
}

/** Stops schedules (one, or every schedule of a scraper) with the reason; their firings end. */
export async function stopSchedules(ctx: OperationContext, db: Queryable, which: { scheduleId?: string; scraperId?: string }, reason: string): Promise<void> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE schedules SET status = 'stopped', status_reason = $3, updated_at = now()
      WHERE status <> 'stopped' AND (id = $1 OR scraper_id = $2) RETURNING id`,
    [which.scheduleId ?? null, which.scraperId ?? null, reason],
  );
  for (const r of rows) {
    await ctx.jobs.unschedule(SCHEDULE_FIRE_JOB, r.id, { db });
    ctx.logger.warn({ scheduleId: r.id, reason }, 'schedule stopped');
  }
}
