// Markdown: two like items side by side, each a box of text alone with the same classes (a card's
// metadata, a row of labels), are written apart (markdown.ts separateBoxes(), GLUED_ITEMS); a price's
// pieces, each classed apart, and a rich-text editor's inline-styled runs stay as they are.
import { expect } from 'chai';
import { md, page, para } from './main-content-pages.ts';

const card = (i: number) => `<li class="card"><h3>Film ${i} of the week</h3><div class="meta">
  <span class="meta-item">202${i}</span><span class="meta-item">1h 5${i}m</span><span class="meta-item">R</span></div>
  <p>A short summary of film ${i} in a sentence or two, enough to tell what it is about.</p>
  <p><span class="price-symbol">$</span><span class="price-whole">1,29${i}</span><span class="price-fraction">.99</span></p></li>`;

describe('page: markdown, like items side by side', () => {
  it("writes a card's metadata items apart and leaves a price's pieces together", () => {
    const html = page(`<main><h1>Popular films</h1>${para('Intro', 1)}<ul class="list">${[1, 2, 3, 4].map(card).join('')}</ul></main>`);
    const out = md(html);
    expect(out).to.include('2021 1h 51m R');
    expect(out).to.include('2024 1h 54m R');
    expect(out).to.include('$1,294.99');
  });

  it("leaves a rich-text editor's runs, styled inline and split inside a word, together", () => {
    const run = (s: string) => `<span class="run" style="font-variant: normal;">${s}</span>`;
    const html = page(
      `<main><h1>Services</h1>${para('Service', 2)}<p>${run('We offer a full suite of tools includin')}${run('g CRM and AI automatio')}${run('n for you.')}</p></main>`,
    );
    expect(md(html)).to.include('tools including CRM and AI automation for you.');
  });

  it("leaves a label's colon and a sentence's full stop, each in a box of their own, on the word before", () => {
    const box = (s: string) => `<span class="txt">${s}</span>`;
    const html = page(
      `<main><h1>Returns</h1>${para('Policy', 2)}<p>${box('Color')}${box(': Black')}</p><p>${box('30 days returns')}${box('. Buyer pays for return shipping')}${box('.')}</p></main>`,
    );
    const out = md(html);
    expect(out).to.include('Color: Black');
    expect(out).to.include('30 days returns. Buyer pays for return shipping.');
  });

  it("leaves a number's pieces together when they share a class: after a currency sign, digits and digits", () => {
    const box = (c: string, s: string) => `<span class="${c}">${s}</span>`;
    const html = page(
      `<main><h1>Offer</h1>${para('Offer', 2)}<p>Now ${box('price', '$')}${box('price', '19')} or ${box('n', '19')}${box('n', '99')} cents; visitors: ${box('d', '1')}${box('d', '9')}${box('d', '9')}.</p></main>`,
    );
    expect(md(html)).to.include('Now $19 or 1999 cents; visitors: 199.');
  });
});
