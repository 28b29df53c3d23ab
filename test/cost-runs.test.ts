// Budgets of scraper runs hold across workers (docs/api.md "Budgets"): two worker processes (this
// one and a `gleaner worker` child) run two runs of one owner at once against a daily budget, and
// exactly the URLs the budget pays for are read; max_credits bounds one run; a dry run estimates
// from the scraper's history and queues nothing.
import { expect } from 'chai';
import type { Owner } from '@gleaner/core/internal';
import { insertReadyScraper, runFinished } from './support/runs.ts';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { TEST_DATABASE_URL } from './support/db.ts';
import { startCli, workerEnv } from './support/process.ts';

const RECIPE = {
  version: 1 as const,
  container: { selector: 'div.card' },
  fields: { name: { selector: 'h2', read: 'text' as const } },
};
const page = (n: number) => `<html><body><main><div class="card"><h2>Widget ${n}</h2></div></main></body></html>`;

describe('run budgets across two workers', function () {
  this.timeout(180_000);
  let s: Stack;
  let alice: Owner;
  let scraperId: string;
  // Per-host politeness off the path: both workers must take URLs of the one test host at once.
  const config = { credits: { recipePage: 1 }, politeness: { concurrency: 64, delayMs: 0 } };

  before(async () => {
    s = await startStack({ config });
    alice = (await s.engine.authenticateApiKey(s.key))!;
    // Slow pages keep many URLs in flight at once in both workers.
    s.site.route('/widget', async (_q, res, url) => {
      await new Promise((r) => setTimeout(r, 150));
      if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end(page(Number(url.searchParams.get('n'))));
    });
    scraperId = await insertReadyScraper(s, alice, {
      url: `${s.site.url}/widget?n=0`,
      attributes: [{ name: 'name', description: '', type: 'string' }],
      recipe: RECIPE,
      sampleData: [{ name: 'Widget 0' }],
      sampleDriver: 'http',
    });
  });
  after(() => s?.close());

  const urls = (from: number, n: number) => Array.from({ length: n }, (_, i) => `${s.site.url}/widget?n=${from + i}`);
  const finished = (runId: string) => runFinished(s, runId, 120_000);

  it('dry run: the estimate comes from the scraper history and nothing is queued', async () => {
    const first = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls(1000, 2), dry_run: true });
    expect(first.status, first.text).to.equal(200);
    expect(first.body.estimate).to.include({ pages: 2, model_calls: 0, input_tokens: 0, credits: 2 });
    expect(first.body.estimate.basis).to.contain('no completed run');
    expect((await s.engine.db.query('SELECT count(*)::int AS n FROM runs')).rows[0].n).to.equal(0);
    const sync = await s.api('POST', '/v1/scrapers/run', { template_id: scraperId, url: urls(1000, 3), dry_run: true });
    expect(sync.status, sync.text).to.equal(200);
    expect(sync.body.estimate.credits).to.equal(3);
  });

  it('max_credits: the run reads the URLs it pays for and fails the rest, saying why', async () => {
    const res = await s.api('POST', '/v1/scrapers/run', { template_id: scraperId, url: urls(1, 10), max_credits: 4 });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.status).to.equal('completed_partial');
    const done = Object.values<any[]>(res.body.data).filter((r) => r.length).length;
    expect(done).to.equal(4);
    expect(res.body.credits_charged).to.equal(4);
    const errors = Object.values<string>(res.body.errors);
    expect(errors).to.have.length(6);
    for (const e of errors) expect(e).to.contain("the request's max_credits (4");
    // The history now says one page per URL.
    const dry = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls(1, 5), dry_run: true });
    expect(dry.body.estimate.basis).to.contain("the scraper's history: 4 URL(s) run, 1 page(s) per URL");
  });

  it("two workers, two runs at once: the owner's daily budget pays for exactly its URLs", async () => {
    const spent = 4; // the max_credits run above
    const put = await s.api('PUT', '/v1/settings', { daily_credits: spent + 12 });
    expect(put.status, put.text).to.equal(200);
    const child = startCli(['worker'], workerEnv(s.schemas, TEST_DATABASE_URL, { GLEANER_CREDITS_RECIPE_PAGE: '1', GLEANER_LOG_LEVEL: 'debug' }));
    try {
      await waitFor(() => child.output().includes('worker started') || child.exitCode !== null, 60_000, 'the child worker').catch((err) => {
        throw new Error(`${err.message}: ${child.output().slice(-2000)}`);
      });
      expect(child.exitCode, child.output()).to.equal(null);
      const [a, b] = await Promise.all([
        s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls(100, 20) }),
        s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls(200, 20) }),
      ]);
      expect([a.status, b.status], a.text + b.text).to.deep.equal([202, 202]);
      const runs = await Promise.all([finished(a.body.run_id), finished(b.body.run_id)]);
      const read = runs.flatMap((r) => Object.values<any[]>(r.data)).filter((recs) => recs.length).length;
      expect(read).to.equal(12);
      expect(runs.reduce((n, r) => n + r.credits_charged, 0)).to.equal(12);
      const errors = runs.flatMap((r) => Object.values<string>(r.errors));
      expect(errors).to.have.length(28);
      for (const e of errors) expect(e).to.contain('daily budget of 16 credits');
      // Which of the two workers takes which items is the queue's choice (a fast one may drain it alone);
      // the reservations are counted in Postgres under one lock per owner either way.
      const codes = await s.engine.db.query(`SELECT DISTINCT error_code FROM run_items WHERE status = 'failed'`);
      expect(codes.rows.map((r) => r.error_code)).to.deep.equal(['BUDGET_EXCEEDED']);
      const reserved = await s.engine.db.query('SELECT sum(reserved_credits)::float8 AS r FROM runs');
      expect(reserved.rows[0].r).to.equal(0);
      // Spent: a new run is refused before anything is queued.
      const refused = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls(300, 2) });
      expect(refused.status, refused.text).to.equal(402);
      expect(refused.body).to.include({ code: 'BUDGET_EXCEEDED' });
      expect(refused.body.budget).to.include({ scope: 'daily', unit: 'credits', limit: 16, spent: 16 });
    } finally {
      child.kill('SIGTERM');
      await s.api('PUT', '/v1/settings', { daily_credits: null });
    }
  });
});
