// Main content: a hub of headlines (page-type.ts headlines()) is a listing, whatever its site's Article markup.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const topics = ['Space', 'Health', 'Climate', 'Oceans'];
/** A section of six stories: each a card with its headline linked and a short teaser. */
const section = (topic: string, k: number) =>
  `<section class="topic-${k}"><h2>${topic}</h2>` +
  Array.from(
    { length: 6 },
    (_, i) => `<div class="story"><h3><a href="/news/${topic.toLowerCase()}-${i}">${topic} headline number ${i} about a finding</a></h3>
      <p class="teaser">Teaser ${k}-${i}: one line on the story.</p></div>`,
  ).join('') +
  `</section>`;
const ARTICLE_LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Science news"}</script>`;

describe('page: main content of a hub of headlines', () => {
  it('types a news section page of linked headlines a listing, though its site marks up every page an Article, and keeps the headlines', () => {
    const html = page(`<main><h1>Science news</h1>${topics.map(section).join('')}</main>`, ARTICLE_LD);
    expect(findMainContent(html).type).to.equal('listing');
    expectOnly(md(html), ['Space headline number 0 about a finding', 'Oceans headline number 5 about a finding', 'Teaser 3-5'], CHROME_WORDS);
  });

  it('does so for stories as <article> cards titled in a <header> link, with no markup', () => {
    const cards = Array.from(
      { length: 24 },
      (_, i) => `<article><header><a href="/news/item-${i}">Release ${i} brings a faster compositor and fixes</a></header>
        <div class="details">7 March - <a href="/topic/${i}">Topic ${i}</a></div><p>Summary ${i}: the release notes in a few sentences, saying what changed, which hardware gains from it and when the next version is due, as a news site's teaser does.</p></article>`,
    ).join('');
    const html = page(`<div id="main"><h2>7 March</h2>${cards}</div>`);
    expect(findMainContent(html).type).to.equal('listing');
    expectOnly(md(html), ['Release 0 brings a faster compositor', 'Release 23 brings a faster compositor', 'Summary 12'], CHROME_WORDS);
  });

  it('leaves an article with a few linked headings an article', () => {
    const html = page(
      `<main><article><h1>How tides work</h1>${para('Tides', 3)}` +
        Array.from({ length: 6 }, (_, i) => `<h2><a href="#s${i}">Part ${i}</a></h2>${para('Part ' + i, 2)}`).join('') +
        `</article></main>`,
      ARTICLE_LD,
    );
    expect(findMainContent(html).type).to.equal('article');
  });
});
