import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content', () => {
  it('an article: its body and title, without sidebar, share bar, related rail and comments form', () => {
    const html = page(`<div class="layout"><div class="content">
      <h1>Article title</h1><div class="share-buttons"><a href="/s">Share on Facebook</a></div>
      <div class="entry">${para('Article', 5)}</div>
      <section class="related-posts"><h3>Related posts</h3><a href="/r1">Another story</a></section>
      <div id="respond"><h3>Leave a reply</h3></div></div>
      <aside class="sidebar"><h3>Popular</h3><ul><li><a href="/p1">Popular one</a></li><li><a href="/p2">Popular two</a></li></ul></aside></div>`);
    const out = md(html);
    expectOnly(
      out,
      ['# Article title', 'Article paragraph 1', 'Article paragraph 5'],
      [...CHROME_WORDS, 'Share on Facebook', 'Another story', 'Leave a reply', 'Popular one'],
    );
  });

  it('a forum thread: every post, the short ones too', () => {
    const post = (i: number, text: string) => `<div class="topic-post post_${i}"><span class="author">user${i}</span><div class="cooked">${text}</div></div>`;
    const html = page(`<div id="main-outlet"><h1>Thread title</h1>
      ${post(1, para('Question', 6))}${post(2, '<p>Short answer from the second poster.</p>')}${post(3, '<p>Thanks, that worked for me.</p>')}</div>
      <div class="suggested-topics"><h3>Suggested topics</h3><a href="/t/9">Other thread</a></div>`);
    const out = md(html);
    expectOnly(out, ['Thread title', 'Question paragraph 6', 'Short answer from the second poster', 'Thanks, that worked', 'user3'], CHROME_WORDS);
    expect(findMainContent(html).type).to.equal('forum');
    // Posts told apart by alternate-row and first-post classes (`blockpost rowodd firstpost`,
    // `roweven`; `message-threadStarterPost`) are still one run of posts.
    const alt = (i: number, cls: string) =>
      `<div class="blockpost ${cls}"><span class="author">user${i}</span><div class="postmsg"><p>Reply ${i} tells what worked on the router, in a few sentences of its own.</p></div></div>`;
    const rows = page(`<div id="brdmain"><h1>Thread title</h1>${alt(1, 'rowodd firstpost')}${alt(2, 'roweven')}${alt(3, 'rowodd')}${alt(4, 'roweven')}</div>`);
    expect(findMainContent(rows).type).to.equal('forum');
  });

  it('a listing: the whole grid of cards, links included, without the filter facets', () => {
    const card = (i: number) =>
      `<li class="product-card"><a href="/p/${i}"><img src="/i/${i}.jpg" alt=""><h3>Product ${i}</h3><span class="price">$${i}9.00</span></a></li>`;
    const html = page(`<div class="page"><aside class="filters"><h3>Filter</h3><a href="/c?color=red">Red</a> <a href="/c?color=blue">Blue</a></aside>
      <main><h1>Category</h1><ul class="grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul></main></div>`);
    const out = md(html);
    expectOnly(out, ['# Category', 'Product 1 $19.00](https://site.example/p/1)', 'Product 12'], [...CHROME_WORDS, 'Red', 'Filter']);
    expect(out).not.to.match(/<h3>|<\/h3>/);
    expect(findMainContent(html).type).to.equal('listing');
  });

  it("a card's own footer (BEM `card__footer`: its author and date) is the card's; a block named footer is not", () => {
    const card = (i: number) =>
      `<li><div class="card__data"><h4 class="card__title"><a href="/news/${i}">News story ${i} about the new release</a></h4>
      <div class="card__footer"><span><a href="/profile/${i}">Author ${i}</a></span> <span class="date">on Mar 0${i}</span></div></div></li>`;
    const html = page(`<main><h1>News</h1><ul class="cards">${[1, 2, 3, 4, 5, 6].map(card).join('')}</ul>
      <div class="footer"><p>Footer block of the content area with its own links</p></div></main>`);
    expectOnly(md(html), ['News story 6 about the new release', 'Author 6', 'on Mar 06'], ['Footer block', ...CHROME_WORDS]);
  });

  it('a product: name, price, description and specifications, without the related products rail', () => {
    const html = page(
      `<div class="product"><div class="gallery"><img src="/big.jpg" alt="Photo"></div>
      <div class="summary"><h1>Desk Lamp</h1><p class="price">$49.00</p><button>Add to cart</button></div>
      <div class="tabs"><h2>Description</h2>${para('Lamp', 3)}<h2>Specifications</h2>
      <table><tr><th>Height</th><td>45 cm</td></tr><tr><th>Weight</th><td>1.2 kg</td></tr></table></div>
      <div class="product-reviews"><h2>Customer reviews</h2><p>Great lamp, five stars from me.</p></div></div>
      <section class="related-products"><h2>You may also like</h2><a href="/p/2">Floor Lamp $99</a><a href="/p/3">Wall Lamp $39</a></section>`,
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Desk Lamp"}</script>',
    );
    const out = md(html);
    expectOnly(
      out,
      ['Desk Lamp', '$49.00', 'Lamp paragraph 3', '| Height | 45 cm |'],
      [...CHROME_WORDS, 'You may also like', 'Floor Lamp', 'Add to cart', 'Great lamp'],
    );
    expect(findMainContent(html).type).to.equal('product');
  });

  it('a product without schema.org markup: named by its title element or by Open Graph price tags', () => {
    const body = (h1: string) =>
      `<div class="dp"><div class="center-col">${h1}<p class="price">$18.00</p>
      <div id="editorialReviews"><h2>Editorial reviews</h2><p>A practical guide to small daily habits, praised by readers and critics alike.</p></div>
      <div class="description">${para('Book', 3)}</div></div>
      <div id="customerReviews"><h2>Customer reviews</h2><p>Loved it, read it twice in one week and bought copies for friends.</p></div></div>`;
    const kept = ['Small Habits', '$18.00', 'A practical guide', 'Book paragraph 3'];
    // The h1, or the element holding its text, is named as a product title.
    for (const h1 of ['<h1 id="title"><span id="productTitle">Small Habits</span></h1>', '<h1 data-test="product-title">Small Habits</h1>']) {
      const html = page(body(h1));
      expect(findMainContent(html).type, h1).to.equal('product');
      expectOnly(md(html), kept, ['Loved it', ...CHROME_WORDS]);
    }
    // A theme's og:type article comes first; the shop's og:type and product price follow.
    const og =
      '<meta property="og:type" content="article"><meta property="og:type" content="og:product"><meta property="product:price:amount" content="18.00">';
    const html = page(body('<h1>Small Habits</h1>'), og);
    expect(findMainContent(html).type).to.equal('product');
    expectOnly(md(html), kept, ['Loved it']);
    // An h1 named for something else is no product signal.
    expect(findMainContent(page(body('<h1 class="page-title">Small Habits</h1>'))).type).not.to.equal('product');
  });

  it('a product whose customer reviews outweigh its description: the description, not the reviews nor the title alone', () => {
    const review = (i: number) =>
      `<div class="review-item"><p class="review-author">Buyer ${i}</p><p>Review ${i}: sturdy and light, fits every bit of gear I carry on day hikes, and the straps stay comfortable after hours on the trail.</p></div>`;
    const html = page(
      `<div class="product-page"><div class="buy"><h1 class="product-title">Trail 25 Pack</h1><p class="price">$89.95</p></div>
      <div class="details"><p>A light day pack with pockets for every essential.</p>${para('Pack', 8)}<ul><li>Capacity: 25 liters</li><li>Weight: 1 lb 13 oz</li></ul></div>
      <section class="product-reviews"><h2>Reviews</h2>${Array.from({ length: 10 }, (_, i) => review(i + 1)).join('')}</section></div>`,
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail 25 Pack"}</script>',
    );
    const found = findMainContent(html);
    expect(found.type).to.equal('product');
    expectOnly(
      md(html),
      ['Trail 25 Pack', 'A light day pack', 'Pack paragraph 8', 'Capacity: 25 liters'],
      ['Review 1:', 'Review 10:', 'Buyer 3', ...CHROME_WORDS],
    );
    // The same reviews under an article (not a product page) are where its content is found.
    const article = html.replace('"@type":"Product"', '"@type":"WebPage"').replace('class="product-title"', 'class="page-title"');
    expect(md(article)).to.include('Review 10:');
  });

  it("a shop's review widget is left out on a page not typed as a product", () => {
    const widget = `<div class="jdgm-widget jdgm-review-widget"><h2>Customer Reviews</h2><p>Based on 4567 reviews</p>
      <div class="jdgm-rev"><p>I like the scent, my wife loves it too, very happy with this oil and will buy more.</p></div></div>`;
    const html = page(`<div class="page"><h1>Beard Oil</h1>${para('Oil', 4)}${widget}</div>`);
    expect(findMainContent(html).type).to.not.equal('product');
    expectOnly(md(html), ['Beard Oil', 'Oil paragraph 4'], ['Based on 4567 reviews', 'my wife loves it', ...CHROME_WORDS]);
  });

  it('a Product in JSON-LD with a star rating and no offer (a business rating itself) does not make a service page a product', () => {
    const card = (i: number) =>
      `<div class="review-card"><p>Customer ${i} says: the technician came the next day, found the nest and sealed every gap.</p></div>`;
    const body = `<main><h1>Pest control offers</h1>${para('Offer', 2)}<section class="reviews"><h2>What people say</h2>${[1, 2, 3].map(card).join('')}</section></main>`;
    const rating =
      '{"@context":"https://schema.org","@type":"Product","name":"Pest control","aggregateRating":{"@type":"AggregateRating","ratingValue":"4.9","reviewCount":"310"}}';
    const html = page(body, `<script type="application/ld+json">${rating}</script>`);
    expect(findMainContent(html).type).to.not.equal('product');
    expectOnly(md(html), ['Pest control offers', 'Offer paragraph 2', 'Customer 3 says'], CHROME_WORDS);
    // With an offer it is a product, and its customer reviews are left out.
    const offered = rating.replace('"aggregateRating"', '"offers":{"@type":"Offer","price":"99.00","priceCurrency":"USD"},"aggregateRating"');
    const product = page(body, `<script type="application/ld+json">${offered}</script>`);
    expect(findMainContent(product).type).to.equal('product');
    expect(md(product)).not.to.include('Customer 3 says');
  });

  it('a service page: every section', () => {
    const html = page(
      `<div class="hero"><h1>Plumbing services</h1><p>Fast repairs across the city, day and night, by licensed plumbers.</p></div>` +
        ['Repairs', 'Installations', 'Emergencies', 'Pricing'].map((h) => `<section class="block"><h2>${h}</h2>${para(h, 2)}</section>`).join(''),
    );
    const out = md(html);
    expectOnly(out, ['Plumbing services', 'Fast repairs', 'Repairs paragraph 1', 'Pricing paragraph 2'], CHROME_WORDS);
  });

  it("the page's one main landmark holds the content when a drawer of links outweighs it", () => {
    // A mobile drawer and a mega-menu named in words no rule knows, written before <main>: their
    // link text outweighs the service page, so the descent alone stops at the body.
    const drawer = `<div class="side-section"><ul class="menu-depth-0">${Array.from({ length: 20 }, (_, i) => `<li><a href="/d/${i}">Drawer destination number ${i} of the site</a></li>`).join('')}</ul></div>`;
    const html = page(`${drawer}<main id="content"><article><h1>Mental health services</h1>${para('Counselling', 3)}</article></main>`);
    const out = md(html);
    expectOnly(out, ['Mental health services', 'Counselling paragraph 1', 'Counselling paragraph 3'], [...CHROME_WORDS, 'Drawer destination']);
    // Without a main landmark holding the title, the content found by weight stands.
    const intro = page(`<div class="archive-head"><h1>Air fryer recipes</h1>${para('Intro', 2)}</div>${drawer}<main>${para('Grid', 3)}</main>`);
    expect(md(intro)).to.include('Intro paragraph 1');
  });

  it("an app's root (a classless element named by its id) is not one of a run with a bare block beside it", () => {
    // A data-use notice in a bare <div> after the app's `<div id="root">`: both classless, yet the
    // root is the page's one such element, so the descent goes into it and leaves the notice out.
    const story = (i: number) =>
      `<div class="card"><h2><a href="/p/${i}">Story number ${i} about scaling the streaming service</a></h2><p>Posted by the engineering team, ${i} min read.</p></div>`;
    const html = page(
      `<div id="root"><div class="top"><a href="/">Tech blog</a></div><div class="feed">${Array.from({ length: 8 }, (_, i) => story(i)).join('')}</div></div>` +
        `<div><div><p>To make this site work, we log user data and share it with processors. To use it, you must agree to our Privacy Policy, including cookie policy.</p></div></div>`,
    );
    const out = md(html);
    expectOnly(out, ['Story number 1 about scaling', 'Story number 7 about scaling'], [...CHROME_WORDS, 'we log user data']);
    // Posts named by their ids alone (`post_1`, `post_2`) are still a run: the thread is taken whole.
    const post = (i: number, n: number) => `<div id="post_${i}">${para(`Post ${i}`, n)}</div>`;
    const thread = md(page(`<div id="thread">${post(1, 6)}${post(2, 1)}${post(3, 1)}</div>`));
    expectOnly(thread, ['Post 1 paragraph 6', 'Post 2 paragraph 1', 'Post 3 paragraph 1'], CHROME_WORDS);
  });

  it('the intro beside a heavy table is the content too (not on a product page)', () => {
    const rows = Array.from(
      { length: 5 },
      (_, i) => `<tr><td>Provider ${i}</td><td>Career training in trades and technology for adults of every background</td></tr>`,
    ).join('');
    const region = (h1: string) =>
      `<div class="hero"><h1${h1}>Workforce development</h1></div><div class="region"><p>The program funds training providers across the city, listed below with their services.</p><p>Job seekers should visit a provider's website to apply for its programs.</p><table>${rows}</table></div>`;
    expectOnly(md(page(region(''))), ['Workforce development', 'The program funds training', "visit a provider's website", 'Provider 4'], CHROME_WORDS);
    // A product page's table (its specifications) sits beside its buy box: the descent goes on there.
    expect(md(page(region(' class="product-title"')))).not.to.include('The program funds training');
  });

  it('a documentation page: the body with its code blocks, without the table of contents', () => {
    const toc = Array.from({ length: 30 }, (_, i) => `<li><a href="/docs/p${i}">Docs page number ${i}</a></li>`).join('');
    const html = page(`<div class="docs"><div class="docs-sidebar" role="navigation"><ul>${toc}</ul></div>
      <div class="docs-content"><h1>Install</h1>${para('Setup', 2)}<pre><code>npm install example --save</code></pre>${para('Usage', 2)}
      <pre><code>example run --fast</code></pre></div></div>`);
    const out = md(html);
    expectOnly(out, ['# Install', 'npm install example --save', 'example run --fast', 'Usage paragraph 2'], [...CHROME_WORDS, 'Docs page number 7']);
    expect(findMainContent(html).type).to.equal('documentation');
  });

  it('an app shell (everything rendered by scripts) has no main content: empty output', () => {
    const html = `<!doctype html><html><head><title>App</title><script src="/app.js"></script></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript><script>boot()</script></body></html>`;
    expect(md(html)).to.equal('');
    expect(findMainContent(html)).to.deep.equal({ type: 'empty', ranges: [], drop: [], shop: [], wrappers: [] });
  });

  it('a short page is content (one sentence under its title); a shell of template placeholders is not', () => {
    const short = `<html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><main><h1>Orders</h1><p>Order 12 shipped on Monday.</p></main><footer>Copyright</footer></body></html>`;
    const out = md(short);
    expect(out).to.include('# Orders');
    expect(out).to.include('Order 12 shipped on Monday.');
    expect(out).to.not.include('Copyright');
    const template = `<html><body><div id="app"><span class="price">\${{amount_no_decimals}}</span><h2>{{ product.title }}</h2></div><noscript>Please enable JavaScript in your browser.</noscript></body></html>`;
    expect(md(template)).to.equal('');
    expect(findMainContent(template).type).to.equal('empty');
  });

  it('reads a page that a <noscript> holds for crawlers, and content parked in streamed hidden blocks', () => {
    const crawler = `<html><body><div id="app"></div><noscript><div class="topic"><h1>Crawler view</h1>${para('Post', 4)}</div></noscript></body></html>`;
    expect(md(crawler)).to.include('Post paragraph 4');
    const streamed = `<html><body><div id="shell">Loading</div><div hidden id="S:0"><h1>Streamed</h1>${para('Streamed', 3)}</div></body></html>`;
    expect(md(streamed)).to.include('Streamed paragraph 3');
    // A part streamed late belongs where its placeholder is: in the content, it is content.
    const late = page(`<main><h1>Guide</h1>${para('Guide', 4)}<template id="B:1"></template></main><aside class="ad-rail"><template id="B:2"></template></aside>
      <div hidden id="S:1"><pre><code>git clone https://example.com/guide.git</code></pre></div><div hidden id="S:2"><p>Sponsored: try our hosting plan today.</p></div>`);
    expectOnly(md(late), ['Guide paragraph 4', 'git clone https://example.com/guide.git'], ['Sponsored: try', ...CHROME_WORDS]);
  });

  it('weighs a streamed part where its placeholder puts it (hexadecimal ids, segment placeholders)', () => {
    // The description streamed late outweighs the rest of <main>: placed in its placeholder, it is
    // part of the product's content with the price beside it, not a content of its own.
    const html = page(`<main><h1>Oak table</h1><p>Solid oak, price $300, in stock.</p><div class="details"><template id="P:1a"></template></div></main>
      <aside class="rail"><template id="B:1b"></template></aside>
      <div hidden id="S:1a"><h2>Description</h2>${para('Table', 4)}</div><div hidden id="S:1b"><p>Sponsored: a chair you may like.</p></div>`);
    expectOnly(md(html), ['Oak table', 'Solid oak, price $300', 'Table paragraph 4'], ['Sponsored: a chair', ...CHROME_WORDS]);
    // A part streamed into a block left out (a product's customer reviews) is left out with it.
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Desk lamp"}</script>`;
    const reviews = page(
      `<main><h1>Desk lamp</h1>${para('Lamp', 3)}<div class="product-reviews"><h2>Reviews</h2><template id="B:a"></template></div></main>
      <div hidden id="S:a"><p>Great lamp, five stars from me.</p></div>`,
      ld,
    );
    expectOnly(md(reviews), ['Desk lamp', 'Lamp paragraph 3'], ['Great lamp, five stars', ...CHROME_WORDS]);
  });

  it('ranges point into the original HTML', () => {
    const html = page(`<article><h1>Ranges</h1>${para('Range', 3)}</article>`);
    const { ranges } = findMainContent(html);
    expect(ranges).to.have.length(1);
    expect(html.slice(...ranges[0])).to.match(/^<article>[\s\S]*<\/article>$/);
  });
});
