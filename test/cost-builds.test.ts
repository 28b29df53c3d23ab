// Budgets on scraper builds (Gleaner extensions, docs/api.md "Trust and cost"): `max_credits` and
// `max_tokens` on POST /v1/extractor/generate and /v1/agent/generate refuse a build whose least cost
// (the dry run's figures) passes them, 402 BUDGET_EXCEEDED before anything is created; a build that
// reaches its budget mid-way stops, failed with BUDGET_EXCEEDED and a message saying where, and is
// charged what it spent.
import { expect } from 'chai';
import { startStack, sentSchema, userContent, waitFor, type Stack } from './support/stack.ts';
import { BOOK_ATTRS, openBookshop } from './support/books.ts';
import { addAgentPages, PRODUCTS } from './support/agent-site.ts';
import { call } from './support/agent-script.ts';
import { scriptBuildModel } from './support/agentic-model.ts';
import { ATTRIBUTES } from './support/agentic-api.ts';

describe('budgets on scraper builds, over HTTP', function () {
  this.timeout(180_000);
  let s: Stack;
  let shelfUrl: (n: number) => string;
  before(async () => {
    s = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' } } });
    addAgentPages(s.site);
  });
  after(() => s?.close());
  beforeEach(() => {
    s.model.reset();
    shelfUrl = openBookshop(s);
  });

  const scrapers = async () => (await s.engine.db.query('SELECT count(*)::int AS n FROM scrapers')).rows[0].n as number;
  const built = (path: string, id: string) =>
    waitFor(
      async () => {
        const r = await s.api('GET', `${path}/${id}`);
        return r.body.status === 'ready' || r.body.status === 'failed' ? r.body : undefined;
      },
      90_000,
      `build ${id}`,
      100,
    );
  const buildUsage = async (id: string) =>
    (await s.engine.db.query(`SELECT input_tokens + output_tokens AS tokens, credits FROM usage_events WHERE subject = $1`, [`scraper:${id}`])).rows;

  describe('classic builds', () => {
    it('a budget below the least cost: 402 BUDGET_EXCEEDED, nothing created or queued, no model call', async () => {
      const before = await scrapers();
      for (const [field, value] of [
        ['max_tokens', 10],
        ['max_credits', 0.5],
      ] as const) {
        const res = await s.api('POST', '/v1/extractor/generate', { url: shelfUrl(1), attributes: BOOK_ATTRS, [field]: value });
        expect(res.status, res.text).to.equal(402);
        expect(res.body.code).to.equal('BUDGET_EXCEEDED');
        expect(res.body.budget).to.include({ scope: 'request', unit: field === 'max_tokens' ? 'tokens' : 'credits', limit: value });
        expect(res.body.detail).to.contain(`this scraper build would cost about`).and.contain(`the request's ${field} (${value})`);
      }
      expect(await scrapers()).to.equal(before);
      expect(s.model.chatRequests()).to.have.length(0);
    });

    it('a budget the build fits: ready as without one', async () => {
      const dry = await s.api('POST', '/v1/extractor/generate', { url: shelfUrl(1), attributes: BOOK_ATTRS, dry_run: true });
      expect(dry.status, dry.text).to.equal(200);
      const max = dry.body.estimate.max;
      const res = await s.api('POST', '/v1/extractor/generate', {
        url: shelfUrl(1),
        attributes: BOOK_ATTRS,
        max_tokens: max.input_tokens + max.output_tokens,
        max_credits: max.credits,
      });
      expect(res.status, res.text).to.equal(202);
      expect((await built('/v1/extractor', res.body.template_id)).status).to.equal('ready');
    });

    it('stops before the recipe when reading the sample page used what the recipe round needed', async () => {
      const dry = await s.api('POST', '/v1/extractor/generate', { url: shelfUrl(2), attributes: BOOK_ATTRS, dry_run: true });
      const least = dry.body.estimate.input_tokens + dry.body.estimate.output_tokens;
      // The page's read reports far more tokens than estimated: no room is left for a recipe round.
      let recipeCalls = 0;
      s.model.script((req) => {
        if (sentSchema(req)?.properties?.container) {
          recipeCalls++;
          return { error: 400, message: 'no recipe call was expected' };
        }
        const records = [...userContent(req).matchAll(/Book (\d+)\.(\d)/g)].map((m) => ({ title: `Book ${m[1]}.${m[2]}`, pages: `${m[1]}0${m[2]}` }));
        return { json: { records }, usage: { inputTokens: least, outputTokens: 40 } };
      });
      const res = await s.api('POST', '/v1/extractor/generate', { url: shelfUrl(2), attributes: BOOK_ATTRS, max_tokens: least });
      expect(res.status, res.text).to.equal(202);
      const failed = await built('/v1/extractor', res.body.template_id);
      expect(failed.status).to.equal('failed');
      expect(failed.error).to.match(
        new RegExp(
          `^Scraper build stopped at its budget: reading the sample page used ${least + 40} model tokens .*more than the request's max_tokens \\(${least}\\)`,
        ),
      );
      expect(recipeCalls).to.equal(0);
      const { rows } = await s.engine.db.query('SELECT error_code FROM scrapers WHERE id = $1', [res.body.template_id]);
      expect(rows[0].error_code).to.equal('BUDGET_EXCEEDED');
      const usage = await buildUsage(res.body.template_id);
      expect(Number(usage[0].tokens)).to.equal(least + 40);
      expect(Number(failed.credits_charged)).to.equal(Number(usage[0].credits));
    });
  });

  describe('agentic builds', () => {
    it('a budget below the least cost: 402 BUDGET_EXCEEDED, nothing created', async () => {
      const before = await scrapers();
      const res = await s.api('POST', '/v1/agent/generate', {
        url: `${s.site.url}/list?page=1`,
        prompt: 'all products',
        attributes: ATTRIBUTES,
        max_tokens: 10,
      });
      expect(res.status, res.text).to.equal(402);
      expect(res.body.code).to.equal('BUDGET_EXCEEDED');
      expect(res.body.detail).to.contain('this agentic scraper build would cost about');
      expect(await scrapers()).to.equal(before);
    });

    it('the agent stops at the budget mid-way: the build fails saying so, with what it spent charged', async () => {
      const url = `${s.site.url}/list?page=1`;
      const dry = await s.api('POST', '/v1/agent/generate', { url, prompt: 'all products', attributes: ATTRIBUTES, dry_run: true });
      expect(dry.status, dry.text).to.equal(200);
      const least = dry.body.estimate.input_tokens + dry.body.estimate.output_tokens;
      // The first decision alone reports more tokens than the whole budget.
      const heavy = { inputTokens: least * 2, outputTokens: 10 };
      scriptBuildModel(s, [() => ({ toolCalls: [call.extract()], usage: heavy }), () => [call.finish()]], []);
      const res = await s.api('POST', '/v1/agent/generate', { url, prompt: 'all products', attributes: ATTRIBUTES, max_tokens: least });
      expect(res.status, res.text).to.equal(202);
      const failed = await built('/v1/agent', res.body.template_id);
      expect(failed.status).to.equal('failed');
      expect(failed.error).to.match(
        /^Agentic scraper build stopped at its budget: The agent used \d+ model tokens, its budget is \d+ \(the request's max_tokens/,
      );
      expect(failed.error).to.contain(`had found ${PRODUCTS.slice(0, 3).length} records; no script was saved`);
      const usage = await buildUsage(res.body.template_id);
      expect(Number(usage[0].tokens)).to.be.greaterThan(least);
      expect(Number(failed.credits_charged)).to.equal(Number(usage[0].credits));
    });
  });
});
