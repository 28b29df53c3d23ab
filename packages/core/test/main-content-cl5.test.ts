// Main content: the notes a page's footnote marks point to (a shop's fine print on its offers, a
// wiki's references) are left out when there are two or more (offer-notes.ts); one alone stays.
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content without the notes its footnote marks point to', () => {
  const offers = `<div class="slot"><h2>No interest for 5 years<sup>^°</sup></h2>
      <p><span>On purchases made with the store card at participating locations.</span></p>
      <p><span><sup>^°</sup>Not combinable with other offers and discounts. Minimum purchase may be required.</span></p>
      <p><span><sup>‡*</sup>Subject to credit approval. Minimum monthly payments required.</span></p></div>`;

  it("leaves out a shop's fine print, each note opening with its mark", () => {
    const html = page(`<main><h1>Living room furniture</h1>${para('Living room', 4)}${offers}</main>`);
    expectOnly(
      md(html),
      ['Living room furniture', 'Living room paragraph 4', 'No interest for 5 years'],
      ['Not combinable', 'Subject to credit approval', ...CHROME_WORDS],
    );
  });

  it("leaves out a wiki's references, kept text and a single marked line", () => {
    const refs = `<ol class="references"><li id="cite_note-1"><span class="mw-cite-backlink"><b><a href="#cite_ref-1">^</a></b></span>
      <span class="reference-text">"The prize amounts". Nobel Foundation. Retrieved 2008-11-27.</span></li>
      <li id="cite_note-2"><span class="mw-cite-backlink"><b><a href="#cite_ref-2">^</a></b></span>
      <span class="reference-text">"All prizes". Nobel Foundation. Retrieved 2018-03-14.</span></li></ol>`;
    const html = page(`<main><h1>List of laureates</h1>${para('Laureates', 4)}<h2>References</h2>${refs}</main>`);
    expectOnly(md(html), ['List of laureates', 'Laureates paragraph 4'], ['The prize amounts', 'All prizes', ...CHROME_WORDS]);
    const one = page(`<main><h1>Pet cover</h1>${para('Cover', 4)}<p>§ Only available with annual cover. † For pets aged 8+.</p></main>`);
    expectOnly(md(one), ['Cover paragraph 4', 'Only available with annual cover'], CHROME_WORDS);
  });
});
