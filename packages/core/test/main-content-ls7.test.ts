// Main content: a listing whose cards are Web Components a script has yet to draw, their items'
// titles in attributes (attribute-cards.ts attributeCards()); a hub's featured stories in its main
// landmark above the feed (featured.ts featuredAbove()).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const cards = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<course-card name='Course ${i} on data pipelines' path='/courses/${i}' duration='2 hours' type='course'></course-card>`,
  ).join('\n');

describe('page: main content, cards drawn by a script from their attributes', () => {
  it('writes a run of empty custom elements as a list of their titles, linked', () => {
    const html = page(`<main><h1>Data engineer path</h1>${para('Path', 2)}<div class="grid">${cards(6)}</div></main>`);
    const out = md(html);
    expectOnly(out, ['Path paragraph 1', 'Course 0 on data pipelines', 'Course 5 on data pipelines'], [...CHROME_WORDS, '2 hours']);
    expect(out).to.include('- [Course 3 on data pipelines](https://site.example/courses/3)');
  });

  it('leaves a lone element and identifiers alone', () => {
    const html = page(
      `<main><h1>One post</h1>${para('Post', 3)}<share-button title='One post on a subject' href='/share'></share-button>
      <x-icon name='arrow-right'></x-icon><x-icon name='arrow-left'></x-icon><x-icon name='arrow-up'></x-icon></main>`,
    );
    expectOnly(md(html), ['Post paragraph 3'], ['One post on a subject', 'arrow-right']);
  });
});

const story = (i: number, tag: string) =>
  `<article class="card"><a href="/news/${i}"><${tag}><span>Story ${i} on the markets this week</span></${tag}></a>
  <p>Teaser ${i}: what happened to prices and who it affects, in a sentence or two of plain words.</p><span>Published on ${i} March</span></article>`;

describe("page: main content, a hub's featured stories above its feed", () => {
  it("keeps the main landmark's featured stories with the heavier feed after it", () => {
    const featured = [1, 2, 3].map((i) => story(i, 'h2')).join('');
    const feed = Array.from({ length: 14 }, (_, i) => story(i + 10, 'h3')).join('');
    const html = page(
      `<div class="head"><h1>Economy</h1></div><main aria-label="Featured content">${featured}</main>
      <div class="grid"><section class="feed">${feed}</section><div class="side"><p>Most read</p></div></div>`,
    );
    const found = findMainContent(html);
    expect(found.ranges.length).to.be.at.least(2);
    expectOnly(md(html), ['Story 1 on the markets', 'Teaser 3', 'Story 23 on the markets'], CHROME_WORDS);
  });

  it('leaves a main landmark of menus before an article alone', () => {
    const html = page(
      `<main><ul class="quick"><li><a href="/a">Book a meeting</a></li><li><a href="/b">Contact support</a></li></ul></main>
      <article><h1>How we grew</h1>${para('Growth', 6)}</article>`,
    );
    expectOnly(md(html), ['Growth paragraph 6'], [...CHROME_WORDS, 'Book a meeting']);
  });
});
