/**
 * The runs and run_items tables: creating a run (its items and their jobs in one transaction) and
 * reading it. Items are claimed and recorded in items.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { OperationContext } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import type { RunRequest } from './request.ts';
import { proxyRoute } from '../net/proxies.ts';
import type { RunRow, RunItemRow } from './status.ts';

export const RUN_ITEM_JOB = 'run.item';

/** The NOTIFY channel of finished runs in this schema (names stay under Postgres' 63 bytes). */
export function runChannel(schema: string): string {
  return `gleaner_runs_${createHash('sha1').update(schema).digest('hex').slice(0, 16)}`;
}

/** A run started by a schedule: the schedule, and its firing (one run per firing, however often it is delivered). */
export interface RunOrigin {
  scheduleId: string;
  firingId: string;
}

/**
 * Owners take turns on the workers: a run's i-th URL waits behind the URLs its owner already has
 * waiting (`backlog`), so its job's priority is -(backlog + i) and workers fetch the highest first.
 * A run submitted behind another owner's 10,000-URL backlog starts with the next free worker slot,
 * while one owner alone still gets every worker (nothing is reserved). Each job also carries its
 * owner as pg-boss group, which limits.concurrentJobs caps across all workers.
 */
async function ownerBacklog(tx: Queryable, ownerId: string): Promise<number> {
  const { rows } = await tx.query<{ n: string }>(
    `SELECT coalesce(sum(total - completed), 0) AS n FROM runs WHERE owner_id = $1 AND status IN ('queued', 'running')`,
    [ownerId],
  );
  return Number(rows[0].n);
}

/** pg-boss priorities are Postgres integers: a backlog past this still takes its turn, among the last. */
const LOWEST_PRIORITY = -2_000_000_000;

/**
 * Creates the run, one item per URL and one `run.item` job per item, in one transaction (the
 * caller's, when given: a crawl assigns its URLs to the run in the same one). With an origin whose
 * firing has a run already, creates nothing and returns that run's id.
 */
export async function createRun(ctx: OperationContext, ownerId: string, req: RunRequest, origin?: RunOrigin, inTx?: Queryable): Promise<string> {
  let id: string = randomUUID();
  const proxy = proxyRoute(req.options.proxyCountry, ctx.config);
  const write = async (tx: Queryable): Promise<boolean> => {
    const backlog = await ownerBacklog(tx, ownerId);
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO runs (id, owner_id, scraper_id, status, url_form, total, options, callback_url, schedule_id, firing_id)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8, $9)
       ON CONFLICT (firing_id) WHERE firing_id IS NOT NULL DO NOTHING RETURNING id`,
      [
        id,
        ownerId,
        req.scraper.id,
        req.urlForm,
        req.urls.length,
        JSON.stringify(req.options),
        req.callbackUrl,
        origin?.scheduleId ?? null,
        origin?.firingId ?? null,
      ],
    );
    if (!rows[0]) {
      id = (await tx.query<{ id: string }>('SELECT id FROM runs WHERE firing_id = $1', [origin!.firingId])).rows[0].id;
      return false;
    }
    await tx.query(
      `INSERT INTO run_items (run_id, position, url, status, proxy)
       SELECT $1, t.n - 1, t.url, 'queued', $3 FROM unnest($2::text[]) WITH ORDINALITY AS t(url, n)`,
      [id, req.urls, proxy],
    );
    await ctx.jobs.sendMany(
      RUN_ITEM_JOB,
      req.urls.map((_, position) => ({ runId: id, position })),
      { db: tx, group: ownerId, priority: (i) => Math.max(LOWEST_PRIORITY, -(backlog + i)) },
    );
    return true;
  };
  const created = await (inTx ? write(inTx) : ctx.db.tx(write));
  if (created) ctx.logger.info({ runId: id, items: req.urls.length, proxy, scheduleId: origin?.scheduleId }, 'run created');
  return id;
}

export async function loadRun(db: Queryable, ownerId: string, runId: string): Promise<RunRow | null> {
  const { rows } = await db.query<RunRow>(
    `SELECT id, owner_id, status, url_form, completed, total, failed, credits_charged, heal_credits, pages, model_calls, callback_url, schedule_id,
            skipped, polite_wait_ms, backoffs, options->'politeness' AS politeness
       FROM runs WHERE id = $1 AND owner_id = $2`,
    [runId, ownerId],
  );
  return rows[0] ?? null;
}

export async function loadItems(db: Queryable, runId: string): Promise<RunItemRow[]> {
  const { rows } = await db.query<RunItemRow>('SELECT url, status, records, error, message FROM run_items WHERE run_id = $1 ORDER BY position', [runId]);
  return rows;
}

/** Which of these runs are finished (one query, for the synchronous wait's backstop poll). */
export async function finishedAmong(db: Queryable, runIds: string[]): Promise<Set<string>> {
  if (!runIds.length) return new Set();
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM runs WHERE id = ANY($1::text[]) AND finished_at IS NOT NULL`, [runIds]);
  return new Set(rows.map((r) => r.id));
}
