// Main content on product pages: the rules that tell the product from the shop's other products
// around it (main-content.ts, link-blocks.ts, rails.ts).
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const LD = (name: string) => `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"${name}"}</script>`;

describe('page: main content on product pages', () => {
  const card = (i: number) =>
    `<div class="item"><a href="/p/lamp-${i}"><img src="/l${i}.jpg" alt="Desk lamp variant ${i}"></a>
     <div class="meta"><div class="meta-title">Desk lamp variant ${i}</div><p>Desk lamp variant ${i}, a brass lamp with a linen shade and a dimmer.</p>
     <span class="price">$4${i}.00</span><a href="/p/lamp-${i}" class="more">See it</a></div></div>`;

  it("a grid of other products' priced cards beside the product is left out, the product's own price kept", () => {
    const html = page(
      `<main><div class="grid"><div class="col-main"><h1>Desk lamp</h1>${para('Lamp', 6)}
        <ul><li>Height 45 cm</li><li>Brass and linen</li></ul></div>
        <div class="col-side"><div class="variations"><div class="variations-title">Show variations of this product</div>
          <div class="cards">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</div></div>
          <div class="price-box"><span class="price">$39.00</span> In stock</div></div></div></main>`,
      LD('Desk lamp'),
    );
    expectOnly(
      md(html),
      ['Desk lamp', 'Lamp paragraph 3', 'Height 45 cm', '$39.00'],
      ['Show variations', 'Desk lamp variant 2', 'a brass lamp with', '$42.00', ...CHROME_WORDS],
    );
  });

  it("a page declaring its items as products keeps its grid, and a price list without links is the product's", () => {
    // A category page whose grid is the content: no price of its own beside it.
    const category = page(`<main><h1>Desk lamps</h1><div class="cards">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</div></main>`, LD('Desk lamp'));
    expectOnly(md(category), ['Desk lamps', 'Desk lamp variant 2', 'a brass lamp with', '$47.00'], CHROME_WORDS);
    // The product's price in other currencies: priced, but not cards of other products (no links).
    const rates = ['EUR', 'GBP', 'AUD', 'CAD', 'CHF', 'SGD'].map((c, i) => `<li><b>${c}</b>: <span>$${30 + i}.50</span></li>`).join('');
    const product = page(
      `<main><div class="summary"><h1>Desk lamp</h1><div class="price"><span>$39.00</span><ul class="rates">${rates}</ul></div>${para('Lamp', 3)}</div></main>`,
      LD('Desk lamp'),
    );
    expectOnly(md(product), ['Desk lamp', '$39.00', 'Lamp paragraph 3', 'CAD'], CHROME_WORDS);
  });

  it("the product's buy box, mostly its buttons' links, is looked into: its price is kept", () => {
    const html = page(
      `<main><div class="col"><div class="intro"><h1>Desk lamp</h1><p>A brass desk lamp with a linen shade, a dimmer and a cloth cord, made by hand in Lisbon.</p></div>
        <div class="content"><div class="pricing"><span>Online price:</span> <strong>€ 39,00</strong></div>
          <div class="actions"><a href="/wish?id=7">Add to the wish list</a> <a href="/cart/add?id=7">Add to the cart</a>
          <a href="/store/reserve?id=7">Reserve and collect in a store near you</a> <a href="/stores">Check availability in our stores</a></div></div></div>
        <div class="details">${para('Lamp', 6)}</div></main>`,
      LD('Desk lamp'),
    );
    expectOnly(md(html), ['Desk lamp', 'Lamp paragraph 6', '39,00'], CHROME_WORDS);
  });
});
