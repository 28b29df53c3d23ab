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

/**
 * Creates the run, one item per URL and one `run.item` job per item, in one transaction (the
 * caller's, when given: a crawl assigns its URLs to the run in the same one).
 */
export async function createRun(ctx: OperationContext, ownerId: string, req: RunRequest, inTx?: Queryable): Promise<string> {
  const id = randomUUID();
  const proxy = proxyRoute(req.options.proxyCountry, ctx.config);
  const write = async (tx: Queryable) => {
    await tx.query(
      `INSERT INTO runs (id, owner_id, scraper_id, status, url_form, total, options, callback_url)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7)`,
      [id, ownerId, req.scraper.id, req.urlForm, req.urls.length, JSON.stringify(req.options), req.callbackUrl],
    );
    await tx.query(
      `INSERT INTO run_items (run_id, position, url, status, proxy)
       SELECT $1, t.n - 1, t.url, 'queued', $3 FROM unnest($2::text[]) WITH ORDINALITY AS t(url, n)`,
      [id, req.urls, proxy],
    );
    await ctx.jobs.sendMany(
      RUN_ITEM_JOB,
      req.urls.map((_, position) => ({ runId: id, position })),
      { db: tx },
    );
  };
  await (inTx ? write(inTx) : ctx.db.tx(write));
  ctx.logger.info({ runId: id, items: req.urls.length, proxy }, 'run created');
  return id;
}

export async function loadRun(db: Queryable, ownerId: string, runId: string): Promise<RunRow | null> {
  const { rows } = await db.query<RunRow>(
    `SELECT id, owner_id, status, url_form, completed, total, failed, credits_charged, heal_credits, pages, model_calls, callback_url,
            skipped, polite_wait_ms, backoffs, options->'politeness' AS politeness
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
