// Main content: a list whose rows are each a title link followed by its description (link-blocks.ts) keeps the titles.
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const names = ['Grammar Garden', 'Verb Workshop', 'Reading Ladder', 'Listening Lounge', 'Word Market', 'Sound Studio'];

describe('page: main content of a list of described links', () => {
  it("keeps each row's title link beside its description, and still leaves out a list of bare links", () => {
    const rows = names
      .map(
        (n, i) => `<li><div class="item"><span><a href="https://ex${i}.example/">${n}</a></span>
        <div class="desc">A resource with lessons, exercises and self-checking activities number ${i}.</div></div></li>`,
      )
      .join('');
    const html = page(`<main><article><h1>Online language learning resources</h1>
      ${para('Resources', 2)}
      <h2>Learning sites</h2><ul class="links">${rows}</ul>
      ${para('Later', 1)}
      <div class="see-also"><ul><li><a href="/a">Other guide one</a></li><li><a href="/b">Other guide two</a></li><li><a href="/c">Other guide three</a></li></ul></div>
      </article></main>`);
    expectOnly(md(html), [...names, 'self-checking activities number 3'], ['Other guide two', ...CHROME_WORDS]);
  });
});
