// Selenium-specific behaviour (the shared contract in test/contract.test.ts covers the rest): the local
// chromedriver launch and its flags, a fresh browser context per job on one pooled Chromium, jobs
// side by side, a proxy per job, service workers refused, self-signed TLS, and abort.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { GleanerError, isInteractive, normalizeCookies } from '@gleaner/core/plugin';
import type { DriverSession, PageSnapshot } from '@gleaner/core/plugin';
import { CHROMIUM_FLAGS, createSeleniumDriver } from '../src/index.ts';
import type { SeleniumDriver } from '../src/index.ts';
import { processGroupMembers } from '../src/launcher.ts';
import { startFixtureSite, type FixtureSite, startForwardProxy, rejection, visit } from '@gleaner/testing';

const cmdline = (pid: number): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
};

const echoed = (page: PageSnapshot) => /<pre id="cookie">(.*?)<\/pre>/s.exec(page.html)?.[1] ?? null;

describe('driver-selenium: local chromedriver, contexts, proxies', function () {
  this.timeout(120_000);
  let site: FixtureSite;
  let driver: SeleniumDriver;

  before(async () => {
    site = await startFixtureSite();
    site.route('/set-state', (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'jobA=1; Path=/' });
      res.end("<!doctype html><title>A</title><script>localStorage.setItem('job', 'A'); document.cookie = 'script=A; path=/';</script><p>set</p>");
    });
    site.page(
      '/read-state',
      "<!doctype html><title>B</title><p id=\"ls\"></p><script>document.getElementById('ls').textContent = 'storage:' + (localStorage.getItem('job') || 'none');</script>",
    );
    site.page(
      '/sw',
      `<!doctype html><title>SW</title><p id="sw">pending</p><script>
      navigator.serviceWorker.register('/sw.js').then(() => 'registered', (e) => 'refused: ' + e.message)
        .then((t) => { const p = document.getElementById('sw'); p.textContent = t; p.className = 'done'; });</script>`,
    );
    site.route('/sw.js', (_q, res) => void res.writeHead(200, { 'content-type': 'text/javascript' }).end("self.addEventListener('fetch', () => {});"));
    driver = createSeleniumDriver({ allowNetworks: ['127.0.0.1/32'], maxPages: 2, timeoutMs: 15_000 });
  });
  after(async () => {
    await driver?.close();
    await site?.close();
  });

  it('launches chromedriver, which starts Chromium with the required flags in its process group', async () => {
    const page = await visit(driver, `${site.url}/page`);
    expect(page).to.include({ status: 200, driver: 'selenium', contentType: 'text/html' });
    const [pgid] = driver.stats().pids;
    expect(cmdline(pgid).join(' ')).to.contain('chromedriver');
    const browser = processGroupMembers(pgid)
      .map(cmdline)
      .find((args) => args.some((a) => a.startsWith('--remote-debugging-port')) && !args.some((a) => a.startsWith('--type=')));
    expect(browser, 'the Chromium browser process in the group').to.not.equal(undefined);
    for (const flag of CHROMIUM_FLAGS) expect(browser).to.include(flag);
    expect(browser).to.include('--proxy-bypass-list=<-loopback>');
    expect(browser!.some((a) => /^--proxy-server=http:\/\/127\.0\.0\.1:\d+$/.test(a))).to.equal(true);
  });

  it("gives each job a fresh context on the same browser: job A's cookies and storage are not seen by job B", async () => {
    const launches = driver.stats().launches;
    const a = await driver.openSession({ cookies: normalizeCookies({ given: 'A' }) });
    let b: DriverSession | undefined;
    try {
      await a.goto(`${site.url}/set-state`);
      const own = await a.goto(`${site.url}/cookies`);
      expect(echoed(own)?.split('; ').sort()).to.deep.equal(['given=A', 'jobA=1', 'script=A']);
      expect((await a.goto(`${site.url}/read-state`)).html).to.contain('storage:A');
      // B runs while A is still open: two contexts side by side on one Chromium.
      b = await driver.openSession();
      expect(echoed(await b.goto(`${site.url}/cookies`))).to.equal('');
      expect((await b.goto(`${site.url}/read-state`)).html).to.contain('storage:none');
      expect((await b.goto(`${site.url}/page`)).cookies).to.deep.equal([]);
    } finally {
      await b?.close();
      await a.close();
    }
    expect(driver.stats()).to.include({ launches, browsers: 1 });
  });

  it('runs up to maxPages jobs at once and queues the next (the signal ends its wait)', async () => {
    const one = await driver.openSession();
    const two = await driver.openSession();
    try {
      const [p1, p2] = await Promise.all([one.goto(`${site.url}/slow?ms=300`), two.goto(`${site.url}/slow?ms=300`)]);
      expect([p1.status, p2.status]).to.deep.equal([200, 200]);
      expect(driver.stats()).to.include({ activePages: 2, browsers: 1 });
      const err = await rejection(driver.openSession({ signal: AbortSignal.abort(new GleanerError('JOB_ABORTED', 'no slot for you')) }));
      expect(err.code).to.equal('JOB_ABORTED');
      // A plain abort reason (here a DOMException TimeoutError) becomes a GleanerError, as in driver-playwright.
      const late = await rejection(driver.openSession({ signal: AbortSignal.timeout(300) }));
      expect(late).to.include({ code: 'FETCH_TIMEOUT', message: 'the fetch of a page was aborted' });
    } finally {
      await one.close();
      await two.close();
    }
    expect(driver.stats()).to.include({ activePages: 0, waiting: 0 });
  });

  it('sends a job through its own proxy and the next job on the same browser without one', async () => {
    const proxy = await startForwardProxy();
    try {
      const via = await visit(driver, `${site.url}/page?via=proxy`, { proxy: proxy.url });
      expect(via.status).to.equal(200);
      expect(proxy.requests.map((r) => r.target)).to.include(`${site.url}/page?via=proxy`);
      const seen = proxy.requests.length;
      expect((await visit(driver, `${site.url}/page?via=direct`)).status).to.equal(200);
      expect(proxy.requests).to.have.length(seen);
      expect(site.requests.some((r) => r.path === '/page?via=direct')).to.equal(true);
    } finally {
      await proxy.close();
    }
  });

  it('sends the referer given to goto() with the document request only', async () => {
    const session = await driver.openSession();
    try {
      await session.goto(`${site.url}/page?ref=1`, { referer: 'https://referrer.example/start' });
    } finally {
      await session.close();
    }
    const served = site.requests.filter((r) => r.path === '/page?ref=1');
    expect(served.map((r) => r.headers.referer)).to.deep.equal(['https://referrer.example/start']);
  });

  it('fails fetch() to literal blocked addresses inside the browser (the request check), before the proxy is asked', async () => {
    const canary = await startFixtureSite({ host: '::' });
    site.page(
      '/literal-fetch',
      `<!doctype html><title>Literal</title><p id="r">pending</p><script>
      Promise.allSettled([fetch('http://127.0.0.2:${canary.port}/a', { mode: 'no-cors' }), fetch('http://[::1]:${canary.port}/b', { mode: 'no-cors' })])
        .then((r) => { const p = document.getElementById('r'); p.textContent = r.map((x) => x.status).join(','); p.className = 'done'; });</script>`,
    );
    const session = await driver.openSession();
    try {
      await session.goto(`${site.url}/literal-fetch`);
      if (isInteractive(session)) await session.waitFor({ selector: '#r.done', state: 'attached', timeoutMs: 10_000 });
      // The proxy would have answered 403 (a no-cors fetch sees that as fulfilled); the check fails them.
      expect((await session.snapshot?.())?.html).to.contain('<p id="r" class="done">rejected,rejected</p>');
    } finally {
      await session.close();
      await canary.close();
    }
    expect(canary.connections).to.equal(0);
  });

  it('refuses service worker registration', async () => {
    const session = await driver.openSession();
    try {
      await session.goto(`${site.url}/sw`);
      if (!isInteractive(session)) throw new Error('selenium sessions are interactive');
      await session.waitFor({ selector: '#sw.done', state: 'attached', timeoutMs: 5000 });
      expect((await session.snapshot()).html).to.contain('refused: Service workers are disabled by Gleaner');
    } finally {
      await session.close();
    }
    expect(site.requests.some((r) => r.path === '/sw.js')).to.equal(false);
  });

  it('aborts a navigation on the job signal; the browser is kept for the next job', async () => {
    const { launches, retired } = driver.stats();
    const controller = new AbortController();
    const session = await driver.openSession({ signal: controller.signal });
    try {
      setTimeout(() => controller.abort(new GleanerError('JOB_ABORTED', 'the job was cancelled')), 300);
      const started = Date.now();
      const err = await rejection(session.goto(`${site.url}/slow?ms=10000`));
      expect(err).to.include({ code: 'JOB_ABORTED', message: 'the job was cancelled' });
      expect(Date.now() - started).to.be.below(8000);
    } finally {
      await session.close();
    }
    expect((await visit(driver, `${site.url}/page`)).status).to.equal(200);
    expect(driver.stats()).to.include({ launches, retired });
  });
});

describe('driver-selenium: TLS', function () {
  this.timeout(120_000);
  let site: FixtureSite;
  const drivers: SeleniumDriver[] = [];
  before(async () => {
    site = await startFixtureSite({ tls: true });
  });
  after(async () => {
    await Promise.all(drivers.map((d) => d.close()));
    await site?.close();
  });

  it('loads a self-signed https page with ignoreHttpsErrors, and refuses it without (FETCH_FAILED)', async () => {
    const lenient = createSeleniumDriver({ allowNetworks: ['127.0.0.1/32'], ignoreHttpsErrors: true, maxPages: 1 });
    const strict = createSeleniumDriver({ allowNetworks: ['127.0.0.1/32'], maxPages: 1 });
    drivers.push(lenient, strict);
    const page = await visit(lenient, `${site.url}/page`);
    expect(page).to.include({ status: 200, finalUrl: `${site.url}/page` });
    expect(page.html).to.contain('<h1>A page</h1>');
    const err = await rejection(visit(strict, `${site.url}/page`));
    expect(err.code).to.equal('FETCH_FAILED');
    expect(err.message).to.contain('ERR_CERT');
  });
});
