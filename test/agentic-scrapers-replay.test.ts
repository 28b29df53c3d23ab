// Agentic scrapers' replays through the HTTP API: scripts recorded and replayed on the Selenium
// driver (chromedriver), a heal that keeps the script's steps before the one that drifted and has
// the agent continue from the live page, parameters inside the URLs the agent navigated to, and a
// paginate step that follows "next" up to the run's max_pages, and a browser driver of plugin API 1.0
// (no quiet wait: the replay settles by comparing outlines).
import { expect } from 'chai';
import type { Driver, WaitForOptions } from '@gleaner/core/plugin';
import { startStack, type Stack } from './support/stack.ts';
import { scriptBuildModel } from './support/agentic-model.ts';
import { addAgentPages, PRODUCTS, productLine } from './support/agent-site.ts';
import { call, refOf, type PlanStep } from './support/agent-script.ts';
import { build, expected, names, runAndWait, scriptVersions } from './support/agentic-api.ts';

const kettles = PRODUCTS.filter((p) => p.name.includes('Kettle'));
const teapots = PRODUCTS.filter((p) => p.name.includes('Teapot'));
const QUERY_PARAM = { name: 'query', type: 'string', description: 'the search term', default: 'kettle', example: null };
const LOAD_MORE_PLAN: PlanStep[] = [
  (o) => [call.click(refOf(o, /button "Load more"/))],
  (o) => [call.click(refOf(o, /button "Load more"/))],
  () => [call.extract()],
  () => [call.finish()],
];

async function itemDriver(s: Stack, runId: string): Promise<string> {
  const { rows } = await s.engine.db.query('SELECT i.driver FROM run_items i JOIN runs r ON r.id = i.run_id WHERE r.id = $1', [runId]);
  return rows[0].driver;
}

describe('agentic scrapers on Selenium: recorded in the browser, replayed through chromedriver', function () {
  this.timeout(240_000);
  let s: Stack;
  before(async () => {
    // escalation always: the agent browses in the browser even where plain HTML would do.
    s = await startStack({ provider: 'openai', config: { browser: { driver: 'selenium', escalation: 'always' } } });
    addAgentPages(s.site);
  });
  after(() => s?.close());
  beforeEach(() => s.model.reset());

  it('replays "Load more" clicks on Selenium with no model call', async () => {
    scriptBuildModel(s, LOAD_MORE_PLAN, []);
    const ready = await build(s, { url: `${s.site.url}/catalog`, prompt: 'Return every product of the catalog' });
    expect(ready.status, ready.error).to.equal('ready');
    const [v1] = await scriptVersions(s, ready.template_id);
    expect(v1.script.driver).to.equal('browser');
    expect(v1.script.steps.map((st: any) => st.action)).to.deep.equal(['goto', 'click', 'click', 'extract']);
    s.model.reset();
    const done = await runAndWait(s, { template_id: ready.template_id });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data[`${s.site.url}/catalog`])).to.deep.equal(expected(PRODUCTS.slice(0, 9)));
    expect(await itemDriver(s, done.run_id)).to.equal('selenium');
    expect(s.model.chatRequests()).to.have.length(0);
  });

  it('replays a typed search with another `query` on Selenium with no model call', async () => {
    scriptBuildModel(s, [(o) => [call.type(refOf(o, /searchbox|textbox/), 'kettle', true)], () => [call.extract()], () => [call.finish()]], [QUERY_PARAM]);
    const ready = await build(s, {
      url: `${s.site.url}/shop`,
      prompt: 'Search the shop and return every result. Parameter `query` (string, default kettle) — the search term.',
    });
    expect(ready.status, ready.error).to.equal('ready');
    expect(names(ready.sample_data)).to.deep.equal(expected(kettles));
    const [v1] = await scriptVersions(s, ready.template_id);
    expect(v1.script.driver).to.equal('browser');
    expect(v1.script.steps[1]).to.include({ action: 'type', value: '{{query}}' });
    s.model.reset();
    const done = await runAndWait(s, { template_id: ready.template_id, parameters: { query: 'teapot' } });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data[`${s.site.url}/shop`])).to.deep.equal(expected(teapots));
    expect(await itemDriver(s, done.run_id)).to.equal('selenium');
    expect(s.model.chatRequests()).to.have.length(0);
  });
});

describe('agentic scrapers: heal from the step that drifted, parameters inside URLs, max_pages (openai)', function () {
  this.timeout(240_000);
  let s: Stack;
  /** The label of the deals page's "more" button: renamed in the page's second design. */
  let moreLabel = 'Load more';
  const moreId = () => moreLabel.toLowerCase().replace(' ', '-');
  before(async () => {
    s = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' }, scrapers: { selfHeal: true } } });
    addAgentPages(s.site);
    // A cookie banner to accept, then three products and a "more" button that shows three more per click (JavaScript).
    s.site.route('/deals', (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Deals</title></head><body><h1>Deals</h1><div id="deals"><p>Accept cookies to see the deals.</p></div>
        <div id="banner"><p>We use cookies.</p><button id="accept" type="button">Accept all</button></div>
        <script>
          const all = ${JSON.stringify(PRODUCTS.slice(0, 9))};
          let shown = 0;
          const line = (p) => '<li class="product"><span class="name">Product: ' + p.name + '</span> — <span class="price">$' + p.price + '</span></li>';
          const more = () => { shown += 3; document.getElementById('products').innerHTML = all.slice(0, shown).map(line).join(''); if (shown >= all.length) document.querySelector('.more').remove(); };
          document.getElementById('accept').addEventListener('click', () => {
            document.getElementById('banner').remove();
            document.getElementById('deals').innerHTML = '<ul id="products"></ul><button id="${moreId()}" class="more" type="button">${moreLabel}</button>';
            document.querySelector('.more').addEventListener('click', () => setTimeout(more, 50));
            more();
          });
        </script></body></html>`);
    });
    // Products by a term in the path and a filter in the query; both must name the same term.
    for (const term of ['kettle', 'iron teapot']) {
      s.site.route(`/browse/${encodeURIComponent(term)}`, (_q, res, url) => {
        const filter = url.searchParams.get('filter') ?? '';
        const hits = filter === `name:${term}` ? PRODUCTS.filter((p) => p.name.toLowerCase().includes(term)) : [];
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><head><title>${term}</title></head><body><h1>${term}</h1><ul>${hits.map(productLine).join('')}</ul></body></html>`);
      });
    }
  });
  after(() => s?.close());
  beforeEach(() => s.model.reset());

  const morePlan = (label: RegExp): PlanStep[] => [
    (o) => [call.click(refOf(o, label))],
    (o) => [call.click(refOf(o, label))],
    () => [call.extract()],
    () => [call.finish()],
  ];

  it('heals a renamed "Load more": the steps before it are replayed and kept, the agent goes on from that live page', async () => {
    moreLabel = 'Load more';
    scriptBuildModel(s, [(o) => [call.click(refOf(o, /button "Accept all"/))], ...morePlan(/button "Load more"/)], []);
    const ready = await build(s, { url: `${s.site.url}/deals`, prompt: 'Return every deal' });
    expect(ready.status, ready.error).to.equal('ready');
    expect(names(ready.sample_data)).to.deep.equal(expected(PRODUCTS.slice(0, 9)));
    const [v1] = await scriptVersions(s, ready.template_id);
    expect(v1.script.steps.map((st: any) => st.action)).to.deep.equal(['goto', 'click', 'click', 'click', 'extract']);

    moreLabel = 'Show more';
    s.model.reset();
    // The agent, asked again, sees the page after the kept "Accept all": it only clicks "Show more".
    const heal = scriptBuildModel(s, morePlan(/button "Show more"/), []);
    const done = await runAndWait(s, { template_id: ready.template_id });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data[`${s.site.url}/deals`])).to.deep.equal(expected(PRODUCTS.slice(0, 9)));
    expect(heal.observations[0]).to.not.contain('Accept all');
    expect(heal.observations[0]).to.contain('Show more').and.contain('Product: Red Kettle');
    const versions = await scriptVersions(s, ready.template_id);
    expect(versions.map((v) => v.version)).to.deep.equal([1, 2]);
    expect(versions[1].reason).to.match(/^healed: layout changed: step 3 click "Load more": its target is gone/);
    const steps = versions[1].script.steps;
    expect(steps.map((st: any) => st.action)).to.deep.equal(['goto', 'click', 'click', 'click', 'extract']);
    // The kept prefix is version 1's steps before the drift, unchanged; the rest is the new recording.
    expect(steps.slice(0, 2)).to.deep.equal(v1.script.steps.slice(0, 2));
    expect(steps[2].target.name).to.equal('Show more');
    const item = await s.engine.db.query('SELECT healed, recipe_version FROM run_items WHERE run_id = $1', [done.run_id]);
    expect(item.rows[0]).to.include({ healed: true, recipe_version: 2 });

    s.model.reset();
    const again = await runAndWait(s, { template_id: ready.template_id });
    expect(names(again.data[`${s.site.url}/deals`])).to.deep.equal(expected(PRODUCTS.slice(0, 9)));
    expect(s.model.chatRequests()).to.have.length(0);
  });

  it('turns a parameter value inside a navigated URL (path segment, part of a query value) into placeholders, encoded at replay', async () => {
    scriptBuildModel(
      s,
      [() => [call.navigate(`${s.site.url}/browse/kettle?filter=name%3Akettle&sort=price`)], () => [call.extract()], () => [call.finish()]],
      [QUERY_PARAM],
    );
    const ready = await build(s, {
      url: `${s.site.url}/shop`,
      prompt: 'Browse the products for a term and return them. Parameter `query` (string, default kettle) — the term.',
    });
    expect(ready.status, ready.error).to.equal('ready');
    expect(names(ready.sample_data)).to.deep.equal(expected(kettles));
    const [v1] = await scriptVersions(s, ready.template_id);
    expect(v1.script.steps.slice(0, 2)).to.deep.equal([
      { action: 'goto', url: '{{url}}' },
      { action: 'goto', url: `${s.site.url}/browse/{{query}}?filter=name%3A{{query}}&sort=price` },
    ]);
    s.model.reset();
    // A value with a space: one path segment and one query value once encoded.
    const done = await runAndWait(s, { template_id: ready.template_id, parameters: { query: 'iron teapot' } });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data[`${s.site.url}/shop`])).to.deep.equal(['Iron Teapot']);
    expect(s.model.chatRequests()).to.have.length(0);
    const visited = s.site.requests.map((r) => r.path);
    expect(visited).to.include('/browse/iron%20teapot?filter=name%3Airon%20teapot&sort=price');
  });

  it('follows a recorded "Next" past the recorded pages up to max_pages, stopping where the control is gone', async () => {
    // Recorded on two of the list's three pages.
    scriptBuildModel(s, [() => [call.extract()], (o) => [call.click(refOf(o, /link "Next page"/))], () => [call.extract()], () => [call.finish()]], []);
    const ready = await build(s, { url: `${s.site.url}/list?page=1`, prompt: 'Return all products from every page.' });
    expect(ready.status, ready.error).to.equal('ready');
    expect(names(ready.sample_data)).to.deep.equal(expected(PRODUCTS.slice(0, 6)));
    const [v1] = await scriptVersions(s, ready.template_id);
    expect(v1.script.steps.map((st: any) => st.action)).to.deep.equal(['goto', 'extract', 'paginate']);
    expect(v1.script.steps[2]).to.include({ pages: 1 });
    s.model.reset();
    // No max_pages: up to the limit, so every page until "Next page" is gone (the third page has none).
    const all = await runAndWait(s, { template_id: ready.template_id });
    expect(all.status, JSON.stringify(all)).to.equal('completed');
    expect(names(all.data[`${s.site.url}/list?page=1`])).to.deep.equal(expected(PRODUCTS.slice(0, 9)));
    const two = await runAndWait(s, { template_id: ready.template_id, max_pages: 2 });
    expect(names(two.data[`${s.site.url}/list?page=1`])).to.deep.equal(expected(PRODUCTS.slice(0, 6)));
    const one = await runAndWait(s, { template_id: ready.template_id, max_pages: 1 });
    expect(names(one.data[`${s.site.url}/list?page=1`])).to.deep.equal(expected(PRODUCTS.slice(0, 3)));
    expect(s.model.chatRequests()).to.have.length(0);
  });
});

describe('agentic scrapers on a browser driver of plugin API 1.0 (no waitFor quietMs)', function () {
  this.timeout(240_000);
  let s: Stack;
  const waits: WaitForOptions[] = [];
  /** The Playwright driver as a 1.0 plugin would be: same sessions, the older apiVersion; every waitFor recorded. */
  const asApi10 = (d: Driver): Driver => ({
    ...d,
    apiVersion: '1.0',
    async openSession(opts) {
      const session = await d.openSession(opts);
      const waitFor = session.waitFor?.bind(session);
      if (waitFor) {
        session.waitFor = (o: WaitForOptions) => {
          waits.push(o);
          return waitFor(o);
        };
      }
      return session;
    },
  });
  before(async () => {
    s = await startStack({
      provider: 'openai',
      config: { browser: { driver: 'playwright' } },
      drivers: (ds) => ds.map((d) => (d.capabilities.javascript ? asApi10(d) : d)),
    });
    addAgentPages(s.site);
  });
  after(() => s?.close());

  it('replays "Load more" clicks, settling by outlines without asking the driver to wait for quiet', async () => {
    scriptBuildModel(s, LOAD_MORE_PLAN, []);
    const ready = await build(s, { url: `${s.site.url}/catalog`, prompt: 'Return every product of the catalog' });
    expect(ready.status, ready.error).to.equal('ready');
    s.model.reset();
    const done = await runAndWait(s, { template_id: ready.template_id });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data[`${s.site.url}/catalog`])).to.deep.equal(expected(PRODUCTS.slice(0, 9)));
    expect(await itemDriver(s, done.run_id)).to.equal('playwright');
    expect(s.model.chatRequests()).to.have.length(0);
    expect(waits.filter((w) => w.quietMs !== undefined)).to.deep.equal([]);
  });
});
