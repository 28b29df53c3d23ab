// The interaction contract of interactive (browser) drivers, on fixture pages: a button that reveals
// content, infinite scroll, forms, waitFor, outline refs, iframes. Every case drives the page only
// through the session's own methods (click, type, select, scroll, waitFor, snapshot, outline).
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { isInteractive } from '@gleaner/core/plugin';
import type { Driver, InteractiveSession, OutlineElement } from '@gleaner/core/plugin';
import { startFixtureSite } from './fixture-site.ts';
import type { FixtureSite } from './fixture-site.ts';
import { rejection } from './assert.ts';
import { testResolver } from './driver-contract.ts';
import type { ContractDriverOptions } from './driver-contract.ts';

export interface InteractionContractFeatures {
  /** Set while the driver's package has no factory yet: every case is skipped with this reason. */
  pending?: string;
  /**
   * False for a driver that runs no page scripts (http on linkedom): the cases that need them (a
   * scripted button, lazy loading, scroll listeners, late content, iframes) are skipped, and a click
   * on a scripted button must throw NEEDS_BROWSER instead. Default true.
   */
  javascript?: boolean;
}

const doc = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const PAGES: Record<string, string> = {
  '/reveal': doc(
    'Reveal',
    `<h1>Reveal</h1><button id="more" type="button">Show more</button><div id="details"></div>
    <div id="box" hidden>Hidden box</div>
    <script>document.getElementById('more').addEventListener('click', () => {
      const p = document.createElement('p'); p.id = 'revealed'; p.textContent = 'Revealed: ' + (6 * 7) + ' widgets';
      document.getElementById('details').append(p); document.getElementById('box').hidden = false;
    });</script>`,
  ),
  // Ten tall items; reaching the bottom fetches ten more from the server (which answers slowly).
  '/feed': doc(
    'Feed',
    `<style>.item { height: 150px; margin: 0; border-bottom: 1px solid #ccc }</style>
    <ul id="list">${items(1, 10)}</ul><p id="status">10 items</p>
    <script>let n = 10, loading = false;
      async function more() {
        if (loading || n >= 50 || innerHeight + scrollY < document.documentElement.scrollHeight - 100) return;
        loading = true;
        const html = await (await fetch('/feed-items?from=' + (n + 1))).text();
        document.getElementById('list').insertAdjacentHTML('beforeend', html);
        n += 10; document.getElementById('status').textContent = n + ' items'; loading = false;
      }
      addEventListener('scroll', more);</script>`,
  ),
  '/tall': doc(
    'Tall',
    `<style>html { scroll-behavior: auto } #pad { height: 3000px }</style>
    <p id="y" data-y="0">0</p><div id="pad"></div><p id="target">The target</p><div style="height: 2000px"></div>
    <script>addEventListener('scroll', () => { const y = document.getElementById('y'); y.dataset.y = y.textContent = String(Math.round(scrollY)); });
      new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting)) document.getElementById('target').dataset.seen = 'yes'; })
        .observe(document.getElementById('target'));</script>`,
  ),
  '/form': doc(
    'Form',
    `<form id="f" method="post" action="/form-result">
    <label for="name">Name</label><input id="name" name="name" value="placeholder value">
    <label for="email">Email</label><input id="email" name="email" type="email">
    <label for="country">Country</label><select id="country" name="country"><option value="de">Germany</option><option value="fr">France</option><option value="jp">Japan</option></select>
    <label for="toppings">Toppings</label><select id="toppings" name="toppings" multiple><option value="ham">Ham</option><option value="olives">Olives</option><option value="basil">Basil</option></select>
    <label for="notes">Notes</label><textarea id="notes" name="notes"></textarea>
    <input type="checkbox" id="agree" name="agree" value="yes"><label for="agree">Agree</label>
    <button id="submit" type="submit">Send</button></form>`,
  ),
  '/search-form': doc('Search', '<form action="/search"><input id="q" name="q" aria-label="Search"></form>'),
  '/late': doc(
    'Late',
    `<p id="spinner">Loading…</p>
    <script>setTimeout(() => { document.getElementById('spinner').remove(); const p = document.createElement('p'); p.id = 'late'; p.textContent = 'Arrived late'; document.body.append(p); }, 400);</script>`,
  ),
  '/outline': doc(
    'Outline',
    `<h1>Outline</h1><div id="top"></div>
    <a id="link" href="/page">A page</a>
    <input id="who" name="who" aria-label="Who" value="Ada">
    <button id="add" type="button">Add item</button>
    <button id="count" type="button">Count</button><p id="counter">count: 0</p>
    <script>let n = 0;
      document.getElementById('count').onclick = () => { document.getElementById('counter').textContent = 'count: ' + ++n; };
      document.getElementById('add').onclick = () => { const b = document.createElement('button'); b.type = 'button'; b.textContent = 'New button'; document.getElementById('top').append(b); };</script>`,
  ),
  // "Load" changes the page in steps 60 ms apart, then fetches the rest (the server answers after 300 ms).
  // The waits for it ask for 300 ms of quiet, so a busy machine holding a step's timer back a little
  // does not end them early.
  '/burst': doc(
    'Burst',
    `<button id="load" type="button">Load</button><p id="step">step 0</p><div id="rest"></div><a id="go" href="/outline">Go on</a>
    <script>document.getElementById('load').addEventListener('click', async () => {
      document.body.className = 'loading';
      for (let i = 1; i <= 5; i++) { await new Promise((r) => setTimeout(r, 60)); document.getElementById('step').textContent = 'step ' + i; }
      const html = await (await fetch('/burst-rest')).text();
      document.getElementById('rest').innerHTML = html; document.body.className = '';
    });</script>`,
  ),
  // A request the page starts on load that does not end (an event stream, a long poll), and a button.
  '/stream': doc(
    'Stream',
    `<button id="poke" type="button">Poke</button><div id="out"></div>
    <script>fetch('/hang').catch(() => {});
      document.getElementById('poke').addEventListener('click', () => { const p = document.createElement('p'); p.id = 'poked'; p.textContent = 'Poked'; document.getElementById('out').append(p); });</script>`,
  ),
  // Never quiet: a counter ticks every 20 ms (a busy machine may hold a timer back, never by 400 ms).
  '/ticker': doc(
    'Ticker',
    `<p id="tick">0</p><script>let t = 0; setInterval(() => { document.getElementById('tick').textContent = String(++t); }, 20);</script>`,
  ),
  // An autocomplete: key handlers and input events see what the field holds.
  '/suggest': doc(
    'Suggest',
    `<input id="s" aria-label="Product" value="red "><p id="keyed">none</p><p id="inputs">0</p>
    <script>let inputs = 0; const s = document.getElementById('s');
      s.addEventListener('keyup', () => { document.getElementById('keyed').textContent = 'keyup: ' + s.value; });
      s.addEventListener('input', () => { document.getElementById('inputs').textContent = String(++inputs); });</script>`,
  ),
  // A <details> and a link on pages without scripts, and the same <details> on a page with one.
  '/plain-details': doc(
    'Plain',
    '<details id="d"><summary id="show">Show</summary><p>Inside the details</p></details><a id="next" href="/plain-next">Next</a>',
  ),
  '/plain-next': doc('Plain next', '<h1>The next page</h1>'),
  '/scripted-details': doc(
    'Scripted',
    `<details id="d"><summary id="show">Show</summary><p>Inside the details</p></details><p id="t">0</p>
    <script>document.getElementById('show').addEventListener('click', () => setTimeout(() => { document.getElementById('t').textContent = '1'; }, 150));</script>`,
  ),
  '/with-frame': doc('Framed', '<h1>Outer page</h1><iframe id="inner" src="/framed"></iframe>'),
  '/framed': doc('Inner', '<p id="in-frame">Inside the frame</p>'),
};

function items(from: number, to: number): string {
  let out = '';
  for (let i = from; i <= to; i++) out += `<li class="item" id="item-${i}">Item ${i}</li>`;
  return out;
}

const count = (html: string, needle: string) => html.split(needle).length - 1;

/** Registers the interaction contract's mocha suites for one interactive driver. */
export function interactionContract(name: string, make: (opts: ContractDriverOptions) => Driver, features: InteractionContractFeatures = {}): void {
  const js = features.javascript ?? true;
  /** A case that needs the page's scripts to run. */
  const itJs = (title: string, fn: () => Promise<void>) => (js ? it(title, fn) : it.skip(`${title} (needs JavaScript)`, fn));
  describe(`interaction contract: ${name}${features.pending ? ` (skipped: ${features.pending})` : ''}`, function () {
    let site: FixtureSite;
    let driver: Driver;
    let session: InteractiveSession | undefined;
    const open = async (path: string): Promise<InteractiveSession> => {
      const s = await driver.openSession();
      if (!isInteractive(s)) {
        await s.close();
        throw new Error(`${name} sessions are not interactive`);
      }
      session = s;
      await s.goto(`${site.url}${path}`);
      return s;
    };

    before(async function () {
      if (features.pending) this.skip();
      site = await startFixtureSite();
      for (const [path, html] of Object.entries(PAGES)) site.page(path, html);
      site.route('/feed-items', async (_q, res, url) => {
        await sleep(250);
        const from = Number(url.searchParams.get('from') ?? 1);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(items(from, from + 9));
      });
      site.route('/hang', (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': open\n\n');
        setTimeout(() => res.end(), 20_000).unref();
      });
      site.route('/burst-rest', async (_q, res) => {
        await sleep(300);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p id="rest-done">The rest, fetched</p>');
      });
      site.route('/form-result', async (req, res) => {
        let body = '';
        for await (const chunk of req) body += chunk;
        const form = new URLSearchParams(body);
        const dd = (k: string) => `<dt>${k}</dt><dd id="r-${k}">${escapeHtml(form.getAll(k).join(','))}</dd>`;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(doc('Result', `<dl id="result">${['name', 'email', 'country', 'toppings', 'notes', 'agree'].map(dd).join('')}</dl>`));
      });
      site.route('/search', (_q, res, url) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(doc('Hits', `<p id="hits">Results for ${escapeHtml(url.searchParams.get('q') ?? '')}</p>`));
      });
      driver = make({ allowNetworks: ['127.0.0.0/8'], resolver: testResolver(), timeoutMs: 10_000 });
    });
    afterEach(async () => {
      await session?.close();
      session = undefined;
    });
    after(async () => {
      await driver?.close();
      await site?.close();
    });

    it('declares interaction and gives interactive sessions', async () => {
      expect(driver.capabilities.interaction).to.equal(true);
      const s = await driver.openSession();
      session = s as InteractiveSession;
      expect(isInteractive(s)).to.equal(true);
    });

    itJs('clicks a button that reveals content; snapshot() shows the page as it is now', async () => {
      const s = await open('/reveal');
      expect((await s.snapshot()).html).to.not.contain('Revealed: 42 widgets');
      await rejection(s.waitFor({ selector: '#box', state: 'visible', timeoutMs: 300 }));
      await s.click('#more');
      await s.waitFor({ selector: '#box', state: 'visible', timeoutMs: 5000 });
      const snap = await s.snapshot();
      expect(snap.html).to.contain('<p id="revealed">Revealed: 42 widgets</p>');
      expect(snap).to.include({ finalUrl: `${site.url}/reveal`, driver: name });
    });

    itJs('scrolls an infinite feed to the bottom three times; each lazy load is waited for', async () => {
      const s = await open('/feed');
      expect(count((await s.snapshot()).html, 'class="item"')).to.equal(10);
      for (const last of [20, 30, 40]) {
        await s.scroll({ to: 'bottom' });
        await s.waitFor({ selector: `#item-${last}`, timeoutMs: 5000 });
      }
      const html = (await s.snapshot()).html;
      expect(count(html, 'class="item"')).to.equal(40);
      expect(html).to.contain('<p id="status">40 items</p>');
      expect(site.requests.filter((r) => r.path.startsWith('/feed-items')).map((r) => r.path)).to.deep.equal([
        '/feed-items?from=11',
        '/feed-items?from=21',
        '/feed-items?from=31',
      ]);
    });

    itJs('scrolls by pixels, to an element, and back to the top', async () => {
      const s = await open('/tall');
      await s.scroll({ pixels: 200 });
      await s.waitFor({ selector: '#y[data-y="200"]', timeoutMs: 3000 });
      await s.scroll({ selector: '#target' });
      await s.waitFor({ selector: '#target[data-seen="yes"]', timeoutMs: 3000 });
      await s.scroll({ to: 'top' });
      await s.waitFor({ selector: '#y[data-y="0"]', timeoutMs: 3000 });
    });

    it('fills a form (type, select one and several, a checkbox) and submits it; the result page shows the values', async () => {
      const s = await open('/form');
      await s.type('#name', 'Zoë & co', { clear: true });
      await s.type('#email', 'ada@example.com');
      await s.select('#country', 'fr');
      await s.select('#toppings', ['olives', 'basil']);
      await s.type('#notes', 'line one');
      await s.click('#agree');
      await s.click('#submit');
      await s.waitFor({ selector: '#result', timeoutMs: 5000 });
      const snap = await s.snapshot();
      expect(snap).to.include({ finalUrl: `${site.url}/form-result`, status: 200 });
      for (const dd of [
        '<dd id="r-name">Zoë &amp; co</dd>',
        '<dd id="r-email">ada@example.com</dd>',
        '<dd id="r-country">fr</dd>',
        '<dd id="r-toppings">olives,basil</dd>',
        '<dd id="r-notes">line one</dd>',
        '<dd id="r-agree">yes</dd>',
      ]) {
        expect(snap.html).to.contain(dd);
      }
      expect(site.requests.some((r) => r.method === 'POST' && r.path === '/form-result')).to.equal(true);
    });

    it('types and presses Enter to submit a search form', async () => {
      const s = await open('/search-form');
      await s.type('#q', 'needle', { pressEnter: true });
      await s.waitFor({ selector: '#hits', timeoutMs: 5000 });
      const snap = await s.snapshot();
      expect(snap.finalUrl).to.equal(`${site.url}/search?q=needle`);
      expect(snap.html).to.contain('Results for needle');
    });

    itJs('typing runs the key and input handlers on the whole value, after what the field held', async () => {
      const s = await open('/suggest');
      await s.type('#s', 'kettle');
      const html = (await s.snapshot()).html;
      expect(html).to.contain('<p id="keyed">keyup: red kettle</p>');
      expect(Number(/<p id="inputs">(\d+)<\/p>/.exec(html)?.[1])).to.be.at.least(1);
      await s.type('#s', 'teapot', { clear: true });
      expect((await s.snapshot()).html).to.contain('<p id="keyed">keyup: teapot</p>');
    });

    itJs('waits for a selector to appear or go, for a time, and for network idle; times out with a GleanerError naming the selector', async () => {
      const s = await open('/late');
      await s.waitFor({ selector: '#late', timeoutMs: 5000 });
      await s.waitFor({ selector: '#spinner', state: 'detached', timeoutMs: 5000 });
      expect((await s.snapshot()).html).to.contain('<p id="late">Arrived late</p>');
      await s.waitFor({ ms: 100 });
      await s.waitFor({ networkIdle: true, timeoutMs: 5000 });
      expect((await rejection(s.waitFor({ selector: '#never', timeoutMs: 300 }))).message).to.contain('#never');
      expect((await rejection(s.click('#missing', { timeoutMs: 300 }))).message).to.contain('#missing');
    });

    it('waits for the page to be quiet (plugin API 1.1): a page without scripts is quiet at once', async () => {
      const s = await open('/outline');
      await s.waitFor({ quietMs: 50, timeoutMs: 5000 });
      expect((await s.snapshot()).html).to.contain('count: 0');
    });

    itJs('waits for quiet through changes spaced closer than quietMs and a request in flight; a page that never stops changing times out', async () => {
      const s = await open('/burst');
      await s.click('#load');
      await s.waitFor({ quietMs: 300, timeoutMs: 5000 });
      const html = (await s.snapshot()).html;
      expect(html).to.contain('step 5');
      expect(html).to.contain('<p id="rest-done">The rest, fetched</p>');
      // Already quiet: returns again without anything changing.
      await s.waitFor({ quietMs: 300, timeoutMs: 5000 });
      await s.goto(`${site.url}/ticker`);
      const err = await rejection(s.waitFor({ quietMs: 400, timeoutMs: 1200 }));
      expect(err.code).to.equal('FETCH_TIMEOUT');
      expect(err.message).to.contain('quiet');
    });

    itJs('waits for a change after the last outline, then quiet (afterChange); nothing changing times out', async () => {
      const s = await open('/burst');
      await s.outline();
      // Nothing was done since the outline: nothing changes.
      expect((await rejection(s.waitFor({ quietMs: 50, afterChange: true, timeoutMs: 400 }))).code).to.equal('FETCH_TIMEOUT');
      const load = (await s.outline()).elements.find((e) => e.name === 'Load')!;
      await s.click(load.ref);
      await s.waitFor({ quietMs: 300, afterChange: true, timeoutMs: 5000 });
      const html = (await s.snapshot()).html;
      expect(html).to.contain('step 5');
      expect(html).to.contain('<p id="rest-done">The rest, fetched</p>');
      // A navigation since the outline counts as a change.
      await s.outline();
      await s.click('#go');
      await s.waitFor({ quietMs: 300, afterChange: true, timeoutMs: 5000 });
      expect((await s.outline()).url).to.equal(`${site.url}/outline`);
    });

    itJs('after the change, a page without scripts is quiet at once (a <details> opened, a link followed); a page with scripts waits quietMs', async () => {
      // "At once" is well under quietMs; the margin is wide because a loaded machine slows every driver command.
      const s = await open('/plain-details');
      await s.outline();
      await s.click('#show');
      let started = Date.now();
      await s.waitFor({ quietMs: 8000, afterChange: true, timeoutMs: 20_000 });
      expect(Date.now() - started).to.be.below(5000);
      expect((await s.snapshot()).html).to.match(/<details id="d" open/);
      await s.outline();
      await s.click('#next');
      started = Date.now();
      await s.waitFor({ quietMs: 8000, afterChange: true, timeoutMs: 20_000 });
      expect(Date.now() - started).to.be.below(5000);
      expect((await s.outline()).url).to.equal(`${site.url}/plain-next`);
      // With a script, a change it makes later (150 ms after the click) is waited for.
      await s.goto(`${site.url}/scripted-details`);
      await s.outline();
      await s.click('#show');
      await s.waitFor({ quietMs: 400, afterChange: true, timeoutMs: 10_000 });
      expect((await s.snapshot()).html).to.contain('<p id="t">1</p>');
    });

    itJs('does not let a request the page opened before the action (one that never ends) hold the quiet wait', async () => {
      const s = await open('/stream');
      await s.outline();
      await s.click('#poke');
      await s.waitFor({ quietMs: 100, afterChange: true, timeoutMs: 3000 });
      expect((await s.snapshot()).html).to.contain('<p id="poked">Poked</p>');
    });

    it('gives an outline whose refs stay stable across a DOM change and work as click targets', async () => {
      const s = await open('/outline');
      const first = await s.outline();
      expect(first).to.include({ url: `${site.url}/outline`, title: 'Outline' });
      const byName = (els: OutlineElement[], n: string) => els.find((e) => e.name === n);
      const refs = first.elements.map((e) => e.ref);
      expect(new Set(refs).size).to.equal(refs.length);
      for (const ref of refs) expect(ref).to.match(/^e\d+$/);
      expect(byName(first.elements, 'A page')).to.include({ role: 'link' });
      expect(byName(first.elements, 'A page')?.href).to.contain('/page');
      expect(byName(first.elements, 'Who')).to.include({ role: 'textbox', value: 'Ada' });
      const add = byName(first.elements, 'Add item');
      const counter = byName(first.elements, 'Count');
      expect(add).to.include({ role: 'button' });
      expect(counter).to.include({ role: 'button' });
      expect(
        (await s.outline()).elements.map((e) => e.ref),
        'refs of a second outline',
      ).to.deep.equal(refs);
      if (!js) {
        // Only a script could act on these buttons: the driver says so instead of doing nothing.
        const err = await rejection(s.click(add!.ref));
        expect(err.code).to.equal('NEEDS_BROWSER');
        expect(err.message).to.contain('Add item');
        return;
      }

      await s.click(add!.ref);
      const second = await s.outline();
      for (const e of first.elements) expect(byName(second.elements, e.name)?.ref, e.name).to.equal(e.ref);
      const added = byName(second.elements, 'New button');
      expect(added, 'the new button').to.not.equal(undefined);
      expect(refs).to.not.include(added!.ref);

      await s.click(counter!.ref);
      await s.click(counter!.ref);
      await s.click(counter!.selector);
      expect((await s.snapshot()).html).to.contain('<p id="counter">count: 3</p>');
    });

    itJs("includes a same-origin iframe's content in snapshot()", async () => {
      const s = await open('/with-frame');
      await s.waitFor({ networkIdle: true, timeoutMs: 5000 });
      const html = (await s.snapshot()).html;
      expect(html).to.contain('Outer page');
      expect(html).to.contain('Inside the frame');
    });
  });
}
