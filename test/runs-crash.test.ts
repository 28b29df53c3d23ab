import { expect } from 'chai';
import { insertScraper, type Owner } from '@gleaner/core/internal';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { TEST_DATABASE_URL } from './support/db.ts';
import { startCli, workerEnv } from './support/process.ts';

const RECIPE = {
  version: 1 as const,
  container: { selector: 'div.card' },
  fields: {
    name: { selector: 'h2.name', read: 'text' as const },
    price: { selector: '.price', read: 'text' as const, transforms: [{ op: 'number' as const }] },
  },
};
const records = (n: number) => [1, 2, 3].map((k) => ({ name: `Widget ${n}-${k}`, price: Number(`${n}.${k}`) }));
const page = (n: number) =>
  `<html><body><main>${records(n)
    .map((r) => `<div class="card"><h2 class="name">${r.name}</h2><span class="price">${r.price} EUR</span></div>`)
    .join('')}</main></body></html>`;

describe('scraper runs survive a worker killed with SIGKILL mid-run', () => {
  let s: Stack;
  let alice: Owner;

  before(async function () {
    this.timeout(60_000);
    // No worker in this process at first: a `gleaner worker` child takes the run's jobs.
    s = await startStack({ worker: false });
    alice = (await s.engine.authenticateApiKey(s.key))!;
    // Page N answers after N x 100 ms, so items finish one after another.
    s.site.route('/slow-shop', async (_q, res, url) => {
      const n = Number(url.searchParams.get('page'));
      await new Promise((r) => setTimeout(r, n * 100));
      if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end(page(n));
    });
  });
  after(() => s?.close());

  it('completes the run with every URL recorded exactly once', async function () {
    this.timeout(120_000);
    const scraperId = await s.engine.db.tx((tx) =>
      insertScraper(tx, {
        ownerId: alice.id,
        kind: 'extractor',
        url: `${s.site.url}/slow-shop?page=1`,
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
    const child = startCli(['worker'], workerEnv(s.schemas, TEST_DATABASE_URL));
    const urls = Array.from({ length: 30 }, (_, i) => `${s.site.url}/slow-shop?page=${i + 1}`);
    let runId: string;
    let recordedByChild: number;
    try {
      await waitFor(() => child.output().includes('worker started') || child.exitCode !== null, 30_000, 'the child worker');
      expect(child.exitCode, child.output()).to.equal(null);
      const submitted = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls });
      expect(submitted.status, submitted.text).to.equal(202);
      runId = submitted.body.run_id;
      recordedByChild = await waitFor(
        async () => {
          const r = await s.api('GET', `/v1/scrapers/run_async/${runId}`);
          return r.body.completed >= 5 ? r.body.completed : undefined;
        },
        30_000,
        'five URLs recorded by the child worker',
        20,
      );
    } finally {
      child.kill('SIGKILL');
    }
    expect(recordedByChild).to.be.below(30);
    // A healthy worker on the same schemas: the lost jobs come back once their heartbeats are missed.
    await s.engine.startWorker();
    const done = await waitFor(
      async () => {
        const r = await s.api('GET', `/v1/scrapers/run_async/${runId}`);
        return r.body.status !== 'queued' && r.body.status !== 'running' ? r.body : undefined;
      },
      90_000,
      'the run to finish after the crash',
      200,
    );
    expect(done).to.include({ status: 'completed', completed: 30, total: 30 });
    expect(done.errors).to.deep.equal({});
    expect(done.data).to.deep.equal(Object.fromEntries(urls.map((u, i) => [u, records(i + 1)])));

    const { rows } = await s.engine.db.query('SELECT status, attempts, finished_at FROM run_items WHERE run_id = $1 ORDER BY position', [runId]);
    expect(rows.every((r) => r.status === 'completed' && r.finished_at)).to.equal(true);
    // Items finished before the kill ran once; the ones in flight ran again on the new worker.
    expect(rows.filter((r) => r.attempts === 1).length).to.be.at.least(recordedByChild);
    expect(rows.filter((r) => r.attempts === 2).length).to.be.at.least(1);
    const run = await s.engine.db.query('SELECT completed, failed, pages FROM runs WHERE id = $1', [runId]);
    expect(run.rows[0]).to.deep.equal({ completed: 30, failed: 0, pages: 30 }); // each URL counted once
    const usage = await s.engine.db.query('SELECT count(*)::int AS n FROM usage_events WHERE subject = $1', [`run:${runId}`]);
    expect(usage.rows[0].n).to.equal(1);
  });
});
