// Main content: a rail named by a plain label opening its block (`<span class="xcaps">Related
// Services</span>` above linked cards, no class saying label or title) is left out with the block
// after it (rails.ts); the same words set in a sentence are not a label.
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const bucket = (name: string) =>
  `<div class="bucket"><a class="title" href="/services/${name.toLowerCase()}/">${name}</a><p>We plan, run and measure ${name} work that ties back to your goals.</p><a href="/services/${name.toLowerCase()}/">Learn more</a></div>`;

describe('page: main content, rails named by a plain label', () => {
  it('leaves out a "Related Services" label opening its block and the cards after it', () => {
    const out = md(
      page(`<main><section class="intro"><h1>Analytics services</h1>${para('Analytics', 5)}</section>
        <section class="faq"><h2>Questions</h2>${para('Answer', 3)}</section>
        <div class="panel"><div class="content"><span class="xcaps">Related Services</span><div class="buckets">${['Search', 'Display', 'Social'].map(bucket).join('')}</div></div></div></main>`),
    );
    expectOnly(out, ['Analytics paragraph 5', 'Answer paragraph 3'], [...CHROME_WORDS, 'Related Services', 'Display work']);
  });

  it('keeps the words in a sentence beside links', () => {
    const out = md(
      page(
        `<main><section class="intro"><h1>Analytics services</h1>${para('Analytics', 5)}<p>Our <strong>related services</strong> include <a href="/seo/">search engine optimisation</a> and more.</p></section></main>`,
      ),
    );
    expectOnly(out, ['Analytics paragraph 5', 'related services', 'search engine optimisation'], CHROME_WORDS);
  });
});
