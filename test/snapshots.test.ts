// The snapshot archive beyond scheduled runs, through the HTTP API against loopback sites: one-off
// extractions (extract, parse, extract_markdown), extract_async tasks, agent tasks and agentic
// scrapers' runs keep the pages they read when asked (the request's `snapshots`, else the owner's
// defaults), stored once by content hash, read back by hash (GET /v1/snapshots/{hash}) or by task
// (GET /v1/tasks/{task_id}/snapshot), owner-scoped; with the documents in Postgres and in a
// directory (snapshots.storage), the same deduplication, size report and retention pruning.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { archiveStore, pruneArchive, type Owner } from '@gleaner/core/internal';
import { startInteractiveHttpStack, startStack, userContent, waitFor, type Stack } from './support/stack.ts';
import { answerItems, listPage, PRODUCT_ATTRIBUTES, productAnswer, productsPage } from './support/pages.ts';
import { insertShopScraper, monitorShop, shopHtml } from './support/monitor-site.ts';
import { LATIN1_TEXT } from '@gleaner/testing';
import { request } from './support/http.ts';
import { addAgentPages, PRODUCTS } from './support/agent-site.ts';
import { agentScript, call, refOf, type PlanStep } from './support/agent-script.ts';
import { build, runAndWait, runTask } from './support/agentic-api.ts';
import { scriptBuildModel } from './support/agentic-model.ts';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** GET an archived document: status, bytes and the describing headers. */
async function getDoc(s: Stack, p: string, key = s.key) {
  const res = await fetch(`${s.url}${p}`, { headers: { 'X-API-KEY': key } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    bytes,
    text: bytes.toString('utf8'),
    type: res.headers.get('content-type'),
    url: res.headers.get('x-gleaner-snapshot-url'),
    hash: res.headers.get('x-gleaner-snapshot-hash'),
    pages: res.headers.get('x-gleaner-snapshot-pages'),
  };
}

/** Every document file under a directory store. */
function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.gz'));
}

for (const storage of ['postgres', 'directory'] as const) {
  describe(`snapshot archive of extractions and tasks (${storage} storage)`, function () {
    this.timeout(120_000);
    let s: Stack;
    let dir: string;
    let alice: Owner;
    let otherKey: string;
    const served = new Map<string, string>();

    before(async function () {
      this.timeout(60_000);
      dir = mkdtempSync(path.join(tmpdir(), 'gleaner-snapshots-'));
      s = await startStack({ config: { scrapers: { selfHeal: false }, snapshots: storage === 'directory' ? { storage, directory: dir } : {} } });
      alice = (await s.engine.authenticateApiKey(s.key))!;
      otherKey = (await s.engine.createApiKey('carol')).key;
      served.set('/laptops', productsPage());
      s.site.page('/laptops', productsPage());
      for (const page of [1, 2]) {
        const html = listPage(page === 1 ? [1, 2, 3] : [4, 5], page === 1 ? '<a href="/books/2" rel="next">Next page</a>' : '');
        served.set(`/books/${page}`, html);
        s.site.page(`/books/${page}`, html);
      }
    });
    after(async () => {
      await s?.close();
      rmSync(dir, { recursive: true, force: true });
    });
    beforeEach(() => s.model.reset());

    /** Where the document of `hash` is stored, as the index says and as the store holds it. */
    async function stored(hash: string): Promise<{ storage: string; bytes: Buffer }> {
      const { rows } = await s.engine.db.query<{ storage: string; content: Buffer | null }>('SELECT storage, content FROM snapshots WHERE hash = $1', [hash]);
      const file = path.join(dir, hash.slice(0, 2), `${hash}.gz`);
      return { storage: rows[0].storage, bytes: gunzipSync(rows[0].content ?? readFileSync(file)) };
    }

    it("keeps a one-off extraction's pages only when asked: listed in the answer, stored once by hash, read back by hash for the owner only", async () => {
      const url = `${s.site.url}/laptops`;
      s.model.script([{ json: productAnswer(s.site.url) }]);
      const plain = await s.api('POST', '/v1/extract', { url, attributes: PRODUCT_ATTRIBUTES });
      expect(plain.status, plain.text).to.equal(200);
      expect(plain.body).to.not.have.property('snapshots');
      expect((await s.api('GET', '/v1/snapshots/usage')).body).to.include({ pages: 0, documents: 0, storage });

      s.model.script([{ json: productAnswer(s.site.url) }]);
      const kept = await s.api('POST', '/v1/extract?details=true', { url, attributes: PRODUCT_ATTRIBUTES, snapshots: true });
      expect(kept.status, kept.text).to.equal(200);
      expect(kept.body.data).to.have.length(3);
      const hash = sha256(served.get('/laptops')!);
      expect(kept.body.snapshots).to.deep.equal([{ page: 1, url, driver: 'http', hash }]);
      expect(kept.body.details.pages[0].snapshot).to.equal(hash);

      // Byte-identical to what the site served, with the page's URL; a provenance-style `sha256:` name works too.
      const doc = await getDoc(s, `/v1/snapshots/${hash}`);
      expect(doc.status, doc.text).to.equal(200);
      expect(doc.type).to.match(/^text\/html/);
      expect(doc.bytes.equals(Buffer.from(served.get('/laptops')!, 'utf8'))).to.equal(true);
      expect(doc).to.include({ url, hash, pages: '1' });
      expect((await getDoc(s, `/v1/snapshots/sha256:${hash}`)).bytes.equals(doc.bytes)).to.equal(true);
      // Another owner never fetched it: 404; a malformed hash is a 422, an unknown one a 404.
      expect((await getDoc(s, `/v1/snapshots/${hash}`, otherKey)).status).to.equal(404);
      const bad = await s.api('GET', '/v1/snapshots/not-a-hash');
      expect(bad.status).to.equal(422);
      expect(bad.body.detail[0].loc).to.deep.equal(['path', 'hash']);
      expect((await s.api('GET', `/v1/snapshots/${'0'.repeat(64)}`)).status).to.equal(404);

      // Stored where snapshots.storage says (the index row in Postgres either way).
      const where = await stored(hash);
      expect(where.storage).to.equal(storage);
      expect(where.bytes.equals(doc.bytes)).to.equal(true);
      expect(files(dir)).to.have.length(storage === 'directory' ? 1 : 0);

      // The same page again: one more page, no new document.
      const before = (await s.api('GET', '/v1/snapshots/usage')).body;
      s.model.script([{ json: productAnswer(s.site.url) }]);
      const again = await s.api('POST', '/v1/extract', { url, attributes: PRODUCT_ATTRIBUTES, snapshots: true });
      expect(again.body.snapshots[0].hash).to.equal(hash);
      expect(again.body).to.not.have.property('details');
      const after = (await s.api('GET', '/v1/snapshots/usage')).body;
      expect(after).to.include({ pages: before.pages + 1, documents: before.documents, stored_bytes: before.stored_bytes });
      expect(after.page_bytes).to.equal(2 * Buffer.byteLength(served.get('/laptops')!));
      expect(files(dir)).to.have.length(storage === 'directory' ? 1 : 0);

      // The OpenAPI document has the routes (tag gleaner), the request flag and the answer's list.
      const openapi = (await request(s.url, 'GET', '/openapi.json')).body;
      for (const p of ['/v1/snapshots/{hash}', '/v1/tasks/{task_id}/snapshot']) expect(openapi.paths[p]?.get?.tags, p).to.deep.equal(['gleaner']);
      const op = openapi.paths['/v1/extractor/extract'].post;
      const ref = (x: any) => (x?.$ref ? openapi.components.schemas[x.$ref.split('/').pop()] : x);
      expect(ref(op.requestBody.content['application/json'].schema).properties).to.have.property('snapshots');
      expect(ref(op.responses['200'].content['application/json'].schema).properties).to.have.property('snapshots');
    });

    it('parse and extract_markdown keep theirs too; the owner default for extractions applies unless the request says', async () => {
      expect((await s.api('GET', '/v1/snapshots/settings')).body).to.deep.equal({ runs: false, extractions: false, tasks: false });
      expect((await s.api('PUT', '/v1/snapshots/settings', {})).status).to.equal(422);
      expect((await s.api('PUT', '/v1/snapshots/settings', { extractions: 'yes' })).status).to.equal(422);
      const set = await s.api('PUT', '/v1/snapshots/settings', { extractions: true });
      expect(set.body).to.deep.equal({ runs: false, extractions: true, tasks: false });
      try {
        const url = `${s.site.url}/books/2`;
        const md = await s.api('POST', '/v1/extract_markdown', { url });
        expect(md.status, md.text).to.equal(200);
        expect(md.body.data).to.contain('Item 4');
        expect(md.body.snapshots).to.deep.equal([{ page: 1, url, driver: 'http', hash: sha256(served.get('/books/2')!) }]);
        expect((await getDoc(s, `/v1/snapshots/${md.body.snapshots[0].hash}`)).text).to.equal(served.get('/books/2'));
        const optedOut = await s.api('POST', '/v1/extract_markdown', { url, snapshots: false });
        expect(optedOut.body).to.deep.equal({ data: md.body.data });

        // Supplied content is kept as supplied (driver `content`).
        const content = '<html><body><div class="card"><h2>Delta Slate</h2><span class="price">$5</span></div></body></html>';
        s.model.script([{ json: { records: [{ name: 'Delta Slate', price: 5 }] } }]);
        const parsed = await s.api('POST', '/v1/parse', { content, attributes: [{ name: 'name' }, { name: 'price', type: 'number' }] });
        expect(parsed.status, parsed.text).to.equal(200);
        expect(parsed.body.snapshots).to.deep.equal([{ page: 1, url: 'https://content.invalid/', driver: 'content', hash: sha256(content) }]);
        expect((await getDoc(s, `/v1/snapshots/${sha256(content)}`)).text).to.equal(content);
      } finally {
        await s.api('PUT', '/v1/snapshots/settings', { extractions: false });
      }
    });

    it('extract_async keeps the pages it read under the task (GET /v1/tasks/{id}/snapshot?page=), owner-scoped; off unless asked or set', async () => {
      const submit = async (body: Record<string, unknown>) => {
        s.model.script((req) => answerItems(req, userContent(req)));
        const sent = await s.api('POST', '/v1/extractor/extract_async', {
          url: `${s.site.url}/books/1`,
          attributes: [{ name: 'name' }, { name: 'price' }],
          enable_pagination: true,
          max_pages: 2,
          ...body,
        });
        expect(sent.status, sent.text).to.equal(202);
        return waitFor(
          async () => {
            const r = await s.api('GET', `/v1/extractor/extract_async/${sent.body.task_id}`);
            return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : undefined;
          },
          30_000,
          'the task to finish',
          100,
        );
      };
      const done = await submit({ snapshots: true });
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(done.data.map((r: any) => r.name)).to.deep.equal(['Item 1', 'Item 2', 'Item 3', 'Item 4', 'Item 5']);
      const first = await getDoc(s, `/v1/tasks/${done.task_id}/snapshot`);
      expect(first.status, first.text).to.equal(200);
      expect(first).to.include({ url: `${s.site.url}/books/1`, pages: '2', hash: sha256(served.get('/books/1')!) });
      expect(first.text).to.equal(served.get('/books/1'));
      const second = await getDoc(s, `/v1/tasks/${done.task_id}/snapshot?page=2`);
      expect(second).to.include({ url: `${s.site.url}/books/2`, text: served.get('/books/2') });
      const third = await s.api('GET', `/v1/tasks/${done.task_id}/snapshot?page=3`);
      expect(third.status).to.equal(404);
      expect(third.body.detail).to.contain('numbered 1 to 2');
      expect((await s.api('GET', `/v1/tasks/${done.task_id}/snapshot?page=0`)).status).to.equal(422);
      expect((await getDoc(s, `/v1/tasks/${done.task_id}/snapshot`, otherKey)).status).to.equal(404);
      expect((await s.api('GET', '/v1/tasks/no-such-task/snapshot')).status).to.equal(404);

      // Not asked: nothing kept, and the 404 says how to keep them.
      const plain = await submit({});
      const none = await s.api('GET', `/v1/tasks/${plain.task_id}/snapshot`);
      expect(none.status).to.equal(404);
      expect(none.body.detail).to.contain('"snapshots": true');
      // The owner's default for tasks keeps them; the task's own flag still wins.
      await s.api('PUT', '/v1/snapshots/settings', { tasks: true });
      try {
        const byDefault = await submit({});
        expect((await getDoc(s, `/v1/tasks/${byDefault.task_id}/snapshot?page=2`)).text).to.equal(served.get('/books/2'));
        const optedOut = await submit({ snapshots: false });
        expect((await s.api('GET', `/v1/tasks/${optedOut.task_id}/snapshot`)).status).to.equal(404);
      } finally {
        await s.api('PUT', '/v1/snapshots/settings', { tasks: false });
      }
    });

    it('a run keeps its pages in the same store; a replay reads them back; the hash names them for GET /v1/snapshots/{hash}', async () => {
      const shop = monitorShop(s.site, ['/shop/x']);
      shop.pages.set('/shop/x', [
        { name: 'Widget 1', price: 10 },
        { name: 'Widget 2', price: 20 },
      ]);
      const scraperId = await insertShopScraper(s.engine, alice, shop.url('/shop/x'), shop.pages.get('/shop/x')!);
      const run = await s.api('POST', '/v1/scrapers/run', { template_id: scraperId, url: shop.url('/shop/x'), snapshots: true });
      expect(run.status, run.text).to.equal(200);
      const item = await getDoc(s, `/v1/runs/${run.body.run_id}/items/0/snapshot`);
      expect(item.status, item.text).to.equal(200);
      expect(item.text).to.equal(shop.served.get('/shop/x')!.at(-1));
      expect((await stored(item.hash!)).storage).to.equal(storage);
      expect((await getDoc(s, `/v1/snapshots/${item.hash}`)).text).to.equal(item.text);
      const requests = s.site.requests.length;
      const replay = await s.api('POST', `/v1/scrapers/${scraperId}/replay`, { run_id: run.body.run_id });
      expect(replay.status, replay.text).to.equal(200);
      expect(replay.body.data[shop.url('/shop/x')]).to.deep.equal(shop.pages.get('/shop/x'));
      expect(s.site.requests.length).to.equal(requests);
    });

    it('keeps a page not in UTF-8 as the site sent it, with its encoding; a replay decodes it as the run did', async () => {
      const latin = `${s.site.url}/latin1`;
      const sent = Buffer.from(await (await fetch(latin)).arrayBuffer());
      expect(sent.toString('utf8')).to.not.contain(LATIN1_TEXT); // not UTF-8 indeed
      const md = await s.api('POST', '/v1/extract_markdown', { url: latin, snapshots: true });
      expect(md.body.data).to.contain(LATIN1_TEXT);
      expect(md.body.snapshots[0].hash).to.equal(sha256(sent));
      const doc = await getDoc(s, `/v1/snapshots/${sha256(sent)}`);
      expect(doc.bytes.equals(sent)).to.equal(true);
      expect(doc.type).to.equal('text/html; charset=windows-1252');
      // Through the extraction pipeline too.
      s.model.script([{ json: { records: [{ text: LATIN1_TEXT }] } }]);
      const extracted = await s.api('POST', '/v1/extract', { url: latin, attributes: [{ name: 'text' }], snapshots: true });
      expect(extracted.status, extracted.text).to.equal(200);
      expect(extracted.body.snapshots[0].hash).to.equal(sha256(sent));

      // A shop in ISO-8859-1: the run's item is kept byte-identical, and a replay reads the same records.
      const products = [
        { name: 'Crème brûlée', price: 7 },
        { name: 'Café noir', price: 3 },
      ];
      const body = Buffer.from(shopHtml('Pâtisserie', products), 'latin1');
      s.site.route('/shop/latin', (_q, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' }).end(body));
      const url = `${s.site.url}/shop/latin`;
      const scraperId = await insertShopScraper(s.engine, alice, url, products);
      const run = await s.api('POST', '/v1/scrapers/run', { template_id: scraperId, url, snapshots: true });
      expect(run.status, run.text).to.equal(200);
      expect(run.body.data).to.deep.equal(products); // one URL: the records themselves
      const item = await getDoc(s, `/v1/runs/${run.body.run_id}/items/0/snapshot`);
      expect(item.bytes.equals(body)).to.equal(true);
      expect(item.type).to.equal('text/html; charset=windows-1252');
      const replay = await s.api('POST', `/v1/scrapers/${scraperId}/replay`, { run_id: run.body.run_id });
      expect(replay.body.data[url]).to.deep.equal(products);
      expect(replay.body.changes.counts).to.deep.include({ unchanged: 2, changed: 0 });
    });

    it('prunes pages past snapshots.retentionDays, then the documents no page refers to (and their files)', async () => {
      const usage = (await s.api('GET', '/v1/snapshots/usage')).body;
      expect(usage.documents).to.be.above(3);
      if (storage === 'directory') expect(files(dir)).to.have.length(usage.documents);
      const { rows } = await s.engine.db.query<{ hash: string }>('SELECT hash FROM snapshot_pages ORDER BY id LIMIT 1');
      // Every page but the last extraction's grows old.
      await s.engine.db.query(`UPDATE run_item_pages SET fetched_at = now() - interval '40 days'`);
      await s.engine.db.query(`UPDATE snapshot_pages SET fetched_at = now() - interval '40 days' WHERE id <> (SELECT max(id) FROM snapshot_pages)`);
      const { rows: kept } = await s.engine.db.query<{ hash: string }>('SELECT hash FROM snapshot_pages WHERE id = (SELECT max(id) FROM snapshot_pages)');
      // Documents used within the last hour stay (a page may be on its way to them): none of these, now.
      expect((await pruneArchive(archiveStore(s.engine.context), 30)).documents).to.equal(0);
      await s.engine.db.query(`UPDATE snapshots SET used_at = now() - interval '2 hours'`);
      const gone = await pruneArchive(archiveStore(s.engine.context), 30);
      expect(gone.documents).to.equal(usage.documents - 1);
      expect(gone.files).to.equal(storage === 'directory' ? usage.documents - 1 : 0);
      const left = (await s.api('GET', '/v1/snapshots/usage')).body;
      expect(left).to.include({ pages: 1, documents: 1 });
      if (storage === 'directory') expect(files(dir)).to.deep.equal([path.join(kept[0].hash.slice(0, 2), `${kept[0].hash}.gz`)]);
      expect((await getDoc(s, `/v1/snapshots/${kept[0].hash}`)).status).to.equal(200);
      if (rows[0].hash !== kept[0].hash) expect((await getDoc(s, `/v1/snapshots/${rows[0].hash}`)).status).to.equal(404);
    });
  });
}

describe("snapshot archive of agent tasks and agentic scrapers' runs (HTTP interaction)", function () {
  this.timeout(180_000);
  let s: Stack;
  before(async function () {
    const stack = await startInteractiveHttpStack();
    if (!stack) this.skip(); // this build's http driver has no interaction
    s = stack!;
    addAgentPages(s.site);
  });
  after(() => s?.close());
  beforeEach(() => s?.model.reset());

  /** The site's answer to a URL now (its pages are the same at every request). */
  const live = async (url: string) => (await fetch(url)).text();

  it('an agent task with snapshots: true keeps each page it extracted from, in order', async () => {
    const plan: PlanStep[] = [() => [call.extract()], (o) => [call.click(refOf(o, /link "Next page"/))], () => [call.extract()], () => [call.finish()]];
    s.model.script(agentScript(plan).script);
    const done = await runTask(s, { url: `${s.site.url}/list?page=1`, prompt: 'Return the products of the first two pages', snapshots: true });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(done.data.map((r: any) => r.name).sort()).to.deep.equal(
      PRODUCTS.slice(0, 6)
        .map((p) => p.name)
        .sort(),
    );
    const first = await getDoc(s, `/v1/tasks/${done.task_id}/snapshot`);
    expect(first.status, first.text).to.equal(200);
    expect(first).to.include({ url: `${s.site.url}/list?page=1`, pages: '2' });
    expect(first.text).to.equal(await live(first.url!));
    const second = await getDoc(s, `/v1/tasks/${done.task_id}/snapshot?page=2`);
    expect(second.url).to.equal(`${s.site.url}/list?page=2`);
    expect(second.text).to.equal(await live(second.url!));
    // Without the flag (and no owner default) nothing is kept.
    s.model.reset();
    s.model.script(agentScript(plan).script);
    const plain = await runTask(s, { url: `${s.site.url}/list?page=1`, prompt: 'Return the products of the first two pages' });
    expect((await s.api('GET', `/v1/tasks/${plain.task_id}/snapshot`)).status).to.equal(404);
  });

  it("an agentic scraper's run with snapshots: true keeps the pages its script extracted from", async () => {
    scriptBuildModel(
      s,
      [(o) => [call.type(refOf(o, /searchbox|textbox/), 'kettle', true)], () => [call.extract()], () => [call.finish('all results extracted')]],
      [{ name: 'query', type: 'string', description: 'the search term', default: 'kettle', example: null }],
    );
    const ready = await build(s, {
      url: `${s.site.url}/shop`,
      prompt: 'Search the shop and return every result. Parameter `query` (string, default kettle) — the search term.',
    });
    expect(ready.status, ready.error).to.equal('ready');
    s.model.reset();
    const done = await runAndWait(s, { template_id: ready.template_id, parameters: { query: 'teapot' }, snapshots: true });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    const snap = await getDoc(s, `/v1/runs/${done.run_id}/items/0/snapshot`);
    expect(snap.status, snap.text).to.equal(200);
    expect(snap.url).to.contain('teapot');
    expect(snap.text).to.equal(await live(snap.url!));
    for (const p of PRODUCTS.filter((x) => x.name.includes('Teapot'))) expect(snap.text).to.contain(p.name);
    expect((await getDoc(s, `/v1/snapshots/${snap.hash}`)).status).to.equal(200);
    // A run that did not ask keeps none.
    const plain = await runAndWait(s, { template_id: ready.template_id, parameters: { query: 'teapot' } });
    expect((await s.api('GET', `/v1/runs/${plain.run_id}/items/0/snapshot`)).status).to.equal(404);
    expect(s.model.chatRequests()).to.have.length(0);
  });
});

describe('snapshot storage configuration', () => {
  it('refuses snapshots.storage "directory" without snapshots.directory', async () => {
    const { loadConfig } = await import('@gleaner/core');
    expect(() => loadConfig({ env: {}, options: { snapshots: { storage: 'directory' } } })).to.throw(/snapshots\.directory .* is required/);
    expect(() => loadConfig({ env: { GLEANER_SNAPSHOT_STORAGE: 'disk' } })).to.throw(/GLEANER_SNAPSHOT_STORAGE/);
    expect(loadConfig({ env: { GLEANER_SNAPSHOT_STORAGE: 'directory', GLEANER_SNAPSHOT_DIRECTORY: '/tmp/x' } }).snapshots).to.include({
      storage: 'directory',
      directory: '/tmp/x',
    });
  });
});
