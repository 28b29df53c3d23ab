// Main content on listing pages: the reader's rating input in every row (rating-inputs.ts).
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
});
