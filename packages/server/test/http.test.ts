import { expect } from 'chai';
import { createEngine, silentLogger, type Engine } from '@gleaner/core';
import { createApp } from '../src/http/app.ts';
import { apiRoutes } from '../src/routes/index.ts';
import { defineRoutes, type RouteDef } from '../src/http/route.ts';
import { TEST_DATABASE_URL, testSchemas, type TestSchemas } from '../../../test/support/db.ts';
import { request } from '../../../test/support/http.ts';
import { startTcpProxy, type CuttableProxy } from '../../../test/support/tcp-proxy.ts';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// Routes that exercise the adapter itself (validation, auth kinds); the real endpoints are tested
// through the same adapter in their own suites.
const probeRoutes: RouteDef[] = defineRoutes([
  {
    method: 'post',
    path: '/test/echo',
    summary: 'echo',
    auth: 'apiKey',
    body: {
      type: 'object',
      required: ['url', 'items'],
      properties: {
        url: { type: 'string', format: 'uri' },
        max_pages: { type: 'integer', minimum: 1, default: 2 },
        mode: { type: 'string', enum: ['standard', 'code'] },
        items: { type: 'array', maxItems: 2, items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
      },
    },
    handler: async ({ owner }, { body }) => ({ body: { owner: owner!.name, body } }),
  },
  { method: 'get', path: '/test/bearer', summary: 'bearer', auth: 'bearer', handler: async ({ owner }) => ({ body: { owner: owner!.name } }) },
  {
    method: 'get',
    path: '/test/boom',
    summary: 'boom',
    auth: 'none',
    handler: async () => {
      throw new Error('secret internal detail at /srv/app.ts:42');
    },
  },
]);

/** The adapter with the real and the probe routes over an engine on the test's schemas, plus a key for alice. */
async function serve(t: TestSchemas, bodyLimitBytes = 10 * 1024 * 1024): Promise<{ engine: Engine; url: string; key: string; close(): Promise<void> }> {
  const engine = createEngine({ config: t.config, logger: silentLogger() });
  await engine.migrate();
  const app = createApp({ engine, logger: silentLogger(), routes: [...apiRoutes(), ...probeRoutes], bodyLimitBytes });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const key = (await engine.createApiKey('alice')).key;
  return {
    engine,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    async close() {
      server.closeAllConnections();
      server.close();
      await engine.stop();
    },
  };
}

describe('http adapter: auth, validation, limits, errors', () => {
  let t: TestSchemas;
  let engine: Engine;
  let url: string;
  let key: string;
  let close: () => Promise<void>;

  before(async () => {
    t = testSchemas();
    ({ engine, url, key, close } = await serve(t, 64 * 1024));
  });
  after(async () => {
    await close();
    await t.drop();
  });

  const echo = (body: unknown, headers: Record<string, string> = {}) => request(url, 'POST', '/test/echo', { body, headers: { 'X-API-KEY': key, ...headers } });

  it('answers 401 with WWW-Authenticate and one body for a missing, unknown or revoked key', async () => {
    const other = await engine.createApiKey('bob');
    await engine.revokeApiKey(other.prefix);
    const bodies = [];
    const variants: Array<Record<string, string>> = [
      {},
      { 'X-API-KEY': 'glk_AAAAAAAA_' + 'a'.repeat(32) },
      { 'X-API-KEY': 'garbage' },
      { 'X-API-KEY': other.key },
    ];
    for (const headers of variants) {
      const res = await request(url, 'POST', '/test/echo', { body: { url: 'http://x.test/', items: [] }, headers });
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.match(/^ApiKey /);
      bodies.push(res.text);
    }
    expect(new Set(bodies).size).to.equal(1);
    expect(JSON.parse(bodies[0])).to.include({ code: 'UNAUTHORIZED' });
    expect(JSON.parse(bodies[0]).detail).to.contain('X-API-KEY');
  });

  it('authenticates a valid key and ignores unknown body fields', async () => {
    const res = await echo({ url: 'http://x.test/', items: [{ name: 'a' }], source: 'n8n', extra: { deep: 1 } });
    expect(res.status).to.equal(200);
    expect(res.body.owner).to.equal('alice');
    expect(res.body.body.max_pages).to.equal(2); // schema default applied
  });

  it('answers 422 with one {loc, msg, type} entry per problem, rooted at body', async () => {
    const res = await echo({ url: 5, max_pages: 0, mode: 'turbo', items: [{}, { name: 1 }, { name: 'c' }] });
    expect(res.status).to.equal(422);
    const detail = res.body.detail as Array<{ loc: unknown[]; msg: string; type: string }>;
    const byLoc = Object.fromEntries(detail.map((d) => [JSON.stringify(d.loc), d]));
    expect(byLoc['["body","url"]'].type).to.equal('string_type');
    expect(byLoc['["body","max_pages"]'].type).to.equal('greater_than_equal');
    expect(byLoc['["body","mode"]'].type).to.equal('enum');
    expect(byLoc['["body","items"]'].type).to.equal('too_long');
    expect(byLoc['["body","items",0,"name"]'].type).to.equal('missing');
    expect(byLoc['["body","items",1,"name"]'].type).to.equal('string_type');
    for (const d of detail) expect(d.msg).to.be.a('string').and.not.equal('');
  });

  it('reports missing required fields and malformed JSON as 422', async () => {
    const missing = await echo({});
    expect(missing.status).to.equal(422);
    expect(missing.body.detail.map((d: { loc: unknown[] }) => d.loc)).to.deep.include.members([
      ['body', 'url'],
      ['body', 'items'],
    ]);
    const bad = await request(url, 'POST', '/test/echo', { raw: '{"url": ', headers: { 'X-API-KEY': key } });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail[0]).to.include({ type: 'json_invalid' });
    expect(bad.body.detail[0].loc).to.deep.equal(['body']);
  });

  it('answers 413 with a clear body past the body limit', async () => {
    const res = await echo({ url: 'http://x.test/', items: [], pad: 'x'.repeat(70 * 1024) });
    expect(res.status).to.equal(413);
    expect(res.body.code).to.equal('PAYLOAD_TOO_LARGE');
    expect(res.body.detail).to.contain('65536');
  });

  it('takes bearer tokens on bearer routes and refuses API keys and expired tokens there', async () => {
    const { token } = await engine.createAccessToken('carol', 60);
    const ok = await request(url, 'GET', '/test/bearer', { headers: { Authorization: `Bearer ${token}` } });
    expect(ok.status).to.equal(200);
    expect(ok.body.owner).to.equal('carol');
    const withKey = await request(url, 'GET', '/test/bearer', { headers: { 'X-API-KEY': key } });
    expect(withKey.status).to.equal(401);
    expect(withKey.headers.get('www-authenticate')).to.match(/^Bearer /);
    const short = await engine.createAccessToken('carol', 1);
    await new Promise((r) => setTimeout(r, 1100));
    const expired = await request(url, 'GET', '/test/bearer', { headers: { Authorization: `Bearer ${short.token}` } });
    expect(expired.status).to.equal(401);
  });

  it('never leaks a stack or internal message, and tags responses with a request id', async () => {
    const res = await request(url, 'GET', '/test/boom', { headers: { 'X-Request-Id': 'req-123' } });
    expect(res.status).to.equal(500);
    expect(res.headers.get('x-request-id')).to.equal('req-123');
    expect(res.body.code).to.equal('INTERNAL');
    expect(res.text).to.not.contain('secret internal detail').and.not.contain('.ts:');
    expect(res.body.detail).to.contain('req-123');
    const unknown = await request(url, 'GET', '/v1/nope');
    expect(unknown.status).to.equal(404);
    expect(unknown.body.code).to.equal('NOT_FOUND');
  });

  it('serves /readyz, /v1/proxy-countries, /v1/llm-specs, /openapi.json and /docs without a key', async () => {
    expect((await request(url, 'GET', '/readyz')).body).to.deep.equal({ status: 'ok' });
    const countries = await request(url, 'GET', '/v1/proxy-countries');
    expect(countries.body).to.include({ random: 'Random Country', UnitedStates: 'United States' });
    expect((await request(url, 'GET', '/v1/llm-specs')).body).to.be.an('array');
    const doc = await request(url, 'GET', '/openapi.json');
    expect(doc.body.openapi).to.equal('3.1.0');
    expect(doc.body.paths['/readyz'].get).to.be.an('object');
    expect(doc.body.paths['/test/echo'].post.requestBody.content['application/json'].schema.required).to.deep.equal(['url', 'items']);
    expect(doc.body.paths['/test/echo'].post.security).to.deep.equal([{ ApiKeyAuth: [] }]);
    const page = await request(url, 'GET', '/docs');
    expect(page.headers.get('content-type')).to.contain('text/html');
    expect(page.text).to.contain('/test/echo');
  });
});

describe('http adapter: Postgres going away and coming back', () => {
  let t: TestSchemas;
  let proxy: CuttableProxy;
  let url: string;
  let key: string;
  let close: () => Promise<void>;

  before(async () => {
    const real = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy(real.hostname, Number(real.port || 5432));
    const viaProxy = new URL(real.href);
    viaProxy.port = String(proxy.port);
    t = testSchemas({ database: { url: viaProxy.href, connectTimeoutMs: 1000 } });
    ({ url, key, close } = await serve(t));
  });
  after(async () => {
    await close();
    await proxy.close();
    await t.drop();
  });

  it('answers 503 with a clear body while Postgres is down, and recovers by itself', async () => {
    proxy.cut();
    const ready = await request(url, 'GET', '/readyz');
    expect(ready.status).to.equal(503);
    expect(ready.body.status).to.equal('unavailable');
    expect(ready.body.detail)
      .to.be.a('string')
      .and.match(/database/i);
    const authed = await request(url, 'POST', '/test/echo', { body: { url: 'http://x.test/', items: [] }, headers: { 'X-API-KEY': key } });
    expect(authed.status).to.equal(503);
    expect(authed.body.code).to.equal('DATABASE_UNAVAILABLE');
    expect(authed.headers.get('retry-after')).to.equal('5');

    proxy.restore();
    expect((await request(url, 'GET', '/readyz')).status).to.equal(200);
    const again = await request(url, 'POST', '/test/echo', { body: { url: 'http://x.test/', items: [] }, headers: { 'X-API-KEY': key } });
    expect(again.status).to.equal(200);
  });
});
