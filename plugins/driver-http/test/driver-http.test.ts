import { expect } from 'chai';
import { GleanerError, listProxyCountries, normalizeCookies, resolveProxy } from '@gleaner/core/internal';
import type { Driver, DriverSessionOptions, PageSnapshot } from '@gleaner/core/internal';
import { createHttpDriver } from '@gleaner/driver-http';
import { FIXTURE_CA, LATIN1_TEXT, startFixtureSite, type FixtureSite, startForwardProxy, type ForwardProxy, rejection } from '@gleaner/testing';

const LOOPBACK = ['127.0.0.0/8'];

// The cases every driver shares (snapshot fields, redirects, cookies, proxy, limits, SSRF) run in
// its test/contract.test.ts; these are the http driver's own: decoding, compression, CONNECT, CA, messages.
describe('driver-http', () => {
  let site: FixtureSite;
  let driver: Driver;
  const fetchPage = async (path: string, opts: DriverSessionOptions = {}): Promise<PageSnapshot> => {
    const session = await driver.openSession(opts);
    try {
      return await session.goto(`${site.url}${path}`);
    } finally {
      await session.close();
    }
  };

  before(async () => {
    site = await startFixtureSite();
    driver = createHttpDriver({ allowNetworks: LOOPBACK, timeoutMs: 5000, ca: FIXTURE_CA });
  });
  after(async () => {
    await driver.close();
    await site.close();
  });

  describe('decoding', () => {
    it('decodes a latin-1 page declared in Content-Type', async () => {
      const page = await fetchPage('/latin1');
      expect(page.charset).to.equal('windows-1252');
      expect(page.html).to.contain(LATIN1_TEXT);
    });

    it('decodes a latin-1 page declared by <meta http-equiv>', async () => {
      const page = await fetchPage('/latin1-meta');
      expect(page.html).to.contain(LATIN1_TEXT);
    });

    it('uses a BOM, and defaults to UTF-8', async () => {
      site.route('/bom', (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>Zoë</p>', 'utf16le')]));
      });
      site.route('/plain-utf8', (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(Buffer.from('<p>Zoë — ok</p>', 'utf8'));
      });
      expect((await fetchPage('/bom')).html).to.equal('<p>Zoë</p>');
      expect((await fetchPage('/plain-utf8')).html).to.equal('<p>Zoë — ok</p>');
    });

    for (const path of ['/gzip', '/br', '/deflate', '/deflate-raw']) {
      it(`decompresses ${path.slice(1)}`, async () => {
        const page = await fetchPage(path);
        expect(page.html.match(/squeezed but intact/g)).to.have.length(50);
        expect(site.requests.at(-1)?.headers['accept-encoding']).to.equal('gzip, deflate, br');
      });
    }

    it('passes text/plain, JSON and XHTML through as text', async () => {
      expect(await fetchPage('/text')).to.include({ html: 'just text', contentType: 'text/plain' });
      expect(await fetchPage('/json')).to.include({ html: '{"ok":true,"name":"Zoë"}', contentType: 'application/json' });
      expect((await fetchPage('/xhtml')).contentType).to.equal('application/xhtml+xml');
    });

    for (const path of ['/bin', '/untyped-pdf']) {
      it(`refuses non-HTML content: ${path}`, async () => {
        const err = await rejection(fetchPage(path));
        expect(err.code).to.equal('UNSUPPORTED_CONTENT');
      });
    }
  });

  describe('limits', () => {
    it('counts decompressed bytes (a small gzip body that inflates past the cap)', async () => {
      const err = await rejection(fetchPage('/big?bytes=2000000&gzip=1', { maxBytes: 100_000 }));
      expect(err.code).to.equal('FETCH_TOO_LARGE');
    });

    it('refuses a declared Content-Length over the cap before reading', async () => {
      site.route('/declared-big', (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': '5000000' });
        res.write('<p>');
      });
      expect((await rejection(fetchPage('/declared-big', { maxBytes: 10_000 }))).code).to.equal('FETCH_TOO_LARGE');
    });
  });

  describe('cookies', () => {
    const cookieOf = (page: PageSnapshot) => /<pre id="cookie">(.*)<\/pre>/.exec(page.html)?.[1];

    it('sends flat-form cookies; attribute keys are not cookies', async () => {
      const cookies = normalizeCookies({ sid: 'abc', theme: 'dark', sameSite: 'None', path: '/' });
      expect(cookies.map((c) => c.name)).to.deep.equal(['sid', 'theme']);
      expect(cookies[0]).to.include({ sameSite: 'None', hostOnly: true });
      // No request URL given: the session binds them to the host of its first navigation.
      expect(cookieOf(await fetchPage('/cookies', { cookies }))).to.equal('sid=abc; theme=dark');
    });

    it('treats null and [] as no cookies and refuses malformed ones', () => {
      expect(normalizeCookies(null)).to.deep.equal([]);
      expect(normalizeCookies([])).to.deep.equal([]);
      expect(() => normalizeCookies('a=1; b=2')).to.throw(GleanerError, /list of cookie objects/);
      expect(() => normalizeCookies([{ value: 'x' }])).to.throw(GleanerError, /no name/);
      expect(() => normalizeCookies([{ name: 'bad name', value: 'x' }])).to.throw(GleanerError, /invalid cookie name/);
      expect(() => normalizeCookies({ sid: 'a;b' })).to.throw(GleanerError, /contains ';'/);
      expect(() => normalizeCookies([{ name: 'a', value: 'b', sameSite: 'sometimes' }])).to.throw(GleanerError, /sameSite/);
    });

    it('scopes url-form cookies to that URL', () => {
      const [c] = normalizeCookies([{ name: 'a', value: '1', url: 'https://shop.example.com/cart/view' }]);
      expect(c).to.include({ domain: 'shop.example.com', hostOnly: true, path: '/cart', secure: true });
    });
  });

  describe('proxies', () => {
    let proxy: ForwardProxy;
    let tlsSite: FixtureSite;
    before(async () => {
      proxy = await startForwardProxy();
      tlsSite = await startFixtureSite({ tls: true });
    });
    after(async () => {
      await proxy.close();
      await tlsSite.close();
    });

    it('tunnels https URLs with CONNECT', async () => {
      const session = await driver.openSession({ proxy: proxy.url });
      const page = await session.goto(`${tlsSite.url}/page`);
      await session.close();
      expect(page).to.include({ status: 200, finalUrl: `${tlsSite.url}/page` });
      expect(proxy.requests.at(-1)).to.include({ method: 'CONNECT', target: `127.0.0.1:${tlsSite.port}` });
      expect(tlsSite.requests.at(-1)?.path).to.equal('/page');
    });

    it('fetches https directly too (the CA option)', async () => {
      const page = await fetchPageAt(driver, `${tlsSite.url}/gzip`);
      expect(page.html).to.contain('squeezed but intact');
    });

    it('reports a dead proxy as FETCH_FAILED', async () => {
      const session = await driver.openSession({ proxy: 'http://127.0.0.1:1' });
      const err = await rejection(session.goto(`${site.url}/page`));
      expect(err.code).to.equal('FETCH_FAILED');
      expect(err.message).to.contain('through the proxy');
    });
  });
});

async function fetchPageAt(driver: Driver, url: string): Promise<PageSnapshot> {
  const session = await driver.openSession();
  try {
    return await session.goto(url);
  } finally {
    await session.close();
  }
}

describe('proxy countries', () => {
  const config = (proxies: Record<string, string>, defaultProxyCountry = '') => ({ network: { proxies, defaultProxyCountry } });

  it('lists random first and about thirty countries in CamelCase', () => {
    const list = listProxyCountries(config({ Narnia: 'http://p:1' }));
    expect(Object.keys(list)[0]).to.equal('random');
    expect(list).to.include({
      random: 'Random Country',
      UnitedStates: 'United States',
      UnitedKingdom: 'United Kingdom',
      Germany: 'Germany',
      Japan: 'Japan',
      Narnia: 'Narnia',
    });
    expect(Object.keys(list).length).to.be.greaterThan(30);
  });

  it('resolves a country, an ISO alias, the default, and nothing', () => {
    const c = config({ UnitedStates: 'http://us:3128', Germany: 'http://de:3128' }, 'Germany');
    expect(resolveProxy('UnitedStates', c)).to.equal('http://us:3128');
    expect(resolveProxy('unitedstates', c)).to.equal('http://us:3128');
    expect(resolveProxy('US', c)).to.equal('http://us:3128');
    expect(resolveProxy(null, c)).to.equal('http://de:3128');
    expect(resolveProxy('', config({}))).to.equal(null);
  });

  it('fetches directly (with a warning) for a known country without a proxy, and refuses unknown ones', () => {
    const warnings: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args) } as never;
    expect(resolveProxy('Japan', config({ UnitedStates: 'http://us:3128' }), { logger })).to.equal(null);
    expect(warnings).to.have.length(1);
    const err = (() => {
      try {
        resolveProxy('Atlantis', config({}));
      } catch (e) {
        return e as GleanerError;
      }
    })();
    expect(err?.code).to.equal('PROXY_COUNTRY_UNKNOWN');
  });

  it('picks random among configured proxies, and fills a "*" gateway template', () => {
    const c = config({ UnitedStates: 'http://us:3128', France: 'http://fr:3128' });
    expect(resolveProxy('random', c, { random: () => 0.99 })).to.equal('http://fr:3128');
    expect(resolveProxy('random', config({}))).to.equal(null);
    expect(resolveProxy('France', config({ '*': 'http://user-country-{iso}:pw@gw:8000' }))).to.equal('http://user-country-fr:pw@gw:8000');
  });
});
