// Main content: a listing's cards leave out their engagement counters (card-counters.ts cardCounters()),
// and any page its "Read more" link (readMoreLinks()) and its results count and page-size label (resultsCounts()).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

/** A feed of posts: each card has its linked title, a teaser, its reactions and comments and a reading time. */
const feed = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<div class="story"><h2><a href="/post-${i}">Post number ${i} on building small tools</a></h2>
      <p>Teaser ${i}: a sentence on what the post explains.</p>
      <div class="bottom"><div class="details"><a href="/post-${i}"><span>${i + 3}<span class="hidden">&nbsp;reactions</span></span></a>
      <a href="/post-${i}#comments"><svg><title>Comments</title></svg>${i + 1}<span class="hidden">&nbsp;comments</span></a></div>
      <small class="time">${i + 2} min read</small></div></div>`,
  ).join('');

describe("page: main content of a listing, its cards' counters and its controls", () => {
  it('leaves out the reactions, comments and reading time of every card in a feed', () => {
    const html = page(`<main><h1>Latest posts</h1>${feed(24)}</main>`);
    expect(findMainContent(html).type).to.equal('listing');
    expectOnly(md(html), ['Post number 0 on building small tools', 'Teaser 23'], [...CHROME_WORDS, 'reactions', 'comments', 'min read']);
  });

  it('keeps a count an article says once', () => {
    const html = page(`<main><article><h1>How we grew</h1>${para('Growth', 3)}<p class="stat">84 comments</p>${para('After', 2)}</article></main>`);
    expectOnly(md(html), ['84 comments'], CHROME_WORDS);
  });

  it('leaves out a "Read more" toggle and a results count with its page-size label', () => {
    const html = page(
      `<main><h1>Top universities for physics</h1>${para('Ranking', 2)}<a href="javascript:void(0)">Read more</a>
      <div class="pager"><p>Results per page:</p><select><option>30</option></select><p>1-30 of 1000</p></div>${para('Table', 3)}</main>`,
    );
    expectOnly(md(html), ['Ranking', 'Table'], [...CHROME_WORDS, 'Read more', 'Results per page', '1-30 of 1000']);
  });
});
