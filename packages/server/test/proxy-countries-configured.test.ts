// GET /v1/proxy-countries?configured=true (a Gleaner extension): only the countries a proxy is
// configured for, so the console offers no country choice when none is. Without it: the full list.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createEngine, silentLogger, type ConfigOptions } from '@gleaner/core';
import { createApp } from '../src/http/app.ts';
import { apiRoutes } from '../src/routes/index.ts';
import { testSchemas } from '../../../test/support/db.ts';
import { request } from '../../../test/support/http.ts';

/** The proxy-countries answers of a server configured with `network` (no database needed for them). */
async function countries(network: ConfigOptions['network']): Promise<{ configured: Record<string, string>; all: Record<string, string>; bad: number }> {
  const t = testSchemas({ network });
  const engine = createEngine({ config: t.config, logger: silentLogger(), drivers: [], llm: null });
  const server: Server = createApp({ engine, logger: silentLogger(), routes: apiRoutes(), bodyLimitBytes: 1 << 20 }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const configured = (await request(url, 'GET', '/v1/proxy-countries?configured=true')).body;
    const all = (await request(url, 'GET', '/v1/proxy-countries')).body;
    const bad = (await request(url, 'GET', '/v1/proxy-countries?configured=maybe')).status;
    return { configured, all, bad };
  } finally {
    server.closeAllConnections();
    server.close();
    await engine.stop();
  }
}

describe('proxy countries: ?configured=true lists only what a proxy is configured for', () => {
  it('none without proxies; the full list stays as it was', async () => {
    const r = await countries({ proxies: {} });
    expect(r.configured).to.deep.equal({});
    expect(Object.keys(r.all).length).to.be.greaterThan(100);
    expect(r.bad).to.equal(422);
  });

  it('the configured countries (by name or ISO code) and random', async () => {
    const r = await countries({ proxies: { UnitedStates: 'http://us.proxy:3128', de: 'http://de.proxy:3128' } });
    expect(r.configured).to.deep.equal({ random: r.all.random, UnitedStates: r.all.UnitedStates, Germany: r.all.Germany });
  });

  it('every country behind a "*" gateway', async () => {
    const r = await countries({ proxies: { '*': 'http://gw.proxy:3128/{country}' } });
    expect(r.configured).to.deep.equal(r.all);
  });
});
