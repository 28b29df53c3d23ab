import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { mapDbError, quoteIdent } from './db.ts';
import type { Logger } from '../log.ts';

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/** The engine's migrations: store/migrations/NNN_name.sql, applied in order, forward only. */
export function loadMigrations(dir: URL = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_[\w-]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const [id, ...rest] = file.replace(/\.sql$/, '').split('_');
      return { id: Number(id), name: rest.join('_'), sql: readFileSync(new URL(file, dir), 'utf8') };
    });
}

// One advisory lock key for all Gleaner migrations in a database: two processes starting at once
// serialise here, and the second finds nothing left to apply.
const LOCK_KEY = 0x61e4_0001;

/**
 * Applies pending migrations to `schema` (created if missing). Idempotent and safe when several
 * processes run it at once. Each migration runs in its own transaction with its bookkeeping row.
 */
export async function migrate(opts: { url: string; schema: string; logger: Logger; migrations?: Migration[] }): Promise<string[]> {
  const migrations = opts.migrations ?? loadMigrations();
  const client = new pg.Client({ connectionString: opts.url, application_name: 'gleaner-migrate' });
  const applied: string[] = [];
  try {
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    const schema = quoteIdent(opts.schema);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`SET search_path TO ${schema}, public`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await client.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id));
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${m.id}_${m.name} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(`${m.id}_${m.name}`);
      opts.logger.info({ migration: `${m.id}_${m.name}`, schema: opts.schema }, 'migration applied');
    }
    return applied;
  } catch (err) {
    mapDbError(err);
  } finally {
    await client.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
