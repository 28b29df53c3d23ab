/**
 * Which pace applies to a run, map or crawl (server defaults < owner setting < the request's own
 * `politeness` field), and the polite fetch every page of those goes through: robots.txt first,
 * then a turn at the host (PolitenessGate), then the fetch; a 429/503 backs the host off and the
 * page waits its turn again instead of failing, up to politeness.maxRetries times.
 */
import { GleanerError } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import type { PageSnapshot } from '../plugins/driver.ts';
import { parseRetryAfter, type PolitenessGate } from './gate.ts';
import { robotsVerdict, type RobotsCache } from './robots.ts';

/** What the engine gives operations: one gate and one robots cache per process. */
export interface Politeness {
  gate: PolitenessGate;
  robots: RobotsCache;
}

/** The pace and robots.txt rule in force, stored on a run or crawl when it is created. */
export interface PolitenessPolicy {
  concurrency: number;
  delayMs: number;
  robots: 'respect' | 'ignore';
}

/** The request's `politeness` field (a Gleaner extension). */
export interface PolitenessRequest {
  concurrency?: number | null;
  delay_ms?: number | null;
}

export const POLITENESS_REQUEST_SCHEMA = {
  type: ['object', 'null'],
  description:
    "Gleaner extension: this request's pace per host, across every worker: concurrency (requests at once, 1-64) and delay_ms (between request starts). Default: the owner's setting, else politeness.concurrency and politeness.delayMs. A robots.txt Crawl-delay that is longer wins.",
  properties: {
    concurrency: { type: ['integer', 'null'], minimum: 1, maximum: 64 },
    delay_ms: { type: ['integer', 'null'], minimum: 0, maximum: 600000 },
  },
} as const;

export interface OwnerPoliteness {
  respectRobots: boolean | null;
  concurrency: number | null;
  delayMs: number | null;
}

export async function loadOwnerPoliteness(db: Queryable, ownerId: string): Promise<OwnerPoliteness | null> {
  const { rows } = await db.query<{ respect_robots: boolean | null; concurrency: number | null; delay_ms: number | null }>(
    'SELECT respect_robots, concurrency, delay_ms FROM owner_politeness WHERE owner_id = $1',
    [ownerId],
  );
  const r = rows[0];
  return r ? { respectRobots: r.respect_robots, concurrency: r.concurrency, delayMs: r.delay_ms } : null;
}

/** Sets (null: back to the server's default) an owner's settings; `gleaner politeness set`. */
export async function setOwnerPoliteness(db: Queryable, ownerId: string, s: Partial<OwnerPoliteness>): Promise<OwnerPoliteness> {
  const { rows } = await db.query<{ respect_robots: boolean | null; concurrency: number | null; delay_ms: number | null }>(
    `INSERT INTO owner_politeness (owner_id, respect_robots, concurrency, delay_ms) VALUES ($1, $2, $3, $4)
     ON CONFLICT (owner_id) DO UPDATE SET
       respect_robots = CASE WHEN $5 THEN EXCLUDED.respect_robots ELSE owner_politeness.respect_robots END,
       concurrency = CASE WHEN $6 THEN EXCLUDED.concurrency ELSE owner_politeness.concurrency END,
       delay_ms = CASE WHEN $7 THEN EXCLUDED.delay_ms ELSE owner_politeness.delay_ms END,
       updated_at = now()
     RETURNING respect_robots, concurrency, delay_ms`,
    [ownerId, s.respectRobots ?? null, s.concurrency ?? null, s.delayMs ?? null, 'respectRobots' in s, 'concurrency' in s, 'delayMs' in s],
  );
  return { respectRobots: rows[0].respect_robots, concurrency: rows[0].concurrency, delayMs: rows[0].delay_ms };
}

/** The policy for a new run, map or crawl of this owner. */
export async function resolvePolicy(ctx: OperationContext, ownerId: string, req?: PolitenessRequest | null): Promise<PolitenessPolicy> {
  const owner = await loadOwnerPoliteness(ctx.db, ownerId);
  const p = ctx.config.politeness;
  return {
    concurrency: req?.concurrency ?? owner?.concurrency ?? p.concurrency,
    delayMs: req?.delay_ms ?? owner?.delayMs ?? p.delayMs,
    robots: (owner?.respectRobots ?? ctx.config.robots.respect) ? 'respect' : 'ignore',
  };
}

/** The server's defaults: for runs created before politeness was recorded on them. */
export function defaultPolicy(ctx: OperationContext): PolitenessPolicy {
  return { concurrency: ctx.config.politeness.concurrency, delayMs: ctx.config.politeness.delayMs, robots: ctx.config.robots.respect ? 'respect' : 'ignore' };
}

/** One operation's politeness: its policy, and what it cost (reported on the run item, map or crawl). */
export interface PoliteScope {
  policy: PolitenessPolicy;
  /** Time spent waiting for a turn at a host, and 429/503 answers backed off from. */
  stats: { waitedMs: number; backoffs: number };
}

export function politeScope(policy: PolitenessPolicy): PoliteScope {
  return { policy, stats: { waitedMs: 0, backoffs: 0 } };
}

/** ROBOTS_DISALLOWED when the scope respects robots.txt and it disallows `url`; else the host's Crawl-delay. */
export async function checkRobots(ctx: OperationContext, scope: PoliteScope, url: string, signal?: AbortSignal): Promise<number | null> {
  if (scope.policy.robots !== 'respect' || !ctx.politeness) return null;
  // robots.txt takes a turn at the host like a page (without the crawl delay it may set).
  const rules = await ctx.politeness.robots.rules(url, signal, { concurrency: scope.policy.concurrency, delayMs: scope.policy.delayMs });
  const v = robotsVerdict(rules, url);
  if (!v.allowed) {
    throw new GleanerError('ROBOTS_DISALLOWED', `${url} is disallowed by the site's robots.txt (${v.rule})`, { details: { rule: v.rule } });
  }
  return rules.crawlDelayMs;
}

/** Fetches one URL politely (see the module comment); `fetch` is the driver's navigation (or a raw GET). */
export async function fetchPolitely<T extends Pick<PageSnapshot, 'status' | 'headers'>>(
  ctx: OperationContext,
  scope: PoliteScope,
  url: string,
  fetch: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const crawlDelay = await checkRobots(ctx, scope, url, signal);
  if (!ctx.politeness) return fetch();
  const host = new URL(url).host;
  const limits = { concurrency: scope.policy.concurrency, delayMs: Math.max(scope.policy.delayMs, crawlDelay ?? 0) };
  const p = ctx.config.politeness;
  for (let attempt = 0; ; attempt++) {
    const lease = await ctx.politeness.gate.acquire(host, limits, signal);
    scope.stats.waitedMs += lease.waitedMs;
    let page: T;
    try {
      page = await fetch();
    } catch (err) {
      await lease.release({ kind: 'none' });
      throw err;
    }
    if (page.status !== 429 && page.status !== 503) {
      await lease.release({ kind: page.status < 400 ? 'ok' : 'none' });
      return page;
    }
    const retryAfter = parseRetryAfter(page.headers['retry-after']);
    const waitMs = Math.min(retryAfter ?? p.backoffBaseMs * 2 ** Math.min(attempt, 6), p.maxRetryAfterSeconds * 1000);
    await lease.release({ kind: 'backoff', waitMs });
    scope.stats.backoffs++;
    ctx.logger.info({ host, url, status: page.status, retryAfter: page.headers['retry-after'] ?? null, waitMs, attempt }, 'host asked us to slow down');
    if (attempt >= p.maxRetries) return page; // the caller reports the status
  }
}
