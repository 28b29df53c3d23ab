// Main content on product pages: the shop's warranty and protection-plan offers (policies.ts
// protectionPlans), its suggested products (left-out.ts), and name and value boxes written side by
// side without a space (markdown.ts separateBoxes).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Field recorder"}</script>`;

describe('page: main content of product pages (pd3)', () => {
  it("leaves out the shop's warranty and protection-plan offers, keeping them for the model", () => {
    const html = page(
      `<main><h1>Field recorder</h1>${para('Recorder', 3)}
      <div class="rightSide_x1"><div class="warranties_Ab12Cd"><p class="warrantiesLabel_Ab12Cd">Protect your gear</p>
        <label><input type="radio" name="plan"> Add a protection plan from $79.99</label></div></div>
      <div class="warranty-container"><p>Our free two-year coverage on every order, parts and labour included.</p></div>
      <h2>In the box</h2><p>Recorder, two batteries and a windscreen made for outdoor recording.</p></main>`,
      LD,
    );
    expectOnly(
      md(html),
      ['Field recorder', 'Recorder paragraph 3', 'In the box', 'two batteries'],
      ['Protect your gear', 'protection plan', 'two-year coverage', ...CHROME_WORDS],
    );
    const found = findMainContent(html);
    expect(found.drop.some(([s, e]) => html.slice(s, e).includes('Protect your gear'))).to.equal(false);
  });

  it("keeps a long warranty section: the maker's terms", () => {
    const terms = para('Warranty terms', 6);
    const html = page(
      `<main><h1>Field recorder</h1>${para('Recorder', 3)}
      <section class="product-warranty"><h2>Warranty</h2>${terms}</section></main>`,
      LD,
    );
    expectOnly(md(html), ['Field recorder', 'Warranty terms paragraph 6'], CHROME_WORDS);
  });

  it("leaves out a product page's suggested products and complete-your-order rail", () => {
    const html = page(
      `<main><h1>Field recorder</h1>${para('Recorder', 3)}
      <section class="product-suggest complete-order"><div class="product-suggest-title"><div class="t-h2">Complete your order</div></div></section>
      <div class="suggested-accessories"><h2>Popular accessories</h2><p>Foam windscreen</p><p>Carry case</p></div></main>`,
      LD,
    );
    expectOnly(md(html), ['Field recorder', 'Recorder paragraph 3'], ['Complete your order', 'Popular accessories', 'Carry case', ...CHROME_WORDS]);
  });

  it('sets apart a name and a value written in nested boxes side by side', () => {
    const row = (name: string, value: string) =>
      `<div class="details_col"><span class="details_name"><!--F#1--><span class="t">${name}</span><!--F/--></span><span class="details_value"><!--F#1--><span class="t">${value}</span><!--F/--></span></div>`;
    const html = page(
      `<main><h1>Field recorder</h1>${para('Recorder', 3)}<h2>Item specifics</h2>${row('Intended audience', 'Trade')}${row('Language', 'English')}</main>`,
      LD,
    );
    expectOnly(md(html), ['Intended audience Trade', 'Language English'], ['audienceTrade', 'LanguageEnglish']);
  });

  it('sets apart a value named so by its class from the name before it, digits too, but not from a currency sign', () => {
    const row = (name: string, value: string) => `<div class="spec"><span class="spec-name">${name}</span><span class="spec-value">${value}</span></div>`;
    const html = page(
      `<main><h1>Field recorder</h1>${para('Recorder', 3)}<h2>Specifics</h2>${row('ISBN-13', '9780544103054')}${row('Pages', '240')}
      <p class="price"><span class="currency">$</span><span class="price-value">129</span></p></main>`,
      LD,
    );
    expectOnly(md(html), ['ISBN-13 9780544103054', 'Pages 240', '$129'], ['139780544103054', 'Pages240']);
  });

  it("leaves out a product page's blocks hidden by a design system's own utility class (a-hidden, aok-hidden)", () => {
    const html = page(
      `<main><h1>Field recorder</h1>${para('Recorder', 3)}
      <ul class="gallery"><li class="media-missing aok-hidden"><div class="alert">Picture not available for this colour</div></li></ul>
      <div class="teaser-hint a-hidden">Brief text shown, tap to read the whole text.</div></main>`,
      LD,
    );
    expectOnly(md(html), ['Field recorder', 'Recorder paragraph 3'], ['Picture not available', 'tap to read the whole', ...CHROME_WORDS]);
  });
});
