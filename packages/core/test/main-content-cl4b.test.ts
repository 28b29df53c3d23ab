// Main content on a shop's category page: the notices on its cards ("In stock", "Free shipping",
// "Sale ends Mar 9") are left out (card-notices.ts); "Out of stock" and "Only 2 left" stay.
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

describe("page: main content of a category page with the shop's notices on its cards", () => {
  // (two links per card, to the item and to its brand's page: still a card of the grid)
  const card = (i: number, notice: string) =>
    `<div class="product"><div class="inner"><a href="/p/lens-${i}"><img src="/l${i}.jpg" alt=""></a>
       <h3><a href="/p/lens-${i}">Prime lens ${i}mm f/1.8</a></h3><a href="/brand/optica">Optica</a>
       <div class="price"><span>$${i}49.00</span></div>
       <div class="conversion"><span class="msg"><svg aria-hidden="true"></svg><span>${notice}</span></span></div></div></div>`;
  const notices = ['In Stock', 'Free Shipping', 'Sale ends Mar 9', 'Offer valid Dec. 17 - Jan. 7, 2026', 'Low Stock', 'Out of Stock', 'Only 2 left'];

  it("leaves out a card's stock, delivery and offer notices, and keeps what says the item cannot be had", () => {
    const html = page(`<main><h1>Camera lenses</h1><div class="grid">${notices.map((n, i) => card(i + 1, n)).join('')}</div></main>`);
    expectOnly(
      md(html),
      ['Camera lenses', 'Prime lens 3mm f/1.8', '$349.00', 'Out of Stock', 'Only 2 left'],
      ['In Stock', 'Free Shipping', 'Sale ends', 'Offer valid', 'Low Stock', ...CHROME_WORDS],
    );
  });

  it('keeps such words outside a grid of priced cards and in a longer sentence', () => {
    const html = page(`<main><h1>Camera lenses</h1>
      <p>Free shipping on every order over $50, and each lens we sell comes with a two-year warranty.</p>
      <div class="status">In stock</div>
      <div class="grid">${[1, 2, 3, 4, 5, 6].map((i) => card(i, `In stock and ready to ship from our warehouse in ${i} days`)).join('')}</div></main>`);
    expectOnly(md(html), ['Camera lenses', 'Free shipping on every order', 'In stock', 'ready to ship from our warehouse'], CHROME_WORDS);
  });

  it("leaves out the badges and the repeated field names of cards that also link to the item's other colours", () => {
    const shoe = (i: number) =>
      `<div class="tile"><a href="/p/runner-${i}/black"><img src="/r${i}.jpg" alt=""></a>
         <div class="tile__flag">New Arrival</div><a href="/p/runner-${i}/colours">+${i} colours</a>
         <a href="/p/runner-${i}/black"><dl><dt>Brand Name</dt><dd>Stride</dd><dt>Product Name</dt><dd>Runner ${i} trail shoe</dd></dl></a>
         <span class="price">$${i}9.95</span></div>`;
    const html = page(`<main><h1>Running shoes</h1><div class="tiles">${[1, 2, 3, 4, 5, 6].map(shoe).join('')}</div></main>`);
    expectOnly(md(html), ['Running shoes', 'Runner 4 trail shoe', 'Stride', '$49.95'], ['New Arrival', 'Brand Name', 'Product Name', ...CHROME_WORDS]);
  });

  it('leaves them out too on a category page its markup declares a product', () => {
    const ld =
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Camera lenses","offers":{"@type":"Offer","price":"149.00","priceCurrency":"USD"}}</script>';
    const html = page(`<main><h1>Camera lenses</h1><div class="grid">${notices.map((n, i) => card(i + 1, n)).join('')}</div></main>`).replace(
      '</head>',
      `${ld}</head>`,
    );
    expectOnly(md(html), ['Camera lenses', 'Prime lens 3mm f/1.8', '$349.00', 'Out of Stock'], ['In Stock', 'Free Shipping', 'Sale ends', ...CHROME_WORDS]);
  });
});
