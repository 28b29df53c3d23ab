// driver-playwright's SSRF path on the real browser: Chromium must send loopback traffic through the
// filtering proxy (bypass list `<-loopback>`), not around it. The route check is switched off here so
// that only the proxy stands between the page and the canary.
import { expect } from 'chai';
import type { Resolver } from '@gleaner/core/plugin';
import { createPlaywrightDriver } from '../src/index.ts';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext } from 'playwright-core';
import { createSsrfGuard, literalAddressRegExp, literalAddressScope, literalAddressUrlPatterns, refusedRequest } from '@gleaner/core/plugin';
import type { LiteralAddressScope } from '@gleaner/core/plugin';
import { installBrowserRequestCheck, installRouteCheck } from '../src/route-check.ts';
import { CHROMIUM_ARGS } from '../src/launcher.ts';
import type { PlaywrightDriver, PlaywrightDriverOptions } from '../src/index.ts';
import { startFixtureSite, type FixtureSite, startForwardProxy, rejection } from '@gleaner/testing';

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
    const err = await rejection(
      (async () => {
        const s = await strict.openSession();
        try {
          return await s.goto(`http://localhost:${canary.port}/`);
        } finally {
          await s.close();
        }
      })(),
    );
    expect(err).to.include({
      code: 'URL_BLOCKED',
      message:
        'blocked: localhost resolves to 127.0.0.1, a loopback address; to allow it, add 127.0.0.1/32 (or a network holding it) to GLEANER_ALLOW_NETWORKS (network.allowNetworks) and restart Gleaner',
    });
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

  it('with the request check on, literal blocked addresses are refused inside the browser, redirect hops included', async () => {
    const d = make({ allowNetworks: ['127.0.0.1/32'], routeCheck: true });
    const before = canary.connections;
    const s = await d.openSession();
    try {
      await s.goto(`${site.url}/loopback`);
      await s.waitFor?.({ selector: '#done', state: 'attached', timeoutMs: 10_000 });
      // The browser-wide check failed both fetches in the browser, before the proxy was asked
      // (the proxy answers 403, which a no-cors fetch sees as fulfilled).
      expect((await s.snapshot?.())?.html).to.contain('<p id="done">rejected,rejected</p>');
      expect(d.stats().requestCheck).to.equal('browser');
      // Whichever layer stops a redirect hop, the error names the address (the check alone: below).
      const hop = await rejection(s.goto(`${site.url}/redirect?to=${encodeURIComponent(`http://127.0.0.9:${canary.port}/x`)}`));
      expect(hop).to.include({
        code: 'URL_BLOCKED',
        message:
          'blocked: 127.0.0.9 is a loopback address; to allow it, add 127.0.0.9/32 (or a network holding it) to GLEANER_ALLOW_NETWORKS (network.allowNetworks) and restart Gleaner',
      });
    } finally {
      await s.close();
    }
    expect(canary.connections).to.equal(before);
  });

  // The two layers apart: a plain Chromium without the proxy, only the request check in front of the canary.
  async function checkedAlone(install: (browser: Browser, context: BrowserContext) => Promise<void>): Promise<{ fetches: string; hop: string }> {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS] });
    try {
      const context = await browser.newContext();
      await install(browser, context);
      const page = await context.newPage();
      await page.goto(`${site.url}/loopback`);
      await page.waitForSelector('#done', { state: 'attached', timeout: 10_000 });
      const fetches = (await page.textContent('#done')) ?? '';
      const hop = await page.goto(`${site.url}/redirect?to=${encodeURIComponent(`http://127.0.0.9:${canary.port}/x`)}`).then(
        () => 'loaded',
        (e: Error) => e.message.split('\n')[0],
      );
      await context.close();
      return { fetches, hop };
    } finally {
      await browser.close();
    }
  }
  const guard = () => createSsrfGuard({ allowNetworks: ['127.0.0.1/32'] });
  const scope = () => literalAddressScope(['127.0.0.1/32']) as LiteralAddressScope;

  // Without the proxy Chromium may still open a speculative TCP connection (a preconnect, no request):
  // the check works on requests, so what it must keep from the canary is every request.
  it('the browser-wide check alone keeps every request for a literal blocked address from the canary: subresources, iframes, redirect hops', async () => {
    const seen = canary.requests.length;
    const r = await checkedAlone(async (browser) => {
      expect(await installBrowserRequestCheck(browser, { scope: scope(), guard: guard(), timeoutMs: 10_000, onLost: () => undefined })).to.equal(true);
    });
    expect(r.fetches).to.equal('rejected,rejected');
    expect(r.hop).to.contain('net::ERR_BLOCKED_BY_CLIENT');
    expect(canary.requests.slice(seen)).to.deep.equal([]);
  });

  it('the context-route fallback alone refuses the same subresources (Playwright does not route redirect hops)', async () => {
    const seen = canary.requests.length;
    const r = await checkedAlone((_b, context) => installRouteCheck(context, scope(), guard()));
    expect(r.fetches).to.equal('rejected,rejected');
    // Only the hop got through to the canary (and, once its page showed, sometimes Chromium's own
    // favicon request, which routes do not see either): the proxy is what stops both in the driver.
    expect(
      canary.requests
        .slice(seen)
        .map((q) => q.path)
        .filter((p) => p !== '/favicon.ico'),
    ).to.deep.equal(['/x']);
  });
});

/** Chromium's `Fetch.enable` pattern matching: `*` any run of characters, `?` one character, a backslash escapes. */
function wildcard(pattern: string): RegExp {
  const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const body = pattern.replace(/\\(.)|([*?])|([^*?\\])/g, (_m, esc?: string, wild?: string, lit?: string) =>
    wild ? (wild === '*' ? '.*' : '.') : escape(esc ?? lit ?? ''),
  );
  return new RegExp(`^${body}$`, 's');
}

describe('driver-playwright: the request check scope', () => {
  it('covers literal addresses that can be non-public, leaving names and whole allowed /8 blocks to the proxy', () => {
    const narrow = literalAddressScope(['127.0.0.1/32']) as LiteralAddressScope;
    const regexp = literalAddressRegExp(narrow);
    const patterns = literalAddressUrlPatterns(narrow).map(wildcard);
    const byPattern = (url: string) => patterns.some((p) => p.test(url));
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://127.0.0.2/x',
      'https://10.1.2.3/',
      'http://169.254.169.254/latest',
      'http://[::1]:9/',
      'https://192.168.1.1/s',
      'http://user@172.16.0.1/',
      'http://[::ffff:7f00:1]/',
    ]) {
      expect(regexp.test(url), url).to.equal(true);
      expect(byPattern(url), url).to.equal(true);
    }
    // Names are the proxy's: the expression leaves them out exactly; the browser patterns may over-match
    // (the handler then lets them go), but never ordinary names.
    for (const url of ['http://localhost:8080/', 'https://example.com/', 'http://8.8.8.8/', 'http://x.test/?u=http://127.0.0.1/']) {
      expect(regexp.test(url), url).to.equal(false);
    }
    for (const url of ['http://localhost:8080/', 'https://example.com/a/b.png', 'http://8.8.8.8/', 'https://cdn.example.org/10.png']) {
      expect(byPattern(url), url).to.equal(false);
    }
    const wide = literalAddressScope(['127.0.0.0/8']) as LiteralAddressScope;
    expect(literalAddressRegExp(wide).test('http://127.0.0.1:8080/')).to.equal(false);
    expect(
      literalAddressUrlPatterns(wide)
        .map(wildcard)
        .some((p) => p.test('http://127.0.0.1:8080/')),
    ).to.equal(false);
    expect(literalAddressRegExp(wide).test('http://10.0.0.1/')).to.equal(true);
    expect(literalAddressScope(['0.0.0.0/0', '::/0'])).to.equal(null);
    // With all of IPv6 allowed, IPv4-mapped literals are still judged as the IPv4 address inside.
    const v6 = literalAddressScope(['::/0']) as LiteralAddressScope;
    const v6patterns = literalAddressUrlPatterns(v6).map(wildcard);
    for (const url of ['http://[::ffff:7f00:1]/', 'http://u@[::ffff:a00:1]:8080/']) {
      expect(literalAddressRegExp(v6).test(url), url).to.equal(true);
      expect(
        v6patterns.some((p) => p.test(url)),
        url,
      ).to.equal(true);
    }
    expect(literalAddressRegExp(v6).test('http://[::1]/')).to.equal(false);
    expect(v6patterns.some((p) => p.test('http://[::1]/'))).to.equal(false);
    expect(refusedRequest(createSsrfGuard({ allowNetworks: ['::/0'] }), 'http://[::ffff:7f00:1]/')?.reason).to.match(/loopback/);
    expect(literalAddressScope(undefined)?.ipv4FirstOctets).to.include(127);
  });

  it('a refusal names the address; other schemes and allowed addresses pass', () => {
    const guard = createSsrfGuard({ allowNetworks: ['127.0.0.1/32'] });
    // The refusal also says how to allow the address (GLEANER_ALLOW_NETWORKS).
    expect(refusedRequest(guard, 'http://127.0.0.2/')?.reason).to.match(/^blocked: 127\.0\.0\.2 is a loopback address; to allow it, add 127\.0\.0\.2\/32 /);
    expect(refusedRequest(guard, 'https://[::1]/s')?.reason).to.match(/^blocked: ::1 is a loopback address; to allow it, add ::1\/128 /);
    expect(refusedRequest(guard, 'http://127.0.0.1/')).to.equal(null);
    expect(refusedRequest(guard, 'blob:http://127.0.0.2/x')).to.equal(null);
    // An http(s) URL the guard cannot check is refused, not let through.
    expect(refusedRequest(guard, 'http://%/')?.reason).to.match(/^blocked: http:\/\/%\/ could not be checked/);
  });
});
