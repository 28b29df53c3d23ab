// Main content on a shop's category pages: the rules that keep the category's own text and trim its
// cards (rails.ts, copies.ts).
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

describe('page: main content on category pages', () => {
  const card = (i: number) =>
    `<li class="card"><a href="/p/boot-${i}"><img src="/b${i}.jpg" alt=""></a><h3><a href="/p/boot-${i}">Trail boot model ${i}</a></h3>
     <span class="price">$1${i}9.00</span></li>`;
  const grid = `<ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul>`;

  it('a block under a "Related ..." heading with almost no links is text shown here, not a rail', () => {
    const guide = (title: string, body: string) =>
      `<div class="accordion"><h3><button aria-expanded="false" aria-controls="x">${title}</button></h3>
       <div class="accordion-content"><div>${body}</div><p><a href="/learn/${title.length}">Read full article</a></p></div></div>`;
    const html = page(
      `<main><h1>Hiking boots</h1>${grid}
        <div class="related-articles"><h2>Related Expert Advice articles</h2>
          ${guide('How to Choose Hiking Boots', 'Hiking shoes suit day hikes and ultralight trips; boots suit multi-day treks with heavier loads. Leather uppers resist water and abrasion.')}
          ${guide('Blister Prevention and Care', 'Learn the conditions that cause blisters, how to prevent them from happening and how to treat them after they form on the trail.')}
        </div>
        <div class="related-posts"><h2>Related posts</h2><ul><li><a href="/r1">Ten winter walks near the city</a></li>
          <li><a href="/r2">Our favourite trail snacks this season</a></li><li><a href="/r3">A week on the coast path</a></li></ul></div></main>`,
    );
    expectOnly(
      md(html),
      ['Hiking boots', 'Trail boot model 3', '$139.00', 'Related Expert Advice articles', 'Leather uppers resist water', 'how to treat them'],
      ['Related posts', 'Ten winter walks', 'trail snacks', ...CHROME_WORDS],
    );
  });
});
