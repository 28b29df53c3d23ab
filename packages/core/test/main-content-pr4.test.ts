// Main content on product pages (pr4): tooltips beside a spec's name (tooltips.ts); text for screen
// readers only under a design system's class name (content-tree.ts SCREEN_READER).
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const PRODUCT =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Studio Phones","offers":{"@type":"Offer","price":"299.00","priceCurrency":"USD"}}</script>';

describe('page: main content on product pages (pr4)', () => {
  it("leaves out a tooltip's note shown on hover beside a spec's name, and keeps the spec", () => {
    const tip = (name: string, note: string, value: string) =>
      `<div class="overview-item"><h4>${name}<tool-tip class="tool-tip"><span class="visually-hidden">More information</span>
        <div class="tool-tip__content">${note}</div></tool-tip></h4><p class="overview-item__content">${value}</p></div>`;
    const html = page(
      `<main><div class="product"><h1>Studio Phones</h1><p>$299</p>
        ${tip('Cup style', 'Open-back designs breathe well but leak sound to the room around you.', 'Open-back')}
        ${tip('Driver type', 'A driver is the part of a headphone that turns the signal into sound waves.', 'Planar magnetic')}
        <span class="badge">Sale<span role="tooltip">Sale items ship within two working days of payment.</span></span>
        <h2>Description</h2>${para('Phones', 3)}</div></main>`,
      PRODUCT,
    );
    expectOnly(
      md(html),
      ['Studio Phones', 'Cup style', 'Open-back', 'Planar magnetic', 'Phones paragraph 3'],
      [...CHROME_WORDS, 'leak sound to the room', 'turns the signal into sound', 'ship within two working days'],
    );
  });

  it("leaves out text for screen readers only under a design system's class (`clipped`, `show-for-sr`, `element-invisible`)", () => {
    const html = page(
      `<main><div class="product"><h1>Studio Phones</h1>
        <div class="price"><span>EUR 20.99<span class="clipped">Price EUR 20.99 including taxes</span></span></div>
        <p>Ships from Berlin<span class="show-for-sr">Opens the seller's shipping terms</span></p>
        <p>Condition: new<span class="element-invisible">Condition described by the seller</span></p>
        <h2>Description</h2>${para('Phones', 3)}</div></main>`,
      PRODUCT,
    );
    expectOnly(
      md(html),
      ['Studio Phones', 'EUR 20.99', 'Ships from Berlin', 'Condition: new', 'Phones paragraph 3'],
      [...CHROME_WORDS, 'including taxes', "Opens the seller's", 'described by the seller'],
    );
  });
});
