import { expect } from 'chai';
import { insertScraper, listDeliveries, verifyWebhook, type Owner } from '@gleaner/core/internal';
import { startStack, sentSchema, userContent, waitFor, type Stack } from './support/stack.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';
import { buildScraper as buildScraperFrom } from './support/scrapers.ts';
import type { ModelRequest as RecordedRequest } from '@gleaner/testing';
import { recipeField as f, recipeTransform as t } from './support/recipe-answers.ts';
import { runFinished } from './support/runs.ts';

const ATTRS = [
  { name: 'name', type: 'string' },
  { name: 'price', type: 'number' },
];
const OLD_RECIPE = {
  container: { selector: 'div.card' },
  fields: { name: f('h2.name', 'text'), price: f('.price', 'text', { transforms: [t('number')] }) },
  pagination: null,
};
const NEW_RECIPE = {
  container: { selector: 'article.tile' },
  fields: { name: f('h3.title', 'text'), price: f('.cost', 'text', { transforms: [t('number')] }) },
  pagination: null,
};

/** A shop page with three widgets, in the old markup (cards) or after a redesign (tiles). */
function shopPage(n: number, layout: 'old' | 'new'): string {
  const items = [1, 2, 3].map((k) => ({ name: `Widget ${n}-${k}`, price: `${n}.${k}0 EUR` }));
  const body =
    layout === 'old'
      ? items.map((i) => `<div class="card"><h2 class="name">${i.name}</h2><span class="price">${i.price}</span></div>`).join('\n')
      : `<section class="tiles">${items.map((i) => `<article class="tile"><h3 class="title">${i.name}</h3><b class="cost">${i.price}</b></article>`).join('\n')}</section>`;
  return `<!doctype html><html><head><title>Shop ${n}</title></head><body><nav><a href="/">Home</a></nav><main><h1>Shop ${n}</h1>${body}</main><footer>Shop Inc.</footer></body></html>`;
}

const expectedRecords = (n: number) => [1, 2, 3].map((k) => ({ name: `Widget ${n}-${k}`, price: Number(`${n}.${k}`) }));

const isRecipeRequest = (req: RecordedRequest): boolean => Boolean(sentSchema(req)?.properties?.container);

/** What a model reading a shop page answers: its widgets (standard extraction), or the recipe for its markup. */
function scriptModel(s: Stack): void {
  s.model.script((req) => {
    const input = userContent(req);
    if (isRecipeRequest(req)) return { json: input.includes('tile') ? NEW_RECIPE : OLD_RECIPE };
    const records = [...input.matchAll(/Widget (\d+)-(\d)/g)].map((m) => ({ name: `Widget ${m[1]}-${m[2]}`, price: `${m[1]}.${m[2]}0 EUR` }));
    return { json: { records } };
  });
}

/** Serves /shop?page=N (old markup), /flaky?page=N (500 for every tenth), /slow?page=N&ms=M, /drift?page=N (layout switchable). */
function shopSite(s: Stack): { layout: { drift: 'old' | 'new' } } {
  const layout = { drift: 'old' as 'old' | 'new' };
  const page = (url: URL) => Number(url.searchParams.get('page') ?? 1);
  const html = (res: import('node:http').ServerResponse, status: number, body: string): void =>
    void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  s.site.route('/shop', (_q, res, url) => html(res, 200, shopPage(page(url), 'old')));
  s.site.route('/flaky', (_q, res, url) => (page(url) % 10 === 0 ? html(res, 500, '<h1>Internal error</h1>') : html(res, 200, shopPage(page(url), 'old'))));
  s.site.route('/slow', async (_q, res, url) => {
    await new Promise((r) => setTimeout(r, Number(url.searchParams.get('ms') ?? 2000)));
    if (!res.destroyed) html(res, 200, shopPage(page(url), 'old'));
  });
  s.site.route('/drift', (_q, res, url) => html(res, 200, shopPage(page(url), layout.drift)));
  return { layout };
}

const buildScraper = (s: Stack, url: string): Promise<string> => buildScraperFrom(s, { url, attributes: ATTRS });

async function items(s: Stack, runId: string): Promise<any[]> {
  const { rows } = await s.engine.db.query('SELECT * FROM run_items WHERE run_id = $1 ORDER BY position', [runId]);
  return rows;
}

describe('scraper runs (HTTP API end to end)', () => {
  let s: Stack;
  let alice: Owner;
  let site: ReturnType<typeof shopSite>;
  let scraperId: string;

  before(async function () {
    this.timeout(60_000);
    s = await startStack({ config: { runs: { waitSeconds: 30 }, callbacks: { retryDelaySeconds: 1, retryDelayMaxSeconds: 2 } } });
    alice = (await s.engine.authenticateApiKey(s.key))!;
    site = shopSite(s);
    scriptModel(s);
    scraperId = await buildScraper(s, `${s.site.url}/shop?page=1`);
  });
  after(() => s?.close());

  it('runs a built scraper synchronously and in the background, with no model call', async () => {
    const calls = s.model.chatRequests().length;
    const sync = await s.api('POST', '/v1/scrapers/run', { template_id: scraperId, url: `${s.site.url}/shop?page=7`, source: 'n8n', unknown_field: 1 });
    expect(sync.status, sync.text).to.equal(200);
    expect(sync.body).to.include({ status: 'completed', credits_charged: 0.2 });
    expect(sync.body.run_id).to.be.a('string');
    expect(sync.body.data).to.deep.equal(expectedRecords(7)); // one URL string: a list

    const urls = [3, 4, 5].map((n) => `${s.site.url}/shop?page=${n}`);
    const listed = await s.api('POST', '/v1/scrapers/run', { template_id: scraperId, url: urls });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.data).to.deep.equal(Object.fromEntries(urls.map((u, i) => [u, expectedRecords(i + 3)]))); // a list: URL -> records

    const submitted = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls });
    expect(submitted.status, submitted.text).to.equal(202);
    expect(submitted.body).to.deep.equal({ run_id: submitted.body.run_id, status: 'queued' });
    const done = await runFinished(s, submitted.body.run_id);
    expect(done).to.deep.equal({
      run_id: submitted.body.run_id,
      status: 'completed',
      completed: 3,
      total: 3,
      credits_charged: 0.6,
      data: Object.fromEntries(urls.map((u, i) => [u, expectedRecords(i + 3)])),
      errors: {},
      // A Gleaner extension: the run's pace per host and what waiting for it cost (time varies).
      politeness: { concurrency: 2, delay_ms: 250, robots: 'respected', waited_ms: done.politeness.waited_ms, backoffs: 0, skipped: 0 },
    });
    const rows = await items(s, submitted.body.run_id);
    expect(rows.map((r) => [r.status, r.driver, r.recipe_version, r.attempts])).to.deep.equal([
      ['completed', 'http', 1, 1],
      ['completed', 'http', 1, 1],
      ['completed', 'http', 1, 1],
    ]);
    expect(s.model.chatRequests().length - calls).to.equal(0);
    const usage = await s.engine.db.query(`SELECT pages, model_calls, credits FROM usage_events WHERE subject = $1`, [`run:${submitted.body.run_id}`]);
    expect(usage.rows).to.deep.equal([{ pages: 3, model_calls: 0, credits: '0.6' }]);

    // A redelivered item job (at-least-once delivery) finds its URL recorded and changes nothing.
    const again = await s.engine.jobs.send('run.item', { runId: submitted.body.run_id, position: 1 });
    await waitFor(async () => (await s.engine.jobs.boss.getJobById('run.item', again))?.state === 'completed', 10_000, 'the redelivered job');
    expect((await items(s, submitted.body.run_id)).map((r) => r.attempts)).to.deep.equal([1, 1, 1]);
    expect(await s.api('GET', `/v1/scrapers/run_async/${submitted.body.run_id}`).then((r) => r.body)).to.deep.equal(done);
    expect((await s.engine.db.query('SELECT count(*)::int AS n FROM usage_events WHERE subject = $1', [`run:${submitted.body.run_id}`])).rows[0].n).to.equal(1);
  });

  it("accepts the legacy scraper_id, and runs the scraper's own URL when url is omitted", async () => {
    const legacy = await s.api('POST', '/v1/scrapers/run', { scraper_id: scraperId });
    expect(legacy.status, legacy.text).to.equal(200);
    expect(legacy.body.data).to.deep.equal(expectedRecords(1));
    const nullUrl = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: null });
    const done = await runFinished(s, nullUrl.body.run_id);
    expect(Object.keys(done.data)).to.deep.equal([`${s.site.url}/shop?page=1`]);
  });

  it('answers 422 for 101 URLs, an empty list, a bad URL or no template_id, and creates nothing', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `${s.site.url}/shop?page=${i + 1}`);
    const before = (await s.engine.db.query('SELECT count(*)::int AS n FROM runs')).rows[0].n;
    const tooMany = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: many });
    expect(tooMany.status).to.equal(422);
    expect(tooMany.body.detail[0]).to.include({ type: 'too_long' });
    expect(tooMany.body.detail[0].loc).to.deep.equal(['body', 'url']);
    const empty = await s.api('POST', '/v1/scrapers/run', { template_id: scraperId, url: [] });
    expect(empty.status).to.equal(422);
    const bad = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: [`${s.site.url}/shop`, 'ftp://x/'] });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail[0].loc).to.deep.equal(['body', 'url', 1]);
    const none = await s.api('POST', '/v1/scrapers/run_async', { url: `${s.site.url}/shop` });
    expect(none.status).to.equal(422);
    expect(none.body.detail[0].loc).to.deep.equal(['body', 'template_id']);
    const pages = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, max_pages: 1000 });
    expect(pages.status).to.equal(422);
    expect((await s.engine.db.query('SELECT count(*)::int AS n FROM runs')).rows[0].n).to.equal(before);
  });

  it("answers 409 SCRAPER_NOT_READY for a scraper never generated, and 404 for unknown or another owner's ids", async () => {
    const created = await s.api('POST', '/v1/extractor/new');
    const notReady = await s.api('POST', '/v1/scrapers/run', { template_id: created.body.template_id, url: `${s.site.url}/shop` });
    expect(notReady.status).to.equal(409);
    expect(notReady.body.code).to.equal('SCRAPER_NOT_READY');
    expect(notReady.body.detail).to.contain('has not been generated yet').and.contain('/v1/extractor/generate');

    const unknown = await s.api('POST', '/v1/scrapers/run_async', { template_id: 'no-such-scraper' });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.code).to.equal('NOT_FOUND');
    const bob = (await s.engine.createApiKey('bob')).key;
    const other = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId }, { 'X-API-KEY': bob });
    expect(other.status).to.equal(404);
    const mine = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId });
    const peek = await s.api('GET', `/v1/scrapers/run_async/${mine.body.run_id}`, undefined, { 'X-API-KEY': bob });
    expect(peek.status).to.equal(404);
    expect((await s.api('GET', '/v1/scrapers/run_async/00000000-0000-0000-0000-000000000000')).status).to.equal(404);
    await runFinished(s, mine.body.run_id);
  });

  it('applies the custom-parameter rules of agentic scrapers (spec 4.3); a stored script that breaks the script schema fails the item', async () => {
    const id = await s.engine.db.tx((tx) =>
      insertScraper(tx, {
        ownerId: alice.id,
        kind: 'agentic',
        url: `${s.site.url}/shop?page=1`,
        status: 'ready',
        script: { steps: [] },
        parametersSchema: [
          { name: 'start_url', type: 'url' },
          { name: 'query', type: 'string' },
          { name: 'limit', type: 'integer', default: 10 },
        ],
      }),
    );
    const two = await s.api('POST', '/v1/scrapers/run_async', { template_id: id, url: [`${s.site.url}/a`, `${s.site.url}/b`] });
    expect(two.status).to.equal(400);
    expect(two.body.detail).to.contain('one URL');
    const sync = await s.api('POST', '/v1/scrapers/run', { template_id: id, url: `${s.site.url}/a` });
    expect(sync.status).to.equal(400);
    expect(sync.body.detail).to.contain('run_async');
    const missing = await s.api('POST', '/v1/scrapers/run_async', { template_id: id, url: `${s.site.url}/a` });
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({
      detail: 'parameters is required for this scraper.',
      code: 'BAD_REQUEST',
      message: 'parameters is required for this scraper.',
    });
    // The top-level url fills the URL-typed parameter; `limit` has a default; `query` is missing.
    const required = await s.api('POST', '/v1/scrapers/run_async', { template_id: id, url: `${s.site.url}/a`, parameters: {} });
    expect(required.status).to.equal(400);
    expect(required.body.detail).to.equal('Missing required parameters: query');
    const typed = await s.api('POST', '/v1/scrapers/run_async', { template_id: id, url: `${s.site.url}/a`, parameters: { query: 'x', limit: 'ten' } });
    expect(typed.status).to.equal(400);
    expect(typed.body.detail).to.match(/^Parameter limit must be an integer/);
    const valid = await s.api('POST', '/v1/scrapers/run_async', {
      template_id: id,
      url: `${s.site.url}/a`,
      parameters: { query: 'x', start_url: null, limit: '5' },
    });
    expect(valid.status, valid.text).to.equal(202); // start_url filled from url: the rules pass
    const done = await runFinished(s, valid.body.run_id);
    expect(done.status).to.equal('failed');
    expect(Object.keys(done.data)).to.deep.equal([`${s.site.url}/a`]);
    expect(done.errors[`${s.site.url}/a`]).to.contain('the agentic script is invalid');
    const item = await s.engine.db.query('SELECT error_code FROM run_items WHERE run_id = $1', [valid.body.run_id]);
    expect(item.rows[0].error_code).to.equal('SCRIPT_INVALID');
  });

  it('records a 100-URL run where some pages answer 500 as completed_partial, with errors and [] entries', async function () {
    this.timeout(90_000);
    const urls = Array.from({ length: 100 }, (_, i) => `${s.site.url}/flaky?page=${i + 1}`);
    const submitted = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls });
    expect(submitted.status, submitted.text).to.equal(202);
    const done = await runFinished(s, submitted.body.run_id);
    expect(done).to.include({ status: 'completed_partial', completed: 100, total: 100, credits_charged: 18 });
    const failing = urls.filter((_, i) => (i + 1) % 10 === 0);
    expect(Object.keys(done.errors)).to.have.members(failing);
    for (const u of failing) {
      expect(done.data[u]).to.deep.equal([]);
      expect(done.errors[u]).to.contain('answered HTTP 500');
    }
    expect(Object.keys(done.data)).to.have.length(100);
    expect(done.data[urls[0]]).to.deep.equal(expectedRecords(1));
    const rows = await items(s, submitted.body.run_id);
    expect(rows.filter((r) => r.status === 'completed')).to.have.length(90);
    expect(rows.filter((r) => r.error_code === 'FETCH_FAILED').map((r) => r.attempts)).to.deep.equal(failing.map(() => 3)); // retried, then recorded once
  });

  it('POSTs the finished status body, signed, to callback_url', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const urls = [`${s.site.url}/shop?page=11`, `${s.site.url}/no-such-page`];
      const submitted = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls, callback_url: receiver.url });
      const done = await runFinished(s, submitted.body.run_id);
      await waitFor(() => receiver.received.length > 0, 20_000, 'callback');
      const [hook] = receiver.received;
      expect(verifyWebhook(await s.engine.signingSecret('alice'), hook.headers as Record<string, string>, hook.body)).to.equal(true);
      expect(JSON.parse(hook.body)).to.deep.equal(done);
      expect(done.status).to.equal('completed_partial');
      const [delivery] = await waitFor(
        async () => {
          const d = await listDeliveries(s.engine.db, alice.id, `run:${submitted.body.run_id}`);
          return d[0]?.status === 'delivered' ? d : undefined;
        },
        10_000,
        'delivery recorded',
      );
      expect(delivery.attempts).to.equal(1);
    } finally {
      await receiver.close();
    }
  });

  it('regenerates a drifted scraper once and finishes every URL on the new recipe version', async function () {
    this.timeout(180_000); // a browser escalation and a rebuild: slow on a loaded 2-core machine
    site.layout.drift = 'old';
    const id = await buildScraper(s, `${s.site.url}/drift?page=1`);
    site.layout.drift = 'new';
    const calls = s.model.chatRequests().length;
    const urls = [1, 2, 3, 4].map((n) => `${s.site.url}/drift?page=${n}`);
    const submitted = await s.api('POST', '/v1/scrapers/run_async', { template_id: id, url: urls });
    const done = await runFinished(s, submitted.body.run_id);
    expect(done.status, JSON.stringify(done.errors)).to.equal('completed');
    expect(done.data).to.deep.equal(Object.fromEntries(urls.map((u, i) => [u, expectedRecords(i + 1)])));
    const rows = await items(s, submitted.body.run_id);
    expect(rows.map((r) => r.recipe_version)).to.deep.equal([2, 2, 2, 2]);
    // The empty page was tried in a browser before it counted as drift, but the new version was
    // built from the plain-HTTP page: it runs without a browser.
    expect(rows.map((r) => r.driver)).to.deep.equal(['http', 'http', 'http', 'http']);
    expect((await s.engine.db.query('SELECT sample_driver FROM scrapers WHERE id = $1', [id])).rows[0].sample_driver).to.equal('http');
    expect(rows.some((r) => r.healed)).to.equal(true);
    // One regeneration for the whole run: one standard extraction and one recipe.
    const healCalls = s.model.chatRequests().slice(calls);
    expect(healCalls.filter(isRecipeRequest)).to.have.length(1);
    expect(healCalls).to.have.length(2);
    const scraper = await s.api('GET', `/v1/extractor/${id}`);
    expect(scraper.body).to.include({ status: 'ready', recipe_version: 2 });
    expect(scraper.body.drift).to.equal(null); // cleared by the heal
    const versions = await s.engine.db.query('SELECT version, reason FROM scraper_recipes WHERE scraper_id = $1 ORDER BY version', [id]);
    expect(versions.rows[1].reason).to.match(/^healed: layout changed: /);
  });
});

describe('scraper runs: the synchronous wait and drift without self-healing', () => {
  let s: Stack;
  let site: ReturnType<typeof shopSite>;

  before(async function () {
    this.timeout(60_000);
    s = await startStack({ config: { runs: { waitSeconds: 1 }, scrapers: { selfHeal: false } } });
    site = shopSite(s);
    scriptModel(s);
  });
  after(() => s?.close());

  it('answers 202 {run_id, status: running} when the run outlasts runs.waitSeconds, and the run finishes in the background', async () => {
    const id = await buildScraper(s, `${s.site.url}/shop?page=1`);
    const res = await s.api('POST', '/v1/scrapers/run', { template_id: id, url: `${s.site.url}/slow?page=2&ms=2500` });
    expect(res.status, res.text).to.equal(202);
    expect(res.body).to.deep.equal({ run_id: res.body.run_id, status: 'running' });
    const done = await runFinished(s, res.body.run_id);
    expect(done.data[`${s.site.url}/slow?page=2&ms=2500`]).to.deep.equal(expectedRecords(2));
  });

  it('fails a drifted URL with "layout changed: ..." and flags the scraper when selfHeal is off', async () => {
    site.layout.drift = 'old';
    const id = await buildScraper(s, `${s.site.url}/drift?page=1`);
    site.layout.drift = 'new';
    const calls = s.model.chatRequests().length;
    const url = `${s.site.url}/drift?page=5`;
    // In the background: the empty page is tried once more in a browser before it counts as drift.
    const submitted = await s.api('POST', '/v1/scrapers/run_async', { template_id: id, url });
    const done = await runFinished(s, submitted.body.run_id);
    expect(done).to.include({ status: 'failed', credits_charged: 0 });
    expect(done.data).to.deep.equal({ [url]: [] });
    expect(done.errors[url]).to.match(/^layout changed: the scraper found no records on /);
    const [row] = await items(s, submitted.body.run_id);
    expect(row).to.include({ error_code: 'LAYOUT_CHANGED', recipe_version: 1, driver: 'http', attempts: 1 });
    expect(s.model.chatRequests().length).to.equal(calls);
    const scraper = await s.api('GET', `/v1/extractor/${id}`);
    expect(scraper.body.drift.reason).to.match(/^layout changed: /);
    // The list carries the same flag (the console's Drift column); other scrapers stay unflagged.
    const other = (await s.api('POST', '/v1/extractor/new')).body.template_id;
    const list = await s.api('GET', '/v1/scrapers');
    const listed = (sid: string) => list.body.find((x: { id: string }) => x.id === sid);
    expect(listed(id).drift).to.deep.equal(scraper.body.drift);
    expect(listed(other).drift).to.equal(null);
  });
});
