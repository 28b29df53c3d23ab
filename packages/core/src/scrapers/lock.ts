/**
 * One regeneration per scraper at a time, across processes: a Postgres session-level advisory lock
 * held on a dedicated connection. Not a transaction lock, because a regeneration waits on model
 * calls for minutes and no transaction may stay open that long; a session lock still goes away by
 * itself when its process dies (the connection closes). Waiters poll with pg_try_advisory_lock and
 * hold no connection between tries, so they cannot starve the pool the holder needs.
 */
import { sleep } from '../llm/retry.ts';
import type pg from 'pg';
import { GleanerError } from '../errors.ts';
import { mapDbError, type Database } from '../store/db.ts';

const KEY = `hashtext('gleaner.scraper-build'), hashtext($1)`;

export interface LockOptions {
  signal?: AbortSignal;
  /** Give up (CONFLICT) after waiting this long; default 15 minutes. */
  maxWaitMs?: number;
  pollMs?: number;
}

async function tryLock(db: Database, key: string): Promise<pg.PoolClient | null> {
  let client: pg.PoolClient;
  try {
    client = await db.pool.connect();
  } catch (err) {
    mapDbError(err);
  }
  try {
    const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${KEY}) AS ok`, [key]);
    if (rows[0].ok) return client;
    client.release();
    return null;
  } catch (err) {
    client.release(true);
    mapDbError(err);
  }
}

/** Runs `fn` holding the scraper's build lock; waits (polling) while another process holds it. */
export async function withScraperLock<T>(db: Database, scraperId: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  // Advisory locks are per database: the schema keeps two installs (or test schemas) apart.
  const key = `${db.schema}:${scraperId}`;
  const deadline = Date.now() + (opts.maxWaitMs ?? 15 * 60_000);
  let client: pg.PoolClient | null;
  while (!(client = await tryLock(db, key))) {
    if (Date.now() > deadline)
      throw new GleanerError('CONFLICT', `another regeneration of scraper ${scraperId} is still running; try again later`, { retryable: true });
    await sleep(opts.pollMs ?? 200, opts.signal);
  }
  try {
    return await fn();
  } finally {
    // A failed unlock destroys the connection, which releases the lock with it.
    await client.query(`SELECT pg_advisory_unlock(${KEY})`, [key]).then(
      () => client.release(),
      () => client.release(true),
    );
  }
}
