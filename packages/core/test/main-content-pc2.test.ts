// Main content on product pages (pc2): a marketplace's buyers' feedback on the seller, kept as a
// wrapper for its weight, is set aside like customer reviews and the content looked for again
// (main-content.ts SELLER_FEEDBACK). An FAQ's questions written as buttons without a heading around
// them, the button's whole text one question, wired to its answer or right before it (content-tree.ts
// isHeaderButton).
import { expect } from 'chai';
import { reducePage } from '../src/page/reduce.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const PRODUCT =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Silver Proof Set","offers":{"@type":"Offer","price":"394.99","priceCurrency":"USD"}}</script>';

const WORDS = [
  'prompt',
  'careful',
  'friendly',
  'honest',
  'quick',
  'patient',
  'generous',
  'reliable',
  'helpful',
  'polite',
  'speedy',
  'thorough',
  'cheerful',
  'precise',
  'tidy',
  'modest',
];
const comment = (k: number) =>
  `<li class="entry"><span>b***${k} (${k * 7})</span> Feedback left by buyer. Past month. Verified purchase.
    <span>Arrived well packaged and exactly as described, buyer ${k} found the ${WORDS[k - 1]} seller ${WORDS[(k * 5) % 16]} and ${WORDS[(k * 3) % 16]}, would buy again from this seller: fast shipping, good
    communication, careful packing, and a fair price for a set in this condition. Highly recommended to every collector.</span></li>`;

describe('page: main content on product pages (pc2)', () => {
  it("sets aside the buyers' feedback on the seller when it outweighs the item's details, and keeps the details", () => {
    const html = page(
      `<main><div class="item-top"><h1>Silver Proof Set</h1><div class="price">US $394.99</div>
        <p>Condition: new in original packaging</p></div>
        <div class="about-item"><h2>Item specifics</h2><dl><dt>Certification</dt><dd>Uncertified</dd>
        <dt>Mint location</dt><dd>San Francisco</dd><dt>Composition</dt><dd>Silver</dd></dl>
        <p>The seller describes the set as complete, with its box and certificate of authenticity.</p>${para('Description', 12)}</div>
        <div class="store-information"><h2>About this seller</h2><p>99.8% positive feedback</p>
        <div class="x-feedback-list"><h3>Seller feedback (123,805)</h3><ul>${Array.from({ length: 16 }, (_, k) => comment(k + 1)).join('')}</ul></div></div></main>`,
      PRODUCT,
    );
    expectOnly(
      md(html),
      ['Silver Proof Set', 'Item specifics', 'San Francisco', 'box and certificate of authenticity', 'Description paragraph 12'],
      [...CHROME_WORDS, 'Feedback left by buyer', 'would buy again from this seller'],
    );
  });

  it('keeps a feedback form or button named `feedback` on a product page', () => {
    const html = page(
      `<main><h1>Silver Proof Set</h1><div class="price">US $394.99</div>
        <div id="productDetails_feedback_sections"><h2>Product details</h2><p>Struck at the San Francisco mint in 2024, the set
        holds ten coins in their original government packaging, each a proof finish, with the mint's certificate.</p>
        <p>Weight 190 grams; the box measures 18 by 10 centimetres and closes with a magnet.</p></div></main>`,
      PRODUCT,
    );
    expectOnly(md(html), ['Silver Proof Set', 'Product details', 'Struck at the San Francisco mint', 'closes with a magnet'], CHROME_WORDS);
  });

  it("reads an FAQ's questions written as buttons whose whole text is one question, before its answer; not a row of question chips", () => {
    const inHeading = (q: string, a: string) =>
      `<div class="faq-item"><button type="button" class="toggle"><h5 class="title">${q}</h5><div class="arrow"></div></button>
        <div class="answer hidden"><p>${a}</p></div></div>`;
    const bare = (k: number, q: string, a: string) =>
      `<div><button class="row" @click="toggleFaq(${k})"><span class="text-lg">${q}</span><span class="icon"><svg viewBox="0 0 24 24"><path d="M0 0h24"/></svg></span></button>
        <div class="text-charcoal" v-show="openFaqs[${k}]"><div class="prose">${a}</div></div></div>`;
    const html = page(
      `<main><h1>Everyday sneakers</h1>${para('Intro', 3)}<h2>Frequently asked questions</h2>
        ${inHeading('How much does a custom app cost?', 'It depends on the features you need; we quote after a short call about your project.')}
        ${bare(0, 'How long should everyday shoes last?', 'Replace them every nine to twelve months, or sooner when the soles wear thin.')}
        ${bare(1, 'Is it better to buy shoes bigger or smaller?', 'Leave half an inch between your longest toe and the front of the shoe.')}
        <div class="actions"><button class="btn">Load more products</button></div>
        <div class="chat"><button class="launcher">Need help?</button></div>
        <div class="assistant"><button class="chip">Can this shoe replace a running shoe?</button><button class="chip">Can I wash these sneakers in a machine at home?</button></div></main>`,
    );
    const out = md(html);
    expectOnly(
      out,
      [
        'How much does a custom app cost?',
        'we quote after a short call',
        'How long should everyday shoes last?',
        'Is it better to buy shoes bigger or smaller?',
        'half an inch',
      ],
      [...CHROME_WORDS, 'Load more products', 'Need help?', 'Can this shoe replace', 'Can I wash these sneakers'],
    );
    const text = reducePage(html, { url: 'https://site.example/x/', mode: 'standard' }).text;
    expect(text).to.include('How long should everyday shoes last?');
    expect(text).to.include('How much does a custom app cost?');
  });
});
