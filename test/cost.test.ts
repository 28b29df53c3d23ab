// Cost before and after (Gleaner extensions, docs/api.md "Cost: dry runs, budgets, usage"): dry-run
// estimates within ±20% of the tokens the model then reports, with nothing queued, fetched beyond the
// first page or charged; budgets refusing before the work (402) and stopping pagination mid-way; the
// usage report whose totals are the sum of its items and of what each operation said it cost.
import { expect } from 'chai';
import { startStack, userContent, type Stack } from './support/stack.ts';
import { BOOK_ATTRS, buildBookScraper, openBookshop } from './support/books.ts';
import { answerItems, listPage } from './support/pages.ts';
import { request } from './support/http.ts';
import { corpusModel, trustCorpus } from './support/trust-corpus.ts';

const within = (estimate: number, actual: number, share: number) => Math.abs(estimate - actual) <= share * actual;

describe('cost: dry runs, budgets and the usage report over HTTP', function () {
  this.timeout(180_000);
  let s: Stack;
  let shelfUrl: (n: number) => string;
  const count = async (sql: string) => (await s.engine.db.query(sql)).rows[0].n as number;
  before(async () => {
    s = await startStack({ config: { llm: { pricing: { 'test-model': { input: 0.15, output: 0.6 } } } } });
    shelfUrl = openBookshop(s);
    s.site.route('/list', (_req, res, url) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      const items = [1, 2, 3].map((n) => (page - 1) * 3 + n);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(listPage(items, page < 4 ? `<link rel="next" href="/list?page=${page + 1}">` : ''));
    });
  });
  after(() => s?.close());

  it('dry run: estimates the corpus pages within ±20% of the tokens the model reports, calling no model and charging nothing', async function () {
    this.timeout(300_000);
    const corpus = trustCorpus();
    s.model.script(corpusModel(corpus, { invent: false }));
    const rows: string[] = [];
    for (const tp of corpus) {
      const body = { content: tp.page.html, url: tp.url, attributes: tp.attributes };
      const calls = s.model.chatRequests().length;
      const events = await count('SELECT count(*)::int AS n FROM usage_events');
      const dry = await s.api('POST', '/v1/parse', { ...body, dry_run: true });
      expect(dry.status, dry.text).to.equal(200);
      expect(dry.body).to.include({ dry_run: true });
      expect(dry.body.data).to.deep.equal([]);
      expect(s.model.chatRequests().length, 'no model call').to.equal(calls);
      expect(await count('SELECT count(*)::int AS n FROM usage_events'), 'nothing recorded').to.equal(events);
      const real = await s.api('POST', '/v1/parse?details=true', body);
      expect(real.status, real.text).to.equal(200);
      const e = dry.body.estimate;
      const u = real.body.details.usage;
      rows.push(`${tp.page.name}: in ${e.input_tokens}/${u.input_tokens} out ${e.output_tokens}/${u.output_tokens}`);
      expect(e.model_calls, tp.page.name).to.equal(u.model_calls);
      expect(within(e.input_tokens, u.input_tokens, 0.2), `${tp.page.name} input: ${e.input_tokens} vs ${u.input_tokens}`).to.equal(true);
      const total = u.input_tokens + u.output_tokens;
      expect(within(e.input_tokens + e.output_tokens, total, 0.2), `${tp.page.name} total: ${rows.at(-1)}`).to.equal(true);
      expect(e.credits, tp.page.name).to.equal(real.body.details.credits);
      expect(e.money).to.deep.include({ currency: 'USD', model: 'test-model', priced_by: 'llm.pricing' });
      expect(e.money.amount).to.be.closeTo((e.input_tokens * 0.15 + e.output_tokens * 0.6) / 1e6, 1e-6);
    }
  });

  it('dry run of extract fetches the first page only; of extract_async it queues nothing (200, no task)', async () => {
    const fetched = () => s.site.requests.filter((r) => r.path.startsWith('/list')).length;
    const before = fetched();
    const tasks = await count('SELECT count(*)::int AS n FROM tasks');
    const dry = await s.api('POST', '/v1/extract', {
      url: `${s.site.url}/list?page=1`,
      attributes: [{ name: 'name' }],
      enable_pagination: true,
      max_pages: 3,
      dry_run: true,
    });
    expect(dry.status, dry.text).to.equal(200);
    expect(dry.body.estimate).to.include({ pages: 3, model_calls: 3 });
    expect(dry.body.estimate.basis).to.contain('assumed like it');
    expect(fetched() - before).to.equal(1);
    const async = await s.api('POST', '/v1/extractor/extract_async', { url: shelfUrl(1), attributes: BOOK_ATTRS, dry_run: true });
    expect(async.status, async.text).to.equal(200);
    expect(async.body.estimate.model_calls).to.equal(1);
    expect(async.body).not.to.have.property('task_id');
    expect(await count('SELECT count(*)::int AS n FROM tasks')).to.equal(tasks);
  });

  it('dry run of generate and of an agent task: a range (max), nothing created or queued', async () => {
    const scrapers = await count('SELECT count(*)::int AS n FROM scrapers');
    const tasks = await count('SELECT count(*)::int AS n FROM tasks');
    const calls = s.model.chatRequests().length;
    const build = await s.api('POST', '/v1/extractor/generate', { url: shelfUrl(3), attributes: BOOK_ATTRS, dry_run: true });
    expect(build.status, build.text).to.equal(200);
    const e = build.body.estimate;
    expect(e.model_calls).to.equal(2); // standard extraction, one recipe round
    expect(e.max.model_calls).to.equal(4); // up to scrapers.generateRounds (3) rounds
    expect(e.credits).to.equal(10); // the build price (tokens are free by default: credits.per1kModelTokens 0)
    expect(e.max.input_tokens).to.be.greaterThan(e.input_tokens);
    const agent = await s.api('POST', '/v1/agent/extract', { url: shelfUrl(3), prompt: 'list the books', attributes: BOOK_ATTRS, dry_run: true });
    expect(agent.status, agent.text).to.equal(200);
    expect(agent.body.estimate.model_calls).to.equal(3);
    expect(agent.body.estimate.max.model_calls).to.be.greaterThan(10);
    expect(agent.body.estimate.max.input_tokens + agent.body.estimate.max.output_tokens).to.be.at.most(200_000);
    const capped = await s.api('POST', '/v1/agent/extract', { url: shelfUrl(3), prompt: 'list the books', dry_run: true, max_tokens: 5000 });
    expect(capped.body.estimate.max.input_tokens + capped.body.estimate.max.output_tokens).to.be.at.most(5000);
    expect(await count('SELECT count(*)::int AS n FROM scrapers')).to.equal(scrapers);
    expect(await count('SELECT count(*)::int AS n FROM tasks')).to.equal(tasks);
    expect(s.model.chatRequests().length).to.equal(calls);
  });

  it('serves the new fields and endpoints in the OpenAPI document', async () => {
    const doc = (await request(s.url, 'GET', '/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/usage', 'get'],
      ['/v1/settings', 'get'],
      ['/v1/settings', 'put'],
    ])
      expect(doc.paths[path][method].tags, path).to.deep.equal(['gleaner']);
    const body = doc.paths['/v1/extract'].post.requestBody.content['application/json'].schema.properties;
    for (const field of ['provenance', 'grounding', 'dry_run', 'max_credits', 'max_tokens']) expect(body, field).to.have.property(field);
    const answer = doc.paths['/v1/extract'].post.responses['200'].content['application/json'].schema.properties;
    expect(answer).to.include.keys('warnings', 'estimate');
    expect(doc.paths['/v1/scrapers/run_async'].post.responses).to.include.keys('200', '202');
  });

  describe('budgets', () => {
    it('max_tokens below the estimate: 402 BUDGET_EXCEEDED before any model call, nothing charged', async () => {
      const calls = s.model.chatRequests().length;
      const events = await count('SELECT count(*)::int AS n FROM usage_events');
      const res = await s.api('POST', '/v1/extract', { url: shelfUrl(1), attributes: BOOK_ATTRS, max_tokens: 10 });
      expect(res.status, res.text).to.equal(402);
      expect(res.body.code).to.equal('BUDGET_EXCEEDED');
      expect(res.body.budget).to.include({ scope: 'request', unit: 'tokens', limit: 10, spent: 0 });
      expect(res.body.budget.estimate).to.be.greaterThan(10);
      expect(res.body.detail).to.contain("the request's max_tokens (10)");
      expect(s.model.chatRequests().length).to.equal(calls);
      expect(await count('SELECT count(*)::int AS n FROM usage_events')).to.equal(events);
    });

    it('max_credits reached mid-way: pagination stops with the records so far and a message', async () => {
      s.model.script((req) => answerItems(req, userContent(req)));
      // One credit per page read by the model: 2.5 credits allow two pages of four.
      const res = await s.api('POST', '/v1/extract?details=true', {
        url: `${s.site.url}/list?page=1`,
        attributes: [{ name: 'name' }, { name: 'price' }],
        enable_pagination: true,
        max_pages: 4,
        max_credits: 2.5,
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.map((r: { name: string }) => r.name)).to.deep.equal(['Item 1', 'Item 2', 'Item 3', 'Item 4', 'Item 5', 'Item 6']);
      expect(res.body.message).to.match(/^Stopped before page 3 .*max_credits \(2\.5\).*2 page\(s\) read are returned/);
      expect(res.body.details.credits).to.be.at.most(2.5);
    });

    it("the owner's daily budget refuses once spent (402 naming it)", async () => {
      const spent = Number(
        (await s.engine.db.query(`SELECT coalesce(sum(credits), 0) AS c FROM usage_events u JOIN owners o ON o.id = u.owner_id WHERE o.name = 'alice'`)).rows[0]
          .c,
      );
      const put = await s.api('PUT', '/v1/settings', { daily_credits: spent + 0.5 });
      expect(put.status, put.text).to.equal(200);
      expect(put.body).to.include({ daily_credits: spent + 0.5, monthly_credits: null });
      try {
        const res = await s.api('POST', '/v1/extract', { url: shelfUrl(2), attributes: BOOK_ATTRS });
        expect(res.status, res.text).to.equal(402);
        expect(res.body.budget).to.include({ scope: 'daily', unit: 'credits', limit: spent + 0.5 });
        expect(res.body.detail).to.contain('daily budget');
        const asyncRes = await s.api('POST', '/v1/extractor/extract_async', { url: shelfUrl(2), attributes: BOOK_ATTRS });
        expect(asyncRes.status, asyncRes.text).to.equal(202); // its task checks the page when it runs
      } finally {
        await s.api('PUT', '/v1/settings', { daily_credits: null });
      }
      expect((await s.api('GET', '/v1/settings')).body).to.deep.equal({
        grounding_policy: null,
        daily_credits: null,
        monthly_credits: null,
        daily_tokens: null,
        monthly_tokens: null,
      });
    });

    it('settings: 422 for a negative budget or an unknown policy', async () => {
      const bad = await s.api('PUT', '/v1/settings', { daily_credits: -1, grounding_policy: 'maybe' });
      expect(bad.status).to.equal(422);
      expect(bad.body.detail.map((d: any) => d.loc.join('.')).sort()).to.deep.equal(['body.daily_credits', 'body.grounding_policy']);
    });
  });

  it('usage report: totals are the sum of the items and of what each extraction, build and run charged', async function () {
    this.timeout(120_000);
    openBookshop(s);
    const bob = (await s.engine.createApiKey('bob-usage')).key;
    const api = (method: string, path: string, body?: unknown) => request(s.url, method, path, { body, headers: { 'X-API-KEY': bob } });
    let charged = 0;
    for (const n of [5, 6]) {
      const r = await api('POST', '/v1/extract?details=true', { url: shelfUrl(n), attributes: BOOK_ATTRS });
      charged += r.body.details.credits;
    }
    const p = await api('POST', '/v1/parse?details=true', { content: '<p>Book 7.1 <b>701 pages</b></p>', attributes: BOOK_ATTRS });
    charged += p.body.details.credits;
    const started = await api('POST', '/v1/extractor/generate', { url: shelfUrl(8), attributes: BOOK_ATTRS });
    const id = started.body.template_id;
    let scraper: any;
    for (let i = 0; i < 300 && scraper?.status !== 'ready'; i++) {
      scraper = (await api('GET', `/v1/extractor/${id}`)).body;
      if (scraper.status === 'failed') throw new Error(JSON.stringify(scraper));
      if (scraper.status !== 'ready') await new Promise((r) => setTimeout(r, 100));
    }
    const run = await api('POST', '/v1/scrapers/run', { template_id: id, url: [shelfUrl(9), shelfUrl(10)] });
    expect(run.status, run.text).to.equal(200);
    const scraperCredits = scraper.credits_charged + run.body.credits_charged;
    charged += scraperCredits;

    for (const groupBy of ['day', 'kind', 'scraper']) {
      const report = await api('GET', `/v1/usage?group_by=${groupBy}`);
      expect(report.status, report.text).to.equal(200);
      const sum = (k: string) => report.body.items.reduce((n: number, i: any) => n + i[k], 0);
      for (const k of ['events', 'pages', 'model_calls', 'input_tokens', 'output_tokens', 'unsupported_values'])
        expect(report.body.totals[k], k).to.equal(sum(k));
      expect(report.body.totals.credits).to.be.closeTo(sum('credits'), 1e-9);
      expect(report.body.totals.credits, groupBy).to.be.closeTo(charged, 1e-9);
      expect(report.body.totals.money.amount).to.be.closeTo(
        report.body.items.reduce((n: number, i: any) => n + i.money.amount, 0),
        1e-9,
      );
    }
    const byKind = (await api('GET', '/v1/usage?group_by=kind')).body.items.map((i: any) => [i.key, i.events]);
    expect(byKind).to.deep.equal([
      ['extract', 2],
      ['parse', 1],
      ['scraper_build', 1],
      ['scraper_run', 1],
    ]);
    const byScraper = (await api('GET', '/v1/usage?group_by=scraper')).body.items;
    const mine = byScraper.find((i: any) => i.key === id);
    expect(mine.credits).to.be.closeTo(scraperCredits, 1e-9);
    expect(mine.name).to.equal(scraper.name);
    expect(byScraper.at(-1).key).to.equal(null);
    // A window that holds none of it is empty; a bad time is 422 at its loc.
    const empty = await api('GET', '/v1/usage?from=2020-01-01&to=2020-02-01');
    expect(empty.body.items).to.deep.equal([]);
    expect(empty.body.totals).to.include({ credits: 0, events: 0 });
    const bad = await api('GET', '/v1/usage?from=yesterday');
    expect(bad.status).to.equal(422);
    expect(bad.body.detail[0].loc).to.deep.equal(['query', 'from']);
  });
});
