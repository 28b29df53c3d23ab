// What the request log says about a failed request: an answered Gleaner error (a 503 because no
// model is configured) by its code and without a stack trace; a bug (INTERNAL) with its real stack.
// And the start-up line names the address actually bound.
import { Writable } from 'node:stream';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { pino } from 'pino';
import { createEngine, silentLogger, type Engine } from '@gleaner/core';
import { createApp } from '../src/http/app.ts';
import { apiRoutes } from '../src/routes/index.ts';
import { defineRoutes } from '../src/http/route.ts';
import { startApi, type Listener } from '../src/server.ts';
import { testSchemas, type TestSchemas } from '../../../test/support/db.ts';
import { request } from '../../../test/support/http.ts';

/** A logger whose JSON lines land in `lines`. */
function recordingLogger() {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, sink) };
}

const boom = defineRoutes([
  {
    method: 'get',
    path: '/test/boom',
    summary: 'boom',
    auth: 'none',
    handler: async () => {
      throw new Error('a bug');
    },
  },
]);

describe('http: the request log of a failed request, and the start-up line', () => {
  let t: TestSchemas;
  let engine: Engine;
  let server: Server;
  let url: string;
  let key: string;
  const log = recordingLogger();

  before(async () => {
    t = testSchemas();
    engine = createEngine({ config: t.config, logger: silentLogger(), drivers: [], llm: null });
    await engine.migrate();
    key = (await engine.createApiKey('alice')).key;
    server = createApp({ engine, logger: log.logger, routes: [...apiRoutes(), ...boom], bodyLimitBytes: 1 << 20 }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    server?.close();
    await engine?.stop();
    await t?.drop();
  });

  it('logs an expected 503 by its code, with no stack trace', async () => {
    const res = await request(url, 'POST', '/v1/parse', { headers: { 'X-API-KEY': key }, body: { content: '<p>hi</p>', prompt: 'the greeting' } });
    expect(res.status).to.equal(503);
    const line = log.lines.find((l) => l.req?.url === '/v1/parse');
    expect(line, JSON.stringify(log.lines)).to.include({ level: 40, msg: 'request failed: MODEL_NOT_CONFIGURED', code: 'MODEL_NOT_CONFIGURED' });
    expect(line).to.not.have.property('err');
    expect(JSON.stringify(log.lines)).to.not.contain('failed with status code');
  });

  it('logs the real stack of an unexpected error, once', async () => {
    expect((await request(url, 'GET', '/test/boom')).status).to.equal(500);
    const line = log.lines.find((l) => l.req?.url === '/test/boom');
    expect(line).to.include({ code: 'INTERNAL' }).and.not.have.property('err');
    const bug = log.lines.find((l) => l.msg === 'unhandled error');
    expect(bug?.err?.stack).to.contain('a bug').and.contain('request-log.test.ts');
  });

  it('says which address the API listens on: every interface when bound to 0.0.0.0, and how to reach it here', async () => {
    const start = recordingLogger();
    const api: Listener = await startApi(engine, start.logger, { host: '0.0.0.0', port: 0 });
    try {
      const line = start.lines.find((l) => typeof l.listening === 'string');
      expect(line?.listening).to.equal(`0.0.0.0:${api.port}`);
      expect(line?.msg).to.equal(`API listening on 0.0.0.0:${api.port} (every interface; http://127.0.0.1:${api.port} from this machine)`);
    } finally {
      await api.close();
    }
  });
});
