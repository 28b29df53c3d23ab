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
