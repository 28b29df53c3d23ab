// Per-test Postgres isolation: each test gets its own schemas (engine tables + pg-boss) in the
// local server's `test` database, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig, type ConfigOptions, type GleanerConfig } from '@gleaner/core';

export const TEST_DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface TestSchemas {
  config: Readonly<GleanerConfig>;
  schema: string;
  jobsSchema: string;
  drop(): Promise<void>;
}

/** Config for a test: the test database, fresh schema names, quiet logs, fast job timings. */
export function testSchemas(options: ConfigOptions = {}, url = TEST_DATABASE_URL): TestSchemas {
  const id = randomBytes(5).toString('hex');
  const schema = `t_${id}`;
  const jobsSchema = `t_${id}_jobs`;
  const config = loadConfig({
    env: {},
    options: {
      ...options,
      database: { url, schema, poolMax: 5, ...options.database },
      jobs: { schema: jobsSchema, pollingSeconds: 0.5, superviseSeconds: 1, shutdownGraceSeconds: 2, ...options.jobs },
      log: { level: 'silent', ...options.log },
      // Tests send bursts no owner would: limits are off unless a test turns them on.
      limits: { requestsPerMinute: 0, concurrentJobs: 0, queuedJobs: 0, ...options.limits },
    },
  });
  return {
    config,
    schema,
    jobsSchema,
    drop: () => dropSchemas(url, schema, jobsSchema),
  };
}

export async function dropSchemas(url: string, ...schemas: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  } finally {
    await client.end();
  }
}
