// The http driver's interaction on linkedom (no JavaScript): the outline (the browsers' own script,
// compared with Playwright's on the same page), links, GET and POST forms with their redirects,
// field values, <details>, the NEEDS_BROWSER cases, SSRF on clicks and form actions, cookies.
import { expect } from 'chai';
import { GleanerError, isInteractive } from '@gleaner/core/internal';
import type { Driver, InteractiveSession, OutlineElement } from '@gleaner/core/internal';
import { createHttpDriver } from '@gleaner/driver-http';
import { createPlaywrightDriver } from '@gleaner/driver-playwright';
import { startFixtureSite, type FixtureSite, rejection } from '@gleaner/testing';

import { PAGES, doc, esc } from './http-interaction-pages.ts';

describe('driver-http interaction (linkedom, no JavaScript)', () => {
  let site: FixtureSite;
  let canary: FixtureSite;
  let driver: Driver;
  let session: InteractiveSession | undefined;
  const bodies: Array<{ path: string; method: string; contentType: string; body: string }> = [];

  const open = async (path: string, d: Driver = driver): Promise<InteractiveSession> => {
    const s = await d.openSession();
    if (!isInteractive(s)) throw new Error('http sessions are not interactive');
    session = s;
    await s.goto(`${site.url}${path}`);
    return s;
  };
  const byName = (els: OutlineElement[], n: string) => els.find((e) => e.name === n);

  before(async () => {
    site = await startFixtureSite();
    canary = await startFixtureSite({ host: '::' });
    for (const [path, html] of Object.entries(PAGES)) site.page(path, html);
    // Echoes what arrived: the method, query, content type and body.
    const echo = async (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, url: URL) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      bodies.push({ path: url.pathname, method: req.method ?? '', contentType: req.headers['content-type'] ?? '', body });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        doc(
          'Echo',
          `<p id="method">${req.method}</p><p id="query">${esc(url.search)}</p><pre id="body">${esc(body)}</pre><p id="referer">${esc(req.headers.referer ?? '')}</p>`,
        ),
      );
    };
    for (const path of ['/results', '/lucky', '/echo', '/thanks']) site.route(path, echo);
    site.route('/order', async (req, res) => {
      for await (const chunk of req)
        bodies.push({ path: '/order', method: req.method ?? '', contentType: req.headers['content-type'] ?? '', body: String(chunk) });
      res.writeHead(303, { location: '/thanks?order=1' }).end();
    });
    site.route('/keep', (_q, res) => void res.writeHead(307, { location: '/echo' }).end());
    site.route('/do-login', async (req, res) => {
      for await (const _ of req);
      res.writeHead(303, { location: '/cookies', 'set-cookie': 'session=s3cret; Path=/; HttpOnly' }).end();
    });
    site.route('/to-canary', (_q, res) => void res.writeHead(303, { location: `http://[::1]:${canary.port}/` }).end());
    site.page(
      '/blocked-links',
      doc(
        'Blocked',
        `<a id="out" href="http://[::1]:${canary.port}/">Out</a>
      <form id="f" method="post" action="http://127.0.0.2:${canary.port}/collect"><input name="x" value="1"><button id="b">Send</button></form>
      <form method="post" action="/to-canary"><button id="hop">Via redirect</button></form>`,
      ),
    );
    driver = createHttpDriver({ allowNetworks: ['127.0.0.1/32'], timeoutMs: 5000 });
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });
  after(() => Promise.all([driver?.close(), site?.close(), canary?.close()]));

  describe('outline', () => {
    it('lists visible interactive elements with refs, selectors, values and absolute hrefs; hidden ones are left out', async () => {
      const s = await open('/outline');
      const o = await s.outline();
      expect(o).to.include({ url: `${site.url}/outline`, title: 'Outline' });
      expect(o.elements.map((e) => e.ref)).to.deep.equal(o.elements.map((_e, i) => `e${i + 1}`));
      expect(byName(o.elements, 'your cart')).to.deep.equal({
        ref: 'e1',
        role: 'link',
        name: 'your cart',
        selector: 'a[href="cart"]',
        tag: 'a',
        href: `${site.url}/shop/cart`,
      });
      expect(byName(o.elements, 'Books')).to.include({ selector: '#books', href: `${site.url}/c/books` });
      expect(byName(o.elements, 'Music')).to.include({ selector: '[data-testid="music"]' });
      expect(byName(o.elements, 'Search')).to.include({ role: 'textbox', value: 'tea', selector: '#q' });
      expect(byName(o.elements, 'In stock')).to.include({ role: 'checkbox', value: 'checked' });
      expect(o.elements.find((e) => e.tag === 'select')).to.include({ role: 'combobox', value: 'Name' });
      expect(byName(o.elements, 'Shipping')).to.include({ role: 'button', tag: 'summary' });
      expect(byName(o.elements, 'Reviews')).to.include({ role: 'tab' });
      expect(byName(o.elements, 'Scripted')).to.include({ role: 'clickable' });
      const names = o.elements.map((e) => e.name);
      for (const hidden of ['Hidden attr', 'Display none', 'Invisible', 'Template', 'Rates', 'Hidden by class', 'Panel one', 'Ghost', 'Forced']) {
        expect(names).to.not.include(hidden);
      }
      for (const shown of ['Panel two', 'Wide only']) expect(names).to.include(shown);
      expect(o.elements.some((e) => e.selector.includes('token'))).to.equal(false); // type=hidden
      expect(o.text).to.match(/^# Shop\nWelcome, \[e1 link "your cart"\] \.\n- \[e2 link "Books"\]\n- \[e3 link "Music"\]\n/);
      expect(o.text).to.contain('Item [e');
      expect(Object.keys(globalThis).filter((k) => k.startsWith('__gleaner'))).to.deep.equal([]); // nothing leaks into Node's globals
    });

    it('keeps refs stable across calls and page edits, shows typed values, and resolves refs as targets', async () => {
      const s = await open('/outline');
      const first = await s.outline();
      await s.type('#q', ' green');
      await s.click(byName(first.elements, 'Shipping')!.ref);
      const second = await s.outline();
      for (const e of first.elements) expect(second.elements.find((x) => x.ref === e.ref)?.selector, e.name).to.equal(e.selector);
      expect(byName(second.elements, 'Search')).to.include({ ref: byName(first.elements, 'Search')!.ref, value: 'tea green' });
      const rates = byName(second.elements, 'Rates');
      expect(rates, 'the link inside the opened <details>').to.not.equal(undefined);
      expect(Number(rates!.ref.slice(1))).to.be.greaterThan(first.elements.length);
      // The stamps are the driver's own: a snapshot does not show them.
      expect((await s.snapshot()).html).to.not.contain('data-gleaner-ref');
    });

    it('matches the outline Chromium gives for the same pages (refs, roles, names, selectors, values, hrefs, text)', async function () {
      const pw = createPlaywrightDriver({ allowNetworks: ['127.0.0.1/32'], maxPages: 1 });
      try {
        for (const path of ['/outline', '/article']) {
          const browser = await pw.openSession();
          try {
            if (!isInteractive(browser)) throw new Error('playwright sessions are not interactive');
            await browser.goto(`${site.url}${path}`);
            const expected = await browser.outline();
            const s = await open(path);
            const got = await s.outline();
            expect(got.elements, path).to.deep.equal(expected.elements);
            expect(got.text, path).to.equal(expected.text);
            expect(got.title, path).to.equal(expected.title);
            await s.close();
          } finally {
            await browser.close();
          }
        }
      } finally {
        await pw.close();
      }
    });
  });

  describe('<noscript>', () => {
    it('shows and acts on what <noscript> holds, as a browser without JavaScript does; snapshots keep the tag', async () => {
      const s = await open('/fallback');
      const o = await s.outline();
      expect(o.text).to.contain('This page works best with JavaScript.');
      expect(byName(o.elements, 'All results')).to.include({ role: 'link', selector: '#all' });
      await s.select('#sort', 'old');
      expect((await s.snapshot()).html).to.match(/<noscript><button id="go"( data-gleaner-ref="e\d+")?>Go<\/button><\/noscript>/);
      expect((await s.snapshot()).html).to.not.contain('gleaner-noscript');
      await s.click(byName(o.elements, 'Go')!.ref);
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/results?sort=old`);
    });
  });

  describe('links', () => {
    it('follows a link resolved against <base>, sending the page as Referer; a click inside the link counts', async () => {
      const s = await open('/links');
      await s.click('#rel');
      const snap = await s.snapshot();
      expect(snap).to.include({ finalUrl: `${site.url}/dir/next?p=2`, status: 200, driver: 'http' });
      expect(snap.html).to.contain('page two');
      expect(site.requests.at(-1)).to.deep.include({ method: 'GET', path: '/dir/next?p=2' });
      expect(site.requests.at(-1)?.headers.referer).to.equal(`${site.url}/links`);
      await s.goto(`${site.url}/links`);
      await s.click('#inner');
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/page`);
      await s.goto(`${site.url}/links`);
      await s.click('#noref');
      expect(site.requests.at(-1)?.headers.referer).to.equal(undefined);
    });

    it('stays on the page for a link to one of its fragments', async () => {
      const s = await open('/enter-page');
      const before = site.requests.length;
      await s.click('#frag');
      expect(site.requests.length).to.equal(before);
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/enter-page`);
      // With a <base> elsewhere, the same href is another document, as in a browser.
      await s.goto(`${site.url}/links`);
      await s.click('#frag');
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/dir/#top`);
    });
  });

  describe('GET forms', () => {
    it('types and presses Enter: the default button submits, its name=value sent, the action query replaced', async () => {
      const s = await open('/search-page');
      await s.type('#q', 'tea & cake', { pressEnter: true });
      const snap = await s.snapshot();
      expect(snap.finalUrl).to.equal(`${site.url}/results?q=tea+%26+cake&cat=&action=Search`);
      expect(snap.html).to.contain('<p id="method">GET</p>');
    });

    it('types, selects by value or label and clicks a submit button with formaction', async () => {
      const s = await open('/search-page');
      await s.type('#q', 'jazz');
      await s.select('#cat', 'Music');
      await s.click('#lucky');
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/lucky?q=jazz&cat=Music&action=Lucky`);
    });

    it("encodes values in the page's charset (windows-1252 here; &#N; for what it cannot hold), or the form's accept-charset", async () => {
      site.page(
        '/latin-form',
        doc('Latin', '<form action="/results"><input id="q" name="q"></form><form action="/results" accept-charset="utf-8"><input id="u" name="u"></form>'),
        {
          headers: { 'content-type': 'text/html; charset=iso-8859-1' },
        },
      );
      const s = await open('/latin-form');
      await s.type('#q', 'café €5 ☃', { pressEnter: true });
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/results?q=caf%E9+%805+%26%239731%3B`);
      await s.goto(`${site.url}/latin-form`);
      await s.type('#u', 'café', { pressEnter: true });
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/results?u=caf%C3%A9`);
    });

    it('submits a one-field form on Enter, and does nothing for Enter in a two-field form without a button', async () => {
      const s = await open('/enter-page');
      await s.type('#a', 'x', { pressEnter: true });
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/enter-page`);
      await s.type('#only', 'solo', { pressEnter: true });
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/results?q=solo`);
    });
  });

  describe('POST forms', () => {
    it('posts urlencoded values (multiple select, radio, checkbox via its label, form attribute, submitter) and follows the 303 with a GET', async () => {
      const s = await open('/post-page');
      await s.type('#name', 'Zoë Ng', { clear: true });
      await s.type('#qty', '345', { clear: true }); // maxlength 2
      await s.select('#extras', ['gift', 'card']);
      await s.click('label[for="r-exp"]');
      await s.click('#news');
      await s.type('#msg', '\nline two');
      bodies.length = 0;
      await s.click('#send');
      const snap = await s.snapshot();
      expect(snap).to.include({ finalUrl: `${site.url}/thanks?order=1`, status: 200 });
      expect(snap.redirects).to.deep.equal([`${site.url}/order`]);
      expect(snap.html).to.contain('<p id="method">GET</p>');
      const posted = bodies.find((b) => b.path === '/order');
      expect(posted?.contentType).to.equal('application/x-www-form-urlencoded');
      expect([...new URLSearchParams(posted!.body)]).to.deep.equal([
        ['name', 'Zoë Ng'],
        ['qty', '34'],
        ['extras', 'gift'],
        ['extras', 'card'],
        ['ship', 'express'],
        ['news', 'yes'],
        ['msg', 'Hi\r\nline two'],
        ['op', 'send'],
        ['outside', 'joined'],
      ]);
      const post = site.requests.find((r) => r.method === 'POST' && r.path === '/order');
      expect(post?.headers.origin).to.equal(site.url);
      expect(post?.headers.referer).to.equal(`${site.url}/post-page`);
    });

    it('re-sends the POST and its body on a 307', async () => {
      const s = await open('/post-page');
      bodies.length = 0;
      await s.click('#keep');
      const snap = await s.snapshot();
      expect(snap).to.include({ finalUrl: `${site.url}/echo` });
      expect(snap.html).to.contain('<p id="method">POST</p>');
      expect(bodies.map((b) => [b.path, b.method])).to.deep.equal([['/echo', 'POST']]);
      expect(new URLSearchParams(bodies[0].body).get('name')).to.equal('Ada');
      expect(site.requests.filter((r) => r.path === '/keep').map((r) => r.method)).to.deep.equal(['POST']);
    });

    it('encodes multipart/form-data when the submitter asks', async () => {
      const s = await open('/post-page');
      bodies.length = 0;
      await s.click('#multi');
      const [got] = bodies;
      const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(got.contentType)?.[1];
      expect(boundary).to.be.a('string');
      expect(got.body).to.contain(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n`);
      expect(got.body).to.contain('name="extras"\r\n\r\ncard\r\n');
      expect(got.body.endsWith(`--${boundary}--\r\n`)).to.equal(true);
      expect(got.body).to.not.contain('ghost');
    });

    it('keeps the cookie a form post sets (redirect-after-post) for the next requests', async () => {
      const s = await open('/login');
      await s.type('#user', 'ada');
      await s.click('#in');
      const snap = await s.snapshot();
      expect(snap.finalUrl).to.equal(`${site.url}/cookies`);
      expect(snap.html).to.contain('<pre id="cookie">session=s3cret</pre>');
      expect(snap.cookies?.map((c) => c.name)).to.include('session');
      await s.goto(`${site.url}/cookies`);
      expect((await s.snapshot()).html).to.contain('session=s3cret');
    });
  });

  describe('validation', () => {
    it('does not send a form with an empty required field (as a browser), unless formnovalidate', async () => {
      const s = await open('/required');
      const before = site.requests.length;
      expect((await rejection(s.click('#send'))).message)
        .to.contain('input#who')
        .and.contain('is required');
      await s.type('#who', 'Ada');
      expect((await rejection(s.click('#send'))).message).to.contain('select#size');
      await s.select('#size', 'L');
      expect((await rejection(s.click('#send'))).message).to.contain('input#yes');
      expect(site.requests.length, 'nothing was sent').to.equal(before);
      await s.click('#yes');
      await s.click('#send');
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/results?who=Ada&size=L&ok=yes`);
      await s.goto(`${site.url}/required`);
      await s.click('#skip');
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/results?who=&size=`);
    });
  });

  describe('fields and snapshots', () => {
    it('reflects typed and selected values in snapshot(), keeping the last response status and headers', async () => {
      const s = await open('/post-page');
      const before = await s.snapshot();
      await s.type('#name', ' Lovelace');
      await s.select('#extras', 'gift');
      await s.click('#r-exp');
      const snap = await s.snapshot();
      expect(snap).to.include({ status: 200, finalUrl: before.finalUrl, contentType: 'text/html' });
      expect(snap.headers).to.deep.equal(before.headers);
      expect(snap.html).to.contain('value="Ada Lovelace"');
      expect(snap.html).to.match(/<option [^>]*value="gift"[^>]*>/);
      expect(snap.html).to.match(/<option selected(="")? value="gift">/);
      expect(snap.html).to.contain('<option value="card">Card</option>');
      expect(snap.html).to.match(/id="r-exp"[^>]*checked|checked[^>]*id="r-exp"/);
      expect(snap.html).to.not.match(/id="r-std"[^>]*checked/);
    });

    it('refuses unknown options, several values in a single select, and typing into a non-field, naming them', async () => {
      const s = await open('/search-page');
      const unknown = await rejection(s.select('#cat', 'Films'));
      expect(unknown).to.include({ code: 'BAD_REQUEST' });
      expect(unknown.message).to.contain('"Films"').and.contain('"b"');
      expect((await rejection(s.select('#cat', ['b', 'Music']))).message).to.contain('takes one value');
      expect((await rejection(s.select('#q', 'x'))).message).to.contain('is not a <select>');
      expect((await rejection(s.type('#cat', 'x'))).message).to.contain('not a text field');
      expect((await rejection(s.click('#missing'))).message).to.contain('no element matches #missing');
      expect((await rejection(s.click('e999'))).message).to.contain('ref e999');
    });

    it('waits for what the page already shows, scrolls, waits a bounded time, and refuses calls once closed', async () => {
      const s = await open('/outline');
      await s.waitFor({ selector: '#q' });
      await s.waitFor({ selector: '.nothing', state: 'detached' });
      await s.waitFor({ selector: 'a[href="/display-none"]', state: 'hidden' });
      await s.waitFor({ selector: 'template', state: 'attached' });
      await s.scroll({ to: 'bottom' });
      await s.scroll({ selector: '#books' });
      const t0 = Date.now();
      await s.waitFor({ ms: 120 });
      expect(Date.now() - t0).to.be.at.least(100);
      const waiting = rejection(s.waitFor({ ms: 4000 }));
      const closedAt = Date.now();
      await s.close();
      expect((await waiting).code, 'a wait in flight ends with the session').to.equal('DRIVER_UNAVAILABLE');
      expect(Date.now() - closedAt).to.be.below(1000);
      expect((await rejection(s.outline())).code).to.equal('DRIVER_UNAVAILABLE');
      expect((await rejection(s.click('#books'))).code).to.equal('DRIVER_UNAVAILABLE');
    });

    it('stops a click navigation when the session aborts, with the abort reason', async () => {
      const ctl = new AbortController();
      const s = await driver.openSession({ signal: ctl.signal });
      if (!isInteractive(s)) throw new Error('not interactive');
      session = s;
      site.page('/to-slow', doc('To slow', '<a id="slow" href="/slow?ms=5000">Slow</a>'));
      await s.goto(`${site.url}/to-slow`);
      const pending = rejection(s.click('#slow'));
      setTimeout(() => ctl.abort(new GleanerError('JOB_ABORTED', 'stopped by the test')), 150);
      expect(await pending).to.include({ code: 'JOB_ABORTED', message: 'stopped by the test' });
      expect((await rejection(s.waitFor({ ms: 10 }))).code).to.equal('JOB_ABORTED');
    });
  });

  describe('limits on navigations an action starts', () => {
    it('caps the body (maxBytes) and bounds the time (the action timeout) as goto does; the page stays', async () => {
      site.page('/heavy-links', doc('Heavy', '<a id="big" href="/big?bytes=200000">Big</a> <a id="slow" href="/slow?ms=5000">Slow</a>'));
      const s = await driver.openSession({ maxBytes: 50_000 });
      if (!isInteractive(s)) throw new Error('not interactive');
      session = s;
      await s.goto(`${site.url}/heavy-links`);
      expect((await rejection(s.click('#big'))).code).to.equal('FETCH_TOO_LARGE');
      const t0 = Date.now();
      const slow = await rejection(s.click('#slow', { timeoutMs: 300 }));
      expect(slow.code).to.equal('FETCH_TIMEOUT');
      expect(Date.now() - t0).to.be.below(3000);
      expect((await s.snapshot()).finalUrl).to.equal(`${site.url}/heavy-links`);
    });
  });

  describe('NEEDS_BROWSER', () => {
    for (const [target, named] of [
      ['#plain', 'Plain button'],
      ['#orphan', 'Orphan submit'],
      ['#tab', 'Tab'],
      ['#para', 'Just text'],
      ['#hash', 'Menu'],
      ['#js', 'Script'],
      ['#onclick', 'Tracked'],
    ]) {
      it(`refuses a click on ${target}, naming the element`, async () => {
        const s = await open('/links');
        const before = site.requests.length;
        const err = await rejection(s.click(target));
        expect(err.code).to.equal('NEEDS_BROWSER');
        expect(err.message).to.contain(named);
        expect(site.requests.length).to.equal(before);
      });
    }

    it('refuses Enter in a field without a form, a form with onsubmit, and a wait for what the page does not show', async () => {
      const links = await open('/links');
      expect((await rejection(links.type('#lonely', 'x', { pressEnter: true }))).code).to.equal('NEEDS_BROWSER');
      const err = await rejection(links.waitFor({ selector: '#results', timeoutMs: 5000 }));
      expect(err.code).to.equal('NEEDS_BROWSER');
      expect(err.message).to.contain('#results');
      await links.close();
      const enter = await open('/enter-page');
      expect((await rejection(enter.type('#c', 'x', { pressEnter: true }))).message).to.contain('runs a script on submit');
    });
  });

  describe('ssrf', () => {
    it('refuses a link, a form action and a redirect-after-post to blocked addresses; nothing reaches them', async () => {
      const s = await open('/blocked-links');
      for (const target of ['#out', '#b', '#hop']) {
        expect((await rejection(s.click(target))).code, target).to.equal('URL_BLOCKED');
        expect((await s.snapshot()).finalUrl, 'the page stays').to.equal(`${site.url}/blocked-links`);
      }
      expect(canary.connections).to.equal(0);
    });
  });
});
