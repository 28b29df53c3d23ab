/**
 * Asynchronous extraction (POST /v1/extractor/extract_async): a task row and its pg-boss job are
 * created in one transaction; the handler is idempotent (a redelivered job finds the task finished
 * and stops); the row is finished, usage recorded and the callback enqueued in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { GleanerError, validationFailed, type ValidationIssue } from '../errors.ts';
import type { Owner } from '../auth/owners.ts';
import type { ExtractedRecord } from '../records/attributes.ts';
import { defineJob } from '../jobs/job-kind.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { checkHttpUrl, normalizeExtractOptions } from '../schemas/normalize.ts';
import { runExtraction } from '../extract/pipeline.ts';
import { checkProfile, profileField } from '../profiles/index.ts';
import { extractSignedIn } from '../profiles/refresh.ts';
import { recordUsage } from '../usage.ts';
import { enqueueCallback } from '../callbacks/index.ts';
import type { Queryable } from '../store/db.ts';
import { createSsrfGuard, refuseBlockedUrls } from '../net/ssrf.ts';
import { proxyRoute } from '../net/proxies.ts';
import { withProvenance, type GroundingWarning } from '../trust/provenance.ts';
import { getOwnerSettings } from '../cost/settings.ts';
import { checkBudgets } from '../cost/budgets.ts';
import { estimateExtraction, type DryRunBody } from '../cost/estimate.ts';
import { extractionGuard } from '../cost/guard.ts';
import { archiveSourcePages, archiveStore, keepsSnapshots, type ArchivedPage } from '../snapshots/archive.ts';
import type { TaskStatus } from '../schemas/statuses.ts';

export const EXTRACT_TASK_JOB = 'extract.task';

export interface TaskStatusBody {
  task_id: string;
  status: TaskStatus;
  /** Once completed: the records. */
  data?: ExtractedRecord[];
  message?: string;
  error?: string;
  /** Grounding policy flag or drop: the values the pages do not support (as in the /v1/extract body). */
  warnings?: GroundingWarning[];
}

interface TaskRow {
  id: string;
  owner_id: string;
  status: TaskStatusBody['status'];
  request: Record<string, any>;
  data: ExtractedRecord[] | null;
  message: string | null;
  error: string | null;
  callback_url: string | null;
  warnings?: GroundingWarning[] | null;
}

export function statusBody(row: Pick<TaskRow, 'id' | 'status' | 'data' | 'message' | 'error' | 'warnings'>): TaskStatusBody {
  const body: TaskStatusBody = { task_id: row.id, status: row.status };
  if (row.status === 'completed') body.data = row.data ?? [];
  if (row.message) body.message = row.message;
  if (row.status === 'completed' && row.warnings) body.warnings = row.warnings;
  if (row.status === 'failed') body.error = row.error ?? 'the task failed';
  return body;
}

/** A callback_url, when given, must be an absolute http(s) URL (the SSRF guard checks it at delivery). */
export function checkCallbackUrl(value: unknown, issues: ValidationIssue[]): string | null {
  if (value === null || value === undefined || value === '') return null;
  return checkHttpUrl(value, ['body', 'callback_url'], issues);
}

export async function submitExtractTask(ctx: OperationContext, owner: Owner, body: Record<string, any>): Promise<TaskStatusBody | DryRunBody> {
  const issues: ValidationIssue[] = [];
  const url = checkHttpUrl(body.url, ['body', 'url'], issues);
  const options = normalizeExtractOptions(body, ctx.config, url, issues);
  const callbackUrl = checkCallbackUrl(body.callback_url, issues);
  const profile = profileField(body.profile, ['body', 'profile'], issues);
  if (issues.length) throw validationFailed(issues);
  await checkProfile(ctx, owner.id, profile);
  const proxy = proxyRoute(options.proxyCountry, ctx.config);
  // Refused now rather than after a queue wait: a blocked URL, or no model to read the page.
  await refuseBlockedUrls(ctx.config.network.allowNetworks, [url!]);
  requireModel(ctx);
  // A literal private address fails now rather than a day of retries later; names are checked at
  // every delivery, when they are resolved.
  if (callbackUrl) createSsrfGuard({ allowNetworks: ctx.config.network.allowNetworks }).checkUrl(callbackUrl);
  if (body.dry_run === true) {
    const estimate = await estimateExtraction(ctx, { url: url! }, options);
    return { dry_run: true, estimate, message: 'Dry run: nothing was queued or charged.' };
  }
  // A budget already used up refuses now; the task checks its pages against the budgets as it reads them.
  await checkBudgets(ctx, owner.id, options, { credits: 0, tokens: 0 }, `an extraction of ${url}`);
  const id = randomUUID();
  // Whether the task keeps its pages is decided now (its flag, else the owner's default then).
  const snapshots = await keepsSnapshots(ctx.db, owner.id, body.snapshots, 'tasks');
  await ctx.db.tx(async (tx) => {
    await tx.query(`INSERT INTO tasks (id, owner_id, kind, status, request, callback_url, proxy) VALUES ($1, $2, 'extract', 'pending', $3, $4, $5)`, [
      id,
      owner.id,
      { ...body, url, snapshots },
      callbackUrl,
      proxy,
    ]);
    await ctx.jobs.send(EXTRACT_TASK_JOB, { taskId: id }, { db: tx });
  });
  ctx.logger.info({ owner: owner.name, taskId: id, proxy }, 'extract task submitted');
  return { task_id: id, status: 'pending' };
}

export async function getTask(ctx: OperationContext, owner: Owner, id: string, kind: string): Promise<TaskStatusBody> {
  const { rows } = await ctx.db.query<TaskRow>('SELECT id, status, data, message, error, warnings FROM tasks WHERE id = $1 AND owner_id = $2 AND kind = $3', [
    id,
    owner.id,
    kind,
  ]);
  if (!rows[0]) throw new GleanerError('NOT_FOUND', `task ${id} not found`);
  return statusBody(rows[0]);
}

async function finish(ctx: OperationContext, tx: Queryable, row: TaskRow, update: string, values: unknown[]): Promise<void> {
  const { rows } = await tx.query<TaskRow>(
    `UPDATE tasks SET ${update}, finished_at = now() WHERE id = $1 AND status IN ('pending', 'running') RETURNING id, status, data, message, error, warnings`,
    [row.id, ...values],
  );
  if (!rows[0] || !row.callback_url) return;
  await enqueueCallback(tx, ctx.jobs, { ownerId: row.owner_id, url: row.callback_url, subject: `task:${row.id}`, body: statusBody(rows[0]) });
}

export function extractTaskJob(ctx: () => OperationContext) {
  return defineJob<{ taskId: string }>({
    name: EXTRACT_TASK_JOB,
    payloadSchema: { type: 'object', required: ['taskId'], properties: { taskId: { type: 'string' } } },
    policy: { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 900 },
    handler: async ({ taskId }, job) => {
      const c = ctx();
      const { rows } = await c.db.query<TaskRow>('SELECT * FROM tasks WHERE id = $1', [taskId]);
      const row = rows[0];
      if (!row || !['pending', 'running'].includes(row.status)) return; // finished already: redelivery
      await c.db.query(`UPDATE tasks SET status = 'running', started_at = coalesce(started_at, now()) WHERE id = $1 AND status IN ('pending', 'running')`, [
        taskId,
      ]);
      const issues: ValidationIssue[] = [];
      const options = normalizeExtractOptions(row.request, c.config, row.request.url, issues);
      if (issues.length) throw validationFailed(issues);
      const settings = await getOwnerSettings(c.db, row.owner_id);
      options.grounding ??= settings.grounding_policy ?? 'keep';
      const guard = await extractionGuard(c, row.owner_id, options, settings);
      const read: ArchivedPage[] = [];
      const keep = row.request.snapshots === true ? (page: ArchivedPage) => read.push(page) : undefined;
      const result = await extractSignedIn(
        c,
        row.owner_id,
        row.request.profile,
        row.request.url,
        options,
        (o) => ((read.length = 0), runExtraction(c, { url: row.request.url }, o, job.signal, keep, guard)), // a profile refresh reads again
        job.signal,
      );
      if (keep) await archiveSourcePages(archiveStore(c), row.owner_id, 'extract_async', taskId, read);
      const unsupported = result.trust.unsupported(result.records);
      await c.db.tx(async (tx) => {
        await finish(c, tx, row, `status = 'completed', data = $2, message = $3, driver = $4, credits_charged = $5, warnings = $6`, [
          JSON.stringify(options.provenance ? withProvenance(result.records, result.trust) : result.records),
          result.message ?? null,
          result.driver,
          result.credits,
          result.trust.policy === 'keep' ? null : JSON.stringify(result.trust.warnings(result.records)),
        ]);
        await recordUsage(tx, {
          ownerId: row.owner_id,
          operation: 'extract_async',
          subject: `task:${taskId}`,
          pages: result.pages.length,
          usage: result.usage,
          credits: result.credits,
          unsupported,
        });
      });
      job.logger.info({ taskId, records: result.records.length, pages: result.pages.length }, 'extract task completed');
    },
    onFailure: async ({ taskId }, error) => {
      const c = ctx();
      const { rows } = await c.db.query<TaskRow>('SELECT * FROM tasks WHERE id = $1', [taskId]);
      if (!rows[0]) return;
      await c.db.tx((tx) => finish(c, tx, rows[0], `status = 'failed', error = $2, error_code = $3`, [error.message, error.code]));
    },
  });
}
