// Main content: a marketing page's legal fine print named in its class (`copy-legal`, `disclaimers`)
// stays chrome though it holds much of a page whose other text is short, when it holds no heading and
// the page's title lies outside it; a page whose title is inside such a block keeps it.
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

const notes = Array.from(
  { length: 8 },
  (_, i) =>
    `<li><strong>Claim ${i + 1}:</strong> Based on publicly available data on competitors' customers from a period of twelve months, for users on paid plans in select countries.</li>`,
).join('');

describe('page: main content, legal fine print holding much of a short page', () => {
  it('leaves out a large copy-legal block without a heading when the title is outside it', () => {
    const out = md(
      page(`<main><section class="hero"><h1>Email marketing made simple</h1><p>Grow your audience with easy tools and clear reports.*</p>
        <a class="cta" href="/signup">Sign up free</a></section>
        <section><h2>Results that add up</h2><p>Customers saw more clicks and more sales.*</p></section>
        <div class="module"><div class="copy-legal"><p><strong>*Disclaimers</strong></p><ol>${notes}</ol></div></div></main>`),
    );
    expectOnly(out, ['Email marketing made simple', 'Results that add up'], [...CHROME_WORDS, 'Disclaimers', 'Claim 3']);
  });

  it('keeps such a block when it holds the page title', () => {
    const out = md(page(`<main><div class="legal-notice"><h1>Legal notice</h1><p><strong>Terms</strong></p><ol>${notes}</ol></div></main>`));
    expectOnly(out, ['Legal notice', 'Claim 3'], CHROME_WORDS);
  });
});
