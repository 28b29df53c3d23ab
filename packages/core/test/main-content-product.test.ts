// Main content on product pages: the rules that tell the product from the shop's other products
// around it (main-content.ts, link-blocks.ts).
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const LD = (name: string) => `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"${name}"}</script>`;

describe('page: main content on product pages', () => {
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
