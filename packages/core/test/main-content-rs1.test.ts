// Main content: a block laid out twice for two screen widths (`lg:hidden` beside `hidden lg:block`) keeps the desktop layout only (screen-twins.ts).
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const facts = (sep: string, who = 'From the kitchen of Ann Orchard') =>
  `<p>Serves four people ${sep} Ready in forty minutes ${sep} Easy for beginners</p><p>${who}</p>`;

describe('page: main content with one block laid out per screen width', () => {
  it('leaves out the mobile layout whose words the desktop layout holds', () => {
    const html = page(`<main><article><h1>Apple crumble with oats</h1>
      <div class="recipe-facts"><div class="hidden lg:block">${facts('|')}</div><div class="lg:hidden">${facts('·', 'by Ann Orchard')}</div></div>
      ${para('Crumble', 4)}</article></main>`);
    expectOnly(md(html), ['Serves four people | Ready', 'From the kitchen', 'Crumble paragraph 4'], ['Serves four people · Ready', 'by Ann', ...CHROME_WORDS]);
  });

  it('keeps a mobile layout saying something the desktop one does not', () => {
    const html = page(`<main><article><h1>Apple crumble with oats</h1>
      <div class="recipe-facts"><div class="d-none d-md-block">${facts('|')}</div><div class="d-md-none">${facts('·')}<p>Tap a step to keep the screen on while you cook</p></div></div>
      ${para('Crumble', 4)}</article></main>`);
    expectOnly(md(html), ['Serves four people | Ready', 'Serves four people · Ready', 'Tap a step'], CHROME_WORDS);
  });

  it('keeps the desktop layout when the mobile one comes first with the same text', () => {
    const html = page(`<main><article><h1>Apple crumble with oats</h1>
      <div class="recipe-facts"><div class="md:hidden">${facts('|', 'Recipe from Ann Orchard')}</div>
        <div class="hidden md:block">${facts('|', 'Recipe from <a href="/u/ann">Ann Orchard</a>')}</div></div>
      ${para('Crumble', 4)}</article></main>`);
    const out = md(html);
    expectOnly(out, ['Recipe from [Ann Orchard](https://site.example/u/ann)', 'Crumble paragraph 4'], CHROME_WORDS);
    if (out.split('Serves four people').length !== 2) throw new Error(`one layout expected:\n${out}`);
  });
});
