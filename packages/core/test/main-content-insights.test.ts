// Main content: a rail of teaser cards under a heading naming featured or latest insights, stories or
// articles (rails.ts) is left out of a service page; a section on the page's own subject is kept.
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const card = (n: number) =>
  `<div class="slide"><a href="/insights/${n}"><p class="kicker">WHITEPAPER</p><p class="title">Insight number ${n} on data strategy</p><div class="body">A short summary of what this paper says.</div></a></div>`;

describe('page: main content, featured insights rails', () => {
  it('leaves out a "Featured insights" rail of linked cards', () => {
    const out = md(
      page(`<main><section class="intro"><h1>Data consulting</h1>${para('Consulting', 5)}</section><section class="approach"><h2>Our approach</h2>${para('Approach', 3)}</section>
        <div class="slider"><div class="head"><h2>Featured insights</h2></div><div class="track">${[1, 2, 3, 4].map(card).join('')}</div></div></main>`),
    );
    expectOnly(out, ['Consulting paragraph 5', 'Approach paragraph 3'], [...CHROME_WORDS, 'Featured insights', 'Insight number 2']);
  });

  it('keeps a section named for the insights the service gives', () => {
    const out = md(page(`<main><h1>Data consulting</h1>${para('Consulting', 5)}<h2>Insights that drive action</h2>${para('Action', 3)}</main>`));
    expectOnly(out, ['Insights that drive action', 'Action paragraph 3'], CHROME_WORDS);
  });
});
