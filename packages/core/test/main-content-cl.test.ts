// Main content on a shop's category pages: the rules that keep the category's own text and trim its
// cards (rails.ts, copies.ts, cards.ts).
import { expect } from 'chai';
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

describe('page: main content on category pages', () => {
  const card = (i: number) =>
    `<li class="card"><a href="/p/boot-${i}"><img src="/b${i}.jpg" alt=""></a><h3><a href="/p/boot-${i}">Trail boot model ${i}</a></h3>
     <span class="price">$1${i}9.00</span></li>`;
  const grid = `<ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul>`;

  it('a block under a "Related ..." heading with almost no links is text shown here, not a rail', () => {
    const guide = (title: string, body: string) =>
      `<div class="accordion"><h3><button aria-expanded="false" aria-controls="x">${title}</button></h3>
       <div class="accordion-content"><div>${body}</div><p><a href="/learn/${title.length}">Read full article</a></p></div></div>`;
    const html = page(
      `<main><h1>Hiking boots</h1>${grid}
        <div class="related-articles"><h2>Related Expert Advice articles</h2>
          ${guide('How to Choose Hiking Boots', 'Hiking shoes suit day hikes and ultralight trips; boots suit multi-day treks with heavier loads. Leather uppers resist water and abrasion.')}
          ${guide('Blister Prevention and Care', 'Learn the conditions that cause blisters, how to prevent them from happening and how to treat them after they form on the trail.')}
        </div>
        <div class="related-posts"><h2>Related posts</h2><ul><li><a href="/r1">Ten winter walks near the city</a></li>
          <li><a href="/r2">Our favourite trail snacks this season</a></li><li><a href="/r3">A week on the coast path</a></li></ul></div></main>`,
    );
    expectOnly(
      md(html),
      ['Hiking boots', 'Trail boot model 3', '$139.00', 'Related Expert Advice articles', 'Leather uppers resist water', 'how to treat them'],
      ['Related posts', 'Ten winter walks', 'trail snacks', ...CHROME_WORDS],
    );
  });

  // A Shopify-like card: the title twice as a heading (the second for a layout without the picture),
  // the regular and the sale price blocks (the latter shown only on sale), a hidden unit price.
  const dawn = (i: number) =>
    `<li class="grid__item"><div class="card"><div class="card__inner"><a href="/products/mug-${i}"><img src="/m${i}.jpg" alt=""></a>
       <div class="card__content"><h3 class="card__heading"><a href="/products/mug-${i}">Stoneware mug ${i}</a></h3></div></div>
     <div class="card__content"><h3 class="card__heading h5"><a href="/products/mug-${i}">Stoneware mug ${i}</a></h3>
       <div class="price"><div class="price__regular"><span class="price-item">$2${i}.00</span></div>
       <div class="price__sale"><s class="price-item"></s><span class="price-item price-item--sale">$2${i}.00</span></div>
       <small class="unit-price hidden"><span class="price-item"><span></span><span aria-hidden="true">/</span><span class="visually-hidden">&nbsp;per&nbsp;</span></span></small></div>
       <p class="caption">Glazed by hand</p></div></div></li>`;
  const dawnPage = page(`<main><h1>Mugs</h1><ul class="product-grid">${Array.from({ length: 6 }, (_, i) => dawn(i)).join('')}</ul></main>`);

  it("a card's title and price rendered twice are written once", () => {
    const out = md(dawnPage);
    expectOnly(out, ['Mugs', 'Stoneware mug 3', '$23.00', 'Glazed by hand'], CHROME_WORDS);
    expect(out.split('Stoneware mug 3').length - 1, 'title').to.equal(1);
    expect(out.split('$23.00').length - 1, 'price').to.equal(1);
    expect(out.split('Glazed by hand').length - 1, 'a line every card shares').to.equal(6);
  });

  it('a part of a card hidden by a utility class is left out', () => {
    const out = md(dawnPage);
    expectOnly(out, ['Stoneware mug 3', '$23.00'], CHROME_WORDS);
    expect(out).not.to.match(/\bper\b/);
  });

  it('a price repeated in a table of prices, or in a slide of several items, is kept', () => {
    const rows = Array.from({ length: 6 }, (_, i) => `<tr><td>${i}0 %</td><td>$1${i},000</td><td>$1${i},000</td></tr>`).join('');
    const slide = (i: number) =>
      `<div class="slide"><div><a href="/p/a${i}">Lamp A${i}</a> <span class="price">$15.00</span></div><div><a href="/p/b${i}">Lamp B${i}</a> <span class="price">$15.00</span></div></div>`;
    const out = md(
      page(`<main><h1>Rates</h1><table>${rows}</table><div class="slides">${Array.from({ length: 6 }, (_, i) => slide(i)).join('')}</div></main>`),
    );
    expect(out.split('$13,000').length - 1, 'table').to.equal(2);
    expect(out.split('$15.00').length - 1, 'slides').to.equal(12);
  });
});
