import { expect } from 'chai';
import { htmlToMarkdown } from '../src/page/index.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content of service pages', () => {
  it("an accordion's questions, headings linked to `#`, are the FAQ's; a list of links to in-page anchors is still left out", () => {
    const item = (i: number) =>
      `<div class="accordion__item"><div class="accordion__title"><h5><a href="#">Why would question ${i} matter to my business?</a></h5><a href="#" class="accordion__indicator"><span></span></a></div>` +
      `<div class="accordion__content"><p>Answer ${i}: it matters.</p></div></div>`;
    const toc = `<div class="toc"><ul><li><a href="#a">Our approach to the work</a></li><li><a href="#b">Our team and its experience</a></li></ul></div>`;
    const html = page(
      `<main><h1>HR consulting</h1>${toc}${para('Consulting', 6)}<h3>FAQs</h3><div class="accordion">${[1, 2].map(item).join('')}</div></main>`,
    );
    const out = md(html);
    expectOnly(
      out,
      ['Consulting paragraph 6', 'Why would question 1 matter', 'Why would question 2 matter', 'Answer 2'],
      ['Our approach to the work', ...CHROME_WORDS],
    );
  });

  it('a grid of cards each named like chrome is content inside wrappers so named that hold much of the page', () => {
    const card = (i: number) =>
      `<div class="col promo-item"><div class="promo promo--services"><a class="promo-link" href="/services/${i}"><div class="promo__content">` +
      `<h3 class="promo__title">Service ${i}</h3><div class="promo__desc">What service ${i} does for your business, told in a sentence or two of plain words.</div>` +
      `<div class="promo__label">Find out more</div></div></a></div></div>`;
    const html = page(
      `<main><h1>Our services</h1><p>We help businesses grow.</p><div class="promo-container"><div class="promo-container__content"><div class="row">${[1, 2, 3, 4].map(card).join('')}</div><div class="row">${[5, 6, 7, 8].map(card).join('')}</div></div></div></main>`,
    );
    const out = md(html);
    expectOnly(out, ['Our services', 'Service 1', 'What service 8 does for your business'], CHROME_WORDS);
    // A small promotion block among the content is still chrome.
    const small = md(
      page(`<main><h1>Our services</h1>${para('Services', 6)}<div class="promo-bar"><div class="promo">Free audit this month</div></div></main>`),
    );
    expect(small).not.to.include('Free audit');
    // Slides of text (no heading) in a promotion bar holding most of a short page are not its items.
    const slide = (i: number) =>
      `<span class="promo-bar__text"><p>Free shipping on orders over ${i}0 in region ${i}. See our shipping page for the rates and timelines.</p></span>`;
    const bar = md(
      page(
        `<div class="promo-bar"><div class="promo-bar__slides">${[1, 2, 3, 4, 5, 6, 7, 8].map(slide).join('')}</div></div><main><h1>Promo terms</h1>${para('Terms', 2)}</main>`,
      ),
    );
    expectOnly(bar, ['Promo terms', 'Terms paragraph 2'], ['Free shipping on orders']);
  });

  it("a template's blocks never filled in (Lorem ipsum) are left out; a block with more than a heading and a button of real text beside them stays (placeholders.ts)", () => {
    const lorem = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.';
    const html = page(
      `<main><h1>Rankings 2025</h1>${para('Rankings', 4)}<section class="hero-card"><h3>Heading Line</h3><p>${lorem}</p><a href="/register">Register</a></section>` +
        `<div class="feature"><h3>The pocket wallet</h3><p>The wallet is slim and holds up to twelve cards in its patented dual-track frame, in steel or carbon. Its money clip holds ten folded notes.</p><p>${lorem}</p></div></main>`,
    );
    expectOnly(md(html), ['Rankings paragraph 4', 'The wallet is slim'], ['Heading Line', 'Register', ...CHROME_WORDS]);
  });

  it("a video's fallback text is not shown, in the main content or the whole page", () => {
    const video = '<video autoplay muted><source src="/demo.mp4" type="video/mp4">Your browser does not support the video tag.</video>';
    const html = page(`<main><h1>Screen recording</h1>${video}${para('Recording', 4)}<p>Closing words after the video.</p></main>`);
    expectOnly(md(html), ['Recording paragraph 4', 'Closing words after the video'], ['does not support', ...CHROME_WORDS]);
    const whole = htmlToMarkdown(html, { url: 'https://site.example/x/' });
    expectOnly(whole, ['Recording paragraph 4', 'Closing words after the video'], ['does not support']);
  });
});
