// The Gleaner-extension history endpoints over HTTP: GET /v1/runs and GET /v1/tasks (the caller's
// recent work, paginated) and GET /v1/scrapers/{id}/versions (versions and self-heal attempts),
// each owner-scoped (another owner sees nothing, or 404) and validated (422 on bad queries).
import { expect } from 'chai';
import { createDatabase, ensureOwner, healScraper, insertScraper, loadMigrations, loadScraper, migrate, silentLogger } from '@gleaner/core/internal';
import { TEST_DATABASE_URL, testSchemas } from './support/db.ts';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { request } from './support/http.ts';
import { BOOK_ATTRS, buildBookScraper, openBookshop, shelf } from './support/books.ts';
import { addAgentPages } from './support/agent-site.ts';
import { call } from './support/agent-script.ts';
import { scriptBuildModel } from './support/agentic-model.ts';
import { healAgenticScraper } from '../packages/core/src/scrapers/agentic-heal.ts';

describe('history endpoints: runs, tasks, scraper versions and heals', function () {
  this.timeout(90_000);
  let s: Stack;
  let shelfUrl: (n: number) => string;
  let scraperId: string;
  let bobKey: string;
  const bob = (path: string) => request(s.url, 'GET', path, { headers: { 'X-API-KEY': bobKey } });

  const finished = (runId: string) =>
    waitFor(
      async () => {
        const r = await s.api('GET', `/v1/scrapers/run_async/${runId}`);
        return ['completed', 'completed_partial', 'failed'].includes(r.body.status) ? r.body : undefined;
      },
      30_000,
      `run ${runId}`,
    );

  before(async () => {
    s = await startStack();
    shelfUrl = openBookshop(s);
    bobKey = (await s.engine.createApiKey('bob')).key;
    scraperId = await buildBookScraper(s, shelfUrl(1));
  });
  after(() => s?.close());

  describe('GET /v1/runs', () => {
    const runIds: string[] = [];
    before(async () => {
      for (const urls of [[shelfUrl(2)], [shelfUrl(3), shelfUrl(4)], [shelfUrl(5), `${s.site.url}/no-such-page`]]) {
        const r = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls, source: 'history-test' });
        expect(r.status, r.text).to.equal(202);
        runIds.push(r.body.run_id);
        await finished(r.body.run_id);
      }
    });

    it("lists the caller's runs newest first with their progress, a page at a time", async () => {
      const first = await s.api('GET', '/v1/runs?limit=2');
      expect(first.status, first.text).to.equal(200);
      expect(first.body.runs.map((r: any) => r.run_id)).to.deep.equal([runIds[2], runIds[1]]);
      expect(first.body.runs[0]).to.include({
        scraper_id: scraperId,
        scraper_name: new URL(shelfUrl(1)).host + '/shelf',
        scraper_type: 'extractor',
        status: 'completed_partial',
        completed: 2,
        failed: 1,
        total: 2,
        source: 'history-test',
      });
      expect(first.body.runs[1]).to.include({ status: 'completed', completed: 2, failed: 0, total: 2 });
      expect(first.body.runs[1].finished_at).to.be.a('string');
      expect(first.body.next_cursor).to.be.a('string');
      const second = await s.api('GET', `/v1/runs?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expect(second.body.runs.map((r: any) => r.run_id)).to.deep.equal([runIds[0]]);
      expect(second.body.next_cursor).to.equal(null);
      // Credits as the run's own status says.
      const status = await s.api('GET', `/v1/scrapers/run_async/${runIds[0]}`);
      expect(second.body.runs[0].credits_charged).to.equal(status.body.credits_charged);
    });

    it('filters by scraper and status', async () => {
      const partial = await s.api('GET', '/v1/runs?status=completed_partial');
      expect(partial.body.runs.map((r: any) => r.run_id)).to.deep.equal([runIds[2]]);
      const other = await s.api('GET', '/v1/runs?scraper_id=nope');
      expect(other.body).to.deep.equal({ runs: [], next_cursor: null });
    });

    it('shows another owner none of them, and answers 401 without a key', async () => {
      const res = await bob('/v1/runs');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ runs: [], next_cursor: null });
      expect((await request(s.url, 'GET', '/v1/runs')).status).to.equal(401);
    });

    it('refuses a bad limit, status or cursor with 422 at the query parameter', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=ten', 'limit'],
        ['status=done', 'status'],
        ['cursor=not-a-cursor', 'cursor'],
      ]) {
        const res = await s.api('GET', `/v1/runs?${query}`);
        expect(res.status, query).to.equal(422);
        expect(res.body.detail[0].loc, query).to.deep.equal(['query', field]);
      }
    });
  });

  describe('GET /v1/tasks', () => {
    let taskId: string;
    before(async () => {
      const r = await s.api('POST', '/v1/extractor/extract_async', { url: shelfUrl(6), attributes: BOOK_ATTRS, prompt: 'all books' });
      expect(r.status, r.text).to.equal(202);
      taskId = r.body.task_id;
      await waitFor(async () => (await s.api('GET', `/v1/extractor/extract_async/${taskId}`)).body.status === 'completed', 30_000, 'task');
    });

    it('lists async extractions and agent tasks with their status', async () => {
      const res = await s.api('GET', '/v1/tasks');
      expect(res.status, res.text).to.equal(200);
      expect(res.body.tasks).to.have.length(1);
      expect(res.body.tasks[0]).to.include({
        task_id: taskId,
        kind: 'extract',
        status: 'completed',
        url: shelfUrl(6),
        prompt: 'all books',
        records: shelf(6).length,
      });
      expect((await s.api('GET', '/v1/tasks?kind=agent')).body.tasks).to.deep.equal([]);
      expect((await s.api('GET', '/v1/tasks?kind=extract&status=completed')).body.tasks).to.have.length(1);
    });

    it('is owner-scoped and validated', async () => {
      expect((await bob('/v1/tasks')).body).to.deep.equal({ tasks: [], next_cursor: null });
      const res = await s.api('GET', '/v1/tasks?kind=scraper');
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['query', 'kind']);
    });
  });

  describe('GET /v1/scrapers/{id}/versions', () => {
    it('shows the generated version with its recipe and no heals', async () => {
      const res = await s.api('GET', `/v1/scrapers/${scraperId}/versions`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ scraper_id: scraperId, type: 'extractor', current_version: 1 });
      expect(res.body.versions).to.have.length(1);
      expect(res.body.versions[0]).to.include({ version: 1, current: true, reason: 'generated', sample_url: shelfUrl(1), model_calls: 2 }); // standard extraction + recipe
      expect(res.body.versions[0].recipe.container).to.deep.equal({ selector: 'li.book' });
      expect(res.body.versions[0].sample_data).to.deep.equal(shelf(1));
      expect(res.body.heals).to.deep.equal([]);
    });

    it('records each heal attempt: one that saved a version and one that failed, and why', async () => {
      const owner = await s.engine.ensureOwner('alice');
      const v1 = (await loadScraper(s.engine.db, owner.id, scraperId))!;
      const html = await (await fetch(shelfUrl(7))).text();
      const healed = await healScraper(s.engine.context, v1, { html, url: shelfUrl(7), driver: 'http' }, 'the recipe found no records');
      expect(healed.healed).to.equal(true);
      const v2 = (await loadScraper(s.engine.db, owner.id, scraperId))!;
      const empty = '<html><body><p>Closed for maintenance</p></body></html>';
      const failed = await healScraper(s.engine.context, v2, { html: empty, url: `${s.site.url}/closed`, driver: 'http' }, 'layout changed: no li.book');
      expect(failed.healed, JSON.stringify(failed)).to.equal(false);

      const res = await s.api('GET', `/v1/scrapers/${scraperId}/versions`);
      expect(res.body.current_version).to.equal(2);
      expect(res.body.versions.map((v: any) => [v.version, v.current, v.reason])).to.deep.equal([
        [2, true, 'healed: the recipe found no records'],
        [1, false, 'generated'],
      ]);
      expect(res.body.versions[0].sample_data).to.deep.equal(shelf(7));
      expect(res.body.heals).to.have.length(2);
      const [last, first] = res.body.heals;
      expect(first).to.include({ trigger: 'the recipe found no records', outcome: 'healed', detail: null, from_version: 1, to_version: 2, url: shelfUrl(7) });
      expect(first.credits).to.be.greaterThan(0);
      expect(last).to.include({ trigger: 'layout changed: no li.book', outcome: 'failed', from_version: 2, to_version: null });
      expect(last.detail).to.contain('standard extraction found no records');
      expect(Date.parse(last.at)).to.be.at.least(Date.parse(first.at));

      const one = await s.api('GET', `/v1/scrapers/${scraperId}/versions?limit=1`);
      expect([one.body.versions.length, one.body.heals.length]).to.deep.equal([1, 1]);
    });

    it("shows an agentic scraper's scripts and their parameters", async () => {
      const owner = await s.engine.ensureOwner('alice');
      const script = { version: 1, start: { url: '{{url}}' }, steps: [{ action: 'goto', url: '{{url}}' }] };
      const params = [{ name: 'url', type: 'url', description: 'start page' }];
      const id = await s.engine.db.tx((tx) =>
        insertScraper(tx, {
          ownerId: owner.id,
          kind: 'agentic',
          url: shelfUrl(1),
          script,
          parametersSchema: params,
          sampleData: shelf(1),
          reason: 'cloned from books',
        }),
      );
      const res = await s.api('GET', `/v1/scrapers/${id}/versions`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ type: 'agentic', current_version: 1 });
      expect(res.body.versions).to.deep.equal([
        {
          version: 1,
          current: true,
          reason: 'cloned from books',
          created_at: res.body.versions[0].created_at,
          sample_url: shelfUrl(1),
          sample_data: shelf(1),
          model_calls: 0,
          script,
          parameters_schema: params,
        },
      ]);
    });

    it("answers 404 for another owner's scraper and an unknown id, 422 for a bad limit", async () => {
      const other = await bob(`/v1/scrapers/${scraperId}/versions`);
      expect(other.status).to.equal(404);
      expect(other.body.code).to.equal('NOT_FOUND');
      expect((await s.api('GET', '/v1/scrapers/no-such-scraper/versions')).status).to.equal(404);
      const bad = await s.api('GET', `/v1/scrapers/${scraperId}/versions?limit=-1`);
      expect(bad.status).to.equal(422);
      expect(bad.body.detail[0].loc).to.deep.equal(['query', 'limit']);
    });
  });

  it('migration 16 carries the heals of an existing install over from its healed versions', async () => {
    const t = testSchemas();
    const db = createDatabase({ url: TEST_DATABASE_URL, schema: t.schema, poolMax: 1, logger: silentLogger() });
    try {
      const all = loadMigrations();
      await migrate({ url: TEST_DATABASE_URL, schema: t.schema, logger: silentLogger(), migrations: all.filter((m) => m.id < 16) });
      const owner = await ensureOwner(db, 'carol');
      const recipe = { version: 1, container: { selector: 'li' }, fields: {} } as const;
      const id = await db.tx((tx) => insertScraper(tx, { ownerId: owner.id, kind: 'extractor', url: shelfUrl(1), recipe }));
      await db.query(
        `INSERT INTO scraper_recipes (scraper_id, version, recipe, sample_url, reason, model_calls) VALUES ($1, 2, $2, $3, 'healed: layout changed: no li', 2)`,
        [id, JSON.stringify(recipe), shelfUrl(2)],
      );
      expect(await migrate({ url: TEST_DATABASE_URL, schema: t.schema, logger: silentLogger() })).to.include('16_scraper_heals');
      const { rows } = await db.query('SELECT trigger, outcome, from_version, to_version, url, model_calls FROM scraper_heals WHERE scraper_id = $1', [id]);
      expect(rows).to.deep.equal([{ trigger: 'layout changed: no li', outcome: 'healed', from_version: 1, to_version: 2, url: shelfUrl(2), model_calls: 2 }]);
    } finally {
      await db.close();
      await t.drop();
    }
  });

  it('serves the three endpoints in the OpenAPI document under the gleaner tag', async () => {
    const doc = (await request(s.url, 'GET', '/openapi.json')).body;
    for (const path of ['/v1/runs', '/v1/tasks', '/v1/scrapers/{scraper_id}/versions']) expect(doc.paths[path].get.tags, path).to.deep.equal(['gleaner']);
    expect(doc.paths['/v1/extract'].post.parameters.map((p: any) => p.name)).to.deep.equal(['details']);
    expect(doc.paths['/v1/extract'].post.responses['200'].content['application/json'].schema.properties.details.required).to.include('pages');
  });
});

// A recorded script as the agent writes one for the list page (the heal below records it anew).
const VALID_SCRIPT = {
  format: 1,
  driver: 'browser',
  parameters: {},
  steps: [
    { action: 'goto', url: '{{url}}' },
    {
      action: 'extract',
      recipe: { version: 1, container: { selector: 'li.product' }, fields: { name: { selector: '.name', read: 'text' } } },
      sampleRecords: 3,
    },
  ],
};
/** A heal from the start of the script (`fromStep: null` where heals can start from the step that drifted). */
const fromStart = (url: string) => ({ url, parameters: null, fromStep: null }) as Parameters<typeof healAgenticScraper>[2];

describe('heal history of an agentic scraper', function () {
  this.timeout(120_000);
  let s: Stack;
  before(async () => {
    s = await startStack();
    addAgentPages(s.site);
  });
  after(() => s?.close());

  it('records a re-recording that saved a script version and one that failed, with why', async () => {
    const owner = await s.engine.ensureOwner('alice');
    const url = `${s.site.url}/list`;
    const id = await s.engine.db.tx((tx) =>
      insertScraper(tx, {
        ownerId: owner.id,
        kind: 'agentic',
        url,
        prompt: 'Return every product on the list.',
        attributes: [
          { name: 'name', type: 'string', description: 'product name' },
          { name: 'price', type: 'number', description: '' },
        ],
        script: VALID_SCRIPT,
        parametersSchema: [],
      }),
    );
    // The agent records the page again: it extracts, then finishes; the replay reproduces its records.
    scriptBuildModel(s, [() => [call.extract()], () => [call.finish('all products on the page')]], []);
    const v1 = (await loadScraper(s.engine.db, owner.id, id))!;
    const healed = await healAgenticScraper(s.engine.context, v1, fromStart(url), 'layout changed: step 1 click "Next": its target is gone');
    expect(healed.healed, JSON.stringify(healed)).to.equal(true);
    // On version 2, a run's page is closed: the agent finds nothing there, the heal fails and says why.
    s.site.page('/closed', '<!doctype html><html><head><title>Closed</title></head><body><p>Closed for maintenance.</p></body></html>');
    s.model.reset();
    scriptBuildModel(s, [() => [call.finish('nothing to extract here')]], []);
    const v2 = (await loadScraper(s.engine.db, owner.id, id))!;
    const failed = await healAgenticScraper(s.engine.context, v2, fromStart(`${s.site.url}/closed`), 'layout changed: step 2 extract');
    expect(failed.healed, JSON.stringify(failed)).to.equal(false);

    const res = await s.api('GET', `/v1/scrapers/${id}/versions`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ type: 'agentic', current_version: 2 });
    expect(res.body.versions.map((v: any) => [v.version, v.current, v.reason])).to.deep.equal([
      [2, true, 'healed: layout changed: step 1 click "Next": its target is gone'],
      [1, false, 'generated'],
    ]);
    expect(res.body.versions[0].script.steps.length).to.be.greaterThan(0);
    const [last, first] = res.body.heals;
    expect(first).to.include({ outcome: 'healed', from_version: 1, to_version: 2, url, detail: null });
    expect(first.model_calls).to.be.greaterThan(0);
    expect(last).to.include({ trigger: 'layout changed: step 2 extract', outcome: 'failed', from_version: 2, to_version: null });
    expect(last.detail).to.contain('the agent found no records');
  });
});
