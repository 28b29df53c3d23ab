/**
 * Per-owner admission limits (limits.requestsPerMinute, limits.queuedJobs), kept in Postgres so that
 * every API process on the same database enforces one budget, not one each. Exceeding either is
 * RATE_LIMITED (429) with the seconds to wait in `details.retryAfterSeconds`. Both are generous or
 * off by default: a queue exists to accept a backlog. How much of it runs at once, and in what turn
 * between owners, is decided by the workers (limits.concurrentJobs, runs/fair-share.ts).
 */
import { GleanerError } from '../errors.ts';
import type { Owner } from '../auth/owners.ts';
import type { Queryable } from '../store/db.ts';
import type { Logger } from '../log.ts';

const WINDOW_SECONDS = 60;
/** A full queue frees slowly; clients should not poll faster than this. */
const JOB_RETRY_SECONDS = 10;

export interface LimitsConfig {
  limits: { requestsPerMinute: number; queuedJobs: number };
}

export interface Limits {
  /** Counts one request of `owner`; throws RATE_LIMITED past limits.requestsPerMinute (0: off). */
  countRequest(owner: Owner): Promise<void>;
  /** Throws RATE_LIMITED when `owner` has limits.queuedJobs unfinished jobs (0: off). */
  checkJobs(owner: Owner): Promise<void>;
}

export function rateLimited(message: string, retryAfterSeconds: number): GleanerError {
  return new GleanerError('RATE_LIMITED', message, { details: { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) } });
}

export function createLimits(db: Queryable, config: LimitsConfig, logger: Logger): Limits {
  let lastSweep = 0;
  return {
    async countRequest(owner) {
      const limit = config.limits.requestsPerMinute;
      if (!limit) return;
      // The database clock decides the window, so processes on skewed hosts agree.
      const { rows } = await db.query<{ count: number; remaining: number }>(
        `INSERT INTO request_windows AS w (owner_id, window_start, count)
         VALUES ($1, to_timestamp(floor(extract(epoch FROM clock_timestamp()) / $2) * $2), 1)
         ON CONFLICT (owner_id, window_start) DO UPDATE SET count = w.count + 1
         RETURNING w.count, extract(epoch FROM w.window_start + make_interval(secs => $2) - clock_timestamp())::float8 AS remaining`,
        [owner.id, WINDOW_SECONDS],
      );
      if (Date.now() - lastSweep > WINDOW_SECONDS * 1000) {
        lastSweep = Date.now();
        void db.query(`DELETE FROM request_windows WHERE window_start < clock_timestamp() - make_interval(secs => $1)`, [2 * WINDOW_SECONDS]).catch(() => {});
      }
      const { count, remaining } = rows[0];
      if (count <= limit) return;
      if (count === limit + 1) logger.warn({ owner: owner.name, limit }, 'request rate limit reached');
      throw rateLimited(
        `rate limit reached: at most ${limit} requests per minute per owner (limits.requestsPerMinute); retry after ${Math.ceil(remaining)} s`,
        remaining,
      );
    },
    async checkJobs(owner) {
      const limit = config.limits.queuedJobs;
      if (!limit) return;
      const { rows } = await db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM tasks WHERE owner_id = $1 AND status IN ('pending', 'running'))
              + (SELECT count(*) FROM runs WHERE owner_id = $1 AND status IN ('queued', 'running'))
              + (SELECT count(*) FROM scrapers WHERE owner_id = $1 AND status = 'generating') AS n`,
        [owner.id],
      );
      const active = Number(rows[0].n);
      if (active < limit) return;
      logger.warn({ owner: owner.name, active, limit }, 'queued job limit reached');
      throw rateLimited(
        `too many jobs queued: ${active} of your tasks, runs and scraper builds are unfinished, the limit is ${limit} (limits.queuedJobs, GLEANER_MAX_QUEUED_JOBS); retry when some have finished`,
        JOB_RETRY_SECONDS,
      );
    },
  };
}
