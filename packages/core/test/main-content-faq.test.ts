// Main content: questions of an FAQ written as buttons inside headings (content-tree.ts isHeadingButton).
import { expect } from 'chai';
import { reducePage } from '../src/page/reduce.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content of FAQ accordions', () => {
  it("a heading's button that is the heading's whole text is the question, kept without ARIA wiring; a control beside a heading's text is not", () => {
    const qa = (q: string, a: string) =>
      `<li><h3 class="acc-header"><button class="acc-button"><span class="acc-title"> ${q} </span><span class="icon icon-plus"></span></button></h3>
      <div class="acc-panel"><p>${a}</p></div></li>`;
    const html = page(`<main><h1>Buy the laptop <button class="copy">Copy link</button></h1>${para('Intro', 3)}
      <h2>Frequently Asked Questions</h2><ul class="accordion">
      ${qa('Can I return my laptop after opening it?', 'Yes, within fourteen days of delivery in its box.')}
      ${qa('Which payment methods do you accept?', 'Cards, bank transfer and gift cards are accepted.')}</ul></main>`);
    const out = md(html);
    expectOnly(
      out,
      ['Buy the laptop', 'Can I return my laptop after opening it?', 'within fourteen days', 'Which payment methods do you accept?'],
      ['Copy link', ...CHROME_WORDS],
    );
    // The model input reads the questions too.
    const text = reducePage(html, { url: 'https://site.example/x/', mode: 'standard' }).text;
    expect(text).to.include('Can I return my laptop after opening it?');
    expect(text).to.include('Which payment methods do you accept?');
  });
});
