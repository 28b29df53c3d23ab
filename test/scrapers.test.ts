import { expect } from 'chai';
import { healScraper, loadScraper, markDrift, type Owner } from '@gleaner/core/internal';
import { startStack, sentSchema, userContent, waitFor, type Stack } from './support/stack.ts';
import { PRODUCT_ATTRIBUTES, productAnswer, productsPage } from './support/pages.ts';
import type { ModelRequest as RecordedRequest, Step } from '@gleaner/testing';
import { recipeField as f, recipeTransform as t } from './support/recipe-answers.ts';

function productRecipe(opts: { container?: string; price?: string } = {}) {
  return {
    container: { selector: opts.container ?? 'div.card' },
    fields: {
      name: f('h2', 'text'),
      price: f(opts.price ?? '.price', 'text'),
      image: f('img', 'attr', { attr: 'src' }),
      in_stock: f('.stock', 'text'),
      url: f('a', 'attr', { attr: 'href', transforms: [t('absolute_url'), t('strip_tracking')] }),
    },
    pagination: null,
  };
}

/** The recipe that fits changedPage(). */
const changedRecipe = () => ({
  container: { selector: 'article.product' },
  fields: {
    name: f('h3.title', 'text'),
    price: f('.cost', 'text'),
    image: f('img', 'attr', { attr: 'src' }),
    in_stock: f('.availability', 'text'),
    url: f('a.more', 'attr', { attr: 'href', transforms: [t('absolute_url'), t('strip_tracking')] }),
  },
  pagination: null,
});

/** productsPage() after a redesign: same facts, other markup. */
function changedPage(): string {
  const card = (sku: string, name: string, price: string, stock: string, href: string) =>
    `<article class="product" data-sku="${sku}"><h3 class="title">${name}</h3><div class="meta"><span class="cost">${price}</span><span class="availability">${stock}</span></div><img src="/img/${sku}.jpg" alt="${name}"><a class="more" href="${href}">More</a></article>`;
  return `<!doctype html><html><head><title>Laptops</title></head><body><header><a href="/">Shop</a></header><main><h1>Laptops</h1><section class="grid">
${card('alpha', 'Alpha Book', '$1,299.00', 'In stock', '/p/alpha?utm_source=news&amp;ref=7')}
${card('beta', 'Beta Pad', '$899.50', 'Out of stock', '/p/beta')}
${card('gamma', 'Gamma Pro', '$2,450.00', 'In stock', '/p/gamma')}
</section></main><footer>Shop Inc.</footer></body></html>`;
}

const isRecipeRequest = (req: RecordedRequest): boolean => Boolean(sentSchema(req)?.properties?.container);

for (const provider of ['openai', 'ollama'] as const) {
  describe(`classic scrapers: generate, read, list, delete, heal (HTTP API end to end, ${provider} provider)`, () => {
    let s: Stack;
    let alice: Owner;
    let expected: Array<Record<string, unknown>>;

    /**
     * Standard-extraction requests get `extraction` (default: productsPage()'s records), recipe
     * requests the next of `recipes` (the last one repeats).
     */
    function scriptModel(recipes: unknown[], extraction: () => Step = () => ({ json: productAnswer(s.site.url) })): void {
      const queue = [...recipes];
      s.model.script((req) => (isRecipeRequest(req) ? { json: queue.length > 1 ? queue.shift() : queue[0] } : extraction()));
    }

    async function untilBuilt(id: string): Promise<any> {
      return waitFor(
        async () => {
          const r = await s.api('GET', `/v1/extractor/${id}`);
          return r.body.status === 'ready' || r.body.status === 'failed' ? r.body : undefined;
        },
        30_000,
        `scraper ${id} build`,
      );
    }

    const recipeRequests = () => s.model.chatRequests().filter(isRecipeRequest);

    before(async () => {
      s = await startStack({ provider });
      s.site.page('/laptops', productsPage());
      s.site.page('/laptops-new', changedPage());
      alice = (await s.engine.authenticateApiKey(s.key))!;
      const base = s.site.url;
      expected = [
        { name: 'Alpha Book', price: 1299, image: `${base}/img/alpha.jpg`, in_stock: true, url: `${base}/p/alpha?ref=7` },
        { name: 'Beta Pad', price: 899.5, image: `${base}/img/beta.jpg`, in_stock: false, url: `${base}/p/beta` },
        { name: 'Gamma Pro', price: 2450, image: `${base}/img/gamma.jpg`, in_stock: true, url: `${base}/p/gamma` },
      ];
    });
    after(() => s.close());
    beforeEach(() => s.model.reset());

    it('lifecycle: new -> generate from a URL and from content -> ready with the sample -> listed newest first -> deleted', async () => {
      scriptModel([productRecipe()]);
      const created = await s.api('POST', '/v1/extractor/new');
      expect(created.status, created.text).to.equal(200);
      const id = created.body.template_id;
      const fresh = await s.api('GET', `/v1/extractor/${id}`);
      expect(fresh.body).to.include({ template_id: id, type: 'extractor', mode: 'code', status: null, url: null, recipe_version: null });

      const gen = await s.api('POST', '/v1/extractor/generate', {
        template_id: id,
        url: `${s.site.url}/laptops`,
        attributes: PRODUCT_ATTRIBUTES,
        proxy_country: null,
        cookies: null,
        source: 'n8n',
      });
      expect(gen.status, gen.text).to.equal(202);
      expect(gen.body).to.deep.equal({ template_id: id, status: 'generating' });
      const ready = await untilBuilt(id);
      expect(ready.status, ready.error).to.equal('ready');
      expect(ready.sample_data).to.deep.equal(expected);
      expect(ready).to.include({ url: `${s.site.url}/laptops`, recipe_version: 1, name: `127.0.0.1:${s.site.port}/laptops`, credits_charged: 10, drift: null });
      expect(ready).to.not.have.property('error');
      expect(ready.recipe.container).to.deep.equal({ selector: 'div.card' });
      expect(ready.attributes.map((a: { name: string }) => a.name)).to.deep.equal(PRODUCT_ATTRIBUTES.map((a) => a.name));
      // One standard extraction and one recipe round, on one fetch of the page.
      expect(s.model.chatRequests()).to.have.length(2);
      expect(s.site.requests.filter((r) => r.path === '/laptops')).to.have.length(1);
      const usage = await s.engine.db.query(`SELECT operation, credits, model_calls FROM usage_events WHERE subject = $1`, [`scraper:${id}`]);
      expect(usage.rows).to.have.length(1);
      expect(usage.rows[0]).to.include({ operation: 'scraper_build', model_calls: 2 });
      expect(Number(usage.rows[0].credits)).to.equal(10);

      s.model.reset();
      scriptModel([productRecipe()]);
      const fromContent = await s.api('POST', '/v1/extractor/generate', {
        content: productsPage(),
        url: `${s.site.url}/laptops`,
        prompt: 'the laptops',
        attributes: PRODUCT_ATTRIBUTES,
      });
      expect(fromContent.status, fromContent.text).to.equal(202);
      const contentId = fromContent.body.template_id;
      expect(contentId).to.not.equal(id);
      const built = await untilBuilt(contentId);
      expect(built.status, built.error).to.equal('ready');
      expect(built.sample_data).to.deep.equal(expected);
      expect(built.prompt).to.equal('the laptops');
      expect(s.site.requests.filter((r) => r.path === '/laptops')).to.have.length(1); // content: nothing fetched

      const list = await s.api('GET', '/v1/scrapers');
      expect(list.status).to.equal(200);
      const ids = list.body.map((x: { id: string }) => x.id);
      expect(ids.indexOf(contentId)).to.be.lessThan(ids.indexOf(id));
      const item = list.body.find((x: { id: string }) => x.id === id);
      expect(Object.keys(item).sort()).to.deep.equal(['created_at', 'drift', 'id', 'name', 'status', 'type', 'url']);
      expect(item).to.include({ type: 'extractor', status: 'ready', url: `${s.site.url}/laptops`, drift: null });
      expect(new Date(item.created_at).toISOString()).to.equal(item.created_at);

      const del = await s.api('DELETE', `/v1/extractor/${id}`);
      expect(del.status).to.equal(200);
      expect(del.body).to.deep.equal({ message: `Scraper ${id} deleted` });
      const gone = await s.api('GET', `/v1/extractor/${id}`);
      expect(gone.status).to.equal(404);
      expect(gone.body.code).to.equal('NOT_FOUND');
      expect((await s.api('DELETE', `/v1/extractor/${id}`)).status).to.equal(404);
      const after = await s.api('GET', '/v1/scrapers');
      expect(after.body.map((x: { id: string }) => x.id))
        .to.include(contentId)
        .and.not.include(id);
      const recipes = await s.engine.db.query('SELECT count(*)::int AS n FROM scraper_recipes WHERE scraper_id = $1', [id]);
      expect(recipes.rows[0].n).to.equal(0);
    });

    it('sends the differences back when the first recipe misses a field, and stores the corrected recipe as version 1', async () => {
      scriptModel([productRecipe({ price: '.cost' }), productRecipe()]);
      const gen = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES });
      const done = await untilBuilt(gen.body.template_id);
      expect(done.status, done.error).to.equal('ready');
      expect(done.recipe_version).to.equal(1);
      expect(done.recipe.fields.price.selector).to.equal('.price');
      expect(done.sample_data).to.deep.equal(expected);
      const rounds = recipeRequests();
      expect(rounds).to.have.length(2);
      const feedback = userContent(rounds[1]);
      expect(feedback).to.contain('Field "price" is missing in 3 of 3');
      expect(feedback).to.contain('1299');
      const { rows } = await s.engine.db.query('SELECT version, reason, model_calls FROM scraper_recipes WHERE scraper_id = $1', [gen.body.template_id]);
      expect(rows).to.deep.equal([{ version: 1, reason: 'generated', model_calls: 3 }]);
    });

    it('sends a positional nth-child chain back and keeps the anchored selector the model offers instead', async () => {
      const brittle = 'body > main:nth-child(3) > div:nth-child(n+2)';
      scriptModel([productRecipe({ container: brittle }), productRecipe()]);
      const gen = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES });
      const done = await untilBuilt(gen.body.template_id);
      expect(done.status, done.error).to.equal('ready');
      const rounds = recipeRequests();
      expect(rounds).to.have.length(2); // the brittle recipe reproduced the data, yet was sent back
      const feedback = userContent(rounds[1]);
      expect(feedback).to.contain(JSON.stringify(brittle));
      expect(feedback).to.contain('brittle');
      expect(done.recipe.container).to.deep.equal({ selector: 'div.card' });
    });

    it('fails with an error naming what is missing when no round produces an acceptable recipe', async () => {
      scriptModel([productRecipe({ price: '.cost' })]);
      const gen = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES });
      const done = await untilBuilt(gen.body.template_id);
      expect(done.status).to.equal('failed');
      expect(done.error).to.match(/^Scraper build failed: /);
      expect(done.error).to.contain('after 3 rounds');
      expect(done.error).to.contain('Field "price" is missing');
      expect(done.recipe_version).to.equal(null);
      expect(done.sample_data).to.equal(null);
      expect(done.credits_charged).to.equal(0); // no build fee without a recipe (tokens are free by default)
      expect(recipeRequests()).to.have.length(3); // scrapers.generateRounds
    });

    it("fails clearly when standard extraction finds nothing, with the fetch error for a missing page, and with the model's error", async () => {
      scriptModel([productRecipe()], () => ({ json: { records: [] } }));
      const empty = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops`, prompt: 'the opening hours' });
      const e = await untilBuilt(empty.body.template_id);
      expect(e.status).to.equal('failed');
      expect(e.error).to.contain('standard extraction found no records on the sample page');
      expect(recipeRequests()).to.have.length(0);

      const missing = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/no-such-page`, attributes: PRODUCT_ATTRIBUTES });
      const m = await untilBuilt(missing.body.template_id);
      expect(m.status).to.equal('failed');
      expect(m.error).to.contain('answered HTTP 404');

      s.model.script([{ error: 400, message: 'the model refuses this request' }]);
      const refused = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES });
      const r = await untilBuilt(refused.body.template_id);
      expect(r.status).to.equal('failed');
      expect(r.error).to.contain('the model refuses this request');
    });

    it("regenerating keeps the last recipe usable until the new one is accepted; a deleted scraper's build changes nothing", async () => {
      scriptModel([productRecipe()]);
      const gen = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES, name: 'Laptops' });
      const id = gen.body.template_id;
      expect((await untilBuilt(id)).status).to.equal('ready');

      s.model.reset();
      scriptModel([changedRecipe()], () => ({ json: productAnswer(s.site.url), delayMs: 500 }));
      const again = await s.api('POST', '/v1/extractor/generate', { template_id: id, url: `${s.site.url}/laptops-new`, attributes: PRODUCT_ATTRIBUTES });
      expect(again.body).to.deep.equal({ template_id: id, status: 'generating' });
      const during = await s.api('GET', `/v1/extractor/${id}`);
      expect(during.body).to.include({ status: 'generating', recipe_version: 1, name: 'Laptops' });
      expect(during.body.recipe.container).to.deep.equal({ selector: 'div.card' });
      const owner = await loadScraper(s.engine.db, alice.id, id);
      expect(owner!.recipe).to.not.equal(null); // what runs use meanwhile
      const done = await untilBuilt(id);
      expect(done).to.include({ status: 'ready', recipe_version: 2, url: `${s.site.url}/laptops-new`, credits_charged: 20 });
      expect(done.recipe.container).to.deep.equal({ selector: 'article.product' });

      s.model.reset();
      scriptModel([productRecipe()], () => ({ json: productAnswer(s.site.url), delayMs: 700 }));
      const doomed = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES });
      expect((await s.api('DELETE', `/v1/extractor/${doomed.body.template_id}`)).status).to.equal(200);
      await waitFor(
        async () => (await s.engine.db.query('SELECT 1 FROM usage_events WHERE subject = $1', [`scraper:${doomed.body.template_id}`])).rowCount,
        20_000,
        'stale build to finish',
      );
      expect(recipeRequests()).to.have.length(0); // the build saw the deletion before writing a recipe
      expect((await s.api('GET', `/v1/extractor/${doomed.body.template_id}`)).status).to.equal(404);
    });

    it("answers 422 with loc paths for bad bodies, and 404 for unknown, agentic or other owners' template ids", async () => {
      const before = (await s.api('GET', '/v1/scrapers')).body.length;
      const noSource = await s.api('POST', '/v1/extractor/generate', { attributes: PRODUCT_ATTRIBUTES });
      expect(noSource.status).to.equal(422);
      expect(noSource.body.detail.map((d: { loc: unknown[] }) => d.loc)).to.deep.equal([['body', 'url']]);
      const noWhat = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops` });
      expect(noWhat.status).to.equal(422);
      expect(noWhat.body.detail.map((d: { loc: unknown[] }) => d.loc)).to.deep.equal([['body', 'attributes']]);
      const several = await s.api('POST', '/v1/extractor/generate', { url: 'ftp://x/', proxy_country: 'Atlantis', attributes: [] });
      expect(several.status).to.equal(422);
      expect(several.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).to.have.members(['body.url', 'body.attributes', 'body.proxy_country']);
      const shape = await s.api('POST', '/v1/extractor/generate', { content: 42, prompt: 'x' });
      expect(shape.status).to.equal(422);
      expect(shape.body.detail[0].loc).to.deep.equal(['body', 'content']);
      expect((await s.api('GET', '/v1/scrapers')).body).to.have.length(before);

      const unknown = await s.api('POST', '/v1/extractor/generate', { template_id: 'no-such-id', url: `${s.site.url}/laptops`, prompt: 'x' });
      expect(unknown.status).to.equal(404);
      const agent = (await s.api('POST', '/v1/agent/new')).body.template_id;
      const wrongKind = await s.api('POST', '/v1/extractor/generate', { template_id: agent, url: `${s.site.url}/laptops`, prompt: 'x' });
      expect(wrongKind.status).to.equal(404);
      const mine = (await s.api('POST', '/v1/extractor/new')).body.template_id;
      const bob = (await s.engine.createApiKey('bob')).key;
      const asBob = { 'X-API-KEY': bob };
      const cross = await s.api('POST', '/v1/extractor/generate', { template_id: mine, url: `${s.site.url}/laptops`, prompt: 'x' }, asBob);
      expect(cross.status).to.equal(404);
      expect(s.model.chatRequests()).to.have.length(0);
      expect((await s.api('GET', `/v1/extractor/${mine}`)).body.status).to.equal(null);
    });

    it("keeps the kinds apart: agentic ids are 404 on /v1/extractor, classic ids on /v1/agent, other owners' ids everywhere", async () => {
      const agent = await s.api('POST', '/v1/agent/new');
      expect(agent.status).to.equal(200);
      const agentId = agent.body.template_id;
      const classicId = (await s.api('POST', '/v1/extractor/new')).body.template_id;

      const detail = await s.api('GET', `/v1/agent/${agentId}`);
      expect(detail.status).to.equal(200);
      expect(detail.body).to.include({ template_id: agentId, type: 'agentic', status: null, url: null, sample_data: null, credits_charged: 0 });
      expect(detail.body).to.not.have.property('parameters_schema');
      expect(detail.body).to.not.have.property('error');

      for (const [method, path] of [
        ['GET', `/v1/extractor/${agentId}`],
        ['DELETE', `/v1/extractor/${agentId}`],
        ['GET', `/v1/agent/${classicId}`],
        ['DELETE', `/v1/agent/${classicId}`],
      ]) {
        const r = await s.api(method, path);
        expect(r.status, `${method} ${path}`).to.equal(404);
        expect(r.body.code).to.equal('NOT_FOUND');
      }
      const bob = { 'X-API-KEY': (await s.engine.createApiKey('bob')).key };
      for (const [method, path] of [
        ['GET', `/v1/extractor/${classicId}`],
        ['DELETE', `/v1/extractor/${classicId}`],
        ['GET', `/v1/agent/${agentId}`],
        ['DELETE', `/v1/agent/${agentId}`],
      ]) {
        expect((await s.api(method, path, undefined, bob)).status, `bob ${method} ${path}`).to.equal(404);
      }
      expect((await s.api('GET', '/v1/scrapers', undefined, bob)).body).to.deep.equal([]);

      const list = (await s.api('GET', '/v1/scrapers')).body;
      expect(list[0]).to.include({ id: classicId, type: 'extractor', status: null });
      expect(list[1]).to.include({ id: agentId, type: 'agentic', status: null });
      const del = await s.api('DELETE', `/v1/agent/${agentId}`);
      expect(del.body).to.deep.equal({ message: `Scraper ${agentId} deleted` });
      expect((await s.api('GET', `/v1/agent/${agentId}`)).status).to.equal(404);
    });

    it('heals a drifted scraper from the changed page as version 2, and two concurrent heals call the model once', async () => {
      scriptModel([productRecipe()]);
      const id = (await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES })).body.template_id;
      expect((await untilBuilt(id)).status).to.equal('ready');
      const scraper = (await loadScraper(s.engine.db, alice.id, id))!;
      expect(scraper.recipeVersion).to.equal(1);

      await markDrift(s.engine.db, id, 'the recipe found no records');
      expect((await s.api('GET', `/v1/extractor/${id}`)).body.drift).to.include({ reason: 'the recipe found no records' });

      s.model.reset();
      // A slow standard extraction keeps the first heal busy while the second one arrives.
      scriptModel([changedRecipe()], () => ({ json: productAnswer(s.site.url), delayMs: 600 }));
      const page = { html: changedPage(), url: `${s.site.url}/laptops-new`, driver: 'http' };
      const [a, b] = await Promise.all([
        healScraper(s.engine.context, scraper, page, 'the recipe found no records'),
        healScraper(s.engine.context, scraper, page, 'the recipe found no records'),
      ]);
      expect(s.model.chatRequests()).to.have.length(2); // one standard extraction + one recipe round, once
      for (const r of [a, b]) {
        expect(r.healed).to.equal(true);
        if (!r.healed) continue;
        expect(r.version).to.equal(2);
        expect(r.records).to.deep.equal(expected);
        expect(r.recipe.container).to.deep.equal({ selector: 'article.product' });
      }
      expect([a, b].map((r) => (r.healed ? r.modelCalls : -1)).sort()).to.deep.equal([0, 2]);

      const { rows } = await s.engine.db.query('SELECT version, reason FROM scraper_recipes WHERE scraper_id = $1 ORDER BY version', [id]);
      expect(rows).to.deep.equal([
        { version: 1, reason: 'generated' },
        { version: 2, reason: 'healed: the recipe found no records' },
      ]);
      const after = (await s.api('GET', `/v1/extractor/${id}`)).body;
      expect(after).to.include({ status: 'ready', recipe_version: 2, drift: null, credits_charged: 20 });
      expect(after.sample_data).to.deep.equal(expected);
      const heals = await s.engine.db.query(`SELECT count(*)::int AS n FROM usage_events WHERE subject = $1 AND operation = 'scraper_heal'`, [`scraper:${id}`]);
      expect(heals.rows[0].n).to.equal(1);

      // A page with nothing on it cannot be healed from, and says so.
      s.model.reset();
      scriptModel([changedRecipe()], () => ({ json: { records: [] } }));
      const stale = (await loadScraper(s.engine.db, alice.id, id))!;
      const none = await healScraper(
        s.engine.context,
        stale,
        { html: '<html><body><p>Closed for maintenance</p></body></html>', url: `${s.site.url}/laptops-new`, driver: 'http' },
        'no records',
      );
      expect(none.healed).to.equal(false);
      if (!none.healed) expect(none.reason).to.contain('standard extraction found no records');
      expect(recipeRequests()).to.have.length(0);
      const callsAfterFirstFailure = s.model.chatRequests().length;
      expect(callsAfterFirstFailure).to.equal(1); // the standard extraction of the maintenance page

      // That failure is remembered for this version: the next drifting page costs no model call.
      const again = await healScraper(
        s.engine.context,
        stale,
        { html: '<html><body><p>Closed for maintenance</p></body></html>', url: `${s.site.url}/laptops-other`, driver: 'http' },
        'no records',
      );
      expect(again.healed).to.equal(false);
      if (!again.healed) expect(again.reason).to.match(/standard extraction found no records.*an earlier regeneration of this version failed/);
      expect(s.model.chatRequests()).to.have.length(callsAfterFirstFailure);
    });
  });
}
