import { expect } from 'chai';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { request, type JsonResponse } from './support/http.ts';
import { BUILT_PRODUCTS, productBuildAnswers, productsPage, recipeTextField } from './support/pages.ts';
import { freePort, startCli, waitForExit, waitForHttp } from './support/process.ts';
import { TEST_DATABASE_URL, dropSchemas } from './support/db.ts';

// The legacy map form of attributes: name -> description, and name -> {description, type}.
const MAP_ATTRIBUTES = { name: 'product name', price: { description: 'price in dollars', type: 'number' } };

function expectDeprecated(res: JsonResponse, successor?: string): void {
  expect(res.headers.get('deprecation'), 'Deprecation header').to.match(/^@\d+$/);
  const link = res.headers.get('link') ?? '';
  expect(link).to.contain('rel="deprecation"');
  if (successor) expect(link).to.contain(`${successor}>; rel="successor-version"`);
}

async function agentStatus(s: Stack, name: string): Promise<string | null | undefined> {
  const list = await s.agents('GET', '/v1/list');
  return list.body.agents.user.find((a: { name: string }) => a.name === name)?.status;
}

describe('legacy agents interface (deprecated, its own listener)', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ agents: true });
    s.site.page('/laptops', productsPage());
  });
  after(() => s?.close());
  beforeEach(() => s.model.reset());

  it('generate -> list (status) -> scrape -> remove -> scrape 404; the agent is a scraper of the current API meanwhile', async () => {
    s.model.script(productBuildAnswers());
    const gen = await s.agents('POST', '/v1/generate', { name: 'laptops', url: `${s.site.url}/laptops`, attributes: MAP_ATTRIBUTES });
    expect(gen.status, gen.text).to.equal(202);
    expect(gen.body).to.deep.equal({ name: 'laptops', status: 'generating' });
    expectDeprecated(gen, `${s.url}/v1/extractor/generate`);

    await waitFor(async () => (await agentStatus(s, 'laptops')) === 'ready', 30_000, 'agent build');
    const list = await s.agents('GET', '/v1/list');
    expectDeprecated(list, `${s.url}/v1/scrapers`);
    const [agent] = list.body.agents.user;
    expect(agent).to.deep.equal({ id: agent.id, name: 'laptops', status: 'ready' });

    // The same scraper on the current API: listed, readable and runnable by its template_id.
    const scrapers = await s.api('GET', '/v1/scrapers');
    expect(scrapers.body.find((x: { id: string }) => x.id === agent.id)).to.include({ name: 'laptops', type: 'extractor', status: 'ready' });
    expect((await s.api('GET', `/v1/extractor/${agent.id}`)).body.attributes).to.deep.equal([
      { name: 'name', description: 'product name', type: 'any' },
      { name: 'price', description: 'price in dollars', type: 'number' },
    ]);
    const run = await s.api('POST', '/v1/scrapers/run', { template_id: agent.id });
    expect(run.status, run.text).to.equal(200);
    expect(run.body.data).to.deep.equal(BUILT_PRODUCTS);

    const scraped = await s.agents('POST', '/v1/scrape', { name: 'laptops', url: `${s.site.url}/laptops` });
    expect(scraped.status, scraped.text).to.equal(200);
    expect(scraped.body).to.deep.equal({ data: BUILT_PRODUCTS });
    expectDeprecated(scraped, `${s.url}/v1/scrapers/run`);
    expect(s.model.chatRequests()).to.have.length(2); // the build only
    // A page that cannot be read is an error answer, as on the current extract endpoints.
    const missing = await s.agents('POST', '/v1/scrape', { name: 'laptops', url: `${s.site.url}/no-such-page` });
    expect(missing.status, missing.text).to.equal(502);
    expect(missing.body.code).to.equal('FETCH_FAILED');
    expect(missing.body.detail).to.contain('404');

    const removed = await s.agents('POST', '/v1/remove', { name: 'laptops' });
    expect(removed.status, removed.text).to.equal(200);
    expect(removed.body.message).to.contain('laptops');
    expectDeprecated(removed);
    expect((await s.api('GET', `/v1/extractor/${agent.id}`)).status).to.equal(404);
    expect((await s.agents('GET', '/v1/list')).body.agents.user).to.deep.equal([]);

    const gone = await s.agents('POST', '/v1/scrape', { name: 'laptops', url: `${s.site.url}/laptops` });
    expect(gone.status).to.equal(404);
    expect(gone.body.code).to.equal('NOT_FOUND');
    expect(gone.body.detail).to.contain('POST /v1/generate');
    expectDeprecated(gone);
    expect((await s.agents('POST', '/v1/remove', { name: 'laptops' })).status).to.equal(404);
  });

  it('re-generating a name rebuilds its scraper; deleting the scraper on the current API drops the name', async () => {
    const namesOnly = [
      { json: { records: BUILT_PRODUCTS.map((r) => ({ name: r.name })) } },
      { json: { container: { selector: 'div.card' }, fields: { name: recipeTextField('h2') }, pagination: null } },
    ];
    s.model.script([...namesOnly, ...productBuildAnswers()]);
    const first = await s.agents('POST', '/v1/generate', {
      name: 'shop',
      url: `${s.site.url}/laptops`,
      prompt: 'laptops',
      attributes: { name: 'product name' },
    });
    expect(first.status, first.text).to.equal(202);
    await waitFor(async () => (await agentStatus(s, 'shop')) !== 'generating', 30_000, 'first build');
    expect(await agentStatus(s, 'shop')).to.equal('ready');
    const [before] = (await s.agents('GET', '/v1/list')).body.agents.user;

    const again = await s.agents('POST', '/v1/generate', { name: 'shop', url: `${s.site.url}/laptops`, attributes: MAP_ATTRIBUTES });
    expect(again.status, again.text).to.equal(202);
    await waitFor(async () => (await agentStatus(s, 'shop')) === 'ready', 30_000, 'rebuild');
    const users = (await s.agents('GET', '/v1/list')).body.agents.user;
    expect(users).to.have.length(1);
    expect(users[0].id).to.equal(before.id);
    const detail = await s.api('GET', `/v1/extractor/${before.id}`);
    expect(detail.body.recipe_version).to.equal(2);
    expect(detail.body.attributes.map((a: { name: string }) => a.name)).to.deep.equal(['name', 'price']);

    const del = await s.api('DELETE', `/v1/extractor/${before.id}`);
    expect(del.status, del.text).to.equal(200);
    expect((await s.agents('GET', '/v1/list')).body.agents.user).to.deep.equal([]);
    expect((await s.agents('POST', '/v1/scrape', { name: 'shop' })).status).to.equal(404);
  });

  it('scrapes public/<slug> from the catalog snapshot without creating anything for the caller', async () => {
    s.model.script(productBuildAnswers());
    const gen = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops`, attributes: MAP_ATTRIBUTES });
    await waitFor(async () => (await s.api('GET', `/v1/extractor/${gen.body.template_id}`)).body.status === 'ready', 30_000, 'build');
    await s.engine.catalog.publish({ scraperId: gen.body.template_id, slug: 'laptop-shop', title: 'Laptop shop', description: 'Laptops and prices' });

    const erin = (await s.engine.createApiKey('erin')).key;
    const asErin = { 'X-API-KEY': erin };
    const list = await s.agents('GET', '/v1/list', undefined, asErin);
    expect(list.body.agents).to.deep.equal({ user: [], public: [{ id: 'laptop-shop', name: 'public/laptop-shop', title: 'Laptop shop' }] });

    s.site.page('/laptops-today', productsPage().replace('$899.50', '$799.00'));
    const scraped = await s.agents('POST', '/v1/scrape', { name: 'public/laptop-shop', url: `${s.site.url}/laptops-today` }, asErin);
    expect(scraped.status, scraped.text).to.equal(200);
    expect(scraped.body.data).to.deep.equal([BUILT_PRODUCTS[0], { name: 'Beta Pad', price: 799 }, BUILT_PRODUCTS[2]]);
    expectDeprecated(scraped);
    // Without url: the entry's sample page.
    const sample = await s.agents('POST', '/v1/scrape', { name: 'public/laptop-shop' }, asErin);
    expect(sample.body.data).to.deep.equal(BUILT_PRODUCTS);
    expect((await s.api('GET', '/v1/scrapers', undefined, asErin)).body).to.deep.equal([]);
    expect(s.model.chatRequests()).to.have.length(2); // the build only

    const unknown = await s.agents('POST', '/v1/scrape', { name: 'public/no-such-agent', url: `${s.site.url}/laptops` }, asErin);
    expect(unknown.status).to.equal(404);
    const removePublic = await s.agents('POST', '/v1/remove', { name: 'public/laptop-shop' }, asErin);
    expect(removePublic.status).to.equal(400);
    await s.engine.catalog.unpublish('laptop-shop');
  });

  it('validates like the current API (422 bodies), takes the same API keys (401 otherwise), and marks every answer deprecated', async () => {
    const missing = await s.agents('POST', '/v1/generate', { name: 'x' });
    expect(missing.status).to.equal(422);
    expect(missing.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).to.include('body.url');
    expectDeprecated(missing);
    const reserved = await s.agents('POST', '/v1/generate', { name: 'public/mine', url: `${s.site.url}/laptops`, prompt: 'laptops' });
    expect(reserved.status).to.equal(422);
    expect(reserved.body.detail[0].loc).to.deep.equal(['body', 'name']);
    const neither = await s.agents('POST', '/v1/generate', { name: 'y', url: `${s.site.url}/laptops` });
    expect(neither.status).to.equal(422);
    expect(neither.body.detail[0].loc).to.deep.equal(['body', 'attributes']);
    expect((await s.agents('GET', '/v1/list')).body.agents.user).to.deep.equal([]); // nothing created

    const noKey = await request(s.agentsUrl, 'GET', '/v1/list');
    expect(noKey.status).to.equal(401);
    expect(noKey.headers.get('www-authenticate')).to.contain('X-API-KEY');
    expectDeprecated(noKey, `${s.url}/v1/scrapers`);
    const ready = await request(s.agentsUrl, 'GET', '/readyz');
    expect(ready.body).to.deep.equal({ status: 'ok' });
    // The current API's endpoints are not served here, nor the legacy ones on the API.
    expect((await s.agents('GET', '/v1/scrapers')).status).to.equal(404);
    expect((await s.api('GET', '/v1/list')).status).to.equal(404);
    expect(s.model.chatRequests()).to.have.length(0);
  });
});

describe('legacy agents interface: gleaner serve', () => {
  const schema = `t_legacy_${Math.random().toString(36).slice(2, 8)}`;
  const env = {
    DATABASE_URL: TEST_DATABASE_URL,
    GLEANER_DB_SCHEMA: schema,
    GLEANER_JOBS_SCHEMA: `${schema}_jobs`,
    GLEANER_LLM_PROVIDER: 'ollama',
    OLLAMA_HOST: 'http://127.0.0.1:9',
  };
  after(() => dropSchemas(TEST_DATABASE_URL, schema, `${schema}_jobs`));

  it('serves the legacy listener on --agents-port next to the API, and closes both on SIGTERM', async function () {
    this.timeout(180_000);
    const [port, agentsPort] = [await freePort(), await freePort()];
    const child = startCli(['serve', '--port', String(port), '--agents-port', String(agentsPort), '--host', '127.0.0.1'], env);
    try {
      await waitForHttp(`http://127.0.0.1:${port}/readyz`, 90_000, child);
      const ready = await waitForHttp(`http://127.0.0.1:${agentsPort}/readyz`, 10_000, child);
      expect(ready.headers.get('link')).to.contain(`<http://127.0.0.1:${port}/docs>; rel="deprecation"`);
      const list = await request(`http://127.0.0.1:${agentsPort}`, 'GET', '/v1/list');
      expect(list.status).to.equal(401);
      child.kill('SIGTERM');
      expect(await waitForExit(child, 60_000)).to.equal(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
