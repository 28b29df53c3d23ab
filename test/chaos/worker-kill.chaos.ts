// kill -9 of worker processes at random points of 100-URL runs, 20 times: every URL is recorded
// exactly once (items, counters, usage) each time.
import { expect } from 'chai';
import { insertScraper, type Owner } from '@gleaner/core/internal';
import { startStack, waitFor, type Stack } from '../support/stack.ts';
import { TEST_DATABASE_URL } from '../support/db.ts';
import { startCli, workerEnv } from '../support/process.ts';
import { seededRng } from '../support/fuzz.ts';

const RECIPE = {
  version: 1 as const,
  container: { selector: 'div.card' },
  fields: {
    name: { selector: 'h2.name', read: 'text' as const },
    price: { selector: '.price', read: 'text' as const, transforms: [{ op: 'number' as const }] },
  },
};
const records = (n: number) => [1, 2].map((k) => ({ name: `Widget ${n}-${k}`, price: Number(`${n}.${k}`) }));
const page = (n: number) =>
  `<html><body><main>${records(n)
    .map((r) => `<div class="card"><h2 class="name">${r.name}</h2><span class="price">${r.price} EUR</span></div>`)
    .join('')}</main></body></html>`;

const ITERATIONS = Number(process.env.GLEANER_CHAOS_ITERATIONS ?? 20);

describe('chaos: workers killed with SIGKILL at random points of 100-URL runs', function () {
  this.timeout(3_600_000);
  let s: Stack;
  let alice: Owner;
  const rng = seededRng(Number(process.env.GLEANER_CHAOS_SEED ?? 42));
  const env = () => workerEnv(s.schemas, TEST_DATABASE_URL, { GLEANER_WORKER_CONCURRENCY: '2' });
  const startWorker = async () => {
    const child = startCli(['worker'], env());
    await waitFor(() => child.output().includes('worker started') || child.exitCode !== null, 60_000, 'a child worker');
    expect(child.exitCode, child.output()).to.equal(null);
    return child;
  };

  before(async () => {
    s = await startStack({ worker: false });
    alice = (await s.engine.authenticateApiKey(s.key))!;
    // Page N answers after 0-60 ms, so a run is in flight for a while.
    s.site.route('/shop', async (_q, res, url) => {
      const n = Number(url.searchParams.get('page'));
      await new Promise((r) => setTimeout(r, (n * 7) % 60));
      if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end(page(n));
    });
  });
  after(() => s?.close());

  it(`records every URL exactly once in each of ${ITERATIONS} runs`, async () => {
    const scraperId = await s.engine.db.tx((tx) =>
      insertScraper(tx, {
        ownerId: alice.id,
        kind: 'extractor',
        url: `${s.site.url}/shop?page=1`,
        status: 'ready',
        attributes: [
          { name: 'name', description: '', type: 'string' },
          { name: 'price', description: '', type: 'number' },
        ],
        recipe: RECIPE,
        sampleData: records(1),
        sampleDriver: 'http',
      }),
    );
    const workers = [await startWorker(), await startWorker()];
    const figures: string[] = [];
    try {
      for (let it = 0; it < ITERATIONS; it++) {
        const urls = Array.from({ length: 100 }, (_, i) => `${s.site.url}/shop?page=${i + 1}&run=${it}`);
        const t0 = Date.now();
        const submitted = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls });
        expect(submitted.status, submitted.text).to.equal(202);
        const runId = submitted.body.run_id as string;
        const killAt = 1 + Math.floor(rng() * 90);
        const victim = Math.floor(rng() * workers.length);
        const seen = await waitFor(
          async () => {
            const r = await s.api('GET', `/v1/scrapers/run_async/${runId}`);
            return r.body.completed >= killAt || !['queued', 'running'].includes(r.body.status) ? r.body.completed : undefined;
          },
          120_000,
          `run ${it}: ${killAt} items`,
          10,
        );
        workers[victim].kill('SIGKILL');
        workers[victim] = await startWorker();
        const done = await waitFor(
          async () => {
            const r = await s.api('GET', `/v1/scrapers/run_async/${runId}`);
            return ['queued', 'running'].includes(r.body.status) ? undefined : r.body;
          },
          300_000,
          `run ${it} to finish`,
          200,
        );
        expect(done, `run ${it}`).to.include({ status: 'completed', completed: 100, total: 100 });
        expect(done.data).to.deep.equal(Object.fromEntries(urls.map((u, i) => [u, records(i + 1)])));
        const items = await s.engine.db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM run_items WHERE run_id = $1', [runId]);
        expect(items.rows.filter((r) => r.status === 'completed')).to.have.length(100);
        const run = await s.engine.db.query('SELECT completed, failed, pages FROM runs WHERE id = $1', [runId]);
        expect(run.rows[0], `run ${it}: each URL counted once`).to.deep.equal({ completed: 100, failed: 0, pages: 100 });
        const usage = await s.engine.db.query('SELECT count(*)::int AS n FROM usage_events WHERE subject = $1', [`run:${runId}`]);
        expect(usage.rows[0].n).to.equal(1);
        const retried = items.rows.filter((r) => r.attempts > 1).length;
        figures.push(`#${it}: killed worker ${victim} after ${seen} items, ${retried} items re-run, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      }
    } finally {
      for (const w of workers) w.kill('SIGKILL');
      console.log(`      worker kills:\n        ${figures.join('\n        ')}`);
    }
  });
});
