/**
 * The runs and run_items tables. A run, its items and their jobs are created in one transaction;
 * an item is recorded at most once (its update is guarded by its status), and the statement that
 * records it also counts it on the run and finishes the run when it was the last one — so the
 * run's usage, its callback and the NOTIFY that wakes a synchronous caller are written in that
 * same transaction, with no aggregation loop anywhere.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { OperationContext } from '../extract/context.ts';
import type { ExtractedRecord } from '../extract/attributes.ts';
import { enqueueCallback } from '../callbacks/index.ts';
import type { Queryable } from '../store/db.ts';
import type { RunOptions, RunRequest } from './request.ts';
import { finishedBody, type RunRow, type RunItemRow } from './status.ts';

export const RUN_ITEM_JOB = 'run.item';

/** The NOTIFY channel of finished runs in this schema (names stay under Postgres' 63 bytes). */
export function runChannel(schema: string): string {
  return `gleaner_runs_${createHash('sha1').update(schema).digest('hex').slice(0, 16)}`;
}

/** Creates the run, one item per URL and one `run.item` job per item, in one transaction. */
export async function createRun(ctx: OperationContext, ownerId: string, req: RunRequest): Promise<string> {
  const id = randomUUID();
  await ctx.db.tx(async (tx) => {
    await tx.query(
      `INSERT INTO runs (id, owner_id, scraper_id, status, url_form, total, options, callback_url)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7)`,
      [id, ownerId, req.scraper.id, req.urlForm, req.urls.length, JSON.stringify(req.options), req.callbackUrl],
    );
    await tx.query(
      `INSERT INTO run_items (run_id, position, url, status)
       SELECT $1, t.n - 1, t.url, 'queued' FROM unnest($2::text[]) WITH ORDINALITY AS t(url, n)`,
      [id, req.urls],
    );
    await ctx.jobs.sendMany(RUN_ITEM_JOB, req.urls.map((_, position) => ({ runId: id, position })), { db: tx });
  });
  return id;
}

export interface ClaimedItem {
  url: string;
  attempts: number;
  ownerId: string;
  scraperId: string;
  /** When the scraper row last changed (null: deleted): a cached copy older than this is stale. */
  scraperChangedAt: string | null;
  options: RunOptions;
  hasCallback: boolean;
}

/**
 * Marks an item (and its run) running and returns what the handler needs; null when the item was
 * recorded already (a redelivered job) or is gone.
 */
export async function claimItem(db: Queryable, runId: string, position: number): Promise<ClaimedItem | null> {
  const { rows } = await db.query<{ url: string; attempts: number; owner_id: string; scraper_id: string; changed_at: string | null; options: RunOptions; has_callback: boolean }>(
    `WITH item AS (
       UPDATE run_items SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now())
        WHERE run_id = $1 AND position = $2 AND status IN ('queued', 'running')
        RETURNING run_id, url, attempts
     ), started AS (
       UPDATE runs SET status = 'running', started_at = now()
        WHERE id = $1 AND status = 'queued' AND EXISTS (SELECT 1 FROM item)
     )
     SELECT item.url, item.attempts, r.owner_id, r.scraper_id, s.updated_at::text AS changed_at, r.options, r.callback_url IS NOT NULL AS has_callback
       FROM item JOIN runs r ON r.id = item.run_id LEFT JOIN scrapers s ON s.id = r.scraper_id`,
    [runId, position],
  );
  const r = rows[0];
  return r
    ? { url: r.url, attempts: r.attempts, ownerId: r.owner_id, scraperId: r.scraper_id, scraperChangedAt: r.changed_at, options: r.options, hasCallback: r.has_callback }
    : null;
}

/** What one URL gave. `credits` covers its pages and any regeneration it triggered (`healCredits`). */
export type ItemOutcome = {
  driver?: string | null;
  recipeVersion?: number | null;
  healed?: boolean;
  modelCalls?: number;
  credits?: number;
  healCredits?: number;
} & (
  | { status: 'completed'; records: ExtractedRecord[]; pages: number }
  | { status: 'failed'; error: string; code: string }
);

/**
 * Records an item's outcome once: returns false when it had been recorded already (nothing changes
 * then). One statement updates the item, counts it on the run and, when it was the run's last item,
 * finishes the run, writes the run's usage event and sends the NOTIFY — so all of that is one
 * transaction. A run with a callback_url also enqueues the callback in that transaction.
 */
export async function recordItem(ctx: OperationContext, runId: string, position: number, outcome: ItemOutcome, opts: { hasCallback?: boolean } = {}): Promise<boolean> {
  const ok = outcome.status === 'completed';
  const values = [
    runId, position, outcome.status,
    ok ? JSON.stringify(outcome.records) : null,
    ok ? null : outcome.error, ok ? null : outcome.code,
    outcome.driver ?? null, outcome.recipeVersion ?? null, outcome.healed ?? false,
    ok ? outcome.pages : 0, outcome.credits ?? 0,
    ok ? 0 : 1, outcome.modelCalls ?? 0, outcome.healCredits ?? 0,
    runChannel(ctx.db.schema),
  ];
  const record = async (db: Queryable): Promise<RunRow | null> => (await db.query<RunRow>(RECORD_ITEM_SQL, values)).rows[0] ?? null;
  if (!opts.hasCallback) return (await record(ctx.db)) !== null;
  return ctx.db.tx(async (tx) => {
    const run = await record(tx);
    if (!run) return false;
    if (run.completed >= run.total) {
      const items = await loadItems(tx, run.id);
      await enqueueCallback(tx, ctx.jobs, { ownerId: run.owner_id, url: run.callback_url!, subject: `run:${run.id}`, body: finishedBody(run, items) });
    }
    return true;
  });
}

// $1 run, $2 position, $3-$11 the item's outcome, $12 1 when it failed, $13 model calls, $14 heal
// credits, $15 the NOTIFY channel. The usage event mirrors extract/credits.ts recordUsage; a run's
// regenerations recorded their own ('scraper_heal'), so the run's event covers its pages alone.
const RECORD_ITEM_SQL = `
  WITH item AS (
    UPDATE run_items SET status = $3, records = $4, error = $5, error_code = $6, driver = $7, recipe_version = $8,
           healed = $9, pages = $10, credits = $11, finished_at = now()
     WHERE run_id = $1 AND position = $2 AND status IN ('queued', 'running')
     RETURNING run_id
  ), run AS (
    UPDATE runs r SET
      completed = r.completed + 1,
      failed = r.failed + $12::int,
      pages = r.pages + $10::int,
      credits_charged = r.credits_charged + $11::numeric,
      model_calls = r.model_calls + $13::int,
      heal_credits = r.heal_credits + $14::numeric,
      started_at = coalesce(r.started_at, now()),
      status = CASE
        WHEN r.completed + 1 < r.total THEN 'running'
        WHEN r.failed + $12::int = 0 THEN 'completed'
        WHEN r.failed + $12::int >= r.total THEN 'failed'
        ELSE 'completed_partial' END,
      finished_at = CASE WHEN r.completed + 1 >= r.total THEN now() END
    FROM item WHERE r.id = item.run_id
    RETURNING r.id, r.owner_id, r.status, r.url_form, r.completed, r.total, r.failed, r.credits_charged, r.heal_credits, r.pages, r.model_calls, r.callback_url
  ), usage AS (
    INSERT INTO usage_events (owner_id, operation, subject, pages, model_calls, input_tokens, output_tokens, credits)
    SELECT owner_id, 'scraper_run', 'run:' || id, pages, 0, 0, 0, credits_charged - heal_credits FROM run WHERE completed >= total
  ), notified AS (
    -- Delivered at commit: wakes POST /v1/scrapers/run waiting on this run, in any process.
    SELECT pg_notify($15, id) FROM run WHERE completed >= total
  )
  SELECT run.*, (SELECT count(*) FROM notified) AS notified FROM run`;

export async function loadRun(db: Queryable, ownerId: string, runId: string): Promise<RunRow | null> {
  const { rows } = await db.query<RunRow>(
    `SELECT id, owner_id, status, url_form, completed, total, failed, credits_charged, heal_credits, pages, model_calls, callback_url
       FROM runs WHERE id = $1 AND owner_id = $2`,
    [runId, ownerId],
  );
  return rows[0] ?? null;
}

export async function loadItems(db: Queryable, runId: string): Promise<RunItemRow[]> {
  const { rows } = await db.query<RunItemRow>('SELECT url, status, records, error FROM run_items WHERE run_id = $1 ORDER BY position', [runId]);
  return rows;
}

/** Which of these runs are finished (one query, for the synchronous wait's backstop poll). */
export async function finishedAmong(db: Queryable, runIds: string[]): Promise<Set<string>> {
  if (!runIds.length) return new Set();
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM runs WHERE id = ANY($1::text[]) AND finished_at IS NOT NULL`, [runIds]);
  return new Set(rows.map((r) => r.id));
}
