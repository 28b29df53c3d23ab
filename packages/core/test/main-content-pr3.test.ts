// Main content on product pages: the shop's shipping and returns disclosures (policies.ts).
import { expect } from 'chai';
import { reducePage } from '../src/page/reduce.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const PRODUCT =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Runner","offers":{"@type":"Offer","price":"110.00","priceCurrency":"USD"}}</script>';

describe('page: main content on product pages (pr3)', () => {
  it("a disclosure titled shipping and returns is the shop's terms: out of the markdown, kept in the model input", () => {
    const html = page(
      `<main><div class="product"><h1>Trail Runner</h1><p>$110</p>
        <div class="accordion-item"><button aria-expanded="true" aria-controls="p1">Description</button>
          <div id="p1" class="accordion-panel">${para('Runner', 3)}</div></div>
        <div class="accordion-item"><button aria-expanded="false" aria-controls="p2"><h5>Shipping &amp; Returns</h5></button>
          <div id="p2" class="accordion-panel" hidden><p>Standard shipping takes four to seven working days once your order has left our warehouse.</p>
          <p>Free 30-day return policy, excluding final sale items and gift cards.</p></div></div>
        <details><summary>Delivery and returns</summary><p>Express delivery in two days for orders placed before noon on a weekday.</p></details>
        <h2>Materials</h2><p>Merino wool upper, sugarcane midsole and a natural rubber outsole.</p></div></main>`,
      PRODUCT,
    );
    expectOnly(
      md(html),
      ['Trail Runner', 'Runner paragraph 3', 'Merino wool upper'],
      [...CHROME_WORDS, 'Shipping & Returns', 'four to seven working days', 'Free 30-day return', 'Delivery and returns', 'Express delivery in two days'],
    );
    const model = reducePage(html, { url: 'https://site.example/x/', mode: 'standard' }).text;
    expect(model).to.include('four to seven working days');
    expect(model).to.include('Express delivery in two days');
  });

  it('a section under a plain heading named delivery stays (the seller and delivery estimate a page shows as its own)', () => {
    const html = page(
      `<main><div class="product"><h1>Trail Runner</h1><p>$110</p>${para('Runner', 3)}
        <div class="seller-panel"><h2>Delivery</h2><p>Sold by Runner Outlet, shipped by the marketplace from its own warehouse.</p></div></div></main>`,
      PRODUCT,
    );
    expectOnly(md(html), ['Trail Runner', 'Runner paragraph 3', 'Sold by Runner Outlet'], CHROME_WORDS);
  });

  it("a row of the shop's selling points promising free shipping or easy returns is out of the markdown; a row of reviews saying so later is not", () => {
    const point = (title: string, line: string) =>
      `<div class="col"><svg viewBox="0 0 8 8"><path d="M0 0h8v8z"/></svg><p class="strong">${title}</p><div>${line}</div></div>`;
    const review = (who: string, text: string) => `<div class="quote-card"><p>${who}</p><p>${text}</p></div>`;
    const html = page(
      `<main><div class="product"><h1>Trail Runner</h1><p>$110</p>${para('Runner', 3)}
        <section><div class="row">${point('Fast shipping', 'Same day shipping if ordered by 4PM Eastern.')}${point('Repair with confidence', 'Backed by industry-leading guarantees.')}${point('Made to last', 'Built for years of trails and daily miles.')}</div></section>
        <div class="quotes">${review('Ann B', 'Great shoe for long runs, and fast shipping too.')}${review('Bo C', 'Comfortable from the first mile, no break-in needed.')}</div></div></main>`,
      PRODUCT,
    );
    expectOnly(
      md(html),
      ['Trail Runner', 'Runner paragraph 3', 'Great shoe for long runs', 'no break-in needed'],
      [...CHROME_WORDS, 'Same day shipping', 'Repair with confidence', 'Made to last'],
    );
  });

  it('a line every card of a grid carries under its price ("Free international shipping") is not a row of selling points', () => {
    const card = (i: number) =>
      `<li class="item-card"><a href="/itm/${i}">Vintage postcard number ${i} from a seaside town, printed around 1910</a>
        <div class="item-card__signals"><span class="signal">$${i}.99</span><span class="signal">Free international shipping</span></div></li>`;
    const html = page(`<main><h1>Postcards</h1><ul class="grid">${Array.from({ length: 6 }, (_, i) => card(i + 1)).join('')}</ul></main>`, PRODUCT);
    expectOnly(md(html), ['Vintage postcard number 4', '$5.99', 'Free international shipping'], CHROME_WORDS);
  });
});
