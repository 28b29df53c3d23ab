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
