// Main content on product pages: the shop's FAQ section (product-faqs.ts), its loyalty note beside
// the buy box (loyalty.ts) and the "View full details" link to the product's own page (labels.ts);
// a prompt to sign in standing alone (sign-in-prompts.ts), a "Return to top of page" button
// (labels.ts) and a rail named "Others like you also bought" (rails.ts).
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Garden Feeder","offers":{"@type":"Offer","price":"99.00","priceCurrency":"USD"}}</script>`;
const QA = `<div class="item"><h3>When will my order arrive?</h3><p>Orders leave our warehouse within a day and arrive in three to five working days.</p></div>
  <div class="item"><h3>Does it need Wi-Fi?</h3><p>Yes, a wireless network is needed to send the photos to your phone.</p></div>`;

describe('page: main content of product pages (pd5)', () => {
  it("leaves out a product page's FAQ section under its heading", () => {
    const html = page(
      `<main><h1>Garden Feeder</h1><p class="price">$99.00</p>${para('Feeder', 3)}
      <section class="specs"><h2>Specifications</h2><ul><li>Height: 23 cm</li><li>Weight: 600 g</li></ul></section>
      <section class="block"><h2>Frequently asked questions</h2>${QA}</section></main>`,
      LD,
    );
    expectOnly(
      md(html),
      ['Garden Feeder', 'Feeder paragraph 3', 'Height: 23 cm'],
      ['Frequently asked questions', 'When will my order arrive', 'wireless network', ...CHROME_WORDS],
    );
  });

  it('leaves out an FAQ named by a label or a heading naming the product, and stops at the next section', () => {
    const html = page(
      `<main><h1>Garden Feeder</h1><p class="price">$99.00</p>${para('Feeder', 3)}
      <div class="wrap"><div class="faq"><div class="toggle"><span class="toggle__title">Common questions</span></div>${QA}</div>
      <div><h2>Feeder FAQs</h2><div><h4>Is it weatherproof?</h4><p>It is sealed against rain and snow in every season of the year.</p></div></div>
      <div><h2>In the box</h2><p>A feeder, a mount and a charging cable.</p></div></div></main>`,
      LD,
    );
    expectOnly(
      md(html),
      ['Garden Feeder', 'Feeder paragraph 3', 'A feeder, a mount and a charging cable'],
      ['Common questions', 'When will my order arrive', 'Feeder FAQs', 'weatherproof', ...CHROME_WORDS],
    );
  });

  it('keeps an FAQ on a page that is not a product', () => {
    const html = page(`<main><article><h1>Feeding birds</h1>${para('Birds', 3)}<section><h2>FAQ</h2>${QA}</section></article></main>`);
    expectOnly(md(html), ['Feeding birds', 'Birds paragraph 3', 'FAQ', 'When will my order arrive'], CHROME_WORDS);
  });

  it("leaves out the shop's loyalty note beside the buy box, keeping the price", () => {
    const html = page(
      `<main><h1>Garden Feeder</h1><div class="box"><p class="price">$99.00</p>
      <div class="points"><img alt="" src="/star.svg"><span>Members earn <b>99 points</b> on this purchase.</span></div>
      <div class="perk"><p>Rewards club</p><p>Become a member to earn 99 points today.</p></div></div>${para('Feeder', 3)}</main>`,
      LD,
    );
    expectOnly(md(html), ['Garden Feeder', '$99.00', 'Feeder paragraph 3'], ['Members earn', '99 points', 'Rewards club', ...CHROME_WORDS]);
  });

  it('keeps a sentence about points in the description', () => {
    const html = page(
      `<main><h1>Garden Feeder</h1><p class="price">$99.00</p>${para('Feeder', 3)}
      <p>Birds earn their points in our yearly count, and the feeder helps you log every visit to the garden with care, season after season, for the survey run by volunteers across the country each winter and spring, whose counts of every species seen at the feeder are published each summer.</p></main>`,
      LD,
    );
    expectOnly(md(html), ['Garden Feeder', 'Feeder paragraph 3', 'Birds earn their points'], CHROME_WORDS);
  });

  it('leaves out a "View full details" link standing alone', () => {
    const html = page(
      `<main><h1>Garden Feeder</h1><p class="price">$99.00</p><p><a class="link product__view-details" href="/products/garden-feeder">View full details</a></p>${para('Feeder', 3)}</main>`,
      LD,
    );
    expectOnly(md(html), ['Garden Feeder', '$99.00', 'Feeder paragraph 3'], ['View full details', ...CHROME_WORDS]);
  });

  it('leaves out a prompt to sign in standing alone, with the button beside it', () => {
    const html = page(
      `<main><h1>Garden Feeder</h1><p class="price">$99.00</p>${para('Feeder', 3)}
      <div class="panel">Sign in to add this item to your wishlist, follow it, or mark it as ignored<button>Sign in</button></div></main>`,
      LD,
    );
    expectOnly(md(html), ['Garden Feeder', 'Feeder paragraph 3'], ['Sign in to add this item', 'wishlist', ...CHROME_WORDS]);
  });

  it("keeps a guide's step that says to sign in", () => {
    const html = page(
      `<main><article><h1>Setting up the feeder app</h1>${para('Setup', 3)}<ol><li>Sign in to the feeder app.</li><li>Pick the feeder from the list.</li></ol></article></main>`,
    );
    expectOnly(md(html), ['Setting up the feeder app', 'Sign in to the feeder app.'], CHROME_WORDS);
  });

  it('leaves out a "Return to top of page" button that is no link', () => {
    const html = page(
      `<main><h1>Garden Feeder</h1><p class="price">$99.00</p>${para('Feeder', 3)}<div class="pdp-back-btn">RETURN TO TOP OF PAGE</div></main>`,
      LD,
    );
    expectOnly(md(html), ['Garden Feeder', 'Feeder paragraph 3'], ['RETURN TO TOP', ...CHROME_WORDS]);
  });

  it('leaves out a rail named "Others like you also bought"', () => {
    const rail = ['Seed Cake', 'Water Dish', 'Pole Mount']
      .map((n) => `<div class="card"><a href="/products/${n.toLowerCase().replace(' ', '-')}">${n}</a> <span>$12.00</span></div>`)
      .join('');
    const html = page(
      `<main><h1>Garden Feeder</h1><p class="price">$99.00</p>${para('Feeder', 3)}<section><div><h3>Others Like You Also Bought:</h3>${rail}</div></section></main>`,
      LD,
    );
    expectOnly(md(html), ['Garden Feeder', 'Feeder paragraph 3'], ['Also Bought', 'Seed Cake', 'Pole Mount', ...CHROME_WORDS]);
  });
});
