import pg from 'pg';
import { GleanerError } from '../errors.ts';
import type { Logger } from '../log.ts';

/** A query target: the pool, or one client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface Database extends Queryable {
  readonly pool: pg.Pool;
  /** Schema holding Gleaner's tables (first on every connection's search_path). */
  readonly schema: string;
  readonly url: string;
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (client: Queryable) => Promise<T>): Promise<T>;
  /** Cheap liveness probe: resolves when Postgres answers, throws DATABASE_UNAVAILABLE otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url: string;
  schema: string;
  poolMax?: number;
  connectTimeoutMs?: number;
  logger: Logger;
  applicationName?: string;
}

// SQLSTATE classes and errno codes that mean "the database is not there", as opposed to a bug.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: string; message?: string };
  if (e.code && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  const msg = e.message ?? '';
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(
    msg,
  );
}

/** Rethrows connection failures as DATABASE_UNAVAILABLE; other errors pass through unchanged. */
export function mapDbError(err: unknown): never {
  if (err instanceof GleanerError) throw err;
  if (isConnectionError(err)) {
    throw new GleanerError('DATABASE_UNAVAILABLE', `database unavailable: ${(err as Error).message}`, { cause: err });
  }
  throw err;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function createDatabase(opts: DatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolMax ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
    application_name: opts.applicationName ?? 'gleaner',
    options: `-c search_path=${quoteIdent(opts.schema)},public`,
  });
  // An idle client losing its connection (Postgres restarted) must not crash the process; the pool
  // replaces it on the next checkout.
  pool.on('error', (err) => opts.logger.warn({ err: err.message }, 'idle database connection lost'));

  const query: Database['query'] = async (text, values) => {
    try {
      return await pool.query(text, values as unknown[]);
    } catch (err) {
      mapDbError(err);
    }
  };

  return {
    pool,
    schema: opts.schema,
    url: opts.url,
    query,
    async tx(fn) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        mapDbError(err);
      }
      let broken = false;
      try {
        await client.query('BEGIN');
        const wrapped: Queryable = {
          query: async (text, values) => {
            try {
              return await client.query(text, values as unknown[]);
            } catch (err) {
              if (isConnectionError(err)) broken = true;
              throw err;
            }
          },
        };
        const result = await fn(wrapped);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        if (!broken) await client.query('ROLLBACK').catch(() => undefined);
        mapDbError(err);
      } finally {
        client.release(broken);
      }
    },
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new GleanerError('DATABASE_UNAVAILABLE', `database did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([query('SELECT 1'), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
