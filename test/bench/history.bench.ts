// GET /v1/runs at depth: an owner with many runs (and another owner with as many) pages through its
// list with the keyset cursor. Figures: median time of the list query for the first page, a page
// 10,000 runs deep, and the plan Postgres picks (the runs_owner_idx index, no sort of the table).
import { createDatabase, ensureOwner, historyOperations, loadConfig, migrate, silentLogger, type OperationContext } from '@gleaner/core/internal';
import { TEST_DATABASE_URL, dropSchemas } from '../support/db.ts';

const RUNS = 20_000;

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1];
}

export async function run(): Promise<void> {
  const schema = `bench_history_${Date.now().toString(36)}`;
  const logger = silentLogger();
  const db = createDatabase({ url: TEST_DATABASE_URL, schema, poolMax: 2, logger });
  try {
    await migrate({ url: TEST_DATABASE_URL, schema, logger });
    const owners = [await ensureOwner(db, 'alice'), await ensureOwner(db, 'bob')];
    for (const o of owners) {
      await db.query(
        `INSERT INTO runs (id, owner_id, scraper_id, status, url_form, total, completed, options, created_at, finished_at)
         SELECT o.id || '-' || n, o.id, 'scraper-' || (n % 50), 'completed', 'list', 3, 3, '{"source": "bench"}', now() - make_interval(secs => n), now()
           FROM (SELECT $1::text AS id) o, generate_series(1, $2) n`,
        [o.id, RUNS],
      );
    }
    await db.query('ANALYZE runs');
    const history = historyOperations({ db, config: loadConfig({ env: {} }), logger } as unknown as OperationContext);
    const time = async (f: () => Promise<unknown>) => {
      const ms: number[] = [];
      for (let i = 0; i < 31; i++) {
        const t0 = performance.now();
        await f();
        ms.push(performance.now() - t0);
      }
      return median(ms);
    };
    const first = await time(() => history.runs(owners[0], { limit: 20 }));
    // A cursor 10,000 runs down: walk there 100 at a time once, then time the page after it.
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) cursor = (await history.runs(owners[0], { limit: 100, cursor })).next_cursor ?? undefined;
    const deep = await time(() => history.runs(owners[0], { limit: 20, cursor }));
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT r.id FROM runs r WHERE r.owner_id = $1 AND (r.created_at, r.id) < (now() - interval '3 hours', 'x') ORDER BY r.created_at DESC, r.id DESC LIMIT 21`,
      [owners[0].id],
    );
    console.log(`runs: ${RUNS} per owner, 2 owners`);
    console.log(`GET /v1/runs list query, median of 31: first page ${first.toFixed(2)} ms; a page 10,000 runs deep ${deep.toFixed(2)} ms`);
    console.log(`plan: ${plan.rows.map((r) => r['QUERY PLAN'].trim()).join(' | ')}`);
  } finally {
    await db.close();
    await dropSchemas(TEST_DATABASE_URL, schema);
  }
}
