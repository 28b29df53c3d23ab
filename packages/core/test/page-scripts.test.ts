import { expect } from 'chai';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { documentCall, outlinePage, PAGE_SCRIPTS, refSelector, scriptCall, splitFrameSelector, isRef } from '../src/browser/page-scripts.ts';
import type { PageDocument, ScrollResult } from '../src/browser/page-scripts.ts';
import type { PageOutline } from '../src/plugins/driver.ts';
import { startFixtureSite, type FixtureSite } from '@gleaner/testing';

// The scripts run in real Chromium, the way the drivers run them: as source text (`scriptCall`,
// Playwright's page.evaluate), and wrapped like Selenium's executeScript.

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const FORM = `<!DOCTYPE html><html><head><title>Shop form</title><style>.gone{display:none}</style></head><body>
<h1>Find shoes</h1>
<p>Pick a size and <a href="/help">read the help</a> first.</p>
<nav><a href="/">Home</a><a href="/men" aria-label="Men's shoes">Men</a></nav>
<label for="q">Search term</label><input id="q" name="q" value="trail">
<input type="hidden" name="csrf" value="secret">
<input type="password" name="pw" placeholder="Password" value="hunter2">
<label><input type="checkbox" name="sale" checked> On sale only</label>
<select name="size"><option value="42">EU 42</option><option value="43" selected>EU 43</option></select>
<textarea placeholder="Notes"></textarea>
<button class="gone">Hidden button</button>
<button style="visibility:hidden">Invisible button</button>
<div hidden><a href="/secret">secret link</a></div>
<button id="react-1234567">Generated id</button>
<ul><li><button>Add</button></li><li><button>Add</button></li></ul>
<div role="button" data-testid="fav">Favourite</div>
<div onclick="void 0">Clickable card</div>
<div contenteditable="true">Edit me</div>
<details><summary>More</summary><p>Hidden details text</p></details>
<table><tr><th>Size</th><td>43</td></tr></table>
</body></html>`;

describe('page scripts', function () {
  let browser: Browser;
  let page: Page;
  let site: FixtureSite;

  before(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    site = await startFixtureSite();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
  });
  afterEach(async () => {
    await page.close();
  });

  const outline = (arg: unknown = {}) => page.evaluate(scriptCall('outline', arg)) as Promise<PageOutline>;
  const refOf = (sel: string) => page.evaluate((s) => document.querySelector(s)?.getAttribute('data-gleaner-ref') ?? null, sel);

  it('are valid JavaScript after Node strips the types', () => {
    for (const [name, source] of Object.entries(PAGE_SCRIPTS)) {
      // A function, or a composition of them (outline then the change recorder).
      expect(source, name).to.match(/^(function |\(\(opts\) =>)/);
      const fn = new Function(`return (${source});`)() as unknown;
      expect(fn, name).to.be.a('function');
    }
    expect(scriptCall('domSize')).to.equal(`(${PAGE_SCRIPTS.domSize})()`);
    expect(scriptCall('outline', { maxText: 10 })).to.match(/\)\(\{"maxText":10\}\)$/);
  });

  it('outline lists the visible interactive elements in document order with refs, roles, names and values', async () => {
    await page.setContent(FORM);
    const o = await outline();
    expect(o.title).to.equal('Shop form');
    const brief = o.elements.map((e) => [e.ref, e.role, e.name]);
    expect(brief).to.deep.equal([
      ['e1', 'link', 'read the help'],
      ['e2', 'link', 'Home'],
      ['e3', 'link', "Men's shoes"],
      ['e4', 'textbox', 'Search term'],
      ['e5', 'textbox', 'Password'],
      ['e6', 'checkbox', 'On sale only'],
      ['e7', 'combobox', ''],
      ['e8', 'textbox', 'Notes'],
      ['e9', 'button', 'Generated id'],
      ['e10', 'button', 'Add'],
      ['e11', 'button', 'Add'],
      ['e12', 'button', 'Favourite'],
      ['e13', 'clickable', 'Clickable card'],
      ['e14', 'textbox', 'Edit me'],
      ['e15', 'button', 'More'],
    ]);
    const byRef = Object.fromEntries(o.elements.map((e) => [e.ref, e]));
    expect(byRef.e4).to.include({ value: 'trail', selector: '#q', tag: 'input' });
    expect(byRef.e5.value, 'a password is never exposed').to.equal(undefined);
    expect(byRef.e6.value).to.equal('checked');
    expect(byRef.e7).to.include({ value: 'EU 43', selector: 'select[name="size"]' });
    expect(byRef.e1.href).to.match(/\/help$/);
    expect(byRef.e3.selector).to.equal('a[aria-label="Men\'s shoes"]');
    expect(byRef.e9.selector, 'generated ids are not trusted').to.not.contain('react');
    expect(byRef.e12.selector).to.equal('[data-testid="fav"]');
    expect(byRef.e10.selector).to.not.equal(byRef.e11.selector);
    expect(JSON.stringify(o)).to.not.contain('Hidden button').and.not.contain('Invisible button').and.not.contain('secret');

    expect(o.text).to.contain('# Find shoes');
    expect(o.text).to.contain('Pick a size and [e1 link "read the help"] first.');
    expect(o.text).to.contain('- [e10 button "Add"]');
    expect(o.text).to.contain('Size 43');
    expect(o.text).to.not.contain('Hidden details text');
  });

  it('selectors resolve back to the element they describe', async () => {
    await page.setContent(FORM);
    const o = await outline();
    for (const e of o.elements) {
      const hits = await page.evaluate((s) => Array.from(document.querySelectorAll(s)).map((el) => el.getAttribute('data-gleaner-ref')), e.selector);
      expect(hits, e.selector).to.deep.equal([e.ref]);
      expect(await refOf(refSelector(e.ref))).to.equal(e.ref);
    }
  });

  it('keeps refs stable when the page grows, and never hands out a number twice', async () => {
    await page.setContent(`<body><div id="list"><button>One</button><button>Two</button></div><a href="/x">X</a></body>`);
    const first = await outline();
    expect(first.elements.map((e) => `${e.ref}:${e.name}`)).to.deep.equal(['e1:One', 'e2:Two', 'e3:X']);
    await page.evaluate(() => {
      const list = document.getElementById('list')!;
      const zero = document.createElement('button');
      zero.textContent = 'Zero';
      list.prepend(zero);
      list.lastElementChild!.remove(); // "Two" (e2) disappears
      list.append(list.firstElementChild!.nextElementSibling!.cloneNode(true)); // a copy of "One", stamp and all
    });
    const second = await outline();
    expect(second.elements.map((e) => `${e.ref}:${e.name}`)).to.deep.equal(['e4:Zero', 'e1:One', 'e5:One', 'e3:X']);
  });

  it('bounds the element list and the text', async () => {
    const items = Array.from({ length: 50 }, (_, i) => `<p>Paragraph number ${i} with some words</p><button>B${i}</button>`).join('');
    await page.setContent(`<body>${items}</body>`);
    const o = await outline({ maxElements: 5, maxText: 300 });
    expect(o.elements).to.have.length(5);
    expect(o.text!.length).to.be.at.most(300 + 10);
    expect(o.text).to.match(/\[…\]$/);
  });

  it('runs the same when called the way Selenium calls it', async () => {
    await page.setContent(FORM);
    const viaSelenium = (await page.evaluate(({ src, arg }) => new Function(`return (${src})(arguments[0])`)(arg), {
      src: PAGE_SCRIPTS.outline,
      arg: { maxElements: 3 },
    })) as PageOutline;
    expect(viaSelenium.elements.map((e) => e.ref)).to.deep.equal(['e1', 'e2', 'e3']);
    const viaFunction = await page.evaluate(outlinePage, { maxElements: 3 });
    expect(viaFunction.elements).to.deep.equal(viaSelenium.elements);
  });

  describe('with iframes', () => {
    let other: FixtureSite;
    before(async () => {
      other = await startFixtureSite();
      other.page('/ad', '<!doctype html><body><button>Cross-origin button</button></body>');
      site.page('/inner', '<!doctype html><body><h2>Inside</h2><button name="go">Go inside</button><iframe id="deeper" src="/deepest"></iframe></body>');
      site.page('/deepest', '<!doctype html><body><a href="/deep">Deep link</a></body>');
      site.page(
        '/framed',
        `<!DOCTYPE html><html><head><title>Framed</title></head><body><button id="top">Top button</button>` +
          `<iframe id="inner" src="/inner"></iframe><iframe id="ad" src="${other.url.replace('127.0.0.1', 'localhost')}/ad"></iframe></body></html>`,
      );
    });
    after(async () => {
      await other?.close();
    });

    async function openFramed(): Promise<void> {
      await page.goto(`${site.url}/framed`);
      await page.frameLocator('#inner').frameLocator('#deeper').locator('a').waitFor();
      await page.frameLocator('#ad').locator('button').waitFor();
    }

    it('outline includes same-origin frames with unique refs and frame-chain selectors', async () => {
      await openFramed();
      const o = await outline();
      expect(o.elements.map((e) => [e.ref, e.name, e.selector])).to.deep.equal([
        ['e1', 'Top button', '#top'],
        ['e2', 'Go inside', '#inner >>> button[name="go"]'],
        ['e3', 'Deep link', '#inner >>> #deeper >>> a[href="/deep"]'],
      ]);
      expect(o.text).to.contain('## Inside');
      expect(o.text).to.not.contain('Cross-origin');
      // A frame chain, entered frame by frame, reaches the element the ref names.
      const parts = splitFrameSelector(o.elements[2].selector);
      let loc = page.frameLocator(parts[0]);
      for (const sel of parts.slice(1, -1)) loc = loc.frameLocator(sel);
      expect(await loc.locator(parts.at(-1)!).getAttribute('data-gleaner-ref')).to.equal('e3');
    });

    it('findRef locates a ref across frames', async () => {
      await openFramed();
      await outline();
      expect(await page.evaluate(scriptCall('findRef', 'e1'))).to.equal('[data-gleaner-ref="e1"]');
      const chain = (await page.evaluate(scriptCall('findRef', 'e3'))) as string;
      expect(chain).to.match(/^iframe\[data-gleaner-frame="f\d+"\] >>> iframe\[data-gleaner-frame="f\d+"\] >>> \[data-gleaner-ref="e3"\]$/);
      const [a, b, el] = splitFrameSelector(chain);
      expect(await page.frameLocator(a).frameLocator(b).locator(el).textContent()).to.equal('Deep link');
      expect(await page.evaluate(scriptCall('findRef', 'e99'))).to.equal(null);
    });

    it('snapshotHtml inlines same-origin frames, keeps cross-origin ones, and drops the ref stamps', async () => {
      await openFramed();
      await outline();
      const html = (await page.evaluate(scriptCall('snapshotHtml'))) as string;
      expect(html).to.match(/^<!DOCTYPE html><html>/);
      expect(html).to.contain(`<div data-gleaner-iframe="${site.url}/inner"><h2>Inside</h2><button name="go">Go inside</button>`);
      expect(html).to.contain(`<div data-gleaner-iframe="${site.url}/deepest"><a href="/deep">Deep link</a></div>`);
      expect(html).to.match(/<iframe id="ad" src="http:\/\/localhost:\d+\/ad"><\/iframe>/);
      expect(html).to.not.contain('data-gleaner-ref').and.not.contain('data-gleaner-frame');
      // The live page keeps its stamps and its iframes.
      expect(await page.locator('iframe').count()).to.equal(2);
      expect(await refOf('#top')).to.equal('e1');
    });

    it('documentCall(false) reads the document as page.content() does, frames as they are, stamps dropped, with its charset', async () => {
      await openFramed();
      const plain = (await page.evaluate(documentCall(false))) as PageDocument;
      expect(plain.html).to.equal(await page.content());
      expect(plain.html).to.match(/<iframe[^>]*src="\/inner"/);
      expect(plain.charset).to.equal('utf-8');
      await outline();
      const stamped = (await page.evaluate(documentCall(false))) as PageDocument;
      expect(stamped.html).to.not.contain('data-gleaner-ref').and.not.contain('data-gleaner-frame');
      expect(stamped.html).to.equal(plain.html);
      const inlined = (await page.evaluate(documentCall(true))) as PageDocument;
      expect(inlined.html).to.equal(await page.evaluate(scriptCall('snapshotHtml')));
    });
  });

  it('documentCall reports the charset the document was decoded with', async () => {
    site.route(
      '/latin1',
      (_q, res) =>
        void res.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.from('<!doctype html><meta charset="iso-8859-1"><p>caf\xe9</p>', 'latin1')),
    );
    await page.goto(`${site.url}/latin1`);
    const doc = (await page.evaluate(documentCall(false))) as PageDocument;
    expect(doc.charset).to.equal('windows-1252');
    expect(doc.html).to.contain('<p>café</p>');
  });

  it('snapshotHtml has no doctype prefix when the page has none', async () => {
    await page.setContent('<html><body><p>quirks</p></body></html>');
    expect(await page.evaluate(scriptCall('snapshotHtml'))).to.equal('<html><head></head><body><p>quirks</p></body></html>');
  });

  it('scrollPage scrolls the document, an element into view, and an app with its own scrolling box', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.setContent(`<body style="margin:0"><div style="height:3000px">tall</div><p id="end">end</p>
      <script>addEventListener('scroll', () => { if (scrollY > 1000 && !window.more) { window.more = 1;
        for (let i = 0; i < 20; i++) document.body.append(Object.assign(document.createElement('p'), { textContent: 'lazy ' + i })); } });</script></body>`);
    const scroll = (arg: unknown) => page.evaluate(scriptCall('scroll', arg)) as Promise<ScrollResult>;
    const size0 = (await page.evaluate(scriptCall('domSize'))) as number;
    const down = await scroll({ to: 'bottom' });
    expect(down).to.include({ found: true, atBottom: true });
    expect(down.y).to.be.greaterThan(2000);
    await page.waitForFunction((n) => document.getElementsByTagName('*').length > n, size0);
    expect((await page.evaluate(scriptCall('domSize'))) as number).to.equal(size0 + 20);
    expect(await scroll({ to: 'top' })).to.include({ y: 0 });
    expect(await scroll({ pixels: 250 })).to.include({ y: 250 });
    const toEnd = await scroll({ selector: '#end' });
    expect(toEnd.found).to.equal(true);
    expect(toEnd.y).to.be.greaterThan(2000);
    expect(await scroll({ selector: '#nope' })).to.include({ found: false });

    await page.setContent(
      `<body style="margin:0;overflow:hidden"><div id="app" style="height:100vh;overflow-y:auto"><div style="height:5000px"></div></div></body>`,
    );
    const inner = await scroll({ to: 'bottom' });
    expect(inner).to.include({ atBottom: true, before: 5000 });
    expect(await page.evaluate(() => document.getElementById('app')!.scrollTop)).to.be.greaterThan(4000);
  });

  it('refSelector and isRef tell refs from selectors', () => {
    expect(refSelector('e12')).to.equal('[data-gleaner-ref="e12"]');
    expect(refSelector('#e12')).to.equal('#e12');
    expect(refSelector('button.primary')).to.equal('button.primary');
    expect(isRef('e3')).to.equal(true);
    expect(isRef('em')).to.equal(false);
    expect(splitFrameSelector('iframe#a >>> iframe[name="b"] >>> button')).to.deep.equal(['iframe#a', 'iframe[name="b"]', 'button']);
  });
});
