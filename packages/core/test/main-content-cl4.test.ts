// Main content of a shop's category: the words of a card's parts stay apart in the markdown.
import { expect } from 'chai';
import { md, page } from './main-content-pages.ts';

const cards = (card: (i: number) => string, after = '') =>
  `<main><h1>Trail shoes</h1><ul class="grid">${Array.from({ length: 6 }, (_, i) => `<li class="card">${card(i)}</li>`).join('')}</ul>${after}</main>`;

describe('page: main content of a category, its cards written word by word', () => {
  it("keeps a space after a card's linked title whose heading ends the link, before the next block", () => {
    const out = md(page(cards((i) => `<div><a href="/p/${i}"><h3>Ridge Runner ${i}</h3></a></div><div><span>Brand New</span></div><div>$${40 + i}.00</div>`)));
    expect(out).to.match(/\[Ridge Runner 0\]\([^)]*\) Brand New/);
    expect(out).not.to.match(/\)Brand New/);
  });

  it('sets apart two elements side by side whose words meet lower case to capital, not code in <pre> nor ordinary runs', () => {
    const out = md(
      page(
        cards(
          (i) => `<a href="/p/${i}"><span class="brand">Brooks</span><span class="name">Launch ${i} Road Shoe</span></a><span>$${90 + i}</span>`,
          `<pre><code><span class="n">get</span><span class="n">Element</span>()</code></pre><p>A <span>Mac</span><span>book</span> and a <span>TV</span><span>Stand</span> stay.</p>`,
        ),
      ),
    );
    expect(out).to.include('Brooks Launch 0 Road Shoe');
    expect(out).not.to.include('BrooksLaunch');
    expect(out).to.include('getElement()');
    expect(out).to.include('Macbook');
    expect(out).to.include('TVStand');
  });
});

describe('page: main content of a category whose sidebar outweighs its tiles', () => {
  it("takes the tiles under the page's heading, not the sidebar's category tree kept for its weight", () => {
    const tiles = ['Home Appliance', 'Radios', 'Power Banks']
      .map(
        (c, i) => `<li class="product-category"><a href="/c/${i}"><img src="/i/${i}.jpg" alt=""><h2 class="title">${c} <mark>(${i + 3})</mark></h2></a></li>`,
      )
      .join('');
    const tree = Array.from({ length: 14 }, (_, i) => `<li class="cat-item"><a href="/c/s${i}">Subcategory number ${i} of gadgets</a> (${i + 2})</li>`).join(
      '',
    );
    const html = page(`<div id="content-area"><div id="left-area"><header class="products-header"><h1>Electronics and gadgets</h1></header>
      <ul class="products">${tiles}</ul></div>
      <div id="sidebar"><div class="widget"><h4>Product Categories</h4><ul>${tree}</ul></div>
      <div class="widget"><h4>Log in</h4><p>Members can <a href="/login">log in here</a> to see their orders and their saved lists of products.</p></div></div></div>`);
    const out = md(html);
    expect(out).to.include('Power Banks');
    expect(out).not.to.include('Subcategory number');
    expect(out).not.to.include('Log in');
  });
});

describe("page: main content of a category, a grid's banners and its cards' overlays", () => {
  const shop = (cards: string, extra = '') =>
    page(`<main><h1>Sleeping bags</h1><p>Bags for every season, from summer quilts to winter mummies.</p><ul class="results">${cards}${extra}</ul></main>`);
  const card = (i: number, inside = '') =>
    `<li class="tile"><a href="/p/${i}">${inside}<h2>Summit Bag ${i}</h2></a><span class="price">$${120 + i}.00</span><span>Temperature rating: ${i} F</span></li>`;

  it("leaves out a banner put among a grid's cards, unlike them, with a heading and a pitch", () => {
    const cards = Array.from({ length: 6 }, (_, i) => card(i)).join('');
    const promo = `<li class="offer-tile"><img src="/ad.jpg" alt="Offer"><h2>Get $130 in value</h2><p>$30 in card rewards are yours when approved for the store's card. Terms apply.</p><a href="/card">Apply now</a></li>`;
    const out = md(shop(cards.slice(0, cards.length / 2) + promo + cards.slice(cards.length / 2)));
    expect(out).to.include('Summit Bag 5');
    expect(out).to.include('Temperature rating: 5 F');
    expect(out).not.to.include('Get $130 in value');
    expect(out).not.to.include('card rewards');
  });

  it("leaves out a heading every card repeats over its image (an overlay's call to action), keeping each card's own title", () => {
    const out = md(shop(Array.from({ length: 6 }, (_, i) => card(i, `<div class="overlay"><h4>View Details</h4></div>`)).join('')));
    expect(out).to.include('Summit Bag 3');
    expect(out).not.to.include('View Details');
    // (a heading every card repeats outside its link names a section of it)
    const sections = md(shop(Array.from({ length: 6 }, (_, i) => card(i).replace('</li>', '<h4>Highlights</h4><p>Warm to the rating.</p></li>')).join('')));
    expect(sections).to.include('Highlights');
  });
});
