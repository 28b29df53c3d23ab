import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { htmlToMarkdown, reducePage } from '../src/page/index.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content, what it leaves out and keeps', () => {
  const conv = (body: string) => htmlToMarkdown(`<html><body>${body}</body></html>`, { url: 'https://shop.example/c/' });

  it('a card link holds no raw HTML; an href spanning lines stays absolute; placeholder images are dropped', () => {
    const out = conv(
      `<p>Intro text.</p><a href="/p/1"><img src="/a.jpg" alt="Mouse"><h3>VM4R Mouse</h3><div>$92.25</div></a>
       <a href="\r\nhttps://other.example/x\r\n">Other</a>
       <img src="data:image/svg+xml,%3Csvg%3E" alt="Share on pinterest"><img src="data:image/gif;base64,AA" data-lazy-src="/real.jpg" alt="Real">`,
    );
    expect(out).to.include('[![Mouse](https://shop.example/a.jpg) VM4R Mouse $92.25](https://shop.example/p/1)');
    expect(out).to.include('[Other](https://other.example/x)');
    expect(out).to.include('![Real](https://shop.example/real.jpg)');
    expect(out).not.to.include('data:image');
    expect(out).not.to.include('<h3>');
  });

  it('a price split into spans (currency, whole, fraction) stays one price', () => {
    const out = conv(
      '<p>Desk lamp</p><span class="price"><span class="currency">$</span><span class="whole">1,299</span><span class="fraction">.99</span></span>',
    );
    expect(out).to.include('$1,299.99');
  });

  it('a definition list (product specifications) comes out as Markdown, not raw HTML', () => {
    const out = conv('<p>Specifications of the lamp.</p><dl><dt>Height</dt><dd>45 cm</dd><dt>Weight</dt><dd>1 kg</dd></dl>');
    expect(out).to.include('**Height**\n\n45 cm');
    expect(out).not.to.match(/<\/?d[ltd]>/);
  });

  it('a block rendered twice (a mobile and a desktop copy, a quoted post) comes out once', () => {
    const desc = 'Handmade stoneware mug with a speckled glaze, fired twice and safe in the dishwasher.';
    const html = page(`<main><h1>Speckle mug</h1>
      <div class="product-description hidden-md-up"><p>${desc}</p></div>
      <div class="gallery">${para('Gallery', 1)}</div>
      <div class="product-description d-none d-md-block"><p>${desc}</p></div>
      <div class="specs"><p>Capacity 350 ml.</p></div>
      <ul class="cards"><li><p>Free shipping on every order over fifty dollars, worldwide.</p></li><li><p>Free shipping on every order over fifty dollars, worldwide.</p></li><li><p>Free shipping on every order over fifty dollars, worldwide.</p></li></ul></main>`);
    const out = md(html);
    expect(out.split(desc).length - 1).to.equal(1);
    expectOnly(out, ['Speckle mug', 'Gallery paragraph 1', 'Capacity 350 ml'], CHROME_WORDS);
    // A line every card repeats is the cards' content: kept in each.
    expect(out.split('Free shipping on every order').length - 1).to.equal(3);
  });

  it('a link with no text and no picture, only a title or an aria-label (an icon control), is left out', () => {
    const icons = (i: number) =>
      `<div class="post-tools"><a href="/posts/${i}/timeline" title="Show activity on this post."><svg viewBox="0 0 1 1"><path d="M0 0"/></svg></a>
      <a href="/share/x/${i}" aria-label="Share on X"><i class="icon-x"></i></a><a href="/u/${i}" title="Avatar ${i}"><img src="/a${i}.png" alt="Avatar ${i}"></a></div>`;
    const html = page(`<article><h1>Essay</h1>${para('Essay', 4)}${icons(1)}${para('More', 2)}</article>`);
    const out = md(html);
    expectOnly(out, ['Essay', 'Avatar 1'], ['Show activity', 'Share on X', ...CHROME_WORDS]);
  });

  it('a collapsed accordion panel or an inactive tab is content; other hidden blocks are not', () => {
    const html = page(`<main><h1>Trail shoe</h1>${para('Overview', 2)}
      <div class="accordion"><button>Description</button><div class="accordion-collapse" style="display:none"><p>The upper is a breathable mesh with a welded toe cap.</p></div>
      <button>Care</button><div role="tabpanel" hidden><p>Wash by hand in cold water and dry away from heat.</p></div></div>
      <div style="display:none"><p>Sizing assistant failed to load, try again later.</p></div></main>`);
    const out = md(html);
    expectOnly(out, ['Trail shoe', 'Overview paragraph 2', 'breathable mesh', 'Wash by hand'], ['Sizing assistant', ...CHROME_WORDS]);
  });

  it("an accordion wired by ARIA is content: the heading's button and the panel hidden from screen readers until opened", () => {
    const html = page(`<main><h1>Trail shoe</h1>${para('Overview', 2)}
      <div class="cdr-accordion"><h3><button aria-expanded="false" aria-controls="p1">How to choose a trail shoe</button></h3>
      <div class="cdr-accordion__content" aria-hidden="true" id="p1"><p>Pick a lug depth for the ground you run on most.</p></div></div>
      <div aria-hidden="true"><p>Sizing assistant failed to load, try again later.</p></div></main>`);
    expectOnly(md(html), ['Trail shoe', 'How to choose a trail shoe', 'Pick a lug depth'], ['Sizing assistant', ...CHROME_WORDS]);
  });

  it('text for screen readers only is left out, unless it stands in for something shown', () => {
    const html = page(`<main><h1>Trail shoe</h1>${para('Overview', 2)}
      <div class="visually-hidden"><a href="/w">Women</a> <a href="/m">Men</a> <a href="/k">Kids</a> shop by category</div>
      <a href="/size">Size guide<span class="sr-only">Opens in a new window</span></a>
      <p class="price"><s aria-hidden="true">$90</s><span class="screen-reader-text">Original price was $90</span> $70</p>
      <table><tr><th>Waterproof</th><td><i class="icon-check" aria-hidden="true"></i><span class="sr-only">Included in the shoe</span></td></tr></table></main>`);
    const out = md(html);
    expectOnly(
      out,
      ['Trail shoe', 'Overview paragraph 2', 'Size guide', 'Original price was $90', 'Included in the shoe'],
      ['Kids', 'shop by category', 'Opens in a new window', ...CHROME_WORDS],
    );
  });

  it('the cards of a grid are content even when each is named like chrome; a promotion bar of such slides is not', () => {
    const card = (i: number) =>
      `<li class="grid-item"><div class="card-wrapper subscription-eligible"><h3><a href="/p/${i}">Roast coffee ${i}</a></h3><p>Ground, 16 oz bag, whole or ground, $${i}9.99</p></div></li>`;
    const html = page(`<main><h1>Coffee</h1><p>51 products</p><ul class="product-grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul></main>
      <div class="promo-bar"><div class="slides">${Array.from({ length: 6 }, (_, i) => `<span class="promo-bar__text">Free shipping on orders over $${i}0, this week only</span>`).join('')}</div></div>`);
    expectOnly(md(html), ['Coffee', 'Roast coffee 1', 'Ground, 16 oz bag, whole or ground, $129.99'], ['Free shipping on orders', ...CHROME_WORDS]);
    // One block so named is still chrome.
    const one = page(
      `<main><h1>Coffee</h1>${para('Coffee', 3)}<div class="subscription-box"><p>Subscribe and save on every bag of coffee you order.</p></div></main>`,
    );
    expectOnly(md(one), ['Coffee paragraph 3'], ['Subscribe and save']);
  });

  it("a card's title rendered twice comes out once; a heading repeated far from its twin is kept", () => {
    const card = (i: number) =>
      `<li class="item"><div class="card"><div class="card-inner"><h3 class="title">Mug ${i}</h3></div><div class="card-content"><h3 class="title">Mug ${i}</h3><span>Stoneware, $${i}.50</span></div></div></li>`;
    const tabs = `<div class="tabs"><h3>Setup</h3><div class="panel"><h3>Setup</h3>${para('Setup', 1)}</div></div>`;
    const out = md(page(`<main><h1>Mugs</h1><ul class="grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul>${tabs}</main>`));
    expect(out.split('Mug 3').length - 1).to.equal(1);
    expect(out).to.include('Stoneware, $3.50');
    expect(out.split('### Setup').length - 1).to.equal(2);
  });

  it("a teaser in a link hidden from screen readers is shown text; an image link and a heading's overlay link so hidden are not", () => {
    const item = (i: number) => `<article class="river"><a href="/a/${i}" aria-hidden="true" tabindex="-1"><img src="/i/${i}.jpg" alt="Photo of story ${i}"></a>
      <h2><a href="/a/${i}" aria-hidden="true" tabindex="-1"><span>Story ${i} overlay</span></a>Story ${i} headline</h2>
      <p class="desc"><a href="/a/${i}" aria-hidden="true" tabindex="-1">Teaser of story ${i}: what happened, and why it matters to readers.</a></p></article>`;
    const out = md(page(`<main><h1>Topic</h1>${Array.from({ length: 6 }, (_, i) => item(i + 1)).join('')}</main>`));
    expectOnly(out, ['Story 1 headline', 'Teaser of story 1: what happened', 'Teaser of story 6'], ['Photo of story', 'Story 1 overlay', ...CHROME_WORDS]);
  });

  it('legal disclaimers, popovers and the returns policy block are left out of the content', () => {
    const html = page(`<main><h1>Trail shoe</h1>${para('Description', 3)}
      <div class="product-returns"><p>Free returns within 30 days, see our policy for the exceptions.</p></div>
      <div class="size-popover"><p>Find your size: measure your foot from heel to toe.</p></div>
      <p class="legal-disclaimer">Prices and availability are subject to change without notice.</p></main>`);
    expectOnly(md(html), ['Trail shoe', 'Description paragraph 3'], ['Free returns within', 'Find your size', 'subject to change', ...CHROME_WORDS]);
  });

  it('a disclosure menu of links (a closed <details> filter, however long) is left out; a disclosure of prose is kept', () => {
    const repo = (i: number) =>
      `<article class="row"><h2><a href="/r/${i}">owner / project-${i}</a></h2><p>A small library number ${i} for parsing dates.</p><span>${i}0 stars today</span></article>`;
    const langs = Array.from({ length: 120 }, (_, i) => `<a href="/trending/lang-${i}">Language number ${i}</a>`).join(' ');
    const html = page(`<main><h1>Trending</h1><p>See what the community is most excited about today.</p>
      <details><summary>Language: Any</summary><div>${langs}</div></details>
      <details open><summary>Sort: Most stars</summary><a href="?s=stars">Most stars</a> <a href="?s=forks">Most forks</a> <a href="?s=new">Recently updated</a></details>
      ${Array.from({ length: 8 }, (_, i) => repo(i + 1)).join('')}
      <details><summary>How is this list made?</summary><p>Projects are ranked by the stars they gained today, counted every hour.</p></details></main>`);
    expectOnly(
      md(html),
      ['Trending', 'owner / project-1', 'library number 8', 'counted every hour'],
      ['Language number 7', 'Language: Any', 'Most forks', 'Recently updated', ...CHROME_WORDS],
    );
  });

  it("the names list in every row (authors, each a link, parted by commas) is the rows' content; a tag row parted by spaces is not", () => {
    const entry = (i: number) =>
      `<dt><a href="/abs/${i}">arXiv:${i}</a></dt><dd><div class="meta"><div class="title">Title: A study of sparse attention number ${i} in large models</div>
      <div class="authors"><a href="/a/lee${i}">Ann Lee</a>, <a href="/a/chen${i}">Bo Chen</a> and <a href="/a/diaz${i}">Cy Diaz</a></div>
      <div class="tags"><a href="/t/ml">ml</a> <a href="/t/nlp">nlp</a> <a href="/t/opt">optimisation</a></div>
      <div class="subjects">Subjects: Machine learning; computation and language</div></div></dd>`;
    const html = page(`<main><h1>Recent submissions</h1>${para('Intro', 2)}<dl>${Array.from({ length: 8 }, (_, i) => entry(i + 1)).join('')}</dl></main>`);
    expectOnly(md(html), ['Recent submissions', 'sparse attention number 8', 'Ann Lee', 'Cy Diaz', 'Subjects: Machine'], ['optimisation', ...CHROME_WORDS]);
  });

  it('a skip link or a way back ("Back to top") inside the content is left out, a link in the text that starts so is kept', () => {
    const html = page(`<main><h1>Desks</h1><a href="#product-list">Skip to product list</a>${para('Desk', 3)}
      <p>Read <a href="#care">skipping the varnish</a> before you oil the top.</p><ul id="product-list"><li>Desk one</li></ul>
      <a href="#specs-nav">Back to navigation</a><p>Go <a href="#top">back to the top drawer</a> for the screws.</p></main>`);
    expectOnly(
      md(html),
      ['Desks', 'Desk paragraph 3', 'skipping the varnish', 'Desk one', 'back to the top drawer'],
      ['Skip to product list', 'Back to navigation', ...CHROME_WORDS],
    );
  });

  it("a copy shown on some screens by a framework's prefixed class (wt-show-lg, wt-hide-lg) comes out once", () => {
    const line = 'We plant a tree for every delivery we make.';
    const html = page(`<main><h1>Speckle mug</h1>${para('Mug', 2)}
      <div><div class="wt-show-lg"><div class="caption">${line} <a href="/trees">See how</a></div></div>
      <div class="wt-hide-lg"><div class="caption">${line} <a href="/trees">See how</a></div></div></div></main>`);
    const out = md(html);
    expect(out.split(line).length - 1).to.equal(1);
    expectOnly(out, ['Speckle mug', 'Mug paragraph 2'], CHROME_WORDS);
  });

  it("a wiki's site notice, category links and print footer, and a copyright line are left out", () => {
    const html = page(`<div id="content" class="mw-body"><div id="siteNotice">Want to edit? Log in first.</div><h1>Tuning</h1>
      <div id="jump-to-nav"><a class="mw-jump-link" href="#nav">Jump to navigation</a></div>${para('Tuning', 4)}
      <div class="printfooter">Retrieved from the wiki page history</div><div id="catlinks"><a href="/c/perf">Category: Performance</a></div>
      <div id="docs-copyright">Copyright 2007-2026, the authors and contributors.</div></div>`);
    expectOnly(
      md(html),
      ['Tuning', 'Tuning paragraph 4'],
      ['Want to edit', 'Jump to navigation', 'Retrieved from', 'Category: Performance', 'Copyright 2007', ...CHROME_WORDS],
    );
  });

  it('the name link in every row of a ranking is content, a lone block of links is not', () => {
    const row = (i: number) =>
      `<div class="row"><div class="name">No. ${i} <a href="/p/${i}">Product number ${i}</a></div><div class="score">Score: ${(9.9 - i / 10).toFixed(1)} of 10.0</div></div>`;
    const html = page(
      `<main><h1>Best tools</h1><div class="list">${Array.from({ length: 10 }, (_, i) => row(i + 1)).join('')}</div>
      <div class="see-also"><a href="/a">Another ranking</a> <a href="/b">Yet another ranking</a></div></main>`,
      '<meta property="og:type" content="article">',
    );
    expectOnly(
      md(html),
      ['Best tools', '[Product number 1](https://site.example/p/1)', 'Product number 10', 'Score: 8.9 of 10.0'],
      ['Another ranking', ...CHROME_WORDS],
    );
  });

  it('the headline block of every item of a list is content; a name block in every item is not', () => {
    const item = (
      i: number,
    ) => `<div class="views-row"><div class="title"><h4><a href="/news/story-${i}">Schools expand the tutoring program number ${i}</a></h4></div>
      <div class="author"><h5><a href="/u/${i}">Ann ${i}</a></h5></div>
      <p>Summary of story ${i}: districts report what the program changed for pupils, in a paragraph of its own. Teachers and parents were asked how the extra hours were spent.</p></div>`;
    const out = md(page(`<main><h1>News</h1>${Array.from({ length: 8 }, (_, i) => item(i + 1)).join('')}</main>`));
    expectOnly(out, ['Schools expand the tutoring program number 1', 'tutoring program number 8', 'Summary of story 8'], ['Ann 1', ...CHROME_WORDS]);
  });

  it('the text of a link whose words sit in a span is kept (a cross-reference in a sentence)', () => {
    const ref = (i: number) =>
      `<p>Step ${i} is explained in the <a class="reference internal" href="../tutorial/index.html#setup"><span class="std std-ref">Unified Setup Tutorial</span></a>, with examples you can run.</p>`;
    const html = page(`<main><h1>Quick start</h1>${[1, 2, 3, 4].map(ref).join('')}${para('Guide', 2)}</main>`);
    const out = md(html);
    expect(out).to.include('[Unified Setup Tutorial](https://site.example/tutorial/index.html#setup)');
    expect(out).not.to.include('[](');
  });

  it('a link wrapped in a span of its own inside a sentence is kept (a keyword link, a package name)', () => {
    const ref = (i: number) =>
      `<p>Step ${i}: install the <span class="pkg-link"><a href="/packages/sudo">sudo</a></span> package, then read on with the next step.</p>`;
    const html = page(
      `<main><h1>Setup</h1>${[1, 2, 3].map(ref).join('')}${para('Setup', 2)}<div class="links"><span><a href="/a">Tag one</a></span> <span><a href="/b">Tag two</a></span></div></main>`,
    );
    expectOnly(md(html), ['Step 3: install the [sudo](https://site.example/packages/sudo) package', 'Setup paragraph 2'], ['Tag one', ...CHROME_WORDS]);
  });

  it('a list of links introduced by the paragraph before it is content; a lone list of links is not', () => {
    const html = page(`<main><h1>Billing</h1>${para('Billing', 4)}<p>For how each charge is computed, refer to the following pages:</p>
      <ul><li><a href="/docs/mau">Pricing per active user</a></li><li><a href="/docs/sso">Pricing per SSO user</a></li></ul>
      ${para('Limits', 2)}<ul><li><a href="/blog/1">Our latest post</a></li><li><a href="/blog/2">An older post</a></li></ul></main>`);
    expectOnly(
      md(html),
      ['Billing paragraph 4', 'Pricing per active user', 'Pricing per SSO user', 'Limits paragraph 2'],
      ['Our latest post', ...CHROME_WORDS],
    );
  });

  it("a heading's own permalink is left out, a heading that is a link is kept", () => {
    const html = page(`<main><h1>Guide</h1>${para('Intro', 2)}<h2><a href="#usage" class="anchor">Direct link to heading</a>Usage</h2>${para('Usage', 2)}
      <h2><a href="#faq">Questions</a></h2>${para('Answer', 2)}</main>`);
    const out = md(html);
    expectOnly(out, ['## Usage', 'Usage paragraph 2', 'Questions', 'Answer paragraph 1'], ['Direct link to heading', ...CHROME_WORDS]);
  });

  it("a language menu (links to the page in other languages, by hreflang) is left out; links all marked with the page's language are kept", () => {
    const names: Record<string, string> = {
      de: 'Deutsch',
      fr: 'Français',
      ja: '日本語',
      es: 'Español',
      it: 'Italiano',
      pl: 'Polski',
      pt: 'Português',
      sv: 'Svenska',
    };
    const langs = Object.entries(names)
      .map(([l, name]) => `<li><a href="https://${l}.wiki.example/List" hreflang="${l}" lang="${l}">${name}</a></li>`)
      .join('');
    const rows = Array.from({ length: 8 }, (_, i) => `<li><a href="/lang/${i}" hreflang="en">Programming language number ${i}</a></li>`).join('');
    const html =
      page(`<main><header><h1>List of programming languages</h1><div class="lang-dropdown"><ul>${langs}</ul><a href="/edit">Edit links</a></div></header>
      <p>This is an alphabetical list of notable programming languages.</p><ul>${rows}</ul></main>`);
    expectOnly(
      md(html),
      ['List of programming languages', 'alphabetical list', 'Programming language number 1', 'Programming language number 7'],
      ['Deutsch', 'Français', 'Edit links', ...CHROME_WORDS],
    );
  });

  it("the page's footer put inside the content (a <footer> holding a copyright line) is left out; an article's own footer is kept", () => {
    const story = (i: number) =>
      `<div class="story"><h2><a href="/s/${i}">Story number ${i} about the state of the web</a></h2><p>By Writer ${i}, 4 min read</p></div>`;
    const html = page(`<main><div class="feed">${Array.from({ length: 8 }, (_, i) => story(i)).join('')}</div>
      <div><footer class="bg-dark"><p>The Newsletter: quality reads about technology, delivered to your inbox every week.</p><p>© 2026 The Site. All rights reserved.</p><p>Help Contact About Careers Terms Privacy Sitemap</p></footer></div></main>`);
    expectOnly(md(html), ['Story number 1 about', 'Story number 7 about'], ['quality reads', 'All rights reserved', 'Careers Terms', ...CHROME_WORDS]);
    const article = page(
      `<main><article><h1>Kettle review</h1>${para('Review', 4)}<footer><p>Filed under kitchen gear by the testing team.</p></footer></article></main>`,
    );
    expectOnly(md(article), ['Kettle review', 'Review paragraph 4', 'Filed under kitchen gear'], CHROME_WORDS);
  });

  it('a stray <![CDATA[ in the body ends at the first > (as in browsers), not at the end of the page', () => {
    const html = page(`<![CDATA[\n<div id="top"></div><div class="thread"><h1>Thread title</h1>${para('Post', 4)}</div>`);
    expectOnly(md(html), ['Thread title', 'Post paragraph 4'], CHROME_WORDS);
  });

  it('a wrapper hidden until scripts run, or named like a popup, still holds the page', () => {
    const hidden = page(`<div style="visibility:hidden"><main><h1>Guide</h1>${para('Guide', 4)}</main></div>`);
    expectOnly(md(hidden), ['Guide', 'Guide paragraph 4'], CHROME_WORDS);
    const named = page(
      `<article class="newsletter-post post"><h1>Issue 12</h1>${para('Issue', 4)}</article><div class="newsletter-signup">Subscribe to our newsletter</div>`,
    );
    expectOnly(md(named), ['Issue 12', 'Issue paragraph 4'], ['Subscribe to our newsletter', ...CHROME_WORDS]);
    const sticky = page(`<div class="sticky-footer"><div class="body"><h1>Gummies</h1>${para('Gummies', 4)}</div></div>`);
    expectOnly(md(sticky), ['Gummies', 'Gummies paragraph 4'], CHROME_WORDS);
  });

  it("a form's status messages, shown only once it is sent, and fields hidden by its plugin are left out of the content and the model input", () => {
    const form = `<div class="w-form"><form><label>Email</label><input type="email" name="email"><input type="submit" value="Join"></form>
      <div class="w-form-done"><div>Thank you! Your submission has been received!</div></div>
      <div class="w-form-fail"><div>Oops! Something went wrong while submitting the form.</div></div>
      <div class="form_message-success"><div>Thanks for joining the list!</div></div>
      <div class="gfield gfield_visibility_hidden"><span>This field is hidden when viewing the form</span><input name="utm_source"></div></div>`;
    const html = page(`<article><h1>Sleep and light</h1>${para('Sleep', 3)}${form}</article>`);
    const out = md(html);
    const input = reducePage(html, { url: 'https://site.example/x/', mode: 'standard' }).text;
    for (const text of [out, input])
      expectOnly(
        text,
        ['Sleep and light', 'Sleep paragraph 3'],
        ['submission has been received', 'Something went wrong', 'Thanks for joining', 'This field is hidden'],
      );
  });

  it('stays linear on a page of many unclosed links', () => {
    // Eight times the links must cost about eight times as much (quadratic work: sixty-four times);
    // a ratio, not a bound, so that a loaded machine does not fail it.
    const run = (n: number) => {
      const html = `<div>${'<a href="/x"><div>t</div>'.repeat(n)}</div>`;
      const t0 = performance.now();
      expect(htmlToMarkdown(html, { url: 'https://e.com/', onlyMainContent: true })).to.include('t');
      return performance.now() - t0;
    };
    run(1000);
    const small = run(5000);
    const large = run(40_000);
    expect(large).to.be.below(24 * small + 1000);
  });
});
