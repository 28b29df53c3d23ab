import { expect } from 'chai';
import { absoluteLinks, chunkText, countTokens, htmlToMarkdown, reducePage, siteRelativeUrl } from '../src/page/index.ts';
import { buildCorpus } from '../../../test/support/corpus.ts';

const URL_ = 'https://shop.example.com/catalog/item.html';

const PRODUCT = `<!doctype html><html><head><title>Trail Runner 2 | Shop</title>
<meta name="description" content="Lightweight trail shoe"><meta property="og:image" content="/og/trail.jpg">
<link rel="canonical" href="/p/trail-runner-2"><style>.price{color:red} .secret-css{}</style>
<script>window.dataLayer = [{ secret: "tracking-script-text" }];</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Runner 2","gtin13":"4006381333931","offers":{"@type":"Offer","price":"129.00","priceCurrency":"EUR"}}</script>
</head><body>
<header class="site-header"><nav><a href="/">Home</a> <a href="/men">Men's shoes menu</a></nav></header>
<div id="onetrust-banner-sdk" class="cookie-banner">We value your privacy cookie text <button>Accept</button></div>
<div hidden>hidden-attr text</div><p style="display: none">display-none text</p><span aria-hidden="true">aria-hidden text</span>
<main><h1>Trail Runner 2</h1>
<div class="gallery"><img src="../img/trail-1.jpg" alt="Side view"><img src="data:image/gif;base64,R0lGOD" data-src="/img/trail-2.jpg" alt="Top view">
<img srcset="/img/trail-3-400.jpg 400w, /img/trail-3-800.jpg 800w" alt="Sole"><img src="https://px.example.net/t.gif" width="1" height="1"></div>
<p class="price"><del>€159.00</del> <span data-sku="TR2-44">€129.00</span></p>
<p>Sold by <a href="//partners.example.org/acme?utm_source=shop&amp;utm_medium=link&amp;ref=42&amp;fbclid=XYZ">Acme Outdoor</a>.
See the <a href="sizes.html?gclid=abc">size guide</a>.</p>
<table><thead><tr><th>Spec</th><th>Value</th></tr></thead><tbody><tr><td>Weight</td><td>280 g</td></tr><tr><td>Drop</td><td>6 mm</td></tr></tbody></table>
<div itemscope itemtype="https://schema.org/Offer"><span itemprop="seller">Acme Outdoor</span><meta itemprop="availability" content="InStock"></div>
<input type="hidden" name="variant" value="var-9912">
<svg viewBox="0 0 10 10"><title>svg-icon-title</title><path d="M0 0L10 10"/></svg>
<!-- a comment that must go -->
</main>
<aside class="newsletter-modal">Subscribe to our newsletter text</aside>
<footer class="site-footer"><a href="/about">About us footer</a> © 2025</footer>
</body></html>`;

/**
 * How much longer eight times the input takes than once (quadratic work: sixty-four times). A ratio,
 * not a bound, so that a loaded machine does not fail it; each side is the fastest of its runs, so
 * that a pause of the process (another job on the machine, a collection) is not counted as work.
 */
function growth(run: (n: number) => unknown, n: number): number {
  const fastest = (size: number, times: number) => {
    let best = Infinity;
    for (let i = 0; i < times; i++) {
      const t = performance.now();
      run(size);
      best = Math.min(best, performance.now() - t);
    }
    return best;
  };
  run(n);
  return fastest(8 * n, 2) / Math.max(fastest(n, 3), 2);
}

describe('page: reduction', () => {
  it('keeps the facts: text, prices, links, images, table cells, JSON-LD, microdata, meta', () => {
    const r = reducePage(PRODUCT, { url: URL_, mode: 'standard' });
    for (const fact of [
      'Trail Runner 2',
      '€129.00',
      '€159.00',
      'Side view',
      '| Weight | 280 g |',
      '| Drop | 6 mm |',
      '4006381333931',
      '"price":"129.00"',
      'InStock',
      'Lightweight trail shoe',
      '![Side view](/img/trail-1.jpg)',
      '![Top view](/img/trail-2.jpg)',
      '![Sole](/img/trail-3-400.jpg)',
      '[Acme Outdoor](https://partners.example.org/acme?ref=42)',
      '[size guide](/catalog/sizes.html)',
    ])
      expect(r.text, fact).to.include(fact);
    expect(r.text).to.match(/\| Spec \| Value \|\n\|---\|---\|/);
    expect(r.title).to.equal('Trail Runner 2 | Shop');
    expect(r.jsonLd).to.have.length(1);
    expect(r.microdata).to.deep.equal([{ '@type': 'https://schema.org/Offer', seller: 'Acme Outdoor', availability: 'InStock' }]);
    expect(r.meta).to.include({
      description: 'Lightweight trail shoe',
      'og:image': 'https://shop.example.com/og/trail.jpg',
      canonical: 'https://shop.example.com/p/trail-runner-2',
    });
    expect(r.images).to.equal(3);
  });

  it('drops scripts, styles, SVG, comments, hidden nodes, tracking pixels and page chrome', () => {
    const { text } = reducePage(PRODUCT, { url: URL_, mode: 'standard' });
    for (const junk of [
      'tracking-script-text',
      'secret-css',
      'svg-icon-title',
      'M0 0L10',
      'a comment',
      'hidden-attr text',
      'display-none text',
      'aria-hidden text',
      'var-9912',
      "Men's shoes menu",
      'cookie text',
      'newsletter text',
      'About us footer',
      'px.example.net',
      'utm_',
      'fbclid',
      'gclid',
    ])
      expect(text, junk).not.to.include(junk);
  });

  it('keeps every item of a listing page', () => {
    const items = Array.from(
      { length: 60 },
      (_, i) => `<li class="card"><a href="/p/${i}?utm_campaign=x"><img data-src="/c/${i}.webp" src="data:image/gif;base64,AA" alt="Item ${i}"></a>
      <h3><a href="/p/${i}">Product number ${i}</a></h3><span class="price">$${i}.99</span><button>Add to cart</button></li>`,
    ).join('');
    const html = `<html><body><nav class="main-nav"><a href="/x">Nav link</a></nav><main><aside class="filters">Filter by size</aside><ul class="grid">${items}</ul></main><footer>Footer</footer></body></html>`;
    const { text } = reducePage(html, { url: 'https://s.example.com/c/shoes', mode: 'standard' });
    for (let i = 0; i < 60; i++) {
      expect(text).to.include(`[Product number ${i}](/p/${i})`);
      expect(text).to.include(`$${i}.99`);
      expect(text).to.include(`![Item ${i}](/c/${i}.webp)`);
    }
    expect(text).not.to.include('Nav link');
  });

  it('keeps every target fact of the benchmark corpus with >= 95% fewer tokens than the raw HTML', function () {
    this.timeout(120_000);
    let facts = 0;
    let kept = 0;
    let raw = 0;
    let reduced = 0;
    for (const page of buildCorpus()) {
      const r = reducePage(page.html, { url: page.url, mode: 'standard' });
      facts += page.facts.length;
      // A URL on the page's own site is written from the site's root (absoluteLinks() restores it).
      const missing = page.facts.filter((f) => !r.text.includes(siteRelativeUrl(f, page.url)));
      expect(missing, page.name).to.deep.equal([]);
      kept += page.facts.length - missing.length;
      raw += countTokens(page.html);
      reduced += countTokens(r.text);
    }
    expect(kept / facts).to.be.at.least(0.98);
    expect(1 - reduced / raw).to.be.at.least(0.95);
  });

  it('reads the page behind a cookie dialog, surfaces structured values once, main content first', () => {
    const html = `<html><head><title>Pony harness</title>
<script type="application/ld+json">/*<![CDATA[*/{"@context":"https://schema.org","@type":"Product","name":"Pony harness","mpn":"PH-10",
"description":"${'A sturdy leather harness for small ponies and donkeys, hand stitched. '.repeat(2)}","offers":{"@type":"Offer","availability":"https://schema.org/InStock"},
"potentialAction":{"@type":"SearchAction","target":"https://s.example.com/q={q}"}}/*]]>*/</script></head>
<body><div id="gdpr-banner" class="consent-banner">We use cookies to personalise ads. <button>Accept</button></div>
<div id="Body" aria-hidden="true"><nav><a href="/a">Home</a><a href="/b">Tack</a><a href="/c">Saddles</a></nav>
<div id="panel"><h1>Pony harness</h1><div itemscope itemtype="https://schema.org/Offer"><span itemprop="price" content="115.0">£115.00</span>
<span itemprop="sku" style="display:none">SKU-77</span></div></div>
<main><p>${'A sturdy leather harness for small ponies and donkeys, hand stitched. '.repeat(2)}</p><p>${'Fits up to 10 hands. '.repeat(12)}</p></main>
<div class="other"><a href="/x">Related one</a> <a href="/y">Related two</a> <a href="/z">Related three</a></div>
<p>Dispatched within two working days from our stables.</p></div></body></html>`;
    const { text } = reducePage(html, { url: 'https://s.example.com/p/1', mode: 'standard' });
    const body = text.slice(0, text.indexOf('## JSON-LD'));
    // The product block (title, price, description) is the main content, in the page's order.
    expect(body.indexOf('# Pony harness'), 'main content first').to.be.below(body.indexOf('Fits up to 10 hands'));
    for (const fact of ['£115.00', 'Dispatched within two working days', '"mpn":"PH-10"', 'schema.org/InStock', '"sku":"SKU-77"'])
      expect(text, fact).to.include(fact);
    expect(text).not.to.include('We use cookies');
    expect(text).not.to.include('Related two');
    expect(text).not.to.include('SearchAction');
    expect(text.split('A sturdy leather harness').length - 1, 'description once').to.equal(2);
  });

  it('precision mode keeps hidden text, chrome and element attributes', () => {
    const { text } = reducePage(PRODUCT, { url: URL_, mode: 'precision' });
    for (const fact of [
      'hidden-attr text',
      'display-none text',
      'aria-hidden text',
      "Men's shoes menu",
      'About us footer',
      'data-sku="TR2-44"',
      'name="variant"',
      'value="var-9912"',
      'itemprop="seller"',
    ])
      expect(text, fact).to.include(fact);
    for (const junk of ['tracking-script-text', 'secret-css', 'svg-icon-title']) expect(text).not.to.include(junk);
  });

  it('absolutizes relative URLs against the page URL or <base href>', () => {
    const html = `<html><head><base href="https://cdn.example.net/assets/"></head><body><p><a href="a.html">rel</a>
      <a href="/root">root</a> <a href="../up">up</a> <a href="https://other.example.com/x?id=1&utm_source=a">abs</a>
      <a href="mailto:hi@example.com">mail</a> <a href="javascript:void(0)">js</a> <img src="i.png" alt="i"></p></body></html>`;
    const { text } = reducePage(html, { url: 'https://site.example.com/dir/page', mode: 'standard' });
    expect(text).to.include('[rel](https://cdn.example.net/assets/a.html)');
    expect(text).to.include('[root](https://cdn.example.net/root)');
    expect(text).to.include('[up](https://cdn.example.net/up)');
    expect(text).to.include('[abs](https://other.example.com/x?id=1)');
    expect(text).to.include('[mail](mailto:hi@example.com)');
    expect(text).to.include('js');
    expect(text).not.to.include('javascript:');
    expect(text).to.include('![i](https://cdn.example.net/assets/i.png)');
  });

  it("writes links and images on the page's own site from the root, and answers get them absolute again", () => {
    const html = `<html><body><main><h1>Kettles</h1><p><a href="/p/blue?size=2">Blue kettle</a> <a href="red.html">Red kettle</a>
      <a href="https://other.example.org/p/9">Partner kettle</a> <a href="//shop.example.com/p/green">Green kettle</a>
      <img src="/img/blue.jpg" alt="Blue"> <a href="http://shop.example.com/p/old">Old kettle</a></p></main></body></html>`;
    const pageUrl = 'https://shop.example.com/c/kettles';
    const { text } = reducePage(html, { url: pageUrl, mode: 'standard' });
    expect(text).to.include('[Blue kettle](/p/blue?size=2)').and.include('[Red kettle](/c/red.html)').and.include('[Green kettle](/p/green)');
    expect(text).to.include('![Blue](/img/blue.jpg)');
    // Another origin (another host, or http on an https page) stays absolute.
    expect(text).to.include('[Partner kettle](https://other.example.org/p/9)').and.include('[Old kettle](http://shop.example.com/p/old)');
    expect(siteRelativeUrl('https://shop.example.com/p/green', pageUrl)).to.equal('/p/green');
    expect(siteRelativeUrl('https://other.example.org/p/9', pageUrl)).to.equal('https://other.example.org/p/9');
    // Precision mode, and standard mode when asked, keep every URL absolute.
    expect(reducePage(html, { url: pageUrl, mode: 'precision' }).text).to.include('https://shop.example.com/p/blue?size=2');
    expect(reducePage(html, { url: pageUrl, mode: 'standard', siteRelative: false }).text).to.include('[Blue kettle](https://shop.example.com/p/blue?size=2)');
    const answer = { url: '/p/blue?size=2', image: '/img/blue.jpg', all: ['/c/red.html', '/nowhere'], name: '/ not a link', n: 3 };
    expect(absoluteLinks(answer, text, pageUrl)).to.deep.equal({
      url: 'https://shop.example.com/p/blue?size=2',
      image: 'https://shop.example.com/img/blue.jpg',
      all: ['https://shop.example.com/c/red.html', '/nowhere'],
      name: '/ not a link',
      n: 3,
    });
  });

  it("reads content that is hidden only until scripts run: streamed parts, a page-level reveal wrapper, a newsletter's own text", () => {
    const html = `<html><body><div id="__next"><div style="visibility:hidden;min-height:100vh"><main><h1>Gradient descent</h1>
      <p>Gradient descent takes steps against the gradient of the loss, each one scaled by the learning rate, until the loss stops falling or the budget of steps runs out.</p>
      <p style="visibility:hidden">A tooltip that is really hidden.</p></main></div></div>
      <template id="B:1"></template><div hidden id="S:1"><p>Stochastic variants sample a batch at every step.</p></div>
      <div hidden id="drawer"><p>A closed drawer's text.</p></div>
      <section class="newsletter-wrapper"><article class="newsletter-content"><p>This week: the learning rate schedule.</p></article></section>
      <div class="newsletter-signup"><p>Sign up for our weekly emails</p></div>
      <div class="card sticky-action"><p>A podcast about engines, every week.</p></div><div class="cky-consent-bar"><p>We use cookies</p></div>
      <ul>${[1, 2, 3].map((i) => `<li><img src="/star.svg" alt="Rated"> <a href="/b/${i}">Book ${i}</a>: a story of ${i} engines told over many long chapters. <img src="/b/${i}.jpg" alt="Cover ${i}"></li>`).join('')}</ul></body></html>`;
    const { text } = reducePage(html, { url: 'https://e.com/ml', mode: 'standard' });
    for (const fact of [
      'Gradient descent takes steps',
      'Stochastic variants sample a batch',
      'This week: the learning rate schedule.',
      'A podcast about engines',
    ])
      expect(text).to.include(fact);
    for (const hidden of ['A tooltip that is really hidden', "A closed drawer's text", 'Sign up for our weekly emails', 'We use cookies'])
      expect(text).not.to.include(hidden);
    // An image repeated on the page (an icon) is written with its URL once, then by its alt text.
    expect(text).to.include('![Rated](/star.svg) [Book 1](/b/1)').and.include('Rated [Book 2](/b/2)').and.include('![Cover 3](/b/3.jpg)');
    expect(text.split('/star.svg').length).to.equal(2);
  });

  // The time itself is a benchmark's figure (test/bench: reduction throughput, the 2 MB page); here
  // only the growth is checked: 8x the cards must not cost anywhere near 64x (quadratic) the time.
  it('reduces a 2 MB page linearly', () => {
    const card = (i: number) =>
      `<div class="card" data-x="${i}"><a href="/p/${i}"><span>Item ${i}</span></a><span class="p">$${i}</span><svg><path d="M0 0L1 1"/></svg></div>`;
    const page = (n: number) => `<html><body><main>${Array.from({ length: n }, (_, i) => card(i)).join('\n')}</main></body></html>`;
    const big = page(16_000);
    expect(big.length).to.be.above(1_900_000);
    expect(reducePage(big, { url: 'https://e.com/', mode: 'standard' }).text).to.include('[Item 15999](/p/15999)');
    expect(growth((n) => reducePage(page(n), { url: 'https://e.com/', mode: 'standard' }), 2_000)).to.be.below(8 * 4);
  });

  it('stays linear on pathological pages (deep unclosed nesting, nested links and tables, hidden words)', function () {
    this.timeout(60_000);
    const shapes = [(n: number) => '<div>x'.repeat(n), (n: number) => '<a href="/a">x'.repeat(n), (n: number) => '<table><tr><td>x'.repeat(n / 2)];
    for (const shape of shapes) {
      expect(
        growth((n) => reducePage(shape(n), { url: 'https://e.com/', mode: 'precision' }), 10_000),
        shape(1),
      ).to.be.below(8 * 4);
      expect(
        growth((n) => htmlToMarkdown(shape(n), { url: 'https://e.com/' }), 10_000),
        shape(1),
      ).to.be.below(8 * 4);
    }
    // Upper-case raw-text tags after block ends (`</SCRIPT>` searched for), a tag holding many tag starts
    // in an attribute (the like-items pattern of markdown.ts), in the main content's conversion too.
    const odd = [
      (n: number) => `<main><h1>T</h1><ul>${'<li>a</li><SCRIPT>x</SCRIPT>'.repeat(n / 4)}</ul></main>`,
      (n: number) => `<main><h1>T</h1><p>words</p><div title="${'<span '.repeat(n)}">x</div><p><span class="a">1</span><span class="a">B</span></p></main>`,
    ];
    for (const shape of odd)
      expect(
        growth((n) => htmlToMarkdown(shape(n), { url: 'https://e.com/', onlyMainContent: true }), 10_000),
        shape(1),
      ).to.be.below(8 * 4);
    const words = (n: number) => `<header><p>${'hidden cookie modal dialog '.repeat(n)}</p></header><main>x</main>`;
    expect(
      growth((n) => {
        htmlToMarkdown(words(n), { url: 'https://e.com/' });
        reducePage(words(n), { url: 'https://e.com/', mode: 'standard' });
      }, 10_000),
    ).to.be.below(8 * 4);
  });
});

describe('page: tokens and chunks', () => {
  it('counts o200k tokens, special-token text included, and stays fast on long unbroken runs', () => {
    expect(countTokens('')).to.equal(0);
    expect(countTokens('hello world')).to.equal(2);
    expect(countTokens('a <|endoftext|> b')).to.be.above(3);
    expect(countTokens('x'.repeat(500_000))).to.be.above(10_000);
    // A long unbroken run costs about its length (quadratic work: sixty-four times for eight times the run).
    expect(growth((n) => countTokens('x'.repeat(n)), 62_500)).to.be.below(8 * 4);
  });

  const doc = (() => {
    const parts: string[] = ['# Catalogue'];
    for (let s = 0; s < 6; s++) {
      parts.push(`## Section ${s}`, `Intro paragraph for section ${s} with [a link](https://e.com/s/${s}) and some words to fill it up.`, '');
      parts.push('| Name | Price | Link |', '|---|---|---|');
      for (let r = 0; r < 40; r++) parts.push(`| Row ${s}.${r} widget | $${r}.50 | [open](https://e.com/p/${s}/${r}) |`);
      parts.push('');
    }
    return parts.join('\n');
  })();

  it('keeps every chunk within the limit, in order, never splitting a table row', () => {
    for (const max of [60, 200, 1000]) {
      const chunks = chunkText(doc, max, { overlap: false });
      for (const c of chunks) expect(countTokens(c)).to.be.at.most(max);
      expect(chunks.join('\n')).to.equal(doc);
      const rows = new Set(doc.split('\n'));
      for (const c of chunks) for (const line of c.split('\n')) expect(rows.has(line), line).to.equal(true);
    }
  });

  it('repeats the heading and the table header in the next chunk (overlap)', () => {
    const chunks = chunkText(doc, 200);
    expect(chunks.length).to.be.above(5);
    for (const c of chunks) expect(countTokens(c)).to.be.at.most(200);
    for (const c of chunks.slice(1)) {
      const lines = c.split('\n');
      if (lines.some((l) => l.startsWith('| Row'))) {
        expect(c).to.include('| Name | Price | Link |');
        expect(c).to.include('|---|---|---|');
        expect(lines[0]).to.match(/^## Section \d$/);
      }
    }
    // Every original line appears, in order, across the chunks.
    const seen = chunks.join('\n').split('\n');
    let k = 0;
    for (const line of doc.split('\n')) {
      while (k < seen.length && seen[k] !== line) k++;
      expect(k, line).to.be.below(seen.length);
    }
  });

  it('hard-splits a pathological single block without cutting links', () => {
    const line = Array.from({ length: 400 }, (_, i) => `[link ${i}](https://e.com/${i})`).join(' ');
    const chunks = chunkText(line, 50);
    expect(chunks.length).to.be.above(10);
    for (const c of chunks) {
      expect(countTokens(c)).to.be.at.most(50);
      expect(c.replace(/\[link \d+\]\(https:\/\/e\.com\/\d+\)/g, '').trim()).to.match(/^\s*$/);
    }
    expect(chunks.join('')).to.equal(line);
    const word = 'z'.repeat(20_000);
    const parts = chunkText(word, 100);
    for (const c of parts) expect(countTokens(c)).to.be.at.most(100);
    expect(parts.join('')).to.equal(word);
  });

  it('is linear in the input size', () => {
    const block = doc;
    expect(chunkText(block.repeat(32), 500).length).to.be.above(32);
    expect(growth((n) => chunkText(block.repeat(n), 500), 4)).to.be.below(8 * 4);
  });
});

describe('page: markdown', () => {
  const PAGE = `<html><head><title>Doc page</title><style>body{}</style><script>var leak = "script-text";</script></head><body>
    <header><a class="logo" href="/">Logo link</a><nav><a href="/">Home</a> <a href="/docs">Docs nav link</a></nav></header>
    <div class="cookie-consent" id="cmp">Cookie consent banner text</div>
    <main><h1>Main heading</h1><p>Intro with <a href="guide.html?utm_source=x&amp;v=2">the guide</a> and
    <img src="/img/shot.png" alt="Screenshot"> <img data-src="/img/lazy.png" src="data:image/gif;base64,AA" alt="Lazy"></p>
    <table><tr><th>Key</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table>
    <svg><text>svg-text</text></svg></main>
    <footer><a href="/contact">Contact footer</a></footer></body></html>`;

  it('puts the main content first, then the rest of the page, links and images absolute, tables as tables', () => {
    const md = htmlToMarkdown(PAGE, { url: 'https://docs.example.com/a/b.html' });
    expect(md.indexOf('# Main heading')).to.equal(0);
    expect(md.indexOf('[Logo link](https://docs.example.com/)')).to.be.above(md.indexOf('alpha'));
    expect(md).not.to.include('Docs nav link'); // navigation menus outside the main content are dropped
    expect(md).to.include('[the guide](https://docs.example.com/a/guide.html?v=2)');
    expect(md).to.include('![Screenshot](https://docs.example.com/img/shot.png)');
    expect(md).to.include('![Lazy](https://docs.example.com/img/lazy.png)');
    expect(md).to.match(/\| Key \| Value \|\n\| --- \| --- \|\n\| alpha \| 1 \|/);
    expect(md).to.include('[Contact footer](https://docs.example.com/contact)');
    for (const junk of ['script-text', 'body{}', 'svg-text', 'Cookie consent banner text', 'utm_source']) expect(md).not.to.include(junk);
  });

  it('keeps the page order when there is no main landmark, chrome last', () => {
    const html = `<body><header><a href="/">Logo link</a><nav><a href="/m">Menu</a></nav></header><div><h2>Content A</h2><p>First</p></div>
      <div><p>Second</p><nav class="pagination"><a href="?page=2">Next page</a></nav></div><footer>Foot</footer></body>`;
    const md = htmlToMarkdown(html, { url: 'https://e.com/' });
    expect(md.indexOf('Content A')).to.be.below(md.indexOf('Second'));
    expect(md.indexOf('Second')).to.be.below(md.indexOf('Logo link'));
    expect(md.indexOf('Logo link')).to.be.below(md.indexOf('Foot'));
    expect(md).to.include('[Next page](https://e.com/?page=2)');
    expect(md).not.to.include('Menu');
  });

  it("keeps a space between a list item's or a table cell's blocks (a card's price and its review count)", () => {
    const html = `<main><h1>Boots</h1><ul><li><a href="/p/1"><div>Moab 3</div></a><div><div>$170.00</div></div><div><span>1,332 reviews</span></div></li>
      <li><h3>Kaha</h3><div><span>Black</span></div></li></ul><table><tr><td><div>alpha</div><div><span>beta</span></div></td></tr></table></main>`;
    const md = htmlToMarkdown(html, { url: 'https://e.com/' });
    expect(md).to.include('$170.00 1,332 reviews');
    expect(md).to.include('Kaha Black');
    expect(md).to.include('alpha beta');
  });

  it('keeps every target fact of the corpus listings', () => {
    for (const page of buildCorpus().filter((p) => p.kind === 'listing')) {
      const md = htmlToMarkdown(page.html, { url: page.url });
      const missing = page.facts.filter((f) => !md.includes(f));
      expect(missing, page.name).to.deep.equal([]);
    }
  });
});
