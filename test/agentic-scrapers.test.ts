// Agentic scrapers through the HTTP API: the agent records a script once (the scripted model plays
// the agent, names the prompt's parameters and writes the recipes), the build replays it without the
// model, runs replay it with parameters and no model call at all; the run rules (400s), DELETE
// during a build (job, model call and browser page stopped), drift on a changed layout healed by
// re-recording, cross-owner 404, publishing and cloning. Scripts recorded on plain HTML pages replay
// on the HTTP driver's interaction; one recorded where the agent needed JavaScript replays on Playwright.
import { expect } from 'chai';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { ATTRIBUTES, build, expected, names, untilFinished } from './support/agentic-api.ts';
import { scriptBuildModel } from './support/agentic-model.ts';
import { addAgentPages, PRODUCTS, productLine } from './support/agent-site.ts';
import { call, refOf, type PlanStep } from './support/agent-script.ts';
import { request } from './support/http.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';

const kettles = PRODUCTS.filter((p) => p.name.includes('Kettle'));
const teapots = PRODUCTS.filter((p) => p.name.includes('Teapot'));

/** The model of one build (see scriptBuildModel); the agent's requests tell `told.query`. */
function buildModel(s: Stack, plan: PlanStep[], parameters: unknown[], opts: { decisionDelayMs?: number } = {}) {
  return scriptBuildModel(s, plan, parameters, {
    ...opts,
    onAgentRequest: (req) => {
      told.query = /query = \\"(\w+)\\"/.exec(JSON.stringify(req.body?.messages ?? []))?.[1] ?? told.query;
    },
  });
}

const QUERY_PARAM = { name: 'query', type: 'string', description: 'the search term', default: 'kettle', example: null };
const SEARCH_PLAN: PlanStep[] = [
  (o) => [call.type(refOf(o, /searchbox|textbox/), 'kettle', true)],
  () => [call.extract()],
  () => [call.finish('all results extracted')],
];
const SEARCH_PROMPT = 'Search the shop and return every result. Parameter `query` (string, default kettle) — the search term.';
/** The query value the agent was told in the decision being answered (a plan step types it, as a model would). */
const told = { query: '' };
const TOLD_SEARCH_PLAN: PlanStep[] = [(o) => [call.type(refOf(o, /searchbox|textbox/), told.query, true)], ...SEARCH_PLAN.slice(1)];
const LIST_PLAN: PlanStep[] = [
  () => [call.extract()],
  (o) => [call.click(refOf(o, /link "Next page"/))],
  () => [call.extract()],
  (o) => [call.click(refOf(o, /link "Next page"/))],
  () => [call.extract()],
  () => [call.finish()],
];

const playwright = (s: Stack) => s.drivers.find((d) => d.name === 'playwright') as unknown as { stats(): { activePages: number } };

function lifecycleSuite(provider: 'openai' | 'ollama'): void {
  describe(`agentic scrapers: build -> ready with parameters -> replayed runs without the model (${provider})`, function () {
    this.timeout(240_000);
    let s: Stack;
    before(async () => {
      s = await startStack({ provider, config: { browser: { driver: 'playwright' } } });
      addAgentPages(s.site);
    });
    after(() => s?.close());
    beforeEach(() => s.model.reset());

    it('records a search with a `query` parameter, then replays it with another query and no model call', async () => {
      const agent = buildModel(s, SEARCH_PLAN, [QUERY_PARAM]);
      const ready = await build(s, { url: `${s.site.url}/shop`, prompt: SEARCH_PROMPT });
      expect(ready.status, ready.error).to.equal('ready');
      expect(ready).to.include({ type: 'agentic', url: `${s.site.url}/shop` });
      expect(ready).to.not.have.property('error');
      expect(ready.parameters_schema).to.deep.equal([{ name: 'query', type: 'string', description: 'the search term', default: 'kettle' }]);
      expect(names(ready.sample_data)).to.deep.equal(expected(kettles));
      expect(ready.credits_charged).to.be.greaterThan(0);
      expect(agent.decisions).to.equal(SEARCH_PLAN.length);
      // The script is declarative JSON: the typed value became the parameter's placeholder.
      const { rows } = await s.engine.db.query('SELECT version, script, reason FROM scraper_scripts WHERE scraper_id = $1', [ready.template_id]);
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ version: 1, reason: 'generated' });
      const steps = rows[0].script.steps;
      expect(steps.map((st: any) => st.action)).to.deep.equal(['goto', 'type', 'extract']);
      expect(steps[0].url).to.equal('{{url}}');
      expect(steps[1]).to.include({ value: '{{query}}', pressEnter: true });
      expect(steps[1].target).to.not.have.property('ref');
      const listed = await s.api('GET', '/v1/scrapers');
      expect(listed.body.find((x: any) => x.id === ready.template_id)).to.include({ type: 'agentic', status: 'ready' });

      s.model.reset();
      const run = await s.api('POST', '/v1/scrapers/run_async', {
        template_id: ready.template_id,
        parameters: { query: 'teapot' },
        proxy_country: 'Germany',
        cookies: [{ name: 'a', value: 'b' }],
      });
      expect(run.status, run.text).to.equal(202);
      expect(run.body).to.deep.equal({ run_id: run.body.run_id, status: 'queued' });
      const done = await untilFinished(s, run.body.run_id);
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(names(done.data[`${s.site.url}/shop`])).to.deep.equal(expected(teapots));
      expect(done.credits_charged).to.be.greaterThan(0);
      // Zero model calls: the scripted model server got no chat request during the run.
      expect(s.model.chatRequests()).to.have.length(0);
      // Recorded on plain HTML pages: the script replays on the HTTP driver's interaction, no browser.
      expect(rows[0].script.driver).to.equal('http');
      const item = await s.engine.db.query('SELECT driver, recipe_version, healed FROM run_items WHERE run_id = $1', [run.body.run_id]);
      expect(item.rows[0]).to.include({ driver: 'http', recipe_version: 1, healed: false });
      // The default fills an omitted parameter.
      const byDefault = await untilFinished(s, (await s.api('POST', '/v1/scrapers/run_async', { template_id: ready.template_id, parameters: {} })).body.run_id);
      expect(names(byDefault.data[`${s.site.url}/shop`])).to.deep.equal(expected(kettles));
      expect(s.model.chatRequests()).to.have.length(0);
    });

    it('folds "click Next, extract" into a paginate step; a top-level url moves into the url-typed parameter', async () => {
      const agent = buildModel(s, LIST_PLAN, [{ name: 'start_url', type: 'url', description: 'the listing page to start from', default: null, example: null }]);
      const ready = await build(s, {
        url: `${s.site.url}/list?page=1`,
        prompt: 'Return all products from every page. Parameter start_url (url): the listing page to start from.',
      });
      expect(ready.status, ready.error).to.equal('ready');
      expect(ready.parameters_schema).to.deep.equal([{ name: 'start_url', type: 'url', description: 'the listing page to start from' }]);
      expect(names(ready.sample_data)).to.deep.equal(expected(PRODUCTS.slice(0, 9)));
      expect(agent.decisions).to.equal(LIST_PLAN.length);
      const { rows } = await s.engine.db.query('SELECT script FROM scrapers WHERE id = $1', [ready.template_id]);
      expect(rows[0].script.steps.map((st: any) => st.action)).to.deep.equal(['goto', 'extract', 'paginate']);
      expect(rows[0].script.steps[0].url).to.equal('{{start_url}}');
      expect(rows[0].script.steps[2]).to.include({ pages: 2 });
      expect(rows[0].script.parameters).to.deep.equal({ start_url: `${s.site.url}/list?page=1` });

      s.model.reset();
      const page2 = `${s.site.url}/list?page=2`;
      const receiver = await startWebhookReceiver();
      try {
        const run = await s.api('POST', '/v1/scrapers/run_async', { template_id: ready.template_id, url: page2, parameters: {}, callback_url: receiver.url });
        expect(run.status, run.text).to.equal(202);
        const done = await untilFinished(s, run.body.run_id);
        expect(done.status, JSON.stringify(done)).to.equal('completed');
        expect(Object.keys(done.data)).to.deep.equal([page2]);
        expect(names(done.data[page2])).to.deep.equal(expected(PRODUCTS.slice(3, 9)));
        expect(s.model.chatRequests()).to.have.length(0);
        // The callback body is the finished status body, as for classic runs.
        await waitFor(() => receiver.received.length > 0, 10_000, 'the run callback');
        expect(JSON.parse(receiver.received[0].body)).to.deep.equal(done);
      } finally {
        await receiver.close();
      }
    });

    it('replays on the browser a script recorded where the agent needed one ("Load more" runs JavaScript)', async () => {
      const plan: PlanStep[] = [
        (o) => [call.click(refOf(o, /button "Load more"/))],
        (o) => [call.click(refOf(o, /button "Load more"/))],
        () => [call.extract()],
        () => [call.finish()],
      ];
      buildModel(s, plan, []);
      const ready = await build(s, { url: `${s.site.url}/catalog`, prompt: 'Return every product of the catalog' });
      expect(ready.status, ready.error).to.equal('ready');
      expect(ready).to.not.have.property('parameters_schema');
      expect(names(ready.sample_data)).to.deep.equal(expected(PRODUCTS.slice(0, 9)));
      const { rows } = await s.engine.db.query('SELECT script FROM scrapers WHERE id = $1', [ready.template_id]);
      expect(rows[0].script.driver).to.equal('browser');
      expect(rows[0].script.steps.map((st: any) => st.action)).to.deep.equal(['goto', 'click', 'click', 'extract']);

      s.model.reset();
      // Without a parameters_schema, `parameters` is ignored.
      const run = await s.api('POST', '/v1/scrapers/run_async', { template_id: ready.template_id, parameters: { anything: 1 } });
      const done = await untilFinished(s, run.body.run_id);
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(names(done.data[`${s.site.url}/catalog`])).to.deep.equal(expected(PRODUCTS.slice(0, 9)));
      const item = await s.engine.db.query('SELECT driver FROM run_items WHERE run_id = $1', [run.body.run_id]);
      expect(item.rows[0].driver).to.equal('playwright');
      expect(s.model.chatRequests()).to.have.length(0);
    });
  });
}

lifecycleSuite('openai');
lifecycleSuite('ollama');

describe('agentic scrapers: run rules, drift healed, owners, catalog (openai)', function () {
  this.timeout(240_000);
  let s: Stack;
  let searchId: string;
  let finderVersion = 1;
  before(async () => {
    s = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' }, scrapers: { selfHeal: true } } });
    addAgentPages(s.site);
    // A search page whose form is redesigned in version 2 (other label, id and button): the recorded target is gone.
    s.site.route('/finder', (_q, res) => {
      const form =
        finderVersion === 1
          ? '<label for="q">Find</label><input id="q" name="q"><button type="submit">Find</button>'
          : '<label for="term">Product search</label><input id="term" name="q" class="big"><button type="submit">Go</button>';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Finder</title></head><body><h1>Finder</h1><form action="/finder/results">${form}</form></body></html>`);
    });
    s.site.route('/finder/results', (_q, res, url) => {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><title>Results</title></head><body><h1>Results</h1><ul>${PRODUCTS.filter((p) => q && p.name.toLowerCase().includes(q))
          .map(productLine)
          .join('')}</ul></body></html>`,
      );
    });
    buildModel(s, SEARCH_PLAN, [QUERY_PARAM]);
    const ready = await build(s, { url: `${s.site.url}/shop`, prompt: SEARCH_PROMPT });
    expect(ready.status, ready.error).to.equal('ready');
    searchId = ready.template_id;
  });
  after(() => s?.close());
  beforeEach(() => s.model.reset());

  it('answers 400 for the parameter rules, a URL list and a synchronous run, each saying what to do', async () => {
    const missing = await s.api('POST', '/v1/scrapers/run_async', { template_id: searchId });
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({
      detail: 'parameters is required for this scraper.',
      code: 'BAD_REQUEST',
      message: 'parameters is required for this scraper.',
    });
    const wrongType = await s.api('POST', '/v1/scrapers/run_async', { template_id: searchId, parameters: { query: { text: 'x' } } });
    expect(wrongType.status).to.equal(400);
    expect(wrongType.body.detail).to.match(/^Parameter query must be a string/);
    const list = await s.api('POST', '/v1/scrapers/run_async', {
      template_id: searchId,
      url: [`${s.site.url}/shop`, `${s.site.url}/shop?x=1`],
      parameters: {},
    });
    expect(list.status).to.equal(400);
    expect(list.body.detail).to.contain('one URL').and.contain('run_async per URL');
    const sync = await s.api('POST', '/v1/scrapers/run', { template_id: searchId, parameters: { query: 'kettle' } });
    expect(sync.status).to.equal(400);
    expect(sync.body.code).to.equal('BAD_REQUEST');
    expect(sync.body.detail).to.contain('POST /v1/scrapers/run_async');
    // A required parameter: missing ones are named.
    await s.engine.db.query(`UPDATE scrapers SET parameters_schema = $2 WHERE id = $1`, [
      searchId,
      JSON.stringify([
        { name: 'query', type: 'string' },
        { name: 'limit', type: 'integer' },
      ]),
    ]);
    try {
      const required = await s.api('POST', '/v1/scrapers/run_async', { template_id: searchId, parameters: {} });
      expect(required.status).to.equal(400);
      expect(required.body.detail).to.equal('Missing required parameters: query, limit');
      const notInt = await s.api('POST', '/v1/scrapers/run_async', { template_id: searchId, parameters: { query: 'x', limit: 2.5 } });
      expect(notInt.body.detail).to.match(/^Parameter limit must be an integer/);
    } finally {
      await s.engine.db.query(`UPDATE scrapers SET parameters_schema = $2 WHERE id = $1`, [
        searchId,
        JSON.stringify([{ name: 'query', type: 'string', description: 'the search term', default: 'kettle' }]),
      ]);
    }
    expect(s.model.chatRequests()).to.have.length(0);
  });

  it("fails a build whose replay does not reproduce the agent's records, saying what differed", async () => {
    // Each visit shows the next three products: the replay cannot see what the agent saw.
    let visits = 0;
    s.site.route('/rotating', (_q, res) => {
      const ps = PRODUCTS.slice((visits++ % 3) * 3, (visits % 3 || 3) * 3);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Today</title></head><body><h1>Today</h1><ul>${ps.map(productLine).join('')}</ul></body></html>`);
    });
    buildModel(s, [() => [call.extract()], () => [call.finish()]], []);
    const failed = await build(s, { url: `${s.site.url}/rotating`, prompt: 'Return the products shown today.' });
    expect(failed.status).to.equal('failed');
    expect(failed.error, failed.error).to.match(
      /^Agentic scraper build failed: the recorded script did not reproduce the agent's records: the replay without the model gave 3 records where the agent gave 3; 3 of the agent's records are missing \(e\.g\. \{"name":"\w+ \w+","price":[\d.]+\}\)$/,
    );
    expect(failed.sample_data).to.equal(null);
    const runs = await s.api('POST', '/v1/scrapers/run_async', { template_id: failed.template_id });
    expect(runs.status).to.equal(409);
    expect(runs.body.code).to.equal('SCRAPER_NOT_READY');
  });

  it('validates POST /v1/agent/generate (url and prompt required) and keeps the kinds and owners apart (404)', async () => {
    const bad = await s.api('POST', '/v1/agent/generate', { attributes: ATTRIBUTES });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail.map((d: any) => d.loc.join('.'))).to.include.members(['body.url', 'body.prompt']);
    const bobKey = (await s.engine.createApiKey('bob')).key;
    for (const [method, path, body] of [
      ['GET', `/v1/agent/${searchId}`],
      ['DELETE', `/v1/agent/${searchId}`],
      ['POST', '/v1/agent/generate', { template_id: searchId, url: `${s.site.url}/shop`, prompt: 'p' }],
      ['POST', '/v1/scrapers/run_async', { template_id: searchId, parameters: { query: 'x' } }],
    ] as const) {
      const r = await s.api(method, path, body, { 'X-API-KEY': bobKey });
      expect(r.status, `${method} ${path}: ${r.text}`).to.equal(404);
    }
    expect((await s.api('GET', `/v1/extractor/${searchId}`)).status).to.equal(404);
    const classic = (await s.api('POST', '/v1/extractor/new')).body.template_id;
    const wrongKind = await s.api('POST', '/v1/agent/generate', { template_id: classic, url: `${s.site.url}/shop`, prompt: 'p' });
    expect(wrongKind.status).to.equal(404);
    expect((await s.api('GET', `/v1/agent/${classic}`)).status).to.equal(404);
    expect((await s.api('GET', `/v1/agent/${searchId}`)).status).to.equal(200);
  });

  /** A search scraper built on the finder's first design, which is then redesigned. */
  async function redesignedFinder(): Promise<any> {
    buildModel(s, SEARCH_PLAN, [QUERY_PARAM]);
    finderVersion = 1;
    const ready = await build(s, { url: `${s.site.url}/finder`, prompt: SEARCH_PROMPT });
    expect(ready.status, ready.error).to.equal('ready');
    finderVersion = 2;
    s.model.reset();
    return ready;
  }

  it('heals drift: a redesigned form loses the recorded target; the agent records again, the item is retried on the new version', async () => {
    const ready = await redesignedFinder();
    // Asked again, the agent types the value it is told for this run.
    const heal = buildModel(s, TOLD_SEARCH_PLAN, [QUERY_PARAM]);
    const run = await s.api('POST', '/v1/scrapers/run_async', { template_id: ready.template_id, parameters: { query: 'teapot' } });
    const done = await untilFinished(s, run.body.run_id);
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data[`${s.site.url}/finder`])).to.deep.equal(expected(teapots));
    // The heal re-recorded with the run's parameters (the agent was told query = "teapot").
    expect(heal.observations.length).to.be.greaterThan(0);
    expect(s.model.chatRequests().some((r) => JSON.stringify(r.body.messages).includes('query = \\"teapot\\"'))).to.equal(true);
    const item = await s.engine.db.query('SELECT healed, recipe_version FROM run_items WHERE run_id = $1', [run.body.run_id]);
    expect(item.rows[0]).to.include({ healed: true, recipe_version: 2 });
    const versions = await s.engine.db.query('SELECT version, reason FROM scraper_scripts WHERE scraper_id = $1 ORDER BY version', [ready.template_id]);
    expect(versions.rows.map((r: any) => r.version)).to.deep.equal([1, 2]);
    expect(versions.rows[1].reason).to.match(/^healed: layout changed: step 2 type "Find": its target is gone/);
    const after = await s.api('GET', `/v1/agent/${ready.template_id}`);
    expect(after.body.status).to.equal('ready');

    // The next run replays version 2 without any model call.
    s.model.reset();
    const again = await untilFinished(
      s,
      (await s.api('POST', '/v1/scrapers/run_async', { template_id: ready.template_id, parameters: { query: 'kettle' } })).body.run_id,
    );
    expect(names(again.data[`${s.site.url}/finder`])).to.deep.equal(expected(kettles));
    expect(s.model.chatRequests()).to.have.length(0);
  });

  it('heals once when two runs drift together: the second waits for the heal and replays its version', async () => {
    const ready = await redesignedFinder();
    buildModel(s, TOLD_SEARCH_PLAN, [QUERY_PARAM]);
    const [a, b] = await Promise.all(
      ['teapot', 'mug'].map((query) => s.api('POST', '/v1/scrapers/run_async', { template_id: ready.template_id, parameters: { query } })),
    );
    const [da, db] = await Promise.all([untilFinished(s, a.body.run_id), untilFinished(s, b.body.run_id)]);
    expect(da.status, JSON.stringify(da)).to.equal('completed');
    expect(db.status, JSON.stringify(db)).to.equal('completed');
    expect(names(da.data[`${s.site.url}/finder`])).to.deep.equal(expected(teapots));
    expect(names(db.data[`${s.site.url}/finder`])).to.deep.equal(['Travel Mug']);
    const versions = await s.engine.db.query('SELECT version FROM scraper_scripts WHERE scraper_id = $1', [ready.template_id]);
    expect(versions.rows).to.have.length(2);
    // One recording: the agent's three decisions, once.
    expect(s.model.chatRequests().filter((r) => Array.isArray(r.body.tools))).to.have.length(SEARCH_PLAN.length);
    const items = await s.engine.db.query('SELECT healed, recipe_version FROM run_items WHERE run_id = ANY($1)', [[a.body.run_id, b.body.run_id]]);
    expect(items.rows.map((r: any) => r.recipe_version)).to.deep.equal([2, 2]);
  });

  it('fails the item with `layout changed: <step>` and flags the scraper when healing fails', async () => {
    const ready = await redesignedFinder();
    // The agent, asked again, finds nothing: it finishes at once.
    buildModel(s, [() => [call.finish('nothing to search here')]], [QUERY_PARAM]);
    const done = await untilFinished(s, (await s.api('POST', '/v1/scrapers/run_async', { template_id: ready.template_id, parameters: {} })).body.run_id);
    expect(done.status).to.equal('failed');
    expect(done.errors[`${s.site.url}/finder`]).to.match(/^layout changed: step 2 type "Find": its target is gone; recording the script again failed: /);
    const flagged = await s.engine.db.query('SELECT drift_reason, heal_failed_version FROM scrapers WHERE id = $1', [ready.template_id]);
    expect(flagged.rows[0].drift_reason).to.match(/^layout changed: step 2/);
    expect(flagged.rows[0].heal_failed_version).to.equal(1);
    finderVersion = 1;
  });

  it("publishes with input_schema from parameters_schema and sample_input from the build's parameters; a clone copies the script and runs", async () => {
    const published = await s.engine.catalog.publish({
      scraperId: searchId,
      slug: 'kettle-search',
      title: 'Kettle search',
      description: 'Search the kettle shop',
    });
    expect(published).to.include({ slug: 'kettle-search', created: true });
    const detail = await request(s.url, 'GET', '/v1/scraper-apis/kettle-search');
    expect(detail.body).to.deep.include({
      sample_input: { url: `${s.site.url}/shop`, parameters: { query: 'kettle' } },
      input_schema: [{ name: 'query', type: 'string', description: 'the search term', default: 'kettle' }],
    });
    const carol = await s.engine.createAccessToken('carol', 600);
    const carolKey = (await s.engine.createApiKey('carol')).key;
    const clone = await request(s.url, 'POST', '/v1/scraper-apis/kettle-search/clone', { headers: { Authorization: `Bearer ${carol.token}` } });
    expect(clone.status, clone.text).to.equal(200);
    expect(clone.body.type).to.equal('agentic');
    const copy = await s.engine.db.query('SELECT s.script = o.script AS same, s.recipe_version FROM scrapers s, scrapers o WHERE s.id = $1 AND o.id = $2', [
      clone.body.template_id,
      searchId,
    ]);
    expect(copy.rows[0]).to.deep.equal({ same: true, recipe_version: 1 });
    s.model.reset();
    const run = await s.api('POST', '/v1/scrapers/run_async', { template_id: clone.body.template_id, parameters: { query: 'mug' } }, { 'X-API-KEY': carolKey });
    const done = await waitFor(
      async () => {
        const r = await s.api('GET', `/v1/scrapers/run_async/${run.body.run_id}`, undefined, { 'X-API-KEY': carolKey });
        return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : undefined;
      },
      60_000,
      "the clone's run",
    );
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data[`${s.site.url}/shop`])).to.deep.equal(['Travel Mug']);
    expect(s.model.chatRequests()).to.have.length(0);
  });
});

describe('agentic scrapers: DELETE during a build (the browser forced)', function () {
  this.timeout(120_000);
  let s: Stack;
  before(async () => {
    s = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright', escalation: 'always' } } });
    addAgentPages(s.site);
  });
  after(() => s?.close());

  it('DELETE during a build stops it: the model call in flight is cancelled, the browser page closed, the job not active', async () => {
    const agent = buildModel(s, SEARCH_PLAN, [QUERY_PARAM], { decisionDelayMs: 60_000 });
    const gen = await s.api('POST', '/v1/agent/generate', { url: `${s.site.url}/shop`, prompt: SEARCH_PROMPT, attributes: ATTRIBUTES });
    expect(gen.status, gen.text).to.equal(202);
    const id = gen.body.template_id;
    await waitFor(() => agent.observations.length > 0 && s.model.inFlight > 0, 60_000, "the agent's first decision to be asked");
    expect(playwright(s).stats().activePages).to.be.greaterThan(0);
    const del = await s.api('DELETE', `/v1/agent/${id}`);
    expect(del.status, del.text).to.equal(200);
    expect(del.body).to.deep.equal({ message: `Scraper ${id} deleted` });
    await waitFor(() => s.model.inFlight === 0, 5_000, 'the model call to be cancelled');
    await waitFor(() => playwright(s).stats().activePages === 0, 10_000, 'the browser page to close');
    const schema = s.schemas.config.jobs.schema;
    await waitFor(
      async () => {
        const { rows } = await s.engine.db.query(`SELECT state FROM "${schema}".job WHERE name = 'scraper.agent-build' AND data->>'scraperId' = $1`, [id]);
        return rows.length > 0 && rows.every((r: any) => r.state !== 'active' && r.state !== 'created' && r.state !== 'retry');
      },
      10_000,
      'the build job to end',
    );
    expect((await s.api('GET', `/v1/agent/${id}`)).status).to.equal(404);
    expect(agent.decisions).to.equal(1);
  });
});
