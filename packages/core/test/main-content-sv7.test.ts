// Main content: the captions under an article's pictures are left out (captions.ts); a figure's caption
// that attributes a quote or titles a table stays, and so do a service page's captions.
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const ARTICLE = '<meta property="og:type" content="article">';

describe('page: main content, captions under an article pictures', () => {
  it("leaves out an article's photo captions and credits", () => {
    const html = page(
      `<main><article>
        <h1>A year in the winter garden</h1>
        ${para('Seedheads', 3)}
        <figure class="wp-block-image"><img src="/grass.jpg" alt="">
          <figcaption class="wp-element-caption">Above: the fluffy seedheads of the grass glow in the winter light. Photo by Jane Doe.</figcaption></figure>
        ${para('Birds', 3)}
        <figure><picture><img src="/pond.jpg" alt=""></picture><figcaption>Image credit: Someone via Wikimedia Commons</figcaption></figure>
        ${para('Ponds', 2)}</article></main>`,
      ARTICLE,
    );
    expectOnly(
      md(html),
      ['A year in the winter garden', 'Seedheads paragraph 3', 'Birds paragraph 1', 'Ponds paragraph 2'],
      ['fluffy seedheads', 'Image credit', ...CHROME_WORDS],
    );
  });

  it("keeps a quote's attribution and a table's title given as a figure's caption", () => {
    const html = page(
      `<main><article>
        <h1>What content teams expect next year</h1>
        ${para('Search', 3)}
        <figure class="quote"><blockquote><p>Search is becoming a conversation, and content has to answer it.</p></blockquote>
          <figcaption>Patrick Reynolds, VP of Services at Example Corp</figcaption></figure>
        <figure><table><tr><th>Year</th><th>Share</th></tr><tr><td>2024</td><td>12%</td></tr></table>
          <figcaption>Table 1. Share of searches answered in place</figcaption></figure>
        ${para('Answers', 2)}</article></main>`,
      ARTICLE,
    );
    expectOnly(md(html), ['Patrick Reynolds, VP of Services', 'Table 1. Share of searches', 'Answers paragraph 2'], CHROME_WORDS);
  });

  it("keeps a service page's captions", () => {
    const html = page(`<main>
      <h1>Garden design for small yards</h1>
      ${para('Design', 3)}
      <figure><img src="/yard.jpg" alt=""><figcaption>A courtyard we planted in Leeds for a family of four.</figcaption></figure>
      ${para('Planting', 2)}
      <a class="button" href="/quote">Get a quote</a></main>`);
    expectOnly(md(html), ['A courtyard we planted in Leeds', 'Planting paragraph 2'], CHROME_WORDS);
  });
});

describe('page: main content, author blocks of an article named by their class', () => {
  it("leaves out an article's byline and author bio box named as the author's", () => {
    const html = page(
      `<main><article>
        <h1>The best car rental companies this year</h1>
        <div class="template-header__author-block"><a href="/people/amar">Amar Hussain</a> Senior Content Contributor, 867 published articles</div>
        ${para('Rentals', 4)}
        <section class="authorInfo"><p>Amar is an avid traveler and tester of products who has visited forty countries.</p></section>
      </article></main>`,
      ARTICLE,
    );
    expectOnly(md(html), ['The best car rental companies', 'Rentals paragraph 4'], ['Senior Content Contributor', 'avid traveler', ...CHROME_WORDS]);
  });

  it('keeps a block named as the author that holds the title', () => {
    const html = page(
      `<main><article>
        <div class="post-author-header"><h1>Notes from a year of gardening</h1><p>By Ann Lee, who has kept this garden since 1990.</p></div>
        ${para('Garden', 4)}</article></main>`,
      ARTICLE,
    );
    expectOnly(md(html), ['Notes from a year of gardening', 'By Ann Lee', 'Garden paragraph 4'], CHROME_WORDS);
  });

  it("keeps a quote's speaker named as its author", () => {
    const html = page(
      `<main><article>
        <h1>Why local search matters</h1>
        ${para('Search', 4)}
        <div class="card"><div class="text">"If you want to save time and money, this belongs in your toolkit."</div>
          <div class="tm-author main-author"><p>Susan Hallam</p><p>Managing Director, Hallam Internet</p></div></div>
      </article></main>`,
      ARTICLE,
    );
    expectOnly(md(html), ['save time and money', 'Susan Hallam', 'Managing Director, Hallam Internet'], CHROME_WORDS);
  });

  it("keeps a list's cards whose classes name their posts' authors", () => {
    const html = page(
      `<main><article><h1>Industry news</h1>
        ${[1, 2, 3, 4]
          .map(
            (i) =>
              `<div class="entry hentry author-jennifer-charles"><h2>Story ${i} about the consulting market</h2><p>Story ${i} tells of a merger between two firms and what it means for their clients.</p></div>`,
          )
          .join('')}
      </article></main>`,
      ARTICLE,
    );
    expectOnly(md(html), ['Story 1 about', 'Story 4 tells of a merger'], CHROME_WORDS);
  });
});
