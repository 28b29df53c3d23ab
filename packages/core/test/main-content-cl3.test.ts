// Main content on a shop's category pages (cl3): a category marking up every card as a schema.org
// Product (an ItemList of Products) keeps its category text and its grid, as an undeclared one does.
import { expect } from 'chai';
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

describe('page: category pages declared as lists of products', () => {
  const card = (i: number) =>
    `<div class="card"><a href="/p/lens-${i}"><img src="/l${i}.jpg" alt=""></a><h2><a href="/p/lens-${i}">Prime lens ${i} for mirrorless bodies</a></h2>
     <ul><li>Fast f/1.${i} aperture for low light</li><li>Quiet autofocus motor for video work</li><li>Weather-sealed metal barrel</li></ul>
     <span class="price">$4${i}9.00</span></div>`;
  const items = Array.from(
    { length: 12 },
    (_, i) => `{"@type":"ListItem","position":${i + 1},"item":{"@type":"Product","name":"Prime lens ${i}","offers":{"@type":"Offer","price":"4${i}9.00"}}}`,
  );
  const head = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","itemListElement":[${items.join(',')}]}</script>`;
  const grid = `<section class="item-list">${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</section>`;

  const guide = (topic: string) =>
    `<p>${topic}: a lens made for one mount fits no other without an adapter, and the adapter costs some autofocus speed, so most buyers pick a lens made for the body they own today and keep.</p>`;
  it("the buying guide after the grid's </main> is content, and the grid stays", () => {
    const html = page(
      `<main><h1>Mirrorless lenses</h1>${grid}<nav class="pages"><a href="?p=2">Next</a></nav></main>
       <div class="band"><section class="category-text"><h2>Choosing a mirrorless lens</h2>${guide('Lens mount')}${guide('Sensor size')}<h3>Do adapters work?</h3>${guide('Adapter')}${guide('Focus motor')}</section></div>`,
      head,
    );
    expectOnly(
      md(html),
      ['Mirrorless lenses', 'Prime lens 3 for mirrorless bodies', '$439.00', 'Choosing a mirrorless lens', 'Focus motor: a lens made'],
      CHROME_WORDS,
    );
  });

  it('with the buying guide beside the grid, the grid is not taken for other products', () => {
    const html = page(
      `<main><h1>Mirrorless lenses</h1><div class="wrap"><p class="note">Prices from $49.00, shipping free</p>${grid}</div>
       <section class="category-text"><h2>Choosing a mirrorless lens</h2>${guide('Lens mount')}${guide('Sensor size')}${guide('Adapter')}${guide('Focus motor')}${guide('Stabiliser')}${guide('Weather sealing')}</section></main>`,
      head,
    );
    expectOnly(
      md(html),
      ['Mirrorless lenses', 'Prime lens 3 for mirrorless bodies', '$439.00', 'Choosing a mirrorless lens', 'Adapter: a lens made'],
      CHROME_WORDS,
    );
  });

  it("a card's title link, a short heading, stays in each card of a grid of priced cards", () => {
    const tee = (i: number) =>
      `<article class="product-card"><div class="image-wrap"><a href="/p/tee-${i}" aria-label="Tee ${i}"><img alt="Tee ${i}" src="/t${i}.jpg"></a></div>
       <div class="details"><div class="title-container"><a class="title-link" href="/p/tee-${i}"><h4 class="title">Crest Tee ${i}</h4></a></div>
       <p class="fit">regular fit, cotton jersey</p><p class="colour">Light Grey Marl / Black</p><div class="price"><span>$2${i}</span></div></div></article>`;
    const html = page(
      `<main><h1>T-Shirts &amp; Tops</h1><p>400 Products</p><div class="product-grid" role="list">${Array.from({ length: 8 }, (_, i) => tee(i)).join('')}</div></main>`,
    );
    expectOnly(md(html), ['Crest Tee 3', 'Light Grey Marl / Black', '$23'], CHROME_WORDS);
  });

  it('a block printed once per screen size, side by side, is kept once', () => {
    const copy = 'The makings of your ideal sleep space start with intention: a bed that is beautiful and sets a new standard for softness.';
    const html = page(
      `<main><h1>All sheets</h1><p>A sheet fabric for every kind of sleeper, in every size.</p>
        <div class="seo-block"><h4>Sheets for your sleep sanctuary</h4><div class="text"><span class="excerpt view--lrg"><p>${copy}</p></span>
        <span class="excerpt view--med"><p>${copy}</p></span><span class="excerpt view--sml"><p>${copy}</p></span></div></div></main>`,
    );
    const out = md(html);
    expectOnly(out, ['All sheets', 'Sheets for your sleep sanctuary', copy], CHROME_WORDS);
    expect(out.split(copy).length - 1).to.equal(1);
  });

  it('a control every card carries, named by a camelCase class word (`shipMessageBtn_x1`), is left out', () => {
    const camera = (i: number) =>
      `<div class="item_x1"><h3><a href="/c/${i}">Mirrorless camera body ${i}</a></h3><ul><li>24MP sensor with fast autofocus</li></ul>
       <div class="price_x1">$1,${i}99.00</div><div class="ship_x1"><span class="shipMessageBtn_GoA0">Calculate Shipping</span></div></div>`;
    const html = page(`<main><h1>Mirrorless cameras</h1><div class="list_x1">${Array.from({ length: 8 }, (_, i) => camera(i)).join('')}</div></main>`);
    expectOnly(md(html), ['Mirrorless camera body 3', '24MP sensor', '$1,399.00'], ['Calculate Shipping', ...CHROME_WORDS]);
  });

  it("a carousel of customers' testimonials beside a shop's grid is left out", () => {
    const gummy = (i: number) =>
      `<div class="product-tile"><a href="/p/g-${i}"><img src="/g${i}.jpg" alt=""></a><h3><a href="/p/g-${i}">Relax berries ${i}0 count</a></h3><p>Made with natural fruit flavours, vegan and gluten free.</p><span class="price">$3${i}.99</span></div>`;
    const quote = (n: string) =>
      `<div class="slide"><h4>Best I have tried!</h4><p>I have tried many brands over the years and these are the only ones that help me sleep through the night without fail.</p><p>${n}</p></div>`;
    const html = page(
      `<main><h1>Gummies</h1><p>Our best-tasting gummies in every strength.</p><div class="tiles">${Array.from({ length: 8 }, (_, i) => gummy(i)).join('')}</div>
       <section class="reviews-carousel"><h2>Happy customers? We have got them!</h2>${quote('Tom K.')}${quote('Ann B.')}</section>
       <section class="faq"><h2>What are gummies?</h2><p>Gummies are sweet edibles, made in many flavours and strengths, each one measured out for you.</p></section></main>`,
    );
    expectOnly(
      md(html),
      ['Gummies', 'Relax berries 30 count', '$33.99', 'What are gummies?'],
      ['Happy customers', 'Tom K.', 'only ones that help me sleep', ...CHROME_WORDS],
    );
  });
});

describe("page: a shop category's filters, badges and ratings (cl3, issue 22)", () => {
  const card = (i: number, extra = '') =>
    `<li class="result"><a href="/p/boot-${i}"><img src="/b${i}.jpg" alt=""></a>${extra}<h3><a href="/p/boot-${i}">Trail boot model ${i} waterproof</a></h3><span class="price">$1${i}9.00</span></li>`;
  const grid = (extra: (i: number) => string = () => '') => `<ul class="results">${Array.from({ length: 10 }, (_, i) => card(i, extra(i))).join('')}</ul>`;

  it('a filter panel named by its heading is left out of a page typed a listing too', () => {
    const row = (i: number) =>
      `<li class="row"><h3><a href="/guide/${i}">Guide number ${i} to choosing the right walking boots for every trail</a></h3><p>Short teaser for guide ${i}.</p></li>`;
    const facet = (name: string) =>
      `<div><h3>${name}</h3><div class="grid">${['Solid', 'Graphic', 'Floral', 'Dots', 'Argyle'].map((v) => `<div class="pick"><p>${name} ${v}</p></div>`).join('')}</div></div>`;
    const html = page(
      `<main><h1>Walking guides</h1><div class="cols"><div class="side"><div><h2>Filters</h2></div>${facet('Pattern')}${facet('Colour')}</div>
       <div class="list"><ul>${Array.from({ length: 12 }, (_, i) => row(i)).join('')}</ul></div></div></main>`,
    );
    expectOnly(md(html), ['Walking guides', 'Guide number 7 to choosing'], ['Filters', 'Pattern Argyle', 'Colour Dots', ...CHROME_WORDS]);
  });

  it("a custom select's listbox (a facet's values and counts) goes with the facet's name", () => {
    const options = ['Adhesives', 'Batteries', 'Cables', 'Screens', 'Speakers']
      .map((v, i) => `<div role="option" aria-selected="false"><a href="/parts/${v}"><span>${v}</span></a><span>${i + 3}</span></div>`)
      .join('');
    const html = page(
      `<main><h1>Phone parts</h1><form><div class="layout"><div class="facets-col"><div class="acc"><h3><button aria-expanded="true">Item Type</button></h3>
       <div role="region"><div role="listbox" aria-label="Item Type options">${options}</div></div></div></div>${grid()}</div></form></main>`,
    );
    expectOnly(md(html), ['Phone parts', 'Trail boot model 4 waterproof', '$149.00'], ['Item Type', 'Adhesives', 'Speakers', ...CHROME_WORDS]);
  });

  it("a badge on each card of a grid of priced cards is left out, the card's name and price stay", () => {
    const badge = (i: number) => (i % 2 ? `<div class="product-badge"><span>Best seller</span></div>` : `<span class="sale-flag">New arrival</span>`);
    const html = page(`<main><h1>Walking boots</h1>${grid(badge)}</main>`);
    expectOnly(md(html), ['Walking boots', 'Trail boot model 3 waterproof', '$139.00'], ['Best seller', 'New arrival', ...CHROME_WORDS]);
  });

  it("a link's parts hidden from screen readers because its label says them are shown", () => {
    const stars = (i: number) =>
      `<a href="/p/boot-${i}#reviews" aria-label="4.${i} out of 5 stars, 1${i}2 ratings"><i aria-hidden="true"><span class="icon-alt">4.${i} out of 5 stars</span></i> <span aria-hidden="true">1${i}2</span></a>`;
    const html = page(`<main><h1>Walking boots</h1>${grid(stars)}</main>`);
    expectOnly(md(html), ['Trail boot model 3 waterproof', '4.3 out of 5 stars', '132'], CHROME_WORDS);
  });

  it("filter facets named with a CSS module's hash, a version or in camelCase are left out", () => {
    const facets = (name: string) =>
      `<div class="widget"><h3 class="title">Choose a ${name}</h3>${['Canon', 'Nikon', 'Sony', 'Fujifilm'].map((v) => `<button type="button">${name} ${v}</button>`).join('')}</div>`;
    for (const named of ['class="filters_OOvCaqUpUN"', 'class="facets-v2"', 'id="searchFilters"', 'class="facetWrapper"']) {
      const html = page(
        `<main><h1>Mirrorless cameras</h1><div class="listing"><aside ${named}>${facets('Brand')}${facets('Mount')}</aside>${grid()}</div></main>`,
      );
      expectOnly(md(html), ['Mirrorless cameras', 'Trail boot model 4 waterproof'], ['Choose a Brand', 'Choose a Mount', 'Brand Canon', ...CHROME_WORDS]);
    }
  });

  it('a "Read full article" link whose other words are for screen readers only is left out', () => {
    const guide = (i: number) =>
      `<div class="guide"><h3>Guide ${i} to fitting boots</h3><p>How boots of every kind should fit around the heel and the toes, number ${i}.</p>
       <p><a href="/learn/${i}">Read full article<span class="sr-only">: Guide ${i} to fitting boots</span></a></p></div>`;
    const html = page(`<main><h1>Walking boots</h1>${grid()}<section><h2>Expert advice</h2>${[1, 2, 3].map(guide).join('')}</section></main>`);
    expectOnly(md(html), ['Trail boot model 4 waterproof', 'Guide 2 to fitting boots', 'should fit around the heel'], ['Read full article', ...CHROME_WORDS]);
  });

  it("a live region's status message for screen readers is left out", () => {
    const html = page(
      `<main><h1>Walking boots</h1><div class="x1" role="status">loaded 338 results</div>${grid()}<p aria-live="polite">Added to your cart</p></main>`,
    );
    expectOnly(md(html), ['Walking boots', 'Trail boot model 4 waterproof'], ['loaded 338 results', 'Added to your cart', ...CHROME_WORDS]);
  });

  it('a results count without a range, or with "to" and brackets, is left out', () => {
    for (const count of ['Showing 24 of 291 results', 'Displaying 1 to 24 (of 204 products)', '1-24 items of 33']) {
      const html = page(`<main><h1>Walking boots</h1><p class="count">${count}</p>${grid()}</main>`);
      expectOnly(md(html), ['Walking boots', 'Trail boot model 4 waterproof'], [count, ...CHROME_WORDS]);
    }
  });

  it("customers' reviews of the shop beside its grid (customer_review, reviews_pane) are left out", () => {
    const review = (n: string) => `<div class="customer_review"><p>Made well beyond my expectations.</p><p>${n}</p></div>`;
    const html = page(
      `<main><h1>Walking boots</h1>${grid()}<div id="reviews_pane"><div class="cols">${review('Tom K.')}${review('Ann B.')}${review('Cy D.')}</div></div></main>`,
    );
    expectOnly(md(html), ['Walking boots', 'Trail boot model 4 waterproof'], ['Tom K.', 'well beyond my expectations', ...CHROME_WORDS]);
  });

  it('a badge named by its text alone ("Top Rated", "Award Winner") is left out of each card, "Sale" stays', () => {
    const badge = (i: number) => `<div class="x9Qz${i}"><span>${['Top Rated', 'Award Winner', 'Sale'][i % 3]}</span></div>`;
    const html = page(`<main><h1>Walking boots</h1>${grid(badge)}</main>`);
    expectOnly(md(html), ['Walking boots', 'Trail boot model 3 waterproof', '$139.00', 'Sale'], ['Top Rated', 'Award Winner', ...CHROME_WORDS]);
  });

  it("a flag laid over a card's picture, inside its image link, is left out; one saying the item is on sale stays", () => {
    const desk = (i: number) =>
      `<li class="tile"><a href="/p/desk-${i}"><img src="/d${i}.jpg" alt=""><span class="absolute bottom-0 left-0">${i % 2 ? '+5 Free Accessories' : 'On Sale!'}</span></a>
       <a href="/p/desk-${i}">Standing desk model ${i}</a><span class="price">$5${i}9</span></li>`;
    const html = page(`<main><h1>Standing desks</h1><ul class="tiles">${Array.from({ length: 8 }, (_, i) => desk(i)).join('')}</ul></main>`);
    expectOnly(md(html), ['Standing desk model 3', '$539', 'On Sale!'], ['Free Accessories', ...CHROME_WORDS]);
  });

  it("the field names every card's description list repeats are left out, its values stay", () => {
    const shoe = (i: number) =>
      `<article class="c1"><a href="/p/shoe-${i}"><img src="/s${i}.jpg" alt=""></a><a href="/p/shoe-${i}" tabindex="-1"><dl><dt>Brand Name</dt><dd>Maker ${i}</dd>
       <dt>Product Name</dt><dd>Runner model ${i}</dd><dt>Price</dt><dd>$1${i}8</dd></dl></a></article>`;
    const html = page(`<main><h1>Running shoes</h1><div class="grid">${Array.from({ length: 8 }, (_, i) => shoe(i)).join('')}</div></main>`);
    expectOnly(md(html), ['Runner model 3', 'Maker 3', '$138'], ['Brand Name', 'Product Name', ...CHROME_WORDS]);
  });
});
