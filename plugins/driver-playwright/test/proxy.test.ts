// driver-playwright's SSRF path on the real browser: Chromium must send loopback traffic through the
// filtering proxy (bypass list `<-loopback>`), not around it. The route check is switched off here so
// that only the proxy stands between the page and the canary.
import { expect } from 'chai';
import type { Resolver } from '@gleaner/core';
import { createPlaywrightDriver } from '../src/index.ts';
import { routeCheckPattern } from '../src/route-check.ts';
import type { PlaywrightDriver, PlaywrightDriverOptions } from '../src/index.ts';
import { startFixtureSite } from '../../../test/support/fixture-site.ts';
import type { FixtureSite } from '../../../test/support/fixture-site.ts';
import { startForwardProxy } from '../../../test/support/forward-proxy.ts';
import { rejection } from '../../../test/support/assert.ts';

// localhost goes to the system resolver (loopback either way); `.test` names are the fixture.
const resolver: Resolver = async (host) =>
  host === 'localhost' ? [{ address: '127.0.0.1', family: 4 }] : host.endsWith('.test') ? [{ address: '127.0.0.1', family: 4 }] : [];

describe('driver-playwright: loopback through the filtering proxy', function () {
  let site: FixtureSite; // the page under test, on 127.0.0.1
  let canary: FixtureSite; // dual-stack: sees 127.0.0.x and ::1
  const drivers: PlaywrightDriver[] = [];
  const make = (o: PlaywrightDriverOptions) => {
    const d = createPlaywrightDriver({ resolver, timeoutMs: 15_000, routeCheck: false, ...o });
    drivers.push(d);
    return d;
  };
  const subresourcePage = () => {
    const c = canary.port;
    return `<!doctype html><html><head><title>Loopback</title></head><body><h1>Loopback</h1>
      <img src="http://127.0.0.2:${c}/img.png"><img src="http://[::1]:${c}/img6.png"><iframe src="http://127.0.0.3:${c}/frame"></iframe>
      <p id="r">pending</p>
      <script>Promise.allSettled([fetch('http://127.0.0.2:${c}/fetch', { mode: 'no-cors' }), fetch('http://[::1]:${c}/fetch6', { mode: 'no-cors' })])
        .then((r) => { const p = document.getElementById('r'); p.textContent = r.map((x) => x.status).join(','); p.id = 'done'; });</script>
      </body></html>`;
  };

  before(async () => {
    site = await startFixtureSite();
    canary = await startFixtureSite({ host: '::' });
    site.page('/loopback', subresourcePage());
  });
  after(async () => {
    await Promise.all(drivers.splice(0).map((d) => d.close()));
    await Promise.all([site.close(), canary.close()]);
  });

  it('blocks a loopback name when allowNetworks is empty: the browser does not go around the proxy', async () => {
    const strict = make({ allowNetworks: [] });
    const before = canary.connections;
    const err = await rejection((async () => {
      const s = await strict.openSession();
      try {
        return await s.goto(`http://localhost:${canary.port}/`);
      } finally {
        await s.close();
      }
    })());
    expect(err).to.include({ code: 'URL_BLOCKED', message: 'blocked: localhost resolves to 127.0.0.1, a loopback address' });
    expect(canary.connections).to.equal(before);
  });

  it("blocks a page's loopback subresources (img, iframe, fetch) outside allowNetworks, proxy only", async () => {
    const narrow = make({ allowNetworks: ['127.0.0.1/32'] });
    const before = canary.connections;
    const s = await narrow.openSession();
    try {
      const page = await s.goto(`${site.url}/loopback`);
      expect(page.html).to.contain('<h1>Loopback</h1>');
      await s.waitFor?.({ selector: '#done', state: 'attached', timeoutMs: 10_000 });
      await s.waitFor?.({ networkIdle: true, timeoutMs: 5000 });
      // The proxy answered both fetches itself (403, opaque to no-cors fetch: fulfilled).
      expect((await s.snapshot?.())?.html).to.contain('<p id="done">fulfilled,fulfilled</p>');
    } finally {
      await s.close();
    }
    expect(canary.requests).to.deep.equal([]);
    expect(canary.connections).to.equal(before);
  });

  it('reaches the same loopback subresources through the proxy when allowNetworks covers them', async () => {
    const open = make({ allowNetworks: ['127.0.0.0/8', '::1/128'] });
    const s = await open.openSession();
    try {
      await s.goto(`${site.url}/loopback`);
      await s.waitFor?.({ selector: '#done', state: 'attached', timeoutMs: 10_000 });
      await s.waitFor?.({ networkIdle: true, timeoutMs: 5000 });
    } finally {
      await s.close();
    }
    expect(canary.requests.map((r) => r.path).sort()).to.include.members(['/fetch', '/fetch6', '/frame', '/img.png', '/img6.png']);
  });

  it('chains the session proxy behind the filter: an allowed target reaches the upstream, a blocked one never does', async () => {
    const upstream = await startForwardProxy();
    try {
      const d = make({ allowNetworks: ['127.0.0.1/32'] });
      const before = canary.connections;
      const s = await d.openSession({ proxy: upstream.url });
      try {
        expect((await s.goto(`${site.url}/page`)).status).to.equal(200);
        const err = await rejection(s.goto(`http://127.0.0.2:${canary.port}/`));
        expect(err.code).to.equal('URL_BLOCKED');
        // Chromium maps *.localhost to loopback itself; it must still ask the proxy (which cannot resolve it here).
        const viaName = await rejection(s.goto(`http://canary.localhost:${canary.port}/`));
        expect(viaName.code).to.equal('FETCH_FAILED');
      } finally {
        await s.close();
      }
      expect(canary.connections).to.equal(before);
      expect(upstream.requests.map((r) => r.target)).to.include(`${site.url}/page`);
      expect(upstream.requests.some((r) => r.target.includes(String(canary.port)))).to.equal(false);
    } finally {
      await upstream.close();
    }
  });

  it('with the route check on, a literal blocked address is refused by the route layer as well', async () => {
    const d = make({ allowNetworks: ['127.0.0.1/32'], routeCheck: true });
    const before = canary.connections;
    const s = await d.openSession();
    try {
      await s.goto(`${site.url}/loopback`);
      await s.waitFor?.({ selector: '#done', state: 'attached', timeoutMs: 10_000 });
      // The route layer aborted both fetches in the browser, before the proxy was asked.
      expect((await s.snapshot?.())?.html).to.contain('<p id="done">rejected,rejected</p>');
    } finally {
      await s.close();
    }
    expect(canary.connections).to.equal(before);
  });
});

describe('driver-playwright: the route check pattern', () => {
  it('routes literal addresses that can be non-public, leaving names and whole allowed /8 blocks to the proxy', () => {
    const narrow = routeCheckPattern(['127.0.0.1/32']) as RegExp;
    for (const url of ['http://127.0.0.1:8080/', 'http://127.0.0.2/x', 'https://10.1.2.3/', 'http://169.254.169.254/latest', 'http://[::1]:9/', 'ws://192.168.1.1/s', 'http://user@172.16.0.1/']) {
      expect(narrow.test(url), url).to.equal(true);
    }
    for (const url of ['http://localhost:8080/', 'https://example.com/', 'http://8.8.8.8/', 'http://127.0.0.1.nip.io/', 'http://x.test/?u=http://127.0.0.1/']) {
      expect(narrow.test(url), url).to.equal(false);
    }
    const wide = routeCheckPattern(['127.0.0.0/8']) as RegExp;
    expect(wide.test('http://127.0.0.1:8080/')).to.equal(false);
    expect(wide.test('http://10.0.0.1/')).to.equal(true);
    expect(routeCheckPattern(['0.0.0.0/0', '::/0'])).to.equal(null);
    expect(routeCheckPattern(undefined)?.test('http://127.0.0.1/')).to.equal(true);
  });
});
