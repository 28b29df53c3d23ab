// Provenance on scraper runs and agent tasks, grounding warnings in async status bodies, and the
// agent task's stop at its budget (Gleaner extensions, docs/api.md "Trust and cost"): a classic
// run names the recipe rule of each value (through fallback chains) with the page URL and content
// hash; an agentic scraper's replay does the same for its extract steps; an agent task's values
// point at the exact text its model read; the default bodies stay as they were.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { Owner } from '@gleaner/core/internal';
import { insertReadyScraper, runFinished } from './support/runs.ts';
import { startStack, userContent, waitFor, type Stack } from './support/stack.ts';
import { BOOK_ATTRS, buildBookScraper, openBookshop, shelf } from './support/books.ts';
import { addAgentPages, PRODUCTS } from './support/agent-site.ts';
import { agentScript, call, refOf } from './support/agent-script.ts';
import { ATTRIBUTES, runTask } from './support/agentic-api.ts';
import { request } from './support/http.ts';

const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
const served = async (url: string) => (await fetch(url)).text();
const strip = (data: any[]) => data.map(({ _provenance, ...r }) => r);

// Products as the agent pages show them: "Product: Red Kettle — $24.5".
const PRODUCT_RECIPE = {
  version: 1 as const,
  container: { selector: 'li.product' },
  fields: {
    // The first rule finds nothing on these pages: every value comes from its fallback.
    name: { selector: '.title', read: 'text' as const, fallback: { selector: 'span.name', read: 'text' as const } },
    price: { selector: '.price', read: 'text' as const, transforms: [{ op: 'number' as const }] },
  },
};
const PRODUCT_ATTRS = [
  { name: 'name', type: 'string' as const, description: 'product name' },
  { name: 'price', type: 'number' as const, description: '' },
];
const productRecord = (p: { name: string; price: number }) => ({ name: `Product: ${p.name}`, price: p.price });

describe('provenance on runs and agent tasks, over HTTP', function () {
  this.timeout(180_000);
  let s: Stack;
  let alice: Owner;
  let shelfUrl: (n: number) => string;
  let bookScraper: string;

  before(async () => {
    s = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' } } });
    alice = (await s.engine.authenticateApiKey(s.key))!;
    shelfUrl = openBookshop(s);
    addAgentPages(s.site);
    bookScraper = await buildBookScraper(s, shelfUrl(1));
  });
  after(() => s?.close());

  describe('classic scraper runs', () => {
    it('leave the body as it was without provenance', async () => {
      const res = await s.api('POST', '/v1/scrapers/run', { template_id: bookScraper, url: shelfUrl(2) });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal(shelf(2));
    });

    it('POST /v1/scrapers/run: each value names its recipe rule, the page URL and its content hash', async () => {
      const res = await s.api('POST', '/v1/scrapers/run', { template_id: bookScraper, url: shelfUrl(3), provenance: true });
      expect(res.status, res.text).to.equal(200);
      expect(strip(res.body.data)).to.deep.equal(shelf(3));
      const hash = sha(await served(shelfUrl(3)));
      for (const record of res.body.data) {
        const p = record._provenance;
        // Stored as jsonb: the keys come back in its order.
        expect(Object.keys(p)).to.have.members(['title', 'pages']);
        expect(p.title).to.deep.equal({
          url: shelfUrl(3),
          content_hash: hash,
          method: 'selector',
          grounding: 'verbatim',
          selector: { container: 'li.book', selector: '.t', read: 'text', fallback: 0 },
          transform: [],
        });
        expect(p.pages).to.include({ method: 'selector', grounding: 'normalised', url: shelfUrl(3), content_hash: hash });
        expect(p.pages.selector).to.include({ selector: '.p', read: 'text', fallback: 0 });
        expect(p.pages.transform).to.deep.equal(['number']);
      }
    });

    it('run_async: the status body of a list of URLs carries provenance per page', async () => {
      const urls = [shelfUrl(4), shelfUrl(5)];
      const sent = await s.api('POST', '/v1/scrapers/run_async', { template_id: bookScraper, url: urls, provenance: true });
      expect(sent.status, sent.text).to.equal(202);
      const done = await runFinished(s, sent.body.run_id);
      expect(done.status).to.equal('completed');
      for (const [n, url] of urls.entries()) {
        expect(strip(done.data[url])).to.deep.equal(shelf(n + 4));
        const hash = sha(await served(url));
        for (const r of done.data[url])
          for (const f of Object.values<any>(r._provenance)) expect(f).to.include({ url, content_hash: hash, method: 'selector' });
      }
    });

    it('traces a value through its fallback chain', async () => {
      const id = await insertReadyScraper(s, alice, {
        url: `${s.site.url}/list?page=1`,
        attributes: PRODUCT_ATTRS,
        recipe: PRODUCT_RECIPE,
        sampleData: PRODUCTS.slice(0, 3).map(productRecord),
        sampleDriver: 'http',
      });
      const url = `${s.site.url}/list?page=2`;
      const res = await s.api('POST', '/v1/scrapers/run', { template_id: id, url, provenance: true });
      expect(res.status, res.text).to.equal(200);
      expect(strip(res.body.data)).to.deep.equal(PRODUCTS.slice(3, 6).map(productRecord));
      for (const r of res.body.data) {
        expect(r._provenance.name.selector).to.deep.equal({ container: 'li.product', selector: 'span.name', read: 'text', fallback: 1 });
        expect(r._provenance.price.selector).to.include({ selector: '.price', fallback: 0 });
        expect(r._provenance.price.transform).to.deep.equal(['number']);
      }
    });

    it('refuses provenance on a scraper with an attribute named _provenance (422)', async () => {
      const id = await insertReadyScraper(s, alice, {
        url: shelfUrl(1),
        attributes: [{ name: '_provenance', description: '', type: 'string' }],
        recipe: { version: 1, container: { selector: 'li.book' }, fields: { _provenance: { selector: '.t', read: 'text' } } },
        sampleData: [],
        sampleDriver: 'http',
      });
      const res = await s.api('POST', '/v1/scrapers/run', { template_id: id, url: shelfUrl(1), provenance: true });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['body', 'provenance']);
    });
  });

  describe('agentic scraper runs', () => {
    let id: string;
    before(async () => {
      id = await insertReadyScraper(s, alice, {
        kind: 'agentic',
        url: `${s.site.url}/list?page=1`,
        attributes: PRODUCT_ATTRS,
        script: {
          format: 1,
          driver: 'http',
          parameters: {},
          steps: [
            { action: 'goto', url: '{{url}}' },
            { action: 'extract', recipe: PRODUCT_RECIPE, sampleRecords: 3 },
          ],
        },
        sampleData: PRODUCTS.slice(0, 3).map(productRecord),
        sampleDriver: 'http',
      });
    });

    const run = async (body: Record<string, unknown>) => {
      const sent = await s.api('POST', '/v1/scrapers/run_async', { template_id: id, ...body });
      expect(sent.status, sent.text).to.equal(202);
      return runFinished(s, sent.body.run_id);
    };

    it('the replay names the extract step rule of each value; without provenance the body is as it was', async () => {
      const url = `${s.site.url}/list?page=3`;
      const plain = await run({ url });
      expect(plain.status, JSON.stringify(plain)).to.equal('completed');
      expect(plain.data[url]).to.deep.equal(PRODUCTS.slice(6, 9).map(productRecord));
      const traced = await run({ url, provenance: true });
      expect(traced.status, JSON.stringify(traced)).to.equal('completed');
      expect(strip(traced.data[url])).to.deep.equal(PRODUCTS.slice(6, 9).map(productRecord));
      const hash = sha(await served(url));
      for (const r of traced.data[url]) {
        expect(r._provenance.name).to.deep.equal({
          url,
          content_hash: hash,
          method: 'selector',
          grounding: 'verbatim',
          selector: { container: 'li.product', selector: 'span.name', read: 'text', fallback: 1 },
          transform: [],
        });
        expect(r._provenance.price).to.include({ method: 'selector', grounding: 'normalised', url, content_hash: hash });
      }
    });
  });

  describe('agent tasks', () => {
    beforeEach(() => s.model.reset());

    it('gives each value a span of the page text the model read, quoting its source exactly', async () => {
      const url = `${s.site.url}/list?page=1`;
      s.model.script(agentScript([() => [call.extract()], () => [call.finish()]]).script);
      const done = await runTask(s, { url, prompt: 'all products', provenance: true });
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      const html = await served(url);
      // What the model read of this page: the same reduction, shown by /v1/parse's details.
      s.model.script(agentScript([]).script);
      const parsed = await s.api('POST', '/v1/parse?details=true', { content: html, url, attributes: ATTRIBUTES });
      expect(parsed.status, parsed.text).to.equal(200);
      const text: string = parsed.body.details.pages[0].model_input.text;
      expect(strip(done.data).map((r) => r.name)).to.deep.equal(PRODUCTS.slice(0, 3).map((p) => p.name));
      for (const r of done.data) {
        const p = r._provenance;
        expect(Object.keys(p)).to.deep.equal(['name', 'price']);
        for (const f of Object.values<any>(p)) {
          expect(f).to.include({ url, content_hash: sha(html), method: 'text', grounding: 'verbatim' });
          expect(text.slice(f.span[0], f.span[1])).to.equal(f.quote);
        }
        expect(p.name.quote).to.equal(r.name);
        expect(p.price.quote).to.equal(String(r.price));
        expect(p.price.transform).to.deep.equal(['number']);
      }
    });

    it('flags and drops values the page does not hold; the default body has neither provenance nor warnings', async () => {
      const url = `${s.site.url}/list?page=2`;
      // The model invents a price for the first product of the page.
      const invent = (text: string) => {
        const found = [...text.matchAll(/Product: ([^\n—]+?) — \$([\d.]+)/g)].map((m) => ({ name: m[1].trim(), price: Number(m[2]) }));
        if (found[0]) found[0].price = 4242;
        return found;
      };
      const plan = () => agentScript([() => [call.extract()], () => [call.finish()]], { extract: invent }).script;
      s.model.script(plan());
      const plain = await runTask(s, { url, prompt: 'all products' });
      expect(plain.status).to.equal('completed');
      expect(plain).not.to.have.property('warnings');
      expect(plain.data[0]).to.deep.equal({ name: PRODUCTS[3].name, price: 4242 });
      expect(plain.data[0]).not.to.have.property('_provenance');

      s.model.script(plan());
      const flagged = await runTask(s, { url, prompt: 'all products', grounding: 'flag' });
      expect(flagged.data[0].price).to.equal(4242);
      expect(flagged.warnings).to.have.length(1);
      expect(flagged.warnings[0]).to.include({ record: 0, field: 'price', value: 4242, url, action: 'flagged' });

      s.model.script(plan());
      const dropped = await runTask(s, { url, prompt: 'all products', grounding: 'drop', provenance: true });
      expect(dropped.data[0]).to.include({ name: PRODUCTS[3].name, price: null });
      expect(dropped.data[0]._provenance.price).to.include({ grounding: 'not_found', dropped: true });
      expect(dropped.warnings[0]).to.include({ record: 0, field: 'price', value: 4242, action: 'dropped' });
      const usage = await s.engine.db.query(`SELECT unsupported_values FROM usage_events WHERE subject = $1`, [`task:${dropped.task_id}`]);
      expect(usage.rows[0].unsupported_values).to.equal(1);
    });

    it("stops at the request's max_tokens with the records found so far and a message naming the budget", async () => {
      // Every decision reports 3000 tokens: the first extracts page 1, the second goes on to page 2,
      // and the budget (5000) is spent before a third decision.
      const heavy = { inputTokens: 3000, outputTokens: 10 };
      s.model.script(
        agentScript([
          () => ({ toolCalls: [call.extract()], usage: heavy }),
          (o) => ({ toolCalls: [call.click(refOf(o, /link "Next page"/))], usage: heavy }),
          () => ({ toolCalls: [call.extract()], usage: heavy }),
        ]).script,
      );
      const done = await runTask(s, { url: `${s.site.url}/list?page=1`, prompt: 'all products', max_tokens: 5000 });
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(done.data.map((r: any) => r.name)).to.deep.equal(PRODUCTS.slice(0, 3).map((p) => p.name));
      expect(done.message).to.match(/model tokens, its budget is 5000 \(the request's max_tokens\)/);
      expect(done.steps.map((st: any) => st.action)).to.deep.equal(['extract', 'click']);
      const { rows } = await s.engine.db.query(`SELECT input_tokens + output_tokens AS tokens, credits FROM usage_events WHERE subject = $1`, [
        `task:${done.task_id}`,
      ]);
      expect(Number(rows[0].tokens)).to.be.greaterThan(5000);
      expect(Number(rows[0].credits)).to.be.greaterThan(0);
    });
  });

  it('serves the fields in the OpenAPI document', async () => {
    const doc = (await request(s.url, 'GET', '/openapi.json')).body;
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema.properties;
    for (const path of ['/v1/scrapers/run', '/v1/scrapers/run_async', '/v1/agent/extract']) expect(body(path), path).to.have.property('provenance');
    for (const path of ['/v1/extractor/generate', '/v1/agent/generate']) expect(body(path), path).to.include.keys('dry_run', 'max_credits', 'max_tokens');
    for (const path of ['/v1/extractor/extract_async/{task_id}', '/v1/agent/extract/{task_id}'])
      expect(doc.paths[path].get.responses['200'].content['application/json'].schema.properties, path).to.have.property('warnings');
  });

  describe('extract_async', () => {
    it('the status body carries warnings with grounding flag, as the sync body does', async () => {
      s.model.script((req) => {
        const records: Array<Record<string, unknown>> = [...userContent(req).matchAll(/Book (\d+)\.(\d)/g)].map((m) => ({
          title: `Book ${m[1]}.${m[2]}`,
          pages: `${Number(m[1]) * 100 + Number(m[2])}`,
        }));
        records[0].pages = '4242';
        return { json: { records }, usage: { inputTokens: 200, outputTokens: 40 } };
      });
      const submit = async (body: Record<string, unknown>) => {
        const sent = await s.api('POST', '/v1/extractor/extract_async', { url: shelfUrl(6), attributes: BOOK_ATTRS, ...body });
        expect(sent.status, sent.text).to.equal(202);
        return waitFor(
          async () => {
            const r = await s.api('GET', `/v1/extractor/extract_async/${sent.body.task_id}`);
            return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : undefined;
          },
          60_000,
          'the extract task',
          100,
        );
      };
      const sync = await s.api('POST', '/v1/extract', { url: shelfUrl(6), attributes: BOOK_ATTRS, grounding: 'flag' });
      const flagged = await submit({ grounding: 'flag' });
      expect(flagged.status).to.equal('completed');
      expect(flagged.warnings).to.deep.equal(sync.body.warnings);
      expect(flagged.warnings[0]).to.include({ record: 0, field: 'pages', value: 4242, action: 'flagged' });
      const kept = await submit({});
      expect(kept).not.to.have.property('warnings');
      expect(kept.data[0].pages).to.equal(4242);
    });
  });
});
