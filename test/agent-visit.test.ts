// List -> detail through the HTTP API: "for each product in this category, its SKU and weight" over
// 3 listing pages and 30 product pages. The agent calls `visit` once on the first listing page with
// one product link: the tool gathers the links of that shape on the listing and its next pages,
// fetches the product pages in parallel (per-host politeness), has the model read the first two
// (a recipe is generated on the first and verified on the second) and reads the others with the
// recipe alone; the one product page with another layout falls back to the model. An agentic build
// of the same task records the visit with its recipe and replays it with zero model calls. On the
// http driver (linkedom), Playwright and Selenium.
import { expect } from 'chai';
import { startStack, waitFor, type Stack, type StackOptions } from './support/stack.ts';
import { agentScript, call, isDecision, refOf } from './support/agent-script.ts';
import { runTask, scriptVersions } from './support/agentic-api.ts';
import { scriptBuildModel } from './support/agentic-model.ts';
import { DETAIL_ATTRIBUTES, DETAIL_RECIPE, LISTING_PAGES, ODD_ONE, addShop, detailRecords, items, sortByName } from './support/visit-site.ts';
import { isRecipeRequest } from './support/agentic-model.ts';
import type { ModelRequest as RecordedRequest } from '@gleaner/testing';
import { setOwnerPoliteness } from '@gleaner/core/internal';
import { linkPattern, matchesPattern, mergeVisited } from '../packages/core/src/agent/visit.ts';

const PROMPT = 'For each product in this category, its SKU and weight.';
const visitFirstProduct = (o: string) => [{ name: 'visit', arguments: { refs: [refOf(o, /link "\w+ 01"/)], follow_pagination: true } }];

function suite(label: string, opts: StackOptions): void {
  describe(`agent visit (list -> detail): ${label}`, function () {
    this.timeout(480_000);
    let s: Stack;
    before(async () => {
      s = await startStack({ ...opts, config: { ...opts.config, politeness: { concurrency: 4, delayMs: 0 } } });
      addShop(s.site);
    });
    after(() => s?.close());
    beforeEach(() => s.model.reset());

    it('gathers SKU and weight of the 30 products of 3 listing pages with a model call for 2 pages (and the odd one), not 30', async () => {
      const agent = agentScript([visitFirstProduct, () => [call.finish('every product visited')]], { extract: detailRecords });
      let recipeCalls = 0;
      s.model.script((req: RecordedRequest, i) => {
        if (isRecipeRequest(req)) {
          recipeCalls++;
          return { json: DETAIL_RECIPE };
        }
        return agent.script(req, i);
      });
      const done = await runTask(s, { url: `${s.site.url}/category/kettles?page=1`, prompt: PROMPT, attributes: DETAIL_ATTRIBUTES, snapshots: true }, 180_000);
      expect(done.status, JSON.stringify(done).slice(0, 2000)).to.equal('completed');
      expect(sortByName(done.data)).to.deep.equal(items('kettles').map(({ name, sku, weight }) => ({ name, sku, weight })));
      expect(done.steps.map((st: any) => [st.action, st.ok, st.records])).to.deep.equal([
        ['visit', true, 30],
        ['finish', true, undefined],
      ]);
      expect(done.steps[0].target).to.equal('links /product/*');
      // The model was told what the visit did.
      expect(agent.observations).to.have.length(2);
      // Model calls: 2 decisions, the first two product pages, one recipe, and the odd page's fallback.
      expect(agent.decisions).to.equal(2);
      expect(recipeCalls).to.equal(1);
      expect(agent.extractions).to.equal(3);
      const calls = s.model.chatRequests().length;
      expect(calls)
        .to.equal(6)
        .and.to.be.at.most(3 + LISTING_PAGES);
      // The odd page was read by the model: its page text was sent in an extraction request.
      const odd = items('kettles')[ODD_ONE - 1];
      const extractionTexts = s.model
        .chatRequests()
        .filter((r) => !isDecision(r) && !isRecipeRequest(r))
        .map((r) => JSON.stringify(r.body));
      expect(extractionTexts.some((t) => t.includes(odd.sku))).to.equal(true);
      // Every listing page and product page was fetched by the visit (the first listing page by the agent).
      const paths = s.site.requests.map((r) => r.path);
      for (let p = 2; p <= LISTING_PAGES; p++) expect(paths.filter((x) => x === `/category/kettles?page=${p}`)).to.have.length(1);
      // (Twice at most: a page that timed out on a busy machine is fetched once more.)
      for (const it of items('kettles')) expect(paths.filter((x) => x === `/product/${it.slug}`).length, it.slug).to.be.within(1, 2);
      // snapshots: true kept every detail page the visit read (the records came from them).
      const snapshot = (n: number) => fetch(`${s.url}/v1/tasks/${done.task_id}/snapshot?page=${n}`, { headers: { 'X-API-KEY': s.key } });
      const first = await snapshot(1);
      expect(first.status).to.equal(200);
      expect(first.headers.get('x-gleaner-snapshot-pages')).to.equal('30');
      const kept = new Set<string>();
      for (let n = 1; n <= 30; n++) {
        const res = n === 1 ? first : await snapshot(n);
        const url = res.headers.get('x-gleaner-snapshot-url')!;
        expect(await res.text(), url).to.contain(items('kettles').find((it) => url.endsWith(`/product/${it.slug}`))!.sku);
        kept.add(url);
      }
      expect([...kept].sort()).to.deep.equal(
        items('kettles')
          .map((it) => `${s.site.url}/product/${it.slug}`)
          .sort(),
      );
    });

    it('merges the detail records into the records the agent extracted on the listing', async () => {
      // The listing's records carry only names (and a "featured" flag); the visit adds SKU and weight.
      const attributes = [...DETAIL_ATTRIBUTES, { name: 'featured', type: 'bool' }];
      const listingOrDetail = (text: string) => {
        const detail = detailRecords(text);
        if (detail.length) return detail.map((r) => ({ ...(r as object), featured: null }));
        return [...text.matchAll(/\[(Teapot \d\d)\]/g)].map((m) => ({ name: m[1], sku: null, weight: null, featured: m[1] === 'Teapot 03' }));
      };
      const agent = agentScript([() => [call.extract()], visitFirstProduct, () => [call.finish()]], { extract: listingOrDetail });
      s.model.script((req: RecordedRequest, i) => (isRecipeRequest(req) ? { json: DETAIL_RECIPE } : agent.script(req, i)));
      const done = await runTask(s, { url: `${s.site.url}/category/teapots?page=1`, prompt: PROMPT, attributes }, 180_000);
      expect(done.status, JSON.stringify(done).slice(0, 2000)).to.equal('completed');
      const want = items('teapots').map(({ name, sku, weight }) => ({
        name,
        sku,
        weight,
        featured: name === 'Teapot 03' ? true : name <= 'Teapot 10' ? false : null,
      }));
      expect(sortByName(done.data)).to.deep.equal(want);
    });

    it('an agentic build records the visit and its recipe; a run replays it on another category with zero model calls', async () => {
      const agent = scriptBuildModel(s, [visitFirstProduct, () => [call.finish()]], [], { recipe: DETAIL_RECIPE, extract: detailRecords });
      const gen = await s.api('POST', '/v1/agent/generate', { url: `${s.site.url}/category/teapots?page=1`, prompt: PROMPT, attributes: DETAIL_ATTRIBUTES });
      expect(gen.status, gen.text).to.equal(202);
      // A build visits the 30 pages twice (the agent, then the replay that validates the script): slow browsers on a busy machine.
      const ready = await waitFor(
        async () => {
          const r = await s.api('GET', `/v1/agent/${gen.body.template_id}`);
          return r.body.status === 'ready' || r.body.status === 'failed' ? r.body : undefined;
        },
        220_000,
        'the agentic build',
        200,
      );
      expect(ready.status, ready.error).to.equal('ready');
      expect(agent.decisions).to.equal(2);
      expect(sortByName(ready.sample_data)).to.deep.equal(items('teapots').map(({ name, sku, weight }) => ({ name, sku, weight })));
      const [v] = await scriptVersions(s, ready.template_id);
      const visit = v.script.steps.find((st: any) => st.action === 'visit');
      expect(visit.links).to.deep.equal({ pattern: '/product/*' });
      expect(visit.followPagination).to.equal(true);
      expect(visit.sampleRecords).to.equal(30);
      expect(v.script.steps.map((st: any) => st.action)).to.deep.equal(['goto', 'visit']);

      s.model.reset();
      const run = await s.api('POST', '/v1/scrapers/run_async', {
        template_id: ready.template_id,
        url: `${s.site.url}/category/mugs?page=1`,
        parameters: {},
        snapshots: true,
      });
      expect(run.status, run.text).to.equal(202);
      const done = await waitFor(
        async () => {
          const r = await s.api('GET', `/v1/scrapers/run_async/${run.body.run_id}`);
          return ['completed', 'completed_partial', 'failed'].includes(r.body.status) ? r.body : undefined;
        },
        200_000,
        'the run',
        200,
      );
      expect(done.status, JSON.stringify(done).slice(0, 2000)).to.equal('completed');
      expect(sortByName(done.data[`${s.site.url}/category/mugs?page=1`])).to.deep.equal(items('mugs').map(({ name, sku, weight }) => ({ name, sku, weight })));
      expect(s.model.chatRequests()).to.have.length(0);
      // snapshots: true kept the replay's detail pages too (the 30 product pages).
      const item = await fetch(`${s.url}/v1/runs/${run.body.run_id}/items/0/snapshot?page=2`, { headers: { 'X-API-KEY': s.key } });
      expect(item.status).to.equal(200);
      expect(Number(item.headers.get('x-gleaner-snapshot-pages'))).to.be.at.least(30);
      expect(item.headers.get('x-gleaner-snapshot-url')).to.match(/\/product\/mugs-\d+$/);
    });
  });
}

suite('http (linkedom)', { config: { browser: { escalation: 'never' } } });
suite('playwright', { config: { browser: { driver: 'playwright', escalation: 'always' } } });
suite('selenium', { provider: 'ollama', config: { browser: { driver: 'selenium', escalation: 'always' } } });

describe('agent visit: politeness, robots.txt and allowed_domains (http)', function () {
  this.timeout(240_000);
  let s: Stack;
  let inFlight = 0;
  let maxInFlight = 0;
  before(async () => {
    s = await startStack({ config: { browser: { escalation: 'never' } } });
    addShop(s.site);
    s.site.page('/robots.txt', 'User-agent: *\nDisallow: /product/mugs-05\n', { headers: { 'content-type': 'text/plain' } });
    // The mugs' product pages answer after 40 ms, counting how many are in flight at once.
    for (const it of items('mugs')) {
      const html = `<!doctype html><html><head><title>${it.name}</title></head><body><main class="product"><h1>${it.name}</h1><p class="sku">SKU: ${it.sku}</p><p class="weight">Weight: ${it.weight}</p></main></body></html>`;
      s.site.route(`/product/${it.slug}`, (_q, res) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        setTimeout(() => {
          inFlight--;
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(html);
        }, 40);
      });
    }
  });
  after(() => s?.close());

  it("keeps to the owner's per-host concurrency and skips what robots.txt disallows, telling the model", async () => {
    const alice = (await s.engine.authenticateApiKey(s.key))!;
    await setOwnerPoliteness(s.engine.db, alice.id, { concurrency: 2, delayMs: 0 });
    const agent = agentScript([visitFirstProduct, () => [call.finish()]], { extract: detailRecords });
    s.model.script((req: RecordedRequest, i) => (isRecipeRequest(req) ? { json: DETAIL_RECIPE } : agent.script(req, i)));
    const done = await runTask(s, { url: `${s.site.url}/category/mugs?page=1`, prompt: PROMPT, attributes: DETAIL_ATTRIBUTES }, 180_000);
    expect(done.status, JSON.stringify(done).slice(0, 2000)).to.equal('completed');
    const want = items('mugs').filter((it) => it.slug !== 'mugs-05');
    expect(sortByName(done.data)).to.deep.equal(want.map(({ name, sku, weight }) => ({ name, sku, weight })));
    expect(maxInFlight, 'product pages at once').to.equal(2);
    expect(s.site.requests.map((r) => r.path)).to.not.include('/product/mugs-05');
    // The model was told that one page failed and why.
    expect(agent.observations.length).to.equal(2);
    const told = JSON.stringify(s.model.chatRequests().at(-1)!.body);
    expect(told).to.match(/Visited 30 pages found on 3 listing pages: 29 records/);
    expect(told).to.match(/1 failed\)\. E\.g\. \S+\/product\/mugs-05: \S+ is disallowed by the site's robots\.txt/);
  });

  it('does not open links outside allowed_domains', async () => {
    // The listing links its products by a host name (localhost) that allowed_domains leaves out.
    const port = new URL(s.site.url).port;
    s.site.page(
      '/category/elsewhere',
      `<!doctype html><html><body><h1>Elsewhere</h1><ul>${items('mugs')
        .slice(0, 3)
        .map((it) => `<li><a href="http://localhost:${port}/product/${it.slug}">${it.name}</a></li>`)
        .join('')}</ul></body></html>`,
    );
    const before = s.site.requests.length;
    const agent = agentScript([(o) => [{ name: 'visit', arguments: { refs: [refOf(o, /link "Mug 01"/)], similar: false } }], () => [call.finish()]], {
      extract: detailRecords,
    });
    s.model.script((req: RecordedRequest, i) => (isRecipeRequest(req) ? { json: DETAIL_RECIPE } : agent.script(req, i)));
    const done = await runTask(s, { url: `${s.site.url}/category/elsewhere`, prompt: PROMPT, attributes: DETAIL_ATTRIBUTES, allowed_domains: ['127.0.0.1'] });
    expect(done.steps[0], JSON.stringify(done.steps)).to.include({ action: 'visit', ok: false });
    expect(done.steps[0].error).to.match(/localhost is outside this task's allowed_domains \(127\.0\.0\.1\)/);
    expect(s.site.requests.slice(before).map((r) => r.path)).to.deep.equal(['/category/elsewhere']);
  });
});

describe('agent visit: link shapes and merging', () => {
  it('generalizes the links given to a URL shape', () => {
    expect(linkPattern(['https://s.example/product/red-kettle'])).to.equal('/product/*');
    expect(linkPattern(['https://s.example/item?id=5'])).to.equal('/item?id=*');
    expect(linkPattern(['https://s.example/p/a/reviews', 'https://s.example/p/b/reviews'])).to.equal('/p/*/reviews');
    expect(linkPattern(['https://s.example/a', 'https://s.example/a/b'])).to.equal(null);
    expect(matchesPattern('https://s.example/product/x', '/product/*', 's.example')).to.equal(true);
    expect(matchesPattern('https://other.example/product/x', '/product/*', 's.example')).to.equal(false);
    expect(matchesPattern('https://s.example/product/x/y', '/product/*', 's.example')).to.equal(false);
    expect(matchesPattern('https://s.example/item?id=7&x=1', '/item?id=*', 's.example')).to.equal(true);
  });

  it('merges a detail record into the listing record that links to it, else by its first field, else adds it', () => {
    const listing = [
      { name: 'A', url: '/p/a', sku: null },
      { name: 'B', url: null, sku: null },
    ];
    const merged = mergeVisited(listing, [
      {
        listingUrl: 'https://s.example/list',
        pages: [
          { url: 'https://s.example/p/a', records: [{ name: 'A (full name)', url: null, sku: 'SA' }] },
          { url: 'https://s.example/p/b', records: [{ name: 'B', url: null, sku: 'SB' }] },
          { url: 'https://s.example/p/c', records: [{ name: 'C', url: null, sku: 'SC' }] },
        ],
      },
    ]);
    expect(merged).to.deep.equal([
      { name: 'A (full name)', url: '/p/a', sku: 'SA' },
      { name: 'B', url: null, sku: 'SB' },
      { name: 'C', url: null, sku: 'SC' },
    ]);
  });
});
