import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content (collapsed sections)', () => {
  it('a collapsed section under its heading, summary or control is read; a menu, a tooltip or a block hidden for good is not', () => {
    const html = page(`<main><h1>Diffuser</h1>${para('Diffuser', 3)}
      <h2>Questions</h2>
      <div class="item"><h3>Can it be used outdoors?<span class="toggler"></span></h3>
        <div class="content" style="display: none;"><p>Yes, the diffuser works on a terrace as well as in a living room.</p></div></div>
      <details><summary>How long does it run?</summary><div class="content" aria-hidden="true"><p>About eight hours on one filling of the tank.</p></div></details>
      <div><button aria-controls="item-2-content" aria-expanded="false">Who makes it?</button>
        <div id="item-2-content" hidden><p>A small workshop in Lyon assembles every unit by hand.</p></div></div>
      <h3>Shop</h3><div class="dropdown-menu" style="display:none"><a href="/x">Hidden menu entry</a></div>
      <h3>Note</h3><div style="display: none !important;"><p>Forced hidden remark never shown.</p></div>
      <button aria-controls="tip" aria-expanded="false">?</button><div id="tip" role="tooltip" hidden>Tooltip text here</div></main>`);
    expectOnly(
      md(html),
      ['Diffuser paragraph 3', 'works on a terrace', 'About eight hours', 'small workshop in Lyon'],
      [...CHROME_WORDS, 'Hidden menu entry', 'Forced hidden remark', 'Tooltip text here'],
    );
  });

  it('an expander\'s hidden remainder (a book\'s excerpt behind "Read more") is read', () => {
    const html = page(`<main><h1>Book</h1>${para('Book', 3)}
      <div class="a-expander-container"><div class="a-expander-content a-expander-extend-content" style="display:none"><p>Excerpt of the first chapter, reprinted with permission.</p></div>
      <a class="a-expander-prompt" href="#">Read more</a></div></main>`);
    expectOnly(md(html), ['Book paragraph 3', 'Excerpt of the first chapter'], CHROME_WORDS);
  });

  it('a side sheet (a non-modal dialog opened from a button) is read; a popup is not', () => {
    const html = page(`<main><div class="product-info"><h1>Arrival T-Shirt</h1><p>$22</p>
      <button class="accordion_info">Description</button>
      <div class="sheet_sheet" tabindex="-1" role="dialog" aria-modal="false"><h5>Description</h5>${para('Shirt', 3)}</div></div></main>
      <div id="pum-145" role="dialog" aria-modal="false" class="pum pum-overlay popmake-overlay"><p>Need an electrician today? Call us now for a free quote.</p></div>`);
    expectOnly(md(html), ['Arrival T-Shirt', 'Shirt paragraph 3'], [...CHROME_WORDS, 'Need an electrician today']);
  });

  it("a shop's selling points (usp, trust badge) are left out of the markdown", () => {
    const html = page(`<main><div class="product"><h1>Iris Dress</h1><p>$120</p>${para('Dress', 3)}
      <div class="usps_container"><p>Unlock access to exclusive rewards and benefits</p></div>
      <div class="product-trust-badge">Great customer service, easy returns and thousands of messages</div></div></main>`);
    expectOnly(md(html), ['Iris Dress', 'Dress paragraph 3'], [...CHROME_WORDS, 'exclusive rewards', 'Great customer service']);
  });

  it("a template's placeholder blocks (lorem ipsum) are left out, with their heading and button", () => {
    const html = page(`<main><h1>2025 Rankings</h1>${para('Rankings', 3)}
      <div class="card"><h3>Head Line 1</h3><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>
      <ul><li>Lorem ipsum 1</li><li>Lorem ipsum 2</li></ul><a href="#">Learn More</a></div></main>`);
    expectOnly(md(html), ['2025 Rankings', 'Rankings paragraph 3'], [...CHROME_WORDS, 'Lorem ipsum', 'Head Line 1', 'Learn More']);
  });
});
