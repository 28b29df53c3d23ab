// Main content: rules from helper ls3 (listing pages).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { expectOnly, md, page } from './main-content-pages.ts';

const excerpt = (n: number) =>
  `<p>Post ${n} walks through the whole orchard season, from the first buds in spring to the last apples in autumn, with notes on soil, water and the weather that shaped the harvest this year.</p>`;

describe('page: main content of listings (ls3)', () => {
  it("keeps each card's date and author on a blog's front page typed article, and leaves out a lone article's byline", () => {
    const cards = [1, 2, 3, 4]
      .map(
        (n) => `<article class="post entry category-${['news', 'tips', 'garden', 'fruit'][n - 1]} tag-t${n}">
        <h2><a href="/posts/${n}">The orchard diary, part ${n}</a></h2>
        <p class="date"><time datetime="2025-11-0${n}">November ${n}, 2025</time></p>
        <p class="author">By Jane Doe${n}</p>${excerpt(n)}</article>`,
      )
      .join('');
    const html = page(`<main><h1>Orchard blog</h1>${cards}</main>`);
    expect(findMainContent(html).type).to.equal('article');
    expectOnly(md(html), ['November 1, 2025', 'November 4, 2025', 'By Jane Doe2', 'The orchard diary, part 3'], ['Menu one', 'Footer text']);
    const lone = page(
      `<main><article><h1>The orchard diary</h1><p class="date"><time>November 1, 2025</time></p>${excerpt(1)}${excerpt(2)}${excerpt(3)}</article></main>`,
    );
    expectOnly(md(lone), ['The orchard diary', 'Post 3 walks'], ['November 1, 2025']);
    // (an article's own byline beside its title, of the same kind as its related posts' dates: all go)
    const related = page(`<main><article><p class="date">November 9, 2025</p><h1>The orchard diary</h1>${excerpt(1)}${excerpt(2)}${excerpt(3)}
      ${cards.replace(/<p class="date"><time[^>]*>([^<]*)<\/time><\/p>/g, '<p class="date">$1</p>')}</article></main>`);
    expectOnly(md(related), ['The orchard diary', 'The orchard diary, part 3'], ['November 9, 2025', 'November 2, 2025']);
  });

  it("leaves out the control every card carries on a news list typed article, and keeps a sentence's link", () => {
    const cards = [1, 2, 3, 4, 5, 6]
      .map(
        (n) => `<article class="story">
        <h2><a href="/news/${n}">Harvest report number ${'one two three four five six'.split(' ')[n - 1]}</a></h2>${excerpt(n)}
        <div><span>Filed under harvest news from the valley farms</span> <a href="/search?like=${n}">More like this</a></div></article>`,
      )
      .join('');
    const html = page(`<main><h1>Latest news</h1>${cards}</main>`);
    expect(findMainContent(html).type).to.equal('article');
    expectOnly(md(html), ['Harvest report number six', 'Post 6 walks'], ['More like this']);
    const links = [1, 2, 3, 4, 5, 6].map((n) => `<p>For the tools of step ${n}, see <a href="/tools/${n}">here</a> before you start.</p>`).join('');
    const article = page(`<main><article><h1>Pruning, step by step</h1>${excerpt(1)}${links}</article></main>`);
    expect(findMainContent(article).type).to.equal('article');
    expect(md(article).match(/\[here\]/g)?.length).to.equal(6);
  });
});
