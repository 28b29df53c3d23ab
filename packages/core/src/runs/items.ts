/**
 * Claiming and recording run items. An item is recorded at most once: its update is guarded by
 * its status, in the same statement that counts it on the run and, when it was the run's last
 * item, finishes the run, writes the run's usage event and sends the NOTIFY that wakes a waiting
 * POST /v1/scrapers/run — one transaction, no aggregation loop anywhere. Items of one run claimed
 * or finished close together share one statement (coalesce.ts).
 */
import type { ExtractedRecord } from '../records/attributes.ts';
import type { OperationContext } from '../context.ts';
import { creditsFor } from '../usage.ts';
import { enqueueCallback } from '../callbacks/index.ts';
import type { Queryable } from '../store/db.ts';
import { coalesce } from './coalesce.ts';
import { SCHEDULE_FINISH_JOB } from '../schedules/store.ts';
import type { RunOptions } from './request.ts';
import { finishedBody, type RunRow } from './status.ts';
import { loadItems, runChannel } from './store.ts';
import { TrustLog } from '../trust/provenance.ts';

/**
 * Selected by the item statements: their transaction commits without waiting for the WAL flush
 * (~1.5 ms per commit on this kind of disk, twice per URL). Safe because pg-boss completes the job
 * afterwards in a synchronous commit, which flushes the WAL written before it: after a crash
 * either both are durable, or the job is still open and runs the URL again (recording is
 * idempotent). Only a statement that wrote something returns a row, so only those are affected.
 */
const ASYNC_COMMIT = `set_config('synchronous_commit', 'off', true) AS async_commit`;

export interface ClaimedItem {
  url: string;
  attempts: number;
  ownerId: string;
  scraperId: string;
  /** When the scraper row last changed (null: deleted): a cached copy older than this is stale. */
  scraperChangedAt: string | null;
  options: RunOptions;
  /** The run has a callback_url or a schedule: its finishing transaction enqueues their follow-up. */
  hasCallback: boolean;
}

/** What one URL gave. `credits` covers its pages and any regeneration it triggered (`healCredits`). */
export type ItemOutcome = {
  driver?: string | null;
  recipeVersion?: number | null;
  healed?: boolean;
  modelCalls?: number;
  credits?: number;
  healCredits?: number;
  /** The pages read, for the snapshot archive (not recorded on the item). */
  documents?: Array<{ url: string; driver: string; html: string; body?: Uint8Array; charset?: string }>;
  /** Said beside the records (e.g. a pagination fallback); kept on the item. */
  message?: string | null;
  /** Time this URL waited for its turn at the host, and the 429/503 answers it backed off from. */
  politeWaitMs?: number;
  backoffs?: number;
} & (
  | { status: 'completed'; records: ExtractedRecord[]; pages: number }
  | { status: 'failed'; error: string; code: string }
  // robots.txt disallows the URL: neither completed nor failed, and not charged.
  | { status: 'skipped'; error: string; code: string }
);

/** A run with `provenance: true` traces its records (a log per read: a heal's second read starts afresh). */
export function trustFor(item: ClaimedItem): TrustLog | undefined {
  return item.options.provenance ? new TrustLog('keep') : undefined;
}

/** A completed item's outcome: its pages are charged as recipe pages, plus any heal it paid for. */
export function completedOutcome(
  config: OperationContext['config'],
  r: { records: ExtractedRecord[]; driver: string; pages: number; message?: string },
  h: { version: number | null; healed: boolean; modelCalls: number; healCredits: number },
): ItemOutcome {
  return {
    status: 'completed',
    records: r.records,
    driver: r.driver,
    recipeVersion: h.version,
    healed: h.healed,
    pages: r.pages,
    credits: creditsFor(config, { recipePages: r.pages }) + h.healCredits,
    healCredits: h.healCredits,
    modelCalls: h.modelCalls,
    message: r.message ?? null,
  };
}

const CLAIM_SQL = `
  WITH item AS (
    UPDATE run_items SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now())
     WHERE run_id = $1 AND position = ANY($2::int[]) AND status IN ('queued', 'running')
     RETURNING run_id, position, url, attempts
  ), started AS (
    UPDATE runs SET status = 'running', started_at = now()
     WHERE id = $1 AND status = 'queued' AND EXISTS (SELECT 1 FROM item)
  )
  SELECT item.position, item.url, item.attempts, r.owner_id, r.scraper_id, s.updated_at::text AS changed_at, r.options,
         (r.callback_url IS NOT NULL OR r.schedule_id IS NOT NULL) AS has_callback, ${ASYNC_COMMIT}
    FROM item JOIN runs r ON r.id = item.run_id LEFT JOIN scrapers s ON s.id = r.scraper_id`;

/** Marks items (and their run) running; null for an item recorded already (a redelivered job) or gone. */
export async function claimItems(db: Queryable, runId: string, positions: number[]): Promise<Array<ClaimedItem | null>> {
  const { rows } = await db.query<{
    position: number;
    url: string;
    attempts: number;
    owner_id: string;
    scraper_id: string;
    changed_at: string | null;
    options: RunOptions;
    has_callback: boolean;
  }>(CLAIM_SQL, [runId, positions]);
  const byPosition = new Map(rows.map((r) => [r.position, r]));
  return positions.map((p) => {
    const r = byPosition.get(p);
    return r
      ? {
          url: r.url,
          attempts: r.attempts,
          ownerId: r.owner_id,
          scraperId: r.scraper_id,
          scraperChangedAt: r.changed_at,
          options: r.options,
          hasCallback: r.has_callback,
        }
      : null;
  });
}

// $1 the run, $2 the outcomes (JSON), $3 the NOTIFY channel. The usage event mirrors
// usage.ts recordUsage; a run's regenerations recorded their own ('scraper_heal'), so
// the run's event covers its pages alone.
const RECORD_SQL = `
  WITH input AS (
    SELECT * FROM json_to_recordset($2::json) AS x(position int, status text, records jsonb, error text, error_code text,
      driver text, recipe_version int, healed boolean, pages int, credits numeric, failed int, model_calls int, heal_credits numeric, message text,
      skipped int, polite_wait_ms int, backoffs int)
  ), item AS (
    UPDATE run_items i SET status = x.status, records = x.records, error = x.error, error_code = x.error_code, driver = x.driver,
           recipe_version = x.recipe_version, healed = x.healed, pages = x.pages, credits = x.credits, message = x.message, finished_at = now(),
           polite_wait_ms = x.polite_wait_ms
      FROM input x
     WHERE i.run_id = $1 AND i.position = x.position AND i.status IN ('queued', 'running')
     RETURNING i.position, x.pages, x.credits, x.failed, x.model_calls, x.heal_credits, i.reserved_credits, x.skipped, x.polite_wait_ms, x.backoffs
  ), counted AS (
    SELECT count(*)::int AS n, sum(failed)::int AS failed, sum(pages)::int AS pages, sum(credits) AS credits,
           sum(model_calls)::int AS model_calls, sum(heal_credits) AS heal_credits, sum(reserved_credits) AS reserved,
           sum(skipped)::int AS skipped, sum(polite_wait_ms)::bigint AS polite_wait_ms, sum(backoffs)::int AS backoffs
      FROM item HAVING count(*) > 0
  ), run AS (
    UPDATE runs r SET
      completed = r.completed + c.n,
      failed = r.failed + c.failed,
      pages = r.pages + c.pages,
      credits_charged = r.credits_charged + c.credits,
      model_calls = r.model_calls + c.model_calls,
      heal_credits = r.heal_credits + c.heal_credits,
      -- A recorded item's budget reservation (cost/budgets.ts) is now its charge.
      reserved_credits = greatest(0, r.reserved_credits - c.reserved),
      skipped = r.skipped + c.skipped,
      polite_wait_ms = r.polite_wait_ms + c.polite_wait_ms,
      backoffs = r.backoffs + c.backoffs,
      started_at = coalesce(r.started_at, now()),
      status = CASE
        WHEN r.completed + c.n < r.total THEN 'running'
        WHEN r.failed + c.failed = 0 THEN 'completed'
        WHEN r.failed + c.failed >= r.total - (r.skipped + c.skipped) THEN 'failed'
        ELSE 'completed_partial' END,
      finished_at = CASE WHEN r.completed + c.n >= r.total THEN now() END
      FROM counted c WHERE r.id = $1
    RETURNING r.id, r.owner_id, r.status, r.url_form, r.completed, r.total, r.failed, r.credits_charged, r.heal_credits, r.pages, r.model_calls, r.callback_url,
              r.schedule_id, r.skipped, r.polite_wait_ms, r.backoffs, r.options->'politeness' AS politeness
  ), usage AS (
    INSERT INTO usage_events (owner_id, operation, subject, pages, model_calls, input_tokens, output_tokens, credits)
    SELECT owner_id, 'scraper_run', 'run:' || id, pages, 0, 0, 0, credits_charged - heal_credits FROM run WHERE completed >= total
  ), notified AS (
    -- Delivered at commit: wakes POST /v1/scrapers/run waiting on this run, in any process.
    SELECT pg_notify($3, id) FROM run WHERE completed >= total
  )
  SELECT run.*, (SELECT array_agg(position) FROM item) AS recorded, (SELECT count(*) FROM notified) AS notified, ${ASYNC_COMMIT}
    FROM run`;

function row(position: number, o: ItemOutcome): Record<string, unknown> {
  const ok = o.status === 'completed';
  return {
    position,
    status: o.status,
    records: ok ? o.records : null,
    error: ok ? null : o.error,
    error_code: ok ? null : o.code,
    skipped: o.status === 'skipped' ? 1 : 0,
    polite_wait_ms: Math.round(o.politeWaitMs ?? 0),
    backoffs: o.backoffs ?? 0,
    driver: o.driver ?? null,
    recipe_version: o.recipeVersion ?? null,
    healed: o.healed ?? false,
    pages: ok ? o.pages : 0,
    credits: o.credits ?? 0,
    failed: o.status === 'failed' ? 1 : 0,
    model_calls: o.modelCalls ?? 0,
    heal_credits: o.healCredits ?? 0,
    message: o.message ?? null,
  };
}

export interface RecordInput {
  position: number;
  outcome: ItemOutcome;
  /** The run has a callback_url or a schedule: the finishing transaction also enqueues the callback (the schedule's follow-up). */
  hasCallback: boolean;
}

/**
 * Records items' outcomes once; for each, false when it had been recorded already (nothing changes
 * then). A run with a callback_url gets its callback enqueued in the transaction that finishes it.
 */
export async function recordItems(ctx: OperationContext, runId: string, inputs: RecordInput[]): Promise<boolean[]> {
  // The same item twice in one statement (two deliveries of its job at once): the first one counts.
  const seen = new Set<number>();
  const unique = inputs.filter((i) => !seen.has(i.position) && seen.add(i.position));
  const values = [runId, JSON.stringify(unique.map((i) => row(i.position, i.outcome))), runChannel(ctx.db.schema)];
  const record = async (db: Queryable) => (await db.query<RunRow & { recorded: number[] | null }>(RECORD_SQL, values)).rows[0] ?? null;
  let run: (RunRow & { recorded: number[] | null }) | null;
  if (!inputs.some((i) => i.hasCallback)) run = await record(ctx.db);
  else {
    run = await ctx.db.tx(async (tx) => {
      const r = await record(tx);
      if (r && r.completed >= r.total && r.callback_url) {
        const items = await loadItems(tx, r.id);
        await enqueueCallback(tx, ctx.jobs, { ownerId: r.owner_id, url: r.callback_url, subject: `run:${r.id}`, body: finishedBody(r, items) });
      }
      // A scheduled run's changes, health and notification are worked out by a job of their own.
      if (r && r.completed >= r.total && r.schedule_id) await ctx.jobs.send(SCHEDULE_FINISH_JOB, { runId: r.id }, { db: tx });
      return r;
    });
  }
  // Only the statement that recorded the last item returns a finished run: counted once.
  if (run && run.completed >= run.total) ctx.metrics?.runs.inc({ status: run.status });
  const recorded = new Set(run?.recorded ?? []);
  return inputs.map((i, k) => recorded.has(i.position) && unique.includes(inputs[k]));
}

/** Claims and records through per-run group commits (one statement for items close together). */
export function itemStatements(ctx: () => OperationContext) {
  return {
    claim: coalesce<number, ClaimedItem | null>((runId, positions) => claimItems(ctx().db, runId, positions)),
    record: coalesce<RecordInput, boolean>((runId, inputs) => recordItems(ctx(), runId, inputs)),
  };
}
