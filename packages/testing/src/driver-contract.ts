// The shared driver contract (every driver, the same cases): the plain-HTTP driver and the browser drivers run
// the same cases on the loopback fixture site — snapshot fields, redirects, cookies, proxy, size and
// time limits, aborts, and the SSRF table. Where a behaviour is legitimately driver-specific (a
// browser's html is the rendered DOM), the case is parametrised by `features`, never loosened for all.
import { setTimeout as sleep } from 'node:timers/promises';
import { lookup } from 'node:dns/promises';
import { expect } from 'chai';
import { GleanerError, normalizeCookies } from '@gleaner/core/plugin';
import type { Driver, DriverCapabilities, DriverSessionOptions, PageSnapshot, ResolvedAddress, Resolver } from '@gleaner/core/plugin';
import { isInteractive } from '@gleaner/core/plugin';
import { LATIN1_TEXT, startFixtureSite } from './fixture-site.ts';
import type { FixtureSite } from './fixture-site.ts';
import { startForwardProxy } from './forward-proxy.ts';
import type { ForwardProxy } from './forward-proxy.ts';
import { rejection } from './assert.ts';
import { ssrfContract } from './driver-contract-ssrf.ts';
import { localStorageContract } from './driver-contract-storage.ts';

/** What the contract passes to a driver factory (the options every driver factory accepts). */
export interface ContractDriverOptions {
  allowNetworks: string[];
  resolver: Resolver;
  timeoutMs: number;
}

export interface DriverContractFeatures {
  /** The capabilities the driver must declare; `javascript` also selects the browser-only cases. */
  capabilities: DriverCapabilities;
  /** Set while the driver's package has no factory yet: every case is skipped with this reason. */
  pending?: string;
}

/** A resolver for names under `.test`: scripted answers per host (one per call, the last repeating). */
export interface TestResolver extends Resolver {
  set(host: string, ...answers: string[][]): void;
  calls: string[];
}

export function testResolver(): TestResolver {
  const table = new Map<string, string[][]>();
  const calls: string[] = [];
  const seen = new Map<string, number>();
  const toAddress = (address: string): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 });
  const fn = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const script = table.get(host);
    if (script) {
      const n = seen.get(host) ?? 0;
      seen.set(host, n + 1);
      return script[Math.min(n, script.length - 1)].map(toAddress);
    }
    // Every other .test name is the fixture site; real names (localhost) go to the system resolver.
    if (host.endsWith('.test')) return [toAddress('127.0.0.1')];
    const all = await lookup(host, { all: true });
    return all.map((a) => toAddress(a.address));
  };
  return Object.assign(fn, {
    calls,
    set: (host: string, ...answers: string[][]) => {
      table.set(host, answers);
      seen.delete(host);
    },
  });
}

export async function visit(driver: Driver, url: string, opts: DriverSessionOptions = {}): Promise<PageSnapshot> {
  const session = await driver.openSession(opts);
  try {
    return await session.goto(url);
  } finally {
    await session.close();
  }
}

/** The Cookie header the fixture's /cookies page echoed, as sorted name=value pairs. */
export function echoedCookies(page: PageSnapshot): string[] {
  const m = /<pre id="cookie">(.*?)<\/pre>/s.exec(page.html);
  expect(m, 'the /cookies page').to.not.equal(null);
  return m![1]
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)
    .sort();
}

const SCRIPTED =
  '<!doctype html><html><head><title>Scripted</title></head><body><p id="static">served</p>' +
  "<script>const p = document.createElement('p'); p.id = 'by-js'; p.textContent = 'made by ' + 'script'; document.body.append(p);</script></body></html>";

/** Registers the contract's mocha suites for one driver. `make` builds a driver; each is closed in after(). */
export function driverContract(name: string, make: (opts: ContractDriverOptions) => Driver, features: DriverContractFeatures): void {
  describe(`driver contract: ${name}${features.pending ? ` (skipped: ${features.pending})` : ''}`, function () {
    const js = features.capabilities.javascript;
    let site: FixtureSite;
    let driver: Driver;
    const made: Driver[] = [];
    const dns = testResolver();
    const build = (opts: Partial<ContractDriverOptions> = {}): Driver => {
      const d = make({ allowNetworks: ['127.0.0.0/8'], resolver: dns, timeoutMs: 10_000, ...opts });
      made.push(d);
      return d;
    };
    const fetchPage = (path: string, opts?: DriverSessionOptions) => visit(driver, `${site.url}${path}`, opts);

    before(async function () {
      if (features.pending) this.skip();
      site = await startFixtureSite();
      site.page('/scripted', SCRIPTED);
      site.route('/headers', (_q, res) => {
        res.writeHead(200, {
          'Content-Type': 'text/html; charset=utf-8',
          'X-Custom-Thing': 'one',
          'X-Multi': ['a', 'b'],
          'Set-Cookie': ['a=1; Path=/', 'b=2; Path=/'],
        });
        res.end('<!doctype html><title>Headers</title><p>headers</p>');
      });
      site.route('/set-cookie', (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': ['visit=1; Path=/', 'pref=dark; Path=/; HttpOnly'] });
        res.end('<!doctype html><title>Set</title><p>cookies set</p>');
      });
      driver = build();
    });
    after(async () => {
      await Promise.all(made.map((d) => d.close()));
      await site?.close();
    });

    describe('snapshot', () => {
      it('declares its name and capabilities', () => {
        expect(driver.name).to.equal(name);
        expect({ ...driver.capabilities }).to.deep.equal(features.capabilities);
      });

      it('returns requestedUrl, finalUrl, status, content type, html, redirects and its name; sends the user agent', async () => {
        const page = await fetchPage('/page', { userAgent: 'GleanerTest/1.0' });
        expect(page).to.include({ requestedUrl: `${site.url}/page`, finalUrl: `${site.url}/page`, status: 200, contentType: 'text/html', driver: name });
        expect(page.html).to.contain('<h1>A page</h1>');
        expect(page.redirects).to.deep.equal([]);
        if (page.charset !== undefined) expect(page.charset).to.equal('utf-8');
        const served = site.requests.filter((r) => r.path === '/page');
        expect(served.at(-1)?.headers['user-agent']).to.equal('GleanerTest/1.0');
      });

      it('gives the bytes html was decoded from as the server sent them (body, optional): decoded with charset they are html', async function () {
        const page = await fetchPage('/latin1');
        if (page.body === undefined) return this.skip(); // optional: a browser renders a DOM
        const sent = Buffer.from(await (await fetch(`${site.url}/latin1`)).arrayBuffer());
        expect(Buffer.from(page.body).equals(sent)).to.equal(true);
        expect(page.charset).to.equal('windows-1252');
        expect(new TextDecoder(page.charset).decode(page.body)).to.equal(page.html);
        expect(page.html).to.contain(LATIN1_TEXT);
      });

      it('reports headers with lower-case names, repeated ones joined (Set-Cookie with a newline)', async () => {
        const page = await fetchPage('/headers');
        expect(Object.keys(page.headers).filter((k) => k !== k.toLowerCase())).to.deep.equal([]);
        expect(page.headers).to.include({
          'content-type': 'text/html; charset=utf-8',
          'x-custom-thing': 'one',
          'x-multi': 'a, b',
          'set-cookie': 'a=1; Path=/\nb=2; Path=/',
        });
      });

      if (js) {
        it('returns the rendered DOM (what the page script made is in html)', async () => {
          const page = await fetchPage('/scripted');
          expect(page.html).to.contain('<p id="static">served</p>');
          expect(page.html).to.contain('<p id="by-js">made by script</p>');
        });
      } else {
        it('returns the document as served (scripts are not run)', async () => {
          const page = await fetchPage('/scripted');
          expect(page.html).to.equal(SCRIPTED);
        });
      }

      it('returns text/plain and JSON documents as the text itself', async () => {
        expect(await fetchPage('/text')).to.include({ html: 'just text', contentType: 'text/plain', status: 200 });
        expect(await fetchPage('/json')).to.include({ html: '{"ok":true,"name":"Zoë"}', contentType: 'application/json' });
      });

      for (const path of ['/image.png', '/doc.pdf']) {
        it(`refuses non-HTML content with UNSUPPORTED_CONTENT: ${path}`, async () => {
          expect((await rejection(fetchPage(path))).code).to.equal('UNSUPPORTED_CONTENT');
        });
      }

      it('returns error pages with their status rather than throwing', async () => {
        const page = await fetchPage('/error');
        expect(page.status).to.equal(500);
        expect(page.html).to.contain('Something broke');
        expect((await fetchPage('/no-such-page')).status).to.equal(404);
      });
    });

    describe('redirects', () => {
      it('follows redirects to the final URL and lists the hops', async () => {
        const inner = `/redirect?status=301&to=${encodeURIComponent('/page')}`;
        const page = await fetchPage(`/redirect?to=${encodeURIComponent(inner)}`);
        expect(page).to.include({ finalUrl: `${site.url}/page`, status: 200, requestedUrl: `${site.url}/redirect?to=${encodeURIComponent(inner)}` });
        expect(page.html).to.contain('<h1>A page</h1>');
        expect(page.redirects).to.deep.equal([`${site.url}/redirect?to=${encodeURIComponent(inner)}`, `${site.url}${inner}`]);
      });

      it('follows every redirect status (301, 302, 303, 307, 308)', async () => {
        for (const status of [301, 302, 303, 307, 308]) {
          const page = await fetchPage(`/redirect?status=${status}&to=%2Fpage`);
          expect(page.finalUrl, String(status)).to.equal(`${site.url}/page`);
          expect(page.redirects, String(status)).to.have.length(1);
        }
      });

      it('navigates without the document when asked (goto content: false): the same outcome, an empty or full html', async () => {
        const session = await driver.openSession();
        try {
          const path = `/redirect?to=${encodeURIComponent('/page')}`;
          const bare = await session.goto(`${site.url}${path}`, { content: false });
          expect(bare).to.include({ requestedUrl: `${site.url}${path}`, finalUrl: `${site.url}/page`, status: 200, contentType: 'text/html' });
          expect(bare.redirects).to.deep.equal([`${site.url}${path}`]);
          // A driver may skip the read (html '') or return the document anyway, never something else.
          if (bare.html) expect(bare.html).to.contain('<h1>A page</h1>');
          expect((await session.goto(`${site.url}/no-such-page`, { content: false })).status).to.equal(404);
          expect((await rejection(session.goto(`${site.url}/loop`, { content: false }))).code).to.equal('TOO_MANY_REDIRECTS');
          // The document is read by a full goto (or snapshot()) as usual.
          expect((await session.goto(`${site.url}/page`)).html).to.contain('<h1>A page</h1>');
        } finally {
          await session.close();
        }
      });

      it('stops at maxRedirects with TOO_MANY_REDIRECTS', async () => {
        const err = await rejection(fetchPage('/loop', { maxRedirects: 3 }));
        expect(err.code).to.equal('TOO_MANY_REDIRECTS');
        expect(err.message).to.contain('more than 3 redirects');
      });
    });

    // A driver without the capability skips its cases (and must refuse a proxy rather than go around it).
    (features.capabilities.cookies ? describe : describe.skip)('cookies', () => {
      // A name (resolved by the injected resolver to the fixture site) rather than 127.0.0.1: a
      // browser treats loopback IPs as secure origins, which real sites are not.
      const shop = () => `http://www.shop.test:${site.port}`;

      it('sends list-form cookies, scoped by domain and path', async () => {
        const url = `${shop()}/cookies`;
        const cookies = normalizeCookies(
          [
            { name: 'sid', value: 'abc' },
            { name: 'scoped', value: 'yes', domain: 'shop.test', path: '/cookies' },
            { name: 'elsewhere', value: 'no', path: '/other' },
            { name: 'otherhost', value: 'no', domain: 'example.com' },
            { name: 'parentonly', value: 'no', url: 'http://shop.test/' },
            { name: 'secure', value: 'no', secure: true },
            { name: 'expired', value: 'no', expires: 1000 },
          ],
          url,
        );
        expect(echoedCookies(await visit(driver, url, { cookies }))).to.deep.equal(['scoped=yes', 'sid=abc']);
      });

      it('sends flat-form cookies, bound to the host of the first navigation', async () => {
        const session = await driver.openSession({ cookies: normalizeCookies({ sid: 'abc', theme: 'dark', path: '/' }) });
        try {
          expect(echoedCookies(await session.goto(`${shop()}/cookies`))).to.deep.equal(['sid=abc', 'theme=dark']);
          expect(echoedCookies(await session.goto(`http://other.test:${site.port}/cookies`))).to.deep.equal([]);
        } finally {
          await session.close();
        }
      });

      it('applies Set-Cookie from a redirect hop to the next hop and returns the jar', async () => {
        const page = await visit(driver, `${shop()}/set-cookie-redirect`, { cookies: normalizeCookies([{ name: 'gone', value: 'old' }], shop()) });
        expect(page.finalUrl).to.equal(`${shop()}/cookies`);
        expect(echoedCookies(page)).to.deep.equal(['hop=1']);
        expect(page.cookies?.map((c) => c.name)).to.have.members(['hop', 'other']);
        expect(page.cookies?.find((c) => c.name === 'hop')).to.include({ value: '1', domain: 'www.shop.test', path: '/', hostOnly: true });
      });

      it('keeps Set-Cookie across navigations of one session, and sessions do not share cookies', async () => {
        const session = await driver.openSession();
        try {
          await session.goto(`${shop()}/set-cookie`);
          const page = await session.goto(`${shop()}/cookies`);
          expect(echoedCookies(page)).to.deep.equal(['pref=dark', 'visit=1']);
          expect(page.cookies?.find((c) => c.name === 'pref')).to.include({ value: 'dark', httpOnly: true });
        } finally {
          await session.close();
        }
        expect(echoedCookies(await visit(driver, `${shop()}/cookies`))).to.deep.equal([]);
      });
    });

    localStorageContract(features.capabilities, () => ({ site, driver }));

    if (!features.capabilities.proxy) {
      it('refuses a session proxy it cannot honour with DRIVER_UNAVAILABLE (never connects around it)', async () => {
        const proxy = await startForwardProxy();
        try {
          expect((await rejection(visit(driver, `${site.url}/page`, { proxy: proxy.url }))).code).to.equal('DRIVER_UNAVAILABLE');
          expect(proxy.requests).to.have.length(0);
        } finally {
          await proxy.close();
        }
      });
    }

    (features.capabilities.proxy ? describe : describe.skip)('proxy', () => {
      let proxy: ForwardProxy;
      before(async () => {
        proxy = await startForwardProxy();
      });
      after(() => proxy?.close());

      it('sends an http target through the session proxy, cookies included', async () => {
        const page = await visit(driver, `${site.url}/cookies`, { proxy: proxy.url, cookies: normalizeCookies({ sid: 'p' }) });
        expect(page).to.include({ status: 200, finalUrl: `${site.url}/cookies` });
        expect(echoedCookies(page)).to.deep.equal(['sid=p']);
        expect(proxy.requests.filter((r) => r.method === 'GET').map((r) => r.target)).to.include(`${site.url}/cookies`);
      });

      it('reports a dead proxy as FETCH_FAILED', async () => {
        const err = await rejection(visit(driver, `${site.url}/page`, { proxy: 'http://127.0.0.1:1' }));
        expect(err.code).to.equal('FETCH_FAILED');
      });
    });

    describe('limits and failures', () => {
      it('caps the body size with FETCH_TOO_LARGE', async () => {
        const err = await rejection(fetchPage('/big?bytes=2000000', { maxBytes: 100_000 }));
        expect(err.code).to.equal('FETCH_TOO_LARGE');
        expect(err.message).to.contain('100000 bytes');
      });

      it('times out waiting for the response with FETCH_TIMEOUT (timeouts.totalMs)', async () => {
        const err = await rejection(fetchPage('/slow?ms=8000', { timeouts: { totalMs: 400 } }));
        expect(err.code).to.equal('FETCH_TIMEOUT');
        expect(err.message).to.contain('400 ms');
      });

      it('times out while the body trickles', async () => {
        const err = await rejection(fetchPage('/slow-body', { timeouts: { totalMs: 600 } }));
        expect(err.code).to.equal('FETCH_TIMEOUT');
        expect(err.message).to.contain('600 ms');
      });

      if (js) {
        it('returns the page as it is when a subresource never finishes (load never fires within the budget)', async () => {
          site.page(
            '/stalled',
            '<!doctype html><title>Stalled</title><p id="text">the article</p><img src="/slow?ms=20000">' +
              "<script>document.body.insertAdjacentHTML('beforeend', '<p id=\"by-js\">rendered</p>')</script>",
          );
          const page = await fetchPage('/stalled', { timeouts: { totalMs: 2500 } });
          expect(page.status).to.equal(200);
          expect(page.html).to.contain('the article').and.contain('id="by-js"');
        });

        it('describes the page it returns when the page navigated by itself after load (status, headers, URL match the HTML)', async () => {
          // A request still running after load keeps the settle going while a script replaces the page.
          site.page(
            '/hops-away',
            "<!doctype html><title>First</title><p>first page</p><script>fetch('/slow?ms=4000').catch(() => {});" +
              "addEventListener('load', () => setTimeout(() => location.replace('/landed'), 50));</script>",
            { headers: { 'x-which': 'first' } },
          );
          site.page('/landed', '<!doctype html><title>Landed</title><p>landed page</p>', { status: 203, headers: { 'x-which': 'landed' } });
          const page = await fetchPage('/hops-away', { timeouts: { totalMs: 8000 } });
          const landed = page.html.includes('landed page');
          expect(page.headers['x-which']).to.equal(landed ? 'landed' : 'first');
          expect(page.status).to.equal(landed ? 203 : 200);
          expect(page.finalUrl).to.equal(`${site.url}${landed ? '/landed' : '/hops-away'}`);
        });

        it('times out with FETCH_TIMEOUT when the page script spins after load (reading the page is in the budget)', async () => {
          site.page(
            '/spins',
            "<!doctype html><title>Spins</title><p>loaded</p><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 0));</script>",
          );
          const session = await driver.openSession({ timeouts: { totalMs: 1500 } });
          try {
            const err = await rejection(session.goto(`${site.url}/spins`));
            expect(err.code).to.equal('FETCH_TIMEOUT');
            expect(err.message).to.contain('1500 ms');
            // The session then loads the next page or refuses plainly; it never hangs on the stuck page.
            const next = await session.goto(`${site.url}/scripted`).then(
              (p) => p.status,
              (e: GleanerError) => e.code,
            );
            expect(next).to.be.oneOf([200, 'DRIVER_UNAVAILABLE', 'FETCH_TIMEOUT']);
          } finally {
            await session.close();
          }
        });
      }

      it("stops when the session's signal aborts; a GleanerError reason is rethrown as is", async () => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 300);
        const err = await rejection(fetchPage('/slow?ms=8000', { signal: controller.signal }));
        expect(err.code).to.equal('FETCH_TIMEOUT');
        expect(err.message).to.contain('aborted');
        const shutdown = new AbortController();
        setTimeout(() => shutdown.abort(new GleanerError('JOB_ABORTED', 'the worker is shutting down')), 300);
        const reason = await rejection(fetchPage('/slow?ms=8000', { signal: shutdown.signal }));
        expect(reason).to.include({ code: 'JOB_ABORTED', message: 'the worker is shutting down' });
      });

      it("stops one navigation on goto's signal; the session stays usable", async () => {
        const session = await driver.openSession();
        try {
          const controller = new AbortController();
          setTimeout(() => controller.abort(), 300);
          const err = await rejection(session.goto(`${site.url}/slow?ms=8000`, { signal: controller.signal }));
          expect(err.code).to.equal('FETCH_TIMEOUT');
          expect((await session.goto(`${site.url}/page`)).html).to.contain('<h1>A page</h1>');
        } finally {
          await session.close();
        }
      });

      it('keeps a session usable after a failed navigation', async () => {
        const session = await driver.openSession({ maxBytes: 100_000 });
        try {
          expect((await rejection(session.goto(`${site.url}/big?bytes=2000000`))).code).to.equal('FETCH_TOO_LARGE');
          expect((await session.goto(`${site.url}/page`)).status).to.equal(200);
        } finally {
          await session.close();
        }
      });

      it('reports a refused connection as FETCH_FAILED', async () => {
        const gone = await startFixtureSite();
        const url = `${gone.url}/`;
        await gone.close();
        expect((await rejection(visit(driver, url))).code).to.equal('FETCH_FAILED');
      });
    });

    describe('lifecycle', () => {
      it('closes a session twice without error, and refuses new sessions once closed (DRIVER_UNAVAILABLE)', async () => {
        const d = build();
        const session = await d.openSession();
        expect((await session.goto(`${site.url}/page`)).status).to.equal(200);
        await session.close();
        await session.close();
        await d.close();
        await d.close();
        expect((await rejection(d.openSession())).code).to.equal('DRIVER_UNAVAILABLE');
      });

      it('fails a navigation in flight with a GleanerError when the driver closes', async () => {
        const d = build();
        const session = await d.openSession();
        const pending = rejection(session.goto(`${site.url}/slow?ms=8000`));
        await sleep(300);
        await d.close();
        await pending;
        await session.close();
      });

      if (features.capabilities.interaction) {
        it('gives interactive sessions', async () => {
          const session = await driver.openSession();
          try {
            expect(isInteractive(session)).to.equal(true);
          } finally {
            await session.close();
          }
        });
      }
    });

    ssrfContract(features.capabilities, () => ({ site, build, dns }));
  });
}
