/**
 * Run operations (spec 4.3 items 2-4): POST /v1/scrapers/run (waits, then 202), POST
 * /v1/scrapers/run_async (202 at once) and GET /v1/scrapers/run_async/{run_id}.
 */
import type { Owner } from '../auth/owners.ts';
import { GleanerError } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import { normalizeRunRequest } from './request.ts';
import { checkRequest } from '../schemas/validate.ts';
import { RUN_BODY, type RunScraperRequest } from '../schemas/run-requests.ts';
import { finishedBody, isFinished, progressBody, resultBody, type RunResultBody, type RunStatusBody } from './status.ts';
import { createRun, finishedAmong, loadItems, loadRun, runChannel } from './store.ts';
import { RunWaiter } from './waiter.ts';
import { loadChanges } from './changes.ts';
import { estimateRun, type DryRunBody } from '../cost/estimate.ts';
import { checkBudgets } from '../cost/budgets.ts';
import { creditsFor } from '../usage.ts';

/**
 * What a synchronous run came to: finished (completed, partly or failed: the result body), or still
 * running when the wait ended ({run_id, status: 'running'}, to poll with `get`).
 */
/** A synchronous run's answer: finished (its records, or with dry_run the estimate), or still running. */
export type RunOutcome = { finished: true; body: RunResultBody | DryRunBody } | { finished: false; body: { run_id: string; status: 'running' } };

export interface RunOperations {
  /** POST /v1/scrapers/run: waits up to opts.waitSeconds (default config runs.waitSeconds) for the run to finish. */
  run(owner: Owner, body: RunScraperRequest, opts?: { waitSeconds?: number; signal?: AbortSignal }): Promise<RunOutcome>;
  /** POST /v1/scrapers/run_async: 202 {run_id, status: 'queued'}; with dry_run, the estimate (nothing queued). */
  submit(owner: Owner, body: RunScraperRequest): Promise<{ run_id: string; status: 'queued' } | DryRunBody>;
  /**
   * GET /v1/scrapers/run_async/{run_id}. A scheduled run also carries `schedule_id` and, once
   * compared, `changes` (its records' states with `changes: true`) — Gleaner extensions.
   */
  get(owner: Owner, runId: string, opts?: { changes?: boolean }): Promise<RunStatusBody>;
}

export function runOperations(ctx: OperationContext): RunOperations {
  let waiter: RunWaiter | null = null;
  const waiterFor = () =>
    (waiter ??= new RunWaiter({
      url: ctx.db.url,
      channel: runChannel(ctx.db.schema),
      logger: ctx.logger,
      finished: (ids) => finishedAmong(ctx.db, ids),
    }));

  async function submit(owner: Owner, body: RunScraperRequest, sync = false): Promise<{ run_id: string; status: 'queued' } | DryRunBody> {
    // The body is checked as the HTTP API checks it (same 422 issues), then against its scraper.
    const req = await normalizeRunRequest(ctx, owner, checkRequest<RunScraperRequest>(RUN_BODY, body), { sync });
    if (body.dry_run === true) {
      const estimate = await estimateRun(ctx, req.scraper.id, req.urls.length, req.options.maxPages);
      return { dry_run: true, estimate, message: 'Dry run: nothing was queued or charged.' };
    }
    // A run starts when its first URL fits the budgets; its items stop at them (cost/budgets.ts).
    await checkBudgets(ctx, owner.id, { maxCredits: req.options.maxCredits }, { credits: creditsFor(ctx.config, { recipePages: 1 }), tokens: 0 }, 'this run');
    const runId = await createRun(ctx, owner.id, req);
    ctx.logger.info({ runId, scraperId: req.scraper.id, urls: req.urls.length }, 'run queued');
    return { run_id: runId, status: 'queued' };
  }

  return {
    submit: (owner, body) => submit(owner, body),
    async run(owner, body, opts = {}) {
      const submitted = await submit(owner, body, true);
      if ('dry_run' in submitted) return { finished: true, body: submitted };
      const runId = submitted.run_id;
      const waitMs = Math.max(0, opts.waitSeconds ?? ctx.config.runs.waitSeconds) * 1000;
      await waiterFor().wait(runId, waitMs, opts.signal);
      const run = await loadRun(ctx.db, owner.id, runId);
      if (!run || !isFinished(run.status)) return { finished: false, body: { run_id: runId, status: 'running' } };
      return { finished: true, body: resultBody(run, await loadItems(ctx.db, runId)) };
    },
    async get(owner, runId, opts = {}) {
      const run = await loadRun(ctx.db, owner.id, runId);
      if (!run) throw new GleanerError('NOT_FOUND', `Run ${runId} not found`);
      const body = isFinished(run.status) ? finishedBody(run, await loadItems(ctx.db, runId)) : progressBody(run);
      if (!run.schedule_id) return body;
      return { ...body, schedule_id: run.schedule_id, changes: await loadChanges(ctx.db, runId, opts.changes ?? false) };
    },
  };
}
