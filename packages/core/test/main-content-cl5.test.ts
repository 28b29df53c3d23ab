// Main content: the notes a page's footnote marks point to (a shop's fine print on its offers, a
// wiki's references) are left out when there are two or more (offer-notes.ts); one alone stays. A
// card's second link to its item, out of the tab order, repeating the first one's words, is left out
// (repeat-links.ts). A paragraph set wholly in small print beside a shop's grid is left out (offer-notes.ts).
import { expect } from 'chai';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content without the notes its footnote marks point to', () => {
  const offers = `<div class="slot"><h2>No interest for 5 years<sup>^°</sup></h2>
      <p><span>On purchases made with the store card at participating locations.</span></p>
      <p><span><sup>^°</sup>Not combinable with other offers and discounts. Minimum purchase may be required.</span></p>
      <p><span><sup>‡*</sup>Subject to credit approval. Minimum monthly payments required.</span></p></div>`;

  it("leaves out a shop's fine print, each note opening with its mark", () => {
    const html = page(`<main><h1>Living room furniture</h1>${para('Living room', 4)}${offers}</main>`);
    expectOnly(
      md(html),
      ['Living room furniture', 'Living room paragraph 4', 'No interest for 5 years'],
      ['Not combinable', 'Subject to credit approval', ...CHROME_WORDS],
    );
  });

  it("leaves out a wiki's references, kept text and a single marked line", () => {
    const refs = `<ol class="references"><li id="cite_note-1"><span class="mw-cite-backlink"><b><a href="#cite_ref-1">^</a></b></span>
      <span class="reference-text">"The prize amounts". Nobel Foundation. Retrieved 2008-11-27.</span></li>
      <li id="cite_note-2"><span class="mw-cite-backlink"><b><a href="#cite_ref-2">^</a></b></span>
      <span class="reference-text">"All prizes". Nobel Foundation. Retrieved 2018-03-14.</span></li></ol>`;
    const html = page(`<main><h1>List of laureates</h1>${para('Laureates', 4)}<h2>References</h2>${refs}</main>`);
    expectOnly(md(html), ['List of laureates', 'Laureates paragraph 4'], ['The prize amounts', 'All prizes', ...CHROME_WORDS]);
    const one = page(`<main><h1>Pet cover</h1>${para('Cover', 4)}<p>§ Only available with annual cover. † For pets aged 8+.</p></main>`);
    expectOnly(md(one), ['Cover paragraph 4', 'Only available with annual cover'], CHROME_WORDS);
  });
});

describe("page: main content without a card's repeated link out of the tab order", () => {
  const card = (i: number, repeat: string) =>
    `<article class="card"><a class="overlay" href="/p/${i}">Trail runner ${i}. Color Grey. On sale for $${i}8.00. 4.4 out of 5 stars</a>
       <figure><img src="/i/${i}.jpg" alt=""></figure>
       <div class="info"><a tabindex="-1" href="/p/${i}">${repeat}</a></div></article>`;
  const words = (i: number) => `<dl><dt>Name</dt><dd>Trail runner ${i}</dd><dt>Color</dt><dd>Grey</dd><dt>Price</dt><dd>$${i}8</dd></dl>`;

  it('leaves out the repeat and keeps the first link', () => {
    const html = page(`<main><h1>Running shoes</h1><div class="grid">${[1, 2, 3, 4, 5, 6].map((i) => card(i, words(i))).join('')}</div></main>`);
    const out = md(html);
    expectOnly(out, ['Running shoes', 'Trail runner 3. Color Grey. On sale for $38.00'], [...CHROME_WORDS]);
    expect(out.match(/Trail runner 3/g)?.length).to.equal(1);
  });

  it('keeps a link out of the tab order that says something else', () => {
    const other = (i: number) => `<p>Cushioned for long days on rocky trails, with a grippy outsole ${i}.</p>`;
    const html = page(`<main><h1>Running shoes</h1><div class="grid">${[1, 2, 3, 4, 5, 6].map((i) => card(i, other(i))).join('')}</div></main>`);
    expectOnly(md(html), ['Trail runner 3. Color Grey', 'with a grippy outsole 3'], CHROME_WORDS);
  });
});

describe("page: main content without the small print beside a shop's grid", () => {
  const card = (i: number) => `<li class="product"><a href="/p/${i}"><h3>Standing desk ${i}</h3></a><span class="price">$${i}99</span></li>`;
  const grid = `<ul class="products">${[1, 2, 3, 4, 5, 6].map(card).join('')}</ul>`;

  it("leaves out an offer's terms set small and keeps the text beside them", () => {
    const html = page(`<main><h1>Standing desks</h1><p>Improve your comfort at work with a desk that moves with you all day long.</p>
      <p><sub>Sale ends 03/31. While supplies last. Use coupon code </sub><b><sub>SPRING</sub></b><sub> at checkout.</sub></p>${grid}</main>`);
    expectOnly(md(html), ['Standing desks', 'Improve your comfort', 'Standing desk 4'], ['Sale ends', 'coupon code', ...CHROME_WORDS]);
  });

  it('keeps small print on a page without a grid of priced cards', () => {
    const html = page(
      `<main><h1>Standing desks</h1>${para('Desk', 4)}<p><small>Figures measured in our own tests over a working week, in 2025.</small></p></main>`,
    );
    expectOnly(md(html), ['Desk paragraph 4', 'Figures measured in our own tests'], CHROME_WORDS);
  });
});

describe("page: main content without the caption of every card's swatches", () => {
  const swatches = (i: number) =>
    `<label for="v${i}a"><input id="v${i}a" type="radio" name="v${i}"><img src="/s/${i}a.jpg" alt=""></label><label for="v${i}b"><input id="v${i}b" type="radio" name="v${i}"><img src="/s/${i}b.jpg" alt=""></label>`;
  const card = (i: number, legend: string) =>
    `<div class="plp-card"><a href="/p/${i}"><h3>Bookcase ${i}</h3></a><span class="price">$${i}9.00</span>
       <fieldset class="variants"><legend>${legend}</legend>${swatches(i)}</fieldset></div>`;

  it('leaves out "More options" over swatches without text, and keeps a caption beside choices that have text', () => {
    const html = page(`<main><h1>Bookcases</h1><div class="grid">${[1, 2, 3, 4, 5, 6].map((i) => card(i, 'More options')).join('')}</div></main>`);
    expectOnly(md(html), ['Bookcases', 'Bookcase 4', '$49.00'], ['More options', ...CHROME_WORDS]);
    const named = (i: number) =>
      `<div class="plp-card"><a href="/p/${i}"><h3>Bookcase ${i}</h3></a><span class="price">$${i}9.00</span>
       <fieldset class="variants"><legend>More options</legend><label><input type="radio" name="w${i}">Oak veneer</label></fieldset></div>`;
    const text = page(`<main><h1>Bookcases</h1><div class="grid">${[1, 2, 3, 4, 5, 6].map(named).join('')}</div></main>`);
    expectOnly(md(text), ['Bookcase 4', 'More options', 'Oak veneer'], CHROME_WORDS);
  });
});

describe("page: main content of a category page without its bestsellers' reviews", () => {
  const card = (i: number) =>
    `<li class="item"><a href="/p/${i}"><h3>Graphics card ${i}</h3></a><p>Triple fans, 16GB of memory, quiet under load.</p><span class="price">$${i}99.99</span></li>`;
  const review = (who: string) =>
    `<div class="col"><div class="name">${who}</div><div class="title">Great card</div><p>Runs every game I own at high settings without a sound.</p><a href="/p/1">Graphics card 1</a></div>`;

  it('leaves out a block named as reviews beside the grid', () => {
    const html = page(`<main><h1>Graphics cards</h1><ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul>
      <div class="bestselling-reviews"><h2>Bestselling graphics cards reviews</h2>${review('Nathan H.')}${review('Kyle N.')}</div></main>`);
    expectOnly(
      md(html),
      ['Graphics cards', 'Graphics card 4', '$499.99'],
      ['Bestselling graphics cards reviews', 'Nathan H.', 'Runs every game', ...CHROME_WORDS],
    );
  });
});
