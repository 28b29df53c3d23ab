// Standard-mode reduction rules added for real pages (docs/benchmarks.md, "What the model reads"):
// each on a small page written for it.
import { expect } from 'chai';
import { reducePage } from '../src/page/index.ts';

const reduce = (html: string, url = 'https://shop.example.com/p/kettle') => reducePage(html, { url, mode: 'standard' }).text;

describe('page reduction for the model (standard mode)', () => {
  const words = (topic: string, n = 4) =>
    Array.from(
      { length: n },
      (_, i) => `<p>${topic} paragraph ${i + 1} tells the reader what the page is about, in a sentence long enough to stand alone.</p>`,
    ).join('');

  it("reads a tab's panel, an accordion's body and a carousel's slides, hidden only until clicked; not a collapsed menu", () => {
    const html = `<html><body><main><h1>Blue kettle</h1><p>A kettle that boils a litre of water in three minutes flat.</p>
      <div role="tablist"><button>Description</button><button>Specifications</button></div>
      <div role="tabpanel" hidden><p>Weight: 1.2 kg, capacity 1.7 l</p></div>
      <div class="tab-pane" style="display:none"><p>Part number KT-2201</p></div>
      <dd class="cmp-accordion__panel cmp-accordion__panel--hidden" hidden>Can I descale it? Yes, with citric acid.</dd>
      <ul><li class="carousel__cell" aria-hidden="true">Fits the Blue teapot as well.</li></ul>
      <div class="navbar-collapse" style="display:none"><p>Collapsed menu text</p></div>
      <div class="carousel-item dropdown-menu" style="display:none"><p>A dropdown's links</p></div>
      <p style="display:none">A hidden tracking note</p></main></body></html>`;
    const text = reduce(html);
    for (const fact of ['Weight: 1.2 kg', 'Part number KT-2201', 'Can I descale it?', 'Fits the Blue teapot']) expect(text).to.include(fact);
    for (const hidden of ['Collapsed menu text', "A dropdown's links", 'A hidden tracking note']) expect(text).not.to.include(hidden);
    // asShown (the agent, which clicks a tab open): the page as the browser shows it.
    const shown = reducePage(html, { url: 'https://shop.example.com/p/kettle', mode: 'standard', asShown: true }).text;
    expect(shown).to.include('three minutes flat');
    for (const closed of ['Weight: 1.2 kg', 'Part number KT-2201', 'Can I descale it?']) expect(shown).not.to.include(closed);
  });

  it("writes a click-tracking redirect as its destination; a share link's URL parameter stays", () => {
    const target = 'https://www.example.it/products/8008324077359.html';
    const html = `<html><body><main><h1>Puzzle</h1><p>Five puzzles of 42 pieces in one box, for children from three years on.</p>
      <a href="https://recs.example.net/rrserver/click?a=8ae8&vg=3288&pti=1&ct=${encodeURIComponent(target)}">Gormiti card game</a>
      <a href="https://social.example.com/sharer.php?u=${encodeURIComponent(target)}">Share</a></main></body></html>`;
    const text = reduce(html);
    expect(text).to.include(`[Gormiti card game](${target})`).and.not.include('rrserver');
    expect(text).to.include('sharer.php?u=');
    expect(reducePage(html, { url: 'https://shop.example.com/p/kettle', mode: 'precision' }).text).to.include('rrserver/click');
  });

  const menu = (n: number) => `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/c/${i}">Category ${i}</a></li>`).join('')}</ul>`;

  it("drops a product page's long link lists (a mega-menu inside the detected content), keeps its breadcrumb", () => {
    const html = `<html><head><script type="application/ld+json">{"@type":"Product","name":"Blue kettle","sku":"KT-2201"}</script></head>
      <body><div class="wrap"><p><a href="/">Home</a> <a href="/kitchen">Kitchen</a></p>${menu(20)}
      <h1>Blue kettle</h1><p>A kettle that boils a litre of water in three minutes flat, with a filter for limescale.</p>
      <p>Price: 39.90 EUR. In stock.</p><p>Made of stainless steel with a cool-touch handle and a 360 degree base.</p></div></body></html>`;
    const text = reduce(html);
    expect(text).to.include('Price: 39.90 EUR').and.include('[Kitchen](/kitchen)').and.include('KT-2201');
    expect(text).not.to.include('Category 7');
  });

  it("keeps a large collection page's product links (og:type product.group); drops a large product page's link lists", () => {
    const padding = `<script>var state = "${'x'.repeat(1_100_000)}";</script>`;
    const cards = `<ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/products/w${i}">Wallet ${i}</a></li>`).join('')}</ul>`;
    const page = (type: string) =>
      `<html><head><meta property="og:type" content="${type}">${padding}</head><body><h1>Wallets</h1>${words('Wallets')}${cards}</body></html>`;
    expect(reduce(page('product.group'), 'https://shop.example.com/collections/wallets')).to.include('[Wallet 11](/products/w11)');
    expect(reduce(page('product'), 'https://shop.example.com/products/w1')).not.to.include('Wallet 11');
  });

  it('reads a page with no main content found without its link lists', () => {
    const html = `<html><body><nav class="sidebar"><h1>Opening hours</h1>${menu(6)}
      <p>The shop is open from nine to five on weekdays and from ten to two on Saturdays. On public holidays it stays closed, and in December it opens on Sundays too, from eleven to four, for the Christmas market.</p></nav></body></html>`;
    const text = reduce(html, 'https://shop.example.com/hours');
    expect(text).to.include('open from nine to five');
    expect(text).not.to.include('Category 3');
  });

  it("keeps a link's text in a sentence when the link wraps it in an element of its own (a glossary term)", () => {
    const para = (i: number) =>
      `<p>Paragraph ${i}: the <a href="/glossary#engine"><span class="term">Engine</span></a> is a factory that creates database connections and keeps them in a <a href="/glossary#pool"><span class="std-term">Connection Pool</span></a> for fast reuse.</p>`;
    const html = `<html><body><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav><main><h1>Create an engine</h1>${[1, 2, 3, 4].map(para).join('')}</main></body></html>`;
    const text = reduce(html, 'https://docs.example.org/orm/quickstart');
    expect(text).to.include('keeps them in a [Connection Pool](/glossary#pool) for fast reuse');
    expect(text).to.include('the [Engine](/glossary#engine) is a factory');
  });

  it('reads what the page says outside its main content as an outline: sentences with their titles, numbers, labelled values, pagination and long headlines, not short labels', () => {
    const article = Array.from(
      { length: 6 },
      (_, i) => `<p>Paragraph ${i} of the report on the new bridge, which the council approved after a long debate about its cost and its route.</p>`,
    ).join('');
    const headlines = [
      'Council approves the new bridge over the river after a long debate',
      'Schools reopen next week with longer opening hours for the library',
    ];
    const html = `<html><body><div class="promo"><h3>Delivery</h3><p>We deliver to every town in the county within two days.</p>
      <p>Subscribe now</p><p>Add to cart</p><p>Call us: 555 0100</p><p>Brand:</p><p>Acme</p><p><a href="/bridge?page=2">Next</a></p>
      <ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/about">About us</a></li></ul>
      <ul>${headlines.map((h, i) => `<li><a href="/n/${i}">${h}</a></li>`).join('')}<li><a href="/n/9">More news</a></li></ul></div>
      <main><h1>The bridge</h1>${article}</main></body></html>`;
    const text = reduce(html, 'https://news.example.com/bridge');
    expect(text).to.include('Paragraph 5 of the report');
    for (const kept of ['### Delivery\n\nWe deliver', 'Call us: 555 0100', 'Brand:\n\nAcme', '[Next](/bridge?page=2)', ...headlines])
      expect(text).to.include(kept);
    for (const dropped of ['Subscribe now', 'Add to cart', '[Home]', 'About us', 'More news']) expect(text).not.to.include(dropped);
  });

  it('leaves out page chrome written as structured data (a menu as SiteNavigationElement items), keeps the rest of it', () => {
    const nav = ['Home', 'Categories', 'Terms of Service'].map((name, i) => ({
      '@type': 'SiteNavigationElement',
      name,
      url: `https://forum.example.org/${i}`,
    }));
    const ld = { '@context': 'https://schema.org', '@graph': [{ '@type': 'Organization', name: 'Example Forum Society' }, ...nav] };
    const html = `<html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body>
      <nav itemscope itemtype="https://schema.org/SiteNavigationElement"><a itemprop="url" href="/tos"><span itemprop="name">Terms of Service</span></a></nav>
      <main><h1>How to renew a certificate</h1><p>${'The client renews the certificate thirty days before it expires, on its own. '.repeat(4)}</p></main></body></html>`;
    const text = reduce(html, 'https://forum.example.org/t/renew');
    expect(text).to.include('"name":"Example Forum Society"');
    expect(text).not.to.include('SiteNavigationElement');
    expect(text).not.to.include('Terms of Service');
    expect(text).not.to.include('null');
    expect(reducePage(html, { url: 'https://forum.example.org/t/renew', mode: 'precision' }).text).to.include('SiteNavigationElement');
  });

  it('glues punctuation to a link as the page does (Minnow’s), and still parts a word glued to it', () => {
    const html = `<html><body><main><h1>Moray</h1><p>Meet the Moray, <a href="/p/minnow">Minnow</a>’s slightly bigger brother, and read the <a href="/guide">guide</a>—or the <a href="/faq">FAQ</a>first.</p>
      <p>${'It fits in a pocket and holds every bit a repair needs. '.repeat(4)}</p></main></body></html>`;
    const text = reduce(html, 'https://tools.example.com/p/moray');
    expect(text).to.include('[Minnow](/p/minnow)’s slightly bigger brother');
    expect(text).to.include('[guide](/guide)—or');
    expect(text).to.include('[FAQ](/faq) first');
  });
  it("reads a card's repeat link hidden from screen readers (aria-hidden, tabindex -1) as text, without its target and images", () => {
    const card = (i: number) => `<article class="card"><h2><a href="/n/${i}">Story ${i} headline</a></h2>
      <p class="desc"><a href="/n/${i}" aria-hidden="true" tabindex="-1"><img src="/img/${i}.jpg" alt="">Teaser ${i}: the new bridge over the river opened to traffic after two years of work.</a></p></article>`;
    const html = `<html><body><main><h1>News</h1>${[1, 2, 3, 4].map(card).join('')}<p>Rated <span aria-hidden="true">★★★★</span> by readers.</p></main></body></html>`;
    const text = reduce(html, 'https://news.example.com/');
    expect(text).to.include('[Story 3 headline](/n/3)').and.include('Teaser 3: the new bridge over the river opened');
    expect(text).not.to.include('[Teaser').and.not.include('/img/3.jpg').and.not.include('★');
  });

  it("reads an accordion's panel wired by ARIA (a button's aria-controls, the panel's aria-labelledby), not a menu wired so", () => {
    const html = `<html><body><main><h1>Design course</h1>${words('Course')}
      <div><button id="q1" aria-controls="a1" aria-expanded="false">Do I need a degree?</button>
      <div id="a1" aria-labelledby="q1" hidden><p>No degree is required, only the will to learn.</p></div></div>
      <button id="m1" aria-controls="menu1" aria-expanded="false">Account</button>
      <ul id="menu1" role="menu" aria-labelledby="m1" hidden><li>Sign out of every device you use</li></ul>
      <div id="note" hidden><p>A hidden note that nothing opens</p></div></main></body></html>`;
    const text = reduce(html, 'https://school.example.com/design');
    expect(text).to.include('No degree is required, only the will to learn.');
    for (const hidden of ['Sign out of every device', 'A hidden note']) expect(text).not.to.include(hidden);
    const shown = reducePage(html, { url: 'https://school.example.com/design', mode: 'standard', asShown: true }).text;
    expect(shown).not.to.include('No degree is required');
  });

  it("keeps a hero marked role=banner inside the content and a header inside the content's article; drops the page's banner", () => {
    const html = `<html><body><div role="banner"><p>Welcome to the example shop for every kitchen need you have</p></div>
      <main><h1>Phone case</h1><div role="banner" class="hero"><p>Built with an integrated array of magnets that hold it to any charger.</p></div>${words('Case')}</main></body></html>`;
    const text = reduce(html);
    expect(text).to.include('Built with an integrated array of magnets');
    expect(text).not.to.include('Welcome to the example shop');
    const review = `<html><body><article class="review"><div class="inner"><header class="byline"><p>Lauren writes about audio gear and hearing aids for the guide.</p></header>
      <div class="body">${words('Review', 6)}</div></div><div class="more">${words('More', 2)}</div></article></body></html>`;
    expect(reduce(review, 'https://guide.example.com/headphones')).to.include('Lauren writes about audio gear');
  });

  it("keeps a header inside an element with role=main (the main part's title and summary); drops the page's header", () => {
    const html = `<html><body><header class="top"><p>Welcome to the example training site for every electrician in town</p></header>
      <div id="maincontent" role="main"><header class="hero"><h1>Fundamentals</h1><p class="summary">The fundamentals course is for anyone with up to four years in the trade.</p></header>
      <section class="body">${words('Course', 6)}</section></div></body></html>`;
    const text = reduce(html, 'https://training.example.com/fundamentals');
    expect(text).to.include('The fundamentals course is for anyone').and.include('Course paragraph 6');
    expect(text).not.to.include('Welcome to the example training site');
  });

  it('reads a wrapper that holds the page and its title although its markup says chrome or hidden (a #Header around it all, a display:none lock)', () => {
    const named = `<html><body><div id="Header"><div class="logo">Makers</div><div class="Content"><h1>Makers Market</h1>${words('Market', 6)}</div></div></body></html>`;
    expect(reduce(named, 'https://market.example.com/')).to.include('Market paragraph 6');
    const locked = `<html><body><main><div class="lockdown-content" style="display:none;"><h1>Dark roast</h1>${words('Coffee', 6)}</div>
      <div class="popup" style="display:none"><p>Enter your email address to get ten percent off your first order</p></div></main></body></html>`;
    const text = reduce(locked, 'https://coffee.example.com/dark');
    expect(text).to.include('Coffee paragraph 6').and.not.include('ten percent off');
  });

  it('keeps a breadcrumb written with text separators outside the main content; drops skip links', () => {
    const html = `<html><body><a href="#main" class="visually-hidden-focusable">Skip to main content</a>
      <div class="top"><p><a href="/games">All Games</a> &gt; <a href="/games/action">Action Games</a> &gt; <a href="/app/7">Rust</a></p>
      <p><a href="/hub">Community Hub</a></p><p><a href="/news">News</a></p></div>
      <main id="main"><h1>Rust</h1>${words('Game')}<p>See <a href="#reviews">the reviews</a> below.</p></main></body></html>`;
    const text = reduce(html, 'https://store.example.com/app/7');
    expect(text).to.include('[All Games](/games) > [Action Games](/games/action) > [Rust](/app/7)').and.include('the reviews');
    for (const dropped of ['Skip to main content', 'Community Hub']) expect(text).not.to.include(dropped);
  });
});
