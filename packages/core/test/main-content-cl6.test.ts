// Main content on a shop's category page in another language: the stock and delivery notices on its
// cards ("En stock", "Auf Lager", "Livraison offerte", "Envío gratis") are left out like the English
// ones (card-notices.ts); "Rupture de stock" (out of stock) stays.
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

describe("page: main content of a category page with the shop's notices on its cards, not in English (cl6, issue 22)", () => {
  const card = (i: number, notice: string) =>
    `<div class="product"><a href="/p/grill-${i}"><img src="/g${i}.jpg" alt=""></a>
       <h3><a href="/p/grill-${i}">Barbecue charbon modèle ${i}</a></h3>
       <div class="price"><span>${i}49,00 €</span></div><p class="stock">${notice}</p></div>`;
  const notices = ['En stock', 'Auf Lager', 'Op voorraad', 'Livraison offerte', 'Kostenloser Versand', 'Envío gratis', 'Rupture de stock'];

  it("leaves out a card's stock and delivery notices in French, German, Dutch and Spanish, keeps what says the item cannot be had", () => {
    const html = page(`<main><h1>Barbecues charbon</h1><div class="grid">${notices.map((n, i) => card(i + 1, n)).join('')}</div></main>`);
    expectOnly(
      md(html),
      ['Barbecues charbon', 'Barbecue charbon modèle 3', '349,00 €', 'Rupture de stock'],
      ['En stock', 'Auf Lager', 'Op voorraad', 'Livraison offerte', 'Kostenloser Versand', 'Envío gratis', ...CHROME_WORDS],
    );
  });

  it('keeps such words in a longer sentence on a card', () => {
    const html = page(
      `<main><h1>Barbecues charbon</h1><div class="grid">${[1, 2, 3, 4, 5, 6].map((i) => card(i, `En stock dans notre entrepôt de Lyon sous ${i} jours`)).join('')}</div></main>`,
    );
    expectOnly(md(html), ['Barbecue charbon modèle 3', 'En stock dans notre entrepôt de Lyon'], CHROME_WORDS);
  });
});
