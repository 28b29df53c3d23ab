// Main content on a shop's category pages: a filter panel named by its heading (rails.ts, FACETS), a
// sort control around a <select> named for sorting (sort-controls.ts), an inactive tab's panel keyed by a
// data attribute (hidden.ts keyedPanel).
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

describe('page: filter panels on category pages', () => {
  const card = (i: number) =>
    `<li class="card"><a href="/p/shoe-${i}"><img src="/s${i}.jpg" alt=""></a><h3><a href="/p/shoe-${i}">Oxford dress shoe ${i}</a></h3>
     <span class="price">$3${i}.00</span></li>`;
  const grid = `<ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul>`;
  // Facets rendered without inputs (the values are picked by script), under a "Filters" heading.
  const facet = (name: string, values: string[]) =>
    `<div class="facet"><h3>${name}</h3><ul>${values.map((v) => `<li><span>${v}</span></li>`).join('')}</ul></div><hr>`;
  const panel = `<aside class="panel"><h2>Filters</h2><hr>
      ${facet('Category', ['Shoes', 'Socks'])}${facet('Pattern', ['Solid', 'Striped', 'Graphic', 'Floral', 'Dots', 'Argyle'])}
      ${facet('Colors', ['Black', 'Grey', 'White', 'Tan', 'Burgundy', 'Navy'])}${facet('Type', ['Rent', 'Buy'])}</aside>`;

  it('a panel of facets under a "Filters" heading is left out, the grid beside it stays', () => {
    const html = page(
      `<main><h1>Dress shoes and socks</h1><p>Our collection of dress shoes and socks finishes any formal outfit from head to toe, in every size.</p>
        <div class="layout">${panel}<section class="results">${grid}</section></div></main>`,
    );
    expectOnly(
      md(html),
      ['Dress shoes and socks', 'finishes any formal outfit', 'Oxford dress shoe 3', '$33.00'],
      ['Filters', 'Pattern', 'Argyle', 'Burgundy', ...CHROME_WORDS],
    );
  });

  it('a "Filters" heading whose block holds the grid leaves the grid in', () => {
    const html = page(`<main><h1>Standing desks</h1><section><h2>Filters</h2>${grid}</section></main>`);
    expectOnly(md(html), ['Standing desks', 'Oxford dress shoe 3', '$33.00'], CHROME_WORDS);
  });

  it('a sort control (its label and current choice around a select named for sorting) is left out', () => {
    const sorter = `<div class="x1"><button type="button"><span>Filter</span></button><div class="x2"><div class="x3"><span>Sort</span><span>: </span><span>Top Picks</span></div>
      <select aria-label="Sort By"><option selected>Top Picks</option><option>Price: Low - High</option></select></div></div>`;
    const html = page(`<main><h1>Dress shoes and socks</h1><p>Products (8)</p>${sorter}${grid}</main>`);
    expectOnly(md(html), ['Dress shoes and socks', 'Products (8)', 'Oxford dress shoe 3', '$33.00'], ['Top Picks', 'Sort', ...CHROME_WORDS]);
  });

  it("an inactive tab's panel keyed by a data attribute, hidden by an inline style, is read", () => {
    const addOn = (i: number) => `<li class="card"><a href="/p/perch-${i}"><h3>Feeder perch ${i}</h3></a><span class="price">$1${i}.00</span></li>`;
    const html = page(
      `<main><h1>Shop</h1><div class="tabs"><div class="tab active" data-cat="0">Feeders</div><div class="tab" data-cat="1">Add-ons</div></div>
        <div class="products wide" style="display: block;" data-cat="0"><ul class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</ul></div>
        <div class="products" data-cat="1" style="display: none"><ul class="grid">${Array.from({ length: 2 }, (_, i) => addOn(i + 3)).join('')}</ul></div>
        <div class="promo" data-cat="2" style="display: none"><p>Spring sale banner</p></div></main>`,
    );
    expectOnly(md(html), ['Oxford dress shoe 3', 'Feeder perch 4', '$14.00'], ['Spring sale banner', ...CHROME_WORDS]);
  });
});
