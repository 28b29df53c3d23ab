// Main content on listing pages: the reader's rating input in every row (rating-inputs.ts), the
// list's comments (thread-parts.ts), the control every row carries (row-controls.ts).
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

describe('page: main content on listing pages (ls2)', () => {
  it("the reader's star rating input in every row of a list is a control, not the list", () => {
    const star = (n: number, title: string) => `<a class="star off" title="${title}" href="#">${n} of 5 stars</a>`;
    const row = (i: number) =>
      `<tr><td class="number">${i}</td><td><a href="/book/${i}">The novel number ${i}</a> by <a href="/author/${i}">Writer ${i}</a><br>
        4.${i} avg rating — ${i},204 ratings, a story of a family across three generations and two wars</td>
       <td><div class="ratingStars"><div class="myRating">Rate this book</div><div class="clearRating">Clear rating</div>
        <div class="stars">${star(1, 'did not like it')}${star(2, 'it was ok')}${star(3, 'liked it')}${star(4, 'really liked it')}${star(5, 'it was amazing')}</div></div></td></tr>`;
    const html = page(
      `<main><h1>Best books ever</h1><p>The best books ever, as voted on by the readers of this site over many years.</p>
        <table class="tableList">${Array.from({ length: 8 }, (_, i) => row(i + 1)).join('')}</table></main>`,
    );
    expectOnly(
      md(html),
      ['Best books ever', 'The novel number 3', 'Writer 5', '4.6 avg rating'],
      ['Rate this book', 'Clear rating', '1 of 5 stars', 'it was amazing', ...CHROME_WORDS],
    );
  });

  it("a list's comment section is not the list", () => {
    const item = (i: number) =>
      `<li class="entry"><h3><a href="/film/${i}">Film number ${i}</a></h3><p>A drama from the year 19${50 + i}, shot in black and white over two summers.</p></li>`;
    const comment = (i: number) =>
      `<div class="comment" id="comment_${i}"><strong>message ${i}:</strong> by <a href="/user/${i}">Reader ${i}</a>
        <div class="commentText">I cannot believe number ${i} made it this high on the list, what were the voters thinking about this one.</div></div>`;
    const html = page(
      `<main><h1>The greatest films of all time</h1><p>Every film on this list was voted in by the community of our site.</p>
        <ol class="ranked">${Array.from({ length: 10 }, (_, i) => item(i + 1)).join('')}</ol>
        <div id="comment_list">${Array.from({ length: 4 }, (_, i) => comment(i + 1)).join('')}</div></main>`,
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","name":"The greatest films"}</script>',
    );
    expectOnly(
      md(html),
      ['The greatest films of all time', 'Film number 7', 'shot in black and white'],
      ['message 2:', 'Reader 3', 'what were the voters', ...CHROME_WORDS],
    );
  });

  it("the control every row carries, each to its own row's target, is not the list; a tag linked from every row is", () => {
    const row = (i: number) =>
      `<tr><td class="title"><a href="/item/${i}">A story about the number ${i} and what it means for the world</a></td></tr>
       <tr><td class="subtext">${i} points by <a href="/user/u${i}">writer${i}</a> ${i} hours ago | <a href="/hide?id=${i}">hide</a> |
         <a href="/item/${i}#c">discuss</a> | <a href="/tags/science">science</a></td></tr>`;
    const html = page(
      `<main><h1>Newest stories</h1><table class="itemlist">${Array.from({ length: 8 }, (_, i) => row(i + 1)).join('')}</table></main>`,
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","name":"Newest"}</script>',
    );
    const out = md(html);
    expectOnly(out, ['Newest stories', 'what it means for the world', 'writer3', 'science'], ['hide', 'discuss', ...CHROME_WORDS]);
  });
});
