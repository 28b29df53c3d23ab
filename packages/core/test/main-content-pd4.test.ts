// Main content on product pages: a publisher's legal notes under the description, in a block named
// for them (legal-notes.ts).
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Harbour Racer"}</script>`;
const LEGAL = `<p>Software licence terms in the game and at the publisher's site. Online features may require an account,
  may not be available to all users and may be ended without notice. Harbour Racer is a trademark of its publisher.
  All other marks are the property of their owners. All rights reserved.</p>`;

describe('page: main content of product pages (pd4)', () => {
  it("leaves out a product's legal notes in a block named for them", () => {
    const html = page(
      `<main><h1>Harbour Racer</h1><div class="game_description">${para('Racing', 3)}
      <h2>System requirements</h2><ul><li>Memory: 8 GB</li><li>Storage: 40 GB</li></ul>
      <div class="autocollapse"><div id="game_area_legal">${LEGAL}</div></div></div></main>`,
      LD,
    );
    expectOnly(md(html), ['Harbour Racer', 'Racing paragraph 3', 'Memory: 8 GB'], ['Software licence terms', 'All rights reserved', ...CHROME_WORDS]);
  });

  it('keeps a block named legal on a page that is not a product', () => {
    const html = page(`<main><article><h1>Harbour rules</h1>${para('Rules', 3)}<div class="section-legal">${LEGAL}</div></article></main>`);
    expectOnly(md(html), ['Harbour rules', 'Rules paragraph 3', 'Software licence terms'], CHROME_WORDS);
  });

  it('keeps legal text under a name that does not end in the word (a legal-text block)', () => {
    const html = page(`<main><h1>Harbour Racer</h1>${para('Racing', 3)}<div class="legal-text">${LEGAL}</div></main>`, LD);
    expectOnly(md(html), ['Harbour Racer', 'Racing paragraph 3', 'Software licence terms'], CHROME_WORDS);
  });
});
