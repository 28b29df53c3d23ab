import { expect } from 'chai';
import { executeRecipe, pageSkeleton } from '../src/recipes/index.ts';

const URL = 'https://shop.example.com/p/trail-kettle';
const words = (n: number, w: string): string => Array.from({ length: n }, (_, i) => `${w} ${i}`).join(' ');

describe('recipes: the page skeleton shows what a recipe can select', () => {
  it('does not count siblings away that share a name but not a shape (a page laid out in bare tables)', () => {
    const cards = Array.from(
      { length: 12 },
      (_, i) =>
        `<li class="card"><img src="/i/${i}.jpg" alt=""><a href="/p/${i}">Kettle ${i}</a><span class="cost">$${i}0</span><span class="badge">New</span></li>`,
    ).join('');
    const html = `<html><body>
      <table><tr><td><div class="help">Call us ${words(8, 'anytime')}</div></td></tr></table>
      <table><tr><td><a href="/">Home</a> <a href="/camp">Camping</a> <a href="/camp/cook">Cooking</a> <a href="/camp/cook/pots">Pots</a>
        <a href="/camp/cook/pots/steel">Steel</a> <a href="/camp/cook/pots/steel/sinks">Sinks</a> <a href="/camp/cook/pots/steel/sinks/carry">Carry</a>
        <a href="/brands/uniflame">UNIFLAME</a></td></tr></table>
      <table><tr><td><h1>Trail Kettle</h1><div><meta itemprop="price" content="88.00"><span class="prodPrice">€ 88,00</span>
        <span itemprop="availability" content="http://schema.org/InStock"></span></div>
        <p>${words(60, 'The kettle boils water quickly')}</p></td></tr></table>
      <table><tr><th>Shipping</th></tr><tr><td>${words(5, 'days')}</td></tr></table>
      <ul class="grid">${cards}</ul>
    </body></html>`;
    const skeleton = pageSkeleton(html);
    expect(skeleton).to.contain('meta[itemprop="price"][content="88.00"]').and.contain('span.prodPrice "€ 88,00"');
    expect(skeleton).to.contain('span[itemprop="availability"][content="http://schema.org/InStock"]');
    // What the skeleton shows, a recipe reads.
    const [record] = executeRecipe(
      {
        version: 1,
        container: null,
        fields: {
          price: { selector: 'meta[itemprop="price"]', read: 'attr', attr: 'content' },
          shown: { selector: 'span.prodPrice', read: 'text' },
          availability: { selector: '[itemprop="availability"]', read: 'attr', attr: 'content' },
        },
      },
      html,
      { url: URL },
    );
    expect(record).to.deep.equal({ price: '88.00', shown: '€ 88,00', availability: 'http://schema.org/InStock' });
    // Cards alike in name and shape are still counted; the last of a run of links is shown after
    // their count (a breadcrumb's last link names the category or the brand).
    expect(skeleton).to.contain('… 9 more li.card like the above').and.not.contain('Kettle 11');
    expect(skeleton).to.match(/… 4 more a elements\n\s*a\[href="\/brands\/uniflame"\] "UNIFLAME"/);
  });

  it('counts away cards told apart only by generated ids', () => {
    const ids = ['R2UX519NMLCSQS', 'R2EG3CJ7Y55HVD', 'R3P15VJYHO64OU', 'R18NS09D7PV7IS', 'R3A6TNWI5Q0WRD', 'RCTIYGKT8KG79'];
    const reviews = ids
      .map(
        (id) =>
          `<div id="${id}" class="review"><a class="author" href="/profile/${id}">Ann</a><span class="review-date">Reviewed on 7 June 2020</span><p>${words(12, 'Great')}</p></div>`,
      )
      .join('');
    const html = `<html><body><main><h1>Walkie talkie</h1><div class="offer"><span class="price">21,99 €</span></div><p>${words(40, 'A radio')}</p>
      <section class="list">${reviews}</section></main></body></html>`;
    const skeleton = pageSkeleton(html);
    expect(skeleton).to.contain('div#R2UX519NMLCSQS.review').and.contain('… 2 more div.review like the above').and.contain('div#RCTIYGKT8KG79.review');
    expect(skeleton).to.not.contain('R3A6TNWI5Q0WRD');
  });

  it('shows every row of a specification table in the main content', () => {
    const rows = Array.from({ length: 45 }, (_, i) => `<tr><th>Property ${i}</th><td>Value ${i}</td></tr>`).join('');
    const html = `<html><body><nav><a href="/">Home</a></nav><main><h1>Walkie talkie</h1><p>${words(80, 'A radio for children')}</p>
      <table id="specs">${rows}<tr><th>Model number</th><td class="v">EUA1026P</td></tr></table></main></body></html>`;
    const skeleton = pageSkeleton(html);
    expect(skeleton).to.contain('td.v "EUA1026P"').and.contain('td "Value 44"').and.not.contain('more tr');
  });

  it('folds the parts that show least to fit, instead of cutting the tail where the specifications are', () => {
    // A buy box of empty slots and long names, a gallery and marketing prose, then the specifications.
    const slots = Array.from(
      { length: 60 },
      (_, i) => `<div id="slot${i}_feature_div" class="celwidget" data-feature-name="slot${i}"><div class="a-section a-spacing-none"></div></div>`,
    ).join('');
    const gallery = Array.from(
      { length: 40 },
      (_, i) => `<div class="aplus-module"><img src="/img/banner-${i}.jpg" alt="Banner ${i}"><p>${words(30, 'Lovely')}</p></div>`,
    ).join('');
    const html = `<html><body><div id="dp-container" role="main">
      <div id="buybox">${slots}<span id="price" class="a-price">8,71 €</span></div>
      <div id="aplus">${gallery}</div>
      <table id="productDetails_techSpec"><tr><th>Brand</th><td>WELEDA</td></tr><tr><th>Model number</th><td>8856</td></tr></table>
      </div></body></html>`;
    const skeleton = pageSkeleton(html, { maxChars: 3000 });
    expect(skeleton.length).to.be.at.most(3000);
    expect(skeleton).to.contain('td "8856"').and.contain('td "WELEDA"').and.contain('span#price.a-price "8,71 €"');
    expect(skeleton)
      .to.match(/lines folded\)/)
      .and.not.contain('skeleton cut');
    // Slots that show nothing are not worth a line; a data-* value repeating the id is not shown.
    expect(skeleton).to.not.contain('slot7_feature_div').and.not.contain('data-feature-name="slot');
  });

  it('shows attribute values whole, the canonical URL whole and the Product JSON-LD first', () => {
    const long = `KÄRCHER Hochdruckreiniger K 3 Full Control für 119,01 €, mit Power Pistole, Strahlrohren und ${words(6, 'Zubehör')}`;
    const html = `<html><head><link rel="canonical" href="https://shop.example.com/p/montre-casio-pro-trek-prw-3100yb-1er-montre-pro-trek-resine-noir-14347.html">
      <link rel="alternate" media="only screen and (max-width: 640px)" href="https://m.shop.example.com/p/trail-kettle?offerid=5Hm3xUsb&amp;show-uid=1606747306">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"Home"}]}</script>
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Kettle","sku":"TK-9","gtin13":"5901885533094","mpn":"A157S546","brand":{"@type":"Brand","name":"Acme"},"offers":{"@type":"Offer","price":"119.01","availability":"https://schema.org/InStock"}}</script>
      </head><body><main><h1>Trail Kettle</h1><span id="reducedPriceAmount" content="119.01">119,01 €</span>
      <meta itemprop="description" content="${long}"><p>${words(20, 'Boils water')}</p>
      <a class="spec" href="/product/smes-nutrilon-nutricia-3-premium-s-12-mesiatsev-1200-g/1747680089/spec?sku=TK-9-BLUE">Specifications</a></main></body></html>`;
    const skeleton = pageSkeleton(html);
    expect(skeleton).to.contain('-14347.html"]').and.contain(`content="${long}"`).and.contain('show-uid=1606747306"]');
    // A long link is cut in its middle: the id at its end stays.
    expect(skeleton).to.match(/a\.spec\[href="\/product\/smes-[^"]*…[^"]*\?sku=TK-9-BLUE"\] "Specifications"/);
    expect(skeleton.indexOf('"@type":"Product"')).to.be.within(0, skeleton.indexOf('"@type":"BreadcrumbList"'));
    expect(skeleton).to.contain('"sku":"TK-9"').and.contain('"gtin13":"5901885533094"').and.contain('span#reducedPriceAmount[content="119.01"]');

    // A recipe written from what the skeleton shows reads each value.
    const [record] = executeRecipe(
      {
        version: 1,
        container: null,
        fields: {
          sku: { read: 'jsonld', path: '[@type=Product].sku' },
          gtin: { read: 'jsonld', path: '[@type=Product].gtin13' },
          brand: { read: 'jsonld', path: '[@type=Product].brand.name' },
          price: { selector: '#reducedPriceAmount', read: 'attr', attr: 'content' },
          availability: { read: 'jsonld', path: '[@type=Product].offers.availability' },
          canonical: { selector: 'link[rel="canonical"]', read: 'attr', attr: 'href', transforms: [{ op: 'regex', pattern: '-(\\d+)\\.html$' }] },
        },
      },
      html,
      { url: URL },
    );
    expect(record).to.deep.equal({
      sku: 'TK-9',
      gtin: '5901885533094',
      brand: 'Acme',
      price: '119.01',
      availability: 'https://schema.org/InStock',
      canonical: '14347',
    });
  });
});
