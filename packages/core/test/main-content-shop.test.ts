// Main content on shop pages: a category's grid and its buying guide are kept, the shop's facets,
// card controls, buy box and sign-ups are left out (main-content.ts, left-out.ts, rails.ts).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content of shop pages', () => {
  it('a related-products rail named by its heading is left out, the product kept', () => {
    const card = (i: number) => `<div class="c"><h3>Other mug ${i}</h3><span>$1${i}.00</span></div>`;
    const html = page(`<main><h1>Speckle mug</h1>${para('Description', 3)}
      <div><div><h2>Similar items</h2></div><div class="row">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</div></div>
      <div><h2>Care</h2><p>Rinse after use and dry with a soft cloth.</p></div></main>`);
    const out = md(html);
    expectOnly(out, ['Speckle mug', 'Description paragraph 3', 'Care', 'Rinse after use'], ['Similar items', 'Other mug 1', ...CHROME_WORDS]);
  });

  it("a product page's comparison with the shop's other products is left out", () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Driver kit"}</script>`;
    const col = (i: number) => `<div class="col"><p>Kit ${i}</p><p>Form factor</p><p>Case ${i}</p><p>Bits</p><p>${16 * i}</p></div>`;
    const html = page(
      `<main><h1>Driver kit</h1>${para('Kit', 3)}
      <section id="ComponentSectionProductComparison-4"><h2>Which kit is right for you?</h2><div class="grid">${[1, 2, 3].map(col).join('')}</div></section></main>`,
      ld,
    );
    expectOnly(md(html), ['Driver kit', 'Kit paragraph 3'], ['Which kit is right', 'Form factor', 'Case 2', ...CHROME_WORDS]);
  });

  it('on a product page, blocks hidden by a utility class are left out, unless shown on some screens', () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Staple tee"}</script>`;
    const field = (i: number) => `<dt>Thumbnail ${i}:</dt><dd>https://cdn.example/thumbs/tee-${i}-thumb.jpg</dd>`;
    const html = page(
      `<main><h1>Staple tee</h1>${para('Tee', 2)}<dl class="product-info hide">${Array.from({ length: 30 }, (_, i) => field(i)).join('')}</dl>
      <div class="d-none d-md-block"><p>Fits true to size, model wears M.</p></div><div class="collapse hide"><p>Wash cold, dry flat.</p></div></main>`,
      ld,
    );
    expectOnly(md(html), ['Staple tee', 'Tee paragraph 2', 'Fits true to size', 'Wash cold'], ['Thumbnail 3:', 'tee-12-thumb', ...CHROME_WORDS]);
    // Elsewhere such blocks stay: what a script reveals on load (a page hidden until it runs) is the page's.
    const article = page(`<main class="hidden"><h1>Essay</h1>${para('Essay', 3)}</main>`);
    expect(md(article)).to.include('Essay paragraph 3');
  });

  it("a category's buying guide beside its grid of priced cards is content, the grid holding most of the page", () => {
    const card = (i: number) =>
      `<li class="tile"><a href="/p/${i}"><h2>Camp stove ${i}</h2></a><p>Fuel type: canister. Heat output: ${i},000 BTU. Weight: ${i} lbs. Two burners, piezo ignition and a wind screen.</p><span>$${i}9.95</span></li>`;
    const html = page(`<main><div class="wrap"><div class="results"><ul class="grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul></div>
      <div class="guide"><h2>How to choose a camp stove</h2>${para('Stove guide', 4)}</div></div></main>`);
    expectOnly(md(html), ['Camp stove 1', 'Camp stove 12', 'Stove guide paragraph 4'], CHROME_WORDS);
    // A results bar of links beside the grid does not stop the content's growth; the bar itself is a link block.
    const bar = `<div class="bar">${Array.from({ length: 30 }, (_, i) => `<a href="?page=${i + 1}">Results page ${i + 1}</a>`).join(' ')}</div>`;
    const paged = html.replace('<div class="results">', `<div class="results">${bar}`);
    expectOnly(md(paged), ['Camp stove 12', 'Stove guide paragraph 4'], ['Results page 7', ...CHROME_WORDS]);
  });

  it("a category's buying guide after the page's </main>, outside the grid's wrappers, is content; a quiz there is not", () => {
    const card = (i: number) =>
      `<li class="tile"><a href="/p/${i}"><h2>Charcoal grill ${i}</h2></a><p>Kettle grill with a lid, a thermometer and an ash pan, 57 cm</p><span>${i}49,00 €</span></li>`;
    const drawer = `<div class="drawer">${Array.from({ length: 40 }, (_, i) => `<a href="/c/${i}">Category ${i}</a>`).join(' ')}</div>`;
    const quiz = `<div class="quiz"><h2>Find your grill</h2>${Array.from({ length: 30 }, (_, i) => `<div>Answer option ${i + 1}</div>`).join('')}</div>`;
    const html =
      page(`<div class="wrapper">${drawer}<main><h1>Charcoal grills</h1><ul class="grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul></main></div>
      ${quiz}<div class="seo"><h2>How to choose a charcoal grill</h2>${para('Grill guide', 4)}</div>`);
    expectOnly(md(html), ['Charcoal grill 12', 'How to choose a charcoal grill', 'Grill guide paragraph 4'], ['Answer option', 'Category 3', ...CHROME_WORDS]);
  });

  it("the controls every card of a shop's grid carries are left out; a line every card shares that is not a control stays", () => {
    const card = (i: number) =>
      `<li class="tile"><a href="/p/${i}"><h2>Camp stove ${i}</h2><span>Canister fuel</span></a><p>$${i}9.95</p>
      <span class="quick-view-opener">Quick view</span><a href="/cart/add?id=${i}">Add to cart</a><div><span>Piezo ignition</span></div></li>`;
    const html = page(`<main><h1>Camp stoves</h1><ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</ul></main>`);
    expectOnly(md(html), ['Camp stove 8', 'Canister fuel', 'Piezo ignition', '$89.95'], ['Quick view', 'Add to cart', ...CHROME_WORDS]);
  });

  it("a shop's filter facets inside the content are left out, a section merely named so is kept", () => {
    const card = (i: number) =>
      `<li class="card"><a href="/p/${i}"><h3>Kettle ${i}</h3></a><p>Stainless steel kettle number ${i}, 1.7 litres, $${i}9.00</p></li>`;
    const html = page(`<main><h1>Kettles</h1><div class="collection-facets"><h2>Filter by</h2>
      <label><input type="checkbox" name="c" value="red"> Red (12 products)</label><label><input type="checkbox" name="c" value="steel"> Steel (30 products)</label></div>
      <ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</ul>
      <div class="expandable-section filters"><h3>Which kettle boils fastest?</h3><p>A kettle with a higher wattage boils water faster, whatever its size.</p></div></main>`);
    expectOnly(md(html), ['Kettles', 'Kettle 1', 'Stainless steel kettle number 8', 'boils water faster'], ['Red (12 products)', 'Steel (30', ...CHROME_WORDS]);
  });

  it("a block named as filters that holds the shop's grid of priced cards is looked into: the cards are kept, its filters left out", () => {
    const card = (i: number) =>
      `<li class="tile"><a href="/p/${i}">Espresso machine ${i}</a><p>Compact machine number ${i} with a steam wand.</p><span class="price">$${i}99.95</span></li>`;
    const html = page(`<main><h1>Espresso machines under $500</h1><p>${'The best espresso machines are easy to use and built to last. '.repeat(3)}</p>
      <div class="plp-tablet-filters"><div class="refinements"><label><input type="checkbox"> Breville (4)</label><label><input type="checkbox"> DeLonghi (3)</label></div>
      <ul class="results">${Array.from({ length: 8 }, (_, i) => card(i + 1)).join('')}</ul></div>
      <div class="guide">${para('Guide', 6)}</div></main>`);
    expectOnly(
      md(html),
      ['Espresso machines under', 'Espresso machine 1', 'Compact machine number 8', '$899.95', 'Guide paragraph 6'],
      ['Breville (4)', ...CHROME_WORDS],
    );
  });

  it("a shop's grid of priced cards, each card one link, is kept beside a long buying guide; a list of links is not", () => {
    // Each card is a single link around its picture, name and price (the price split by React's comment).
    const card = (i: number) =>
      `<div class="col-span-3"><a href="/p/${i}"><img src="/s${i}.jpg" alt=""><h2>Dress shoe ${i}</h2><p><span>$<!-- -->3${i}</span></p></a></div>`;
    const links = `<div class="popular"><a href="/c/socks">Socks</a> <a href="/c/ties">Ties</a> <a href="/c/belts">Belts</a> <a href="/c/vests">Vests</a></div>`;
    const html = page(`<main><h1>Shoes</h1><div class="row">${Array.from({ length: 6 }, (_, i) => card(i + 1)).join('')}</div>
      ${links}<div class="about"><h2>About our shoes</h2>${para('Buying guide', 6)}</div></main>`);
    expectOnly(md(html), ['Shoes', 'Dress shoe 1', 'Dress shoe 6', '$36', 'Buying guide paragraph 6'], ['Vests', ...CHROME_WORDS]);
  });

  it("the toggle every card carries (a checkbox labelled Compare) is left out; a form's own options are kept", () => {
    const card = (i: number) =>
      `<li class="card"><h3>Tent ${i}</h3><p>Two-person tent number ${i}, 2.1 kg, $${i}49.00</p>
      <div class="cc"><input type="checkbox" id="c${i}"><label for="c${i}">Compare</label><label class="d-off" for="c${i}">Stop comparing</label></div></li>`;
    const html = page(`<main><h1>Tents</h1><ul class="grid">${Array.from({ length: 6 }, (_, i) => card(i + 1)).join('')}</ul>
      <form><label><input type="checkbox" name="n"> Send me the tent care guide</label></form></main>`);
    expectOnly(md(html), ['Tents', 'Tent 1', 'Two-person tent number 6', 'tent care guide'], ['Compare', 'Stop comparing', ...CHROME_WORDS]);
  });

  it('an unnamed filter form (many checkboxes with short labels) is left out; a table of rows to select is kept', () => {
    const card = (i: number) => `<li class="card"><a href="/p/${i}"><h3>Lamp ${i}</h3></a><p>Brass desk lamp number ${i}, LED, $${i}9.00</p></li>`;
    const box = (v: string) => `<label><input type="checkbox" name="f" value="${v}"> ${v}</label>`;
    const form = `<form class="p-6 bg-white">${['Brass', 'Steel', 'Black', 'White', 'Green', 'Under $50', 'Over $50'].map(box).join('')}</form>`;
    const html = page(
      `<main><h1>Lamps</h1><div class="row">${form}<ul class="grid">${Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')}</ul></div></main>`,
    );
    expectOnly(md(html), ['Lamps', 'Lamp 1', 'Brass desk lamp number 12'], ['Under $50', 'Over $50', ...CHROME_WORDS]);
    const row = (i: number) => `<tr><td><input type="checkbox" name="c" value="${i}"></td><td>Conference ${i}</td><td>May ${i}</td></tr>`;
    const table = page(
      `<main><h1>Conferences</h1>${para('Conferences', 1)}<table><tbody>${Array.from({ length: 10 }, (_, i) => row(i + 1)).join('')}</tbody></table></main>`,
    );
    expectOnly(md(table), ['Conference 1', 'Conference 10', 'May 7'], CHROME_WORDS);
  });

  it("a shop's buy box, delivery and payment-plan notes and seller card are left out of the product", () => {
    const html = page(`<main><h1>Ceramic kettle</h1>${para('Kettle', 2)}
      <div class="buy-box"><span>$49.00</span><div class="qty-selector">Quantity 1</div><a class="add-to-cart" href="/cart">Add to basket now</a></div>
      <div class="delivery-estimate">Arrives by Friday if you order within 3 hours</div>
      <div class="installments-message">Or 4 interest-free payments of $12.25</div>
      <div class="seller-card">Sold by Kettle Corner, 98% positive feedback</div>
      <div class="product-form__variants">Colour: Sage, Sand, Slate</div></main>`);
    expectOnly(
      md(html),
      ['Ceramic kettle', 'Kettle paragraph 2'],
      ['Add to basket', 'Arrives by Friday', 'interest-free', 'Kettle Corner', 'Colour: Sage', ...CHROME_WORDS],
    );
    // They hold the product's facts: the ranges keep them, for code mode's skeleton and the model input.
    const found = findMainContent(html);
    expect(found.shop).to.have.length(5);
    expect(found.drop.some(([s, e]) => html.slice(s, e).includes('Add to basket'))).to.equal(false);
  });

  it("a product page's sign-up block around an email field (back in stock, newsletter) is left out with its messages", () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Wool runner"}</script>`;
    const html = page(
      `<main><h1>Wool runner</h1>${para('Runner', 3)}
      <div class="px-6 py-10"><h3>Notify me when back in stock</h3><p>Sign up and we will let you know when this colour returns.</p>
      <form><label for="e">Email</label><input id="e" type="email" placeholder="Email address"><button type="submit">Get notified</button></form>
      <p>You can opt out any time.</p></div>
      <div class="hidden"><h3>It's official</h3><p>We got your info, and we are rooting for you.</p></div></main>`,
      ld,
    );
    // The sent and failed messages sit beside the form: the block around both is the sign-up.
    const wrapped = html
      .replace('<div class="px-6 py-10">', '<div class="modal"><div class="px-6 py-10">')
      .replace('rooting for you.</p></div>', 'rooting for you.</p></div></div>');
    expectOnly(md(html), ['Wool runner', 'Runner paragraph 3'], ['Notify me when back', 'opt out any time', ...CHROME_WORDS]);
    expectOnly(md(wrapped), ['Wool runner', 'Runner paragraph 3'], ['Notify me when back', 'rooting for you', ...CHROME_WORDS]);
  });

  it('a link styled as a button (a call to action) is left out, a link in the text is kept', () => {
    const html = page(`<main><h1>Function calling</h1>${para('Model', 3)}<p>See the <a href="/docs/format">formatting guide</a> for details.</p>
      <p><a class="button button-primary" href="/try">Try the model now</a> <a class="btn btn--large" href="/download">Download the weights</a></p></main>`);
    expectOnly(
      md(html),
      ['Model paragraph 3', '[formatting guide](https://site.example/docs/format)'],
      ['Try the model now', 'Download the weights', ...CHROME_WORDS],
    );
  });
});
