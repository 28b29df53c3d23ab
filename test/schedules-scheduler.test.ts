// Schedules on pg-boss's scheduler with several workers (engines of their own on the test's schemas,
// each with its own pg-boss instances, as `gleaner worker` processes have): an occurrence due now
// fires exactly once however many workers run the cron pass, and an occurrence that came due while
// every worker was down runs once when workers come back. The API engine runs no worker (and so no
// scheduler): only the workers fire.
import { expect } from 'chai';
import pg from 'pg';
import { createEngine, silentLogger, type Engine, type Owner } from '@gleaner/core/internal';
import { pluginWiring } from '../packages/server/src/wiring.ts';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { TEST_DATABASE_URL } from './support/db.ts';
import { insertShopScraper, monitorShop } from './support/monitor-site.ts';

/** A worker: an engine of its own on the test's schemas (its own pg-boss instances and pool), as a `gleaner worker` process has. */
interface Worker {
  engine: Engine;
  close(): Promise<void>;
}

/** A daily cron expression (UTC) whose one occurrence is `minutesAgo` minutes before now. */
function dailyAt(minutesAgo: number): string {
  const at = new Date(Date.now() - minutesAgo * 60_000);
  return `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
}

describe('schedules on the scheduler of several workers', function () {
  this.timeout(180_000);
  let s: Stack;
  let alice: Owner;
  let scraperId: string;
  let shopUrl: string;
  const workers: Worker[] = [];

  async function startWorkers(n: number): Promise<void> {
    const config = { ...s.schemas.config, schedules: { ...s.schemas.config.schedules, cronSeconds: 1 } };
    const started = await Promise.all(
      Array.from({ length: n }, async () => {
        const logger = silentLogger();
        const plugins = pluginWiring(config, logger);
        const engine = createEngine({ config, logger, drivers: plugins.drivers, llm: plugins.llm });
        await engine.startWorker();
        return {
          engine,
          close: async () => {
            await engine.stop();
            await plugins.close();
          },
        };
      }),
    );
    workers.push(...started);
  }
  async function stopWorkers(): Promise<void> {
    await Promise.all(workers.splice(0).map((w) => w.close()));
  }
  async function runsOf(scheduleId: string): Promise<Array<{ id: string; status: string }>> {
    const { rows } = await s.engine.db.query<{ id: string; status: string }>('SELECT id, status FROM runs WHERE schedule_id = $1', [scheduleId]);
    return rows;
  }

  before(async function () {
    this.timeout(60_000);
    s = await startStack({ worker: false });
    alice = (await s.engine.authenticateApiKey(s.key))!;
    const shop = monitorShop(s.site, ['/shop']);
    shop.pages.set('/shop', [{ name: 'Widget 1', price: 10 }]);
    shopUrl = shop.url('/shop');
    scraperId = await insertShopScraper(s.engine, alice, shopUrl, shop.pages.get('/shop')!);
  });
  after(async () => {
    await stopWorkers();
    await s?.close();
  });

  it('fires a due occurrence once with two workers running the cron pass', async () => {
    await startWorkers(2);
    // The occurrence is this minute's; its due window is the minute after it, so start early in it.
    await waitFor(() => new Date().getUTCSeconds() < 50, 45_000, 'the start of a minute', 500);
    const created = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: dailyAt(0), url: shopUrl });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.schedule_id;
    const [run] = await waitFor(
      async () => {
        const runs = await runsOf(id);
        return runs.length && runs[0].status === 'completed' ? runs : undefined;
      },
      60_000,
      'the firing to run',
    );
    // Both workers run cron passes every second for the rest of the occurrence's window.
    await new Promise((r) => setTimeout(r, 5000));
    expect(await runsOf(id)).to.have.length(1);
    const body = await s.api('GET', `/v1/scrapers/run_async/${run.id}`);
    expect(body.body).to.include({ status: 'completed', schedule_id: id });
    const listed = await s.api('GET', `/v1/runs?schedule_id=${id}`);
    expect(listed.body.runs.map((r: any) => r.run_id)).to.deep.equal([run.id]);
    expect(listed.body.runs[0].source).to.equal('schedule');
  });

  it('runs a firing missed while every worker was down once, when workers come back', async () => {
    await stopWorkers();
    // Due three minutes ago: outside the due window, so only a catch-up can send it.
    const created = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: dailyAt(3), url: shopUrl });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.schedule_id;
    // The outage, without waiting it out: the schedule existed, and the deployment's last cron pass
    // ran, ten minutes ago (pg-boss's own bookkeeping of both), so the occurrence fell in the gap.
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const jobs = s.schemas.jobsSchema;
      await client.query(`UPDATE "${jobs}".schedule SET created_on = now() - interval '10 minutes' WHERE name = 'schedule.fire' AND key = $1`, [id]);
      await client.query(`UPDATE "${jobs}".version SET cron_on = now() - interval '10 minutes'`);
    } finally {
      await client.end();
    }
    await new Promise((r) => setTimeout(r, 2000));
    expect(await runsOf(id), 'no worker, no firing').to.have.length(0);
    await startWorkers(2);
    await waitFor(async () => (await runsOf(id)).some((r) => r.status === 'completed'), 60_000, 'the missed firing to run');
    await new Promise((r) => setTimeout(r, 5000));
    expect(await runsOf(id)).to.have.length(1);
  });
});
