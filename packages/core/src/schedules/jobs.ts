/**
 * The schedules' job kinds. `schedule.fire` is what pg-boss's scheduler sends at each occurrence:
 * it starts the run (once per firing: the job's id is the firing's). `schedule.finish` follows a
 * scheduled run's end: its changes against the schedule's earlier runs, the schedule's health, and
 * the notification its `notify` asks for — all in one transaction, once per run.
 */
import type { OperationContext } from '../context.ts';
import { enqueueCallback } from '../callbacks/index.ts';
import { defineJob } from '../jobs/job-kind.ts';
import type { ExtractedRecord } from '../records/attributes.ts';
import { finishedBody, type RunRow } from '../runs/status.ts';
import { loadItems } from '../runs/store.ts';
import type { Queryable } from '../store/db.ts';
import { compareRuns, hasChanges, reportedChanges, type ChangeCounts, type RecordChange } from './changes.ts';
import { fire } from './operations.ts';
import { loadScheduleById, SCHEDULE_FINISH_JOB, SCHEDULE_FIRE_JOB, type ScheduleRow } from './store.ts';

export function scheduleFireJob(ctx: () => OperationContext) {
  return defineJob<{ scheduleId: string }>({
    name: SCHEDULE_FIRE_JOB,
    payloadSchema: {
      type: 'object',
      required: ['scheduleId'],
      properties: { scheduleId: { type: 'string', minLength: 1 } },
    },
    policy: { retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 120 },
    handler: async ({ scheduleId }, job) => {
      const c = ctx();
      const s = await loadScheduleById(c.db, scheduleId);
      // Deleted, paused or stopped since the occurrence was sent: nothing to run.
      if (!s || s.status !== 'active') return void job.logger.info({ scheduleId, status: s?.status ?? 'deleted' }, 'schedule firing skipped');
      const runId = await fire(c, s, job.jobId);
      job.logger.info({ scheduleId, runId }, 'schedule fired');
    },
  });
}

export interface ChangesSummary {
  baseline_run_id: string | null;
  counts: ChangeCounts;
}

interface FinishedRun extends RunRow {
  schedule_id: string;
  created_at: Date;
}

/** Every URL's records in the last earlier run of the schedule where that URL succeeded. */
async function baselines(db: Queryable, run: FinishedRun, urls: string[]): Promise<Map<string, ExtractedRecord[]>> {
  const { rows } = await db.query<{ url: string; records: ExtractedRecord[] | null }>(
    `SELECT DISTINCT ON (i.url) i.url, i.records
       FROM runs r JOIN run_items i ON i.run_id = r.id
      WHERE r.schedule_id = $1 AND r.id <> $2 AND r.created_at < $3 AND r.finished_at IS NOT NULL AND i.status = 'completed' AND i.url = ANY($4::text[])
      ORDER BY i.url, r.created_at DESC`,
    [run.schedule_id, run.id, run.created_at, urls],
  );
  return new Map(rows.map((r) => [r.url, r.records ?? []]));
}

/** Records of a run that count for health: what its completed URLs returned. */
const recordCount = (items: Array<{ status: string; records: ExtractedRecord[] | null }>) =>
  items.reduce((n, i) => n + (i.status === 'completed' ? (i.records?.length ?? 0) : 0), 0);

/** The schedule's health after this run: degraded with a reason, or ok. */
function judgeHealth(c: OperationContext, s: ScheduleRow, run: FinishedRun, records: number, drift: string | null) {
  const failures = run.status === 'failed' ? s.consecutive_failures + 1 : 0;
  let reason: string | null = null;
  if (failures >= c.config.schedules.failuresBeforeDegraded) reason = `${failures} runs in a row failed`;
  else if (drift) reason = `layout drift: ${drift}`;
  else if (run.status !== 'failed' && records === 0 && (s.last_records ?? 0) > 0)
    reason = `the last run returned 0 records where earlier runs returned ${s.last_records}`;
  // A run that failed without reaching the threshold leaves the health as it was.
  const health = reason ? 'degraded' : run.status === 'failed' ? s.health : 'ok';
  return { failures, health, reason: reason ?? (health === 'degraded' ? s.health_reason : null) };
}

export function scheduleFinishJob(ctx: () => OperationContext) {
  return defineJob<{ runId: string }>({
    name: SCHEDULE_FINISH_JOB,
    payloadSchema: { type: 'object', required: ['runId'], properties: { runId: { type: 'string', minLength: 1 } } },
    policy: { retryLimit: 5, retryDelaySeconds: 2, expireInSeconds: 300 },
    handler: async ({ runId }, job) => {
      const c = ctx();
      await c.db.tx(async (tx) => {
        const { rows } = await tx.query<FinishedRun>(
          `SELECT id, owner_id, status, url_form, completed, total, failed, credits_charged, heal_credits, pages, model_calls, callback_url, schedule_id, created_at
             FROM runs WHERE id = $1 AND finished_at IS NOT NULL AND schedule_id IS NOT NULL`,
          [runId],
        );
        const run = rows[0];
        if (!run) return;
        // The schedule's row lock orders the runs of one schedule finishing together.
        const s = await loadScheduleById(tx, run.schedule_id, { forUpdate: true });
        const done = await tx.query('SELECT 1 FROM run_changes WHERE run_id = $1', [runId]);
        if (done.rowCount) return; // a redelivered job
        const items = await tx.query<{ url: string; status: string; records: ExtractedRecord[] | null; error: string | null; error_code: string | null }>(
          'SELECT url, status, records, error, error_code FROM run_items WHERE run_id = $1 ORDER BY position',
          [runId],
        );
        const before = await baselines(
          tx,
          run,
          items.rows.map((i) => i.url),
        );
        const { rows: prev } = await tx.query<{ id: string }>(
          `SELECT id FROM runs WHERE schedule_id = $1 AND id <> $2 AND created_at < $3 AND finished_at IS NOT NULL ORDER BY created_at DESC LIMIT 1`,
          [run.schedule_id, run.id, run.created_at],
        );
        const compared = compareRuns(
          items.rows.map((i) => ({ url: i.url, current: i.status === 'completed' ? (i.records ?? []) : null, previous: before.get(i.url) ?? null })),
          s?.key_attributes ?? null,
        );
        const summary: ChangesSummary = { baseline_run_id: prev[0]?.id ?? null, counts: compared.counts };
        await tx.query('INSERT INTO run_changes (run_id, schedule_id, baseline_run_id, summary, records) VALUES ($1, $2, $3, $4, $5)', [
          runId,
          run.schedule_id,
          summary.baseline_run_id,
          JSON.stringify(summary),
          JSON.stringify(reportedChanges(compared.records)),
        ]);
        job.logger.info({ runId, scheduleId: run.schedule_id, ...compared.counts }, 'scheduled run compared');
        if (!s) return; // the schedule was deleted meanwhile: its runs keep their changes
        const records = recordCount(items.rows);
        const drift = items.rows.find((i) => i.error_code === 'LAYOUT_CHANGED')?.error ?? null;
        const health = judgeHealth(c, s, run, records, drift);
        const turned = health.health !== s.health;
        await tx.query(
          `UPDATE schedules SET consecutive_failures = $2, health = $3, health_reason = $4,
                  health_changed_at = CASE WHEN $5 THEN now() ELSE health_changed_at END,
                  last_records = CASE WHEN $6 > 0 THEN $6 ELSE last_records END
            WHERE id = $1`,
          [s.id, health.failures, health.health, health.reason, turned, records],
        );
        if (!s.callback_url) return;
        const notify =
          s.notify === 'always' ||
          (s.notify === 'changes' && hasChanges(compared.counts)) ||
          (s.notify === 'failures' && (run.status === 'failed' || run.status === 'completed_partial'));
        if (notify) {
          const body = {
            event: 'run.finished',
            schedule_id: s.id,
            ...finishedBody(run, await loadItems(tx, runId)),
            changes: { ...summary, records: reportedChanges(compared.records) },
          };
          await enqueueCallback(tx, c.jobs, { ownerId: run.owner_id, url: s.callback_url, subject: `run:${runId}`, body });
        }
        // Health is reported when it turns (once), whatever `notify` says.
        if (turned) {
          const event = health.health === 'degraded' ? 'schedule.degraded' : 'schedule.recovered';
          const body = { event, schedule_id: s.id, health: health.health, health_reason: health.reason, run_id: runId };
          await enqueueCallback(tx, c.jobs, { ownerId: run.owner_id, url: s.callback_url, subject: `schedule:${s.id}`, body });
          job.logger.warn({ scheduleId: s.id, health: health.health, reason: health.reason }, 'schedule health changed');
        }
      });
    },
  });
}
