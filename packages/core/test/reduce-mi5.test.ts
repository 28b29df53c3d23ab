// The outline of the rest of a page (reduce.ts, render.ts `formChoices`): a form's pick lists are
// controls, left out; a pick list of prices stays, without its prompt; a list outside a form stays.
import { expect } from 'chai';
import { article, card, page, reduce } from './outline-pages.ts';

describe("outline of the rest of the page: a form's pick lists", () => {
  it("drops a form's sort order and jump menu, and a sort order outside a form, outside the main content", () => {
    const text = reduce(
      page(`<form action="/list"><label>Sort by</label><select name="sort"><option value="featured">Featured Items</option><option value="newest">Newest Items</option>
          <option value="az">Alphabetical order from the first letter to the last one</option></select></form>${card(1)}
        <form action="/forum"><select name="f"><option value="1">General Discussion</option><option value="2">Kettles and other appliances for the kitchen</option>
          <option value="3">Tea, coffee and everything else people drink in the morning</option></select></form>${card(2)}
        <div><select aria-label="Sort by" id="SortBy"><option>Highest score (default)</option><option>Date modified (newest first) to see the latest answers</option></select></div>`),
    );
    for (const n of [1, 2]) expect(text).to.include(`kettle number ${n}`);
    for (const c of ['Featured Items', 'Alphabetical order', 'General Discussion', 'Kettles and other appliances', 'Date modified'])
      expect(text).not.to.include(c);
  });

  it('keeps a pick list of prices without its prompt, and a list outside a form', () => {
    const text = reduce(
      page(`<form action="/cart"><select name="size"><option value="">Choose an option</option><option value="1kg">1kg - £4.64 per kg</option>
          <option value="2kg">2kg - £8.69, £4.35 per kg</option></select></form>${card(1)}
        <form hidden action="/search"><input name="q"></form><div><select class="dropdown"><option>Team Schedules</option><option>Arizona Cardinals</option><option>Atlanta Falcons</option>
          <option>Baltimore Ravens</option><option>Buffalo Bills</option><option>Carolina Panthers</option></select></div>`),
    );
    expect(text).to.include('kettle number 1');
    expect(text).to.include('1kg - £4.64 per kg, 2kg - £8.69');
    expect(text).not.to.include('Choose an option');
    expect(text).to.include('Arizona Cardinals, Atlanta Falcons');
  });
});

describe('a page read whole (too large for main-content detection): its controls and prompts', () => {
  it("drops a control's label and a prompt, keeps the text and a code block's lines", () => {
    const pad = `<script>var pad = "${'x'.repeat(1_000_000)}";</script>`;
    const text = reduce(
      `<html><head>${pad}</head><body><h1>The bridge</h1>${article}<p><button>Add to cart</button></p><p>Get started for free</p>
        <pre><code>Add to cart\nlog in</code></pre><h3>Customers also bought</h3>${card(1)}</body></html>`,
    );
    expect(text).to.include('Paragraph 5 of the report');
    expect(text).to.include('kettle number 1');
    expect(text).to.include('Add to cart\nlog in');
    expect(text).not.to.include('Get started for free');
    expect(text).not.to.include('Customers also bought');
    expect(text.split('Add to cart').length).to.equal(2);
  });
});

describe("outline of the rest of the page: a control's label naming its item", () => {
  it('drops "Add <item> to Compare" and "Add <item> to Cart"; keeps a step that adds something to something else', () => {
    const text = reduce(
      page(`<p>Add Moab 3 Mid Waterproof Hiking Boots - Women's to Compare</p>${card(1)}<p>Add Blue Kettle Number Two with Its Lid to Cart</p>${card(2)}
        <p>Add the chopped onions and the garlic to the pan and stir for five minutes.</p>`),
    );
    for (const n of [1, 2]) expect(text).to.include(`kettle number ${n}`);
    expect(text).to.include('Add the chopped onions');
    for (const c of ['Moab 3', 'Its Lid']) expect(text).not.to.include(c);
  });
});

describe("outline of the rest of the page: a documentation page's tools", () => {
  it('drops "Copy for LLM", "View as Markdown", "Page tools", "Ask about this section", "Show child attributes"', () => {
    const text = reduce(
      page(`<p>Page tools</p><p><a href="/docs/a.md">View as Markdown</a></p><p>Copy as Markdown</p>${card(1)}
        <p>Ask about this section</p><p>Copy for LLM</p>${card(2)}<p><button>Show child attributes</button></p>${card(3)}`),
    );
    for (const n of [1, 2, 3]) expect(text).to.include(`kettle number ${n}`);
    for (const c of ['Page tools', 'as Markdown', 'Ask about', 'for LLM', 'child attributes']) expect(text).not.to.include(c);
  });
});
