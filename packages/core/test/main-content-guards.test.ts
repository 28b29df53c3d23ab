// The guards of the main-content rules of pd5 and cl5 that keep real content: an FAQ section stops at
// the next heading of its rank and is never named by a link (product-faqs.ts), a prompt to sign in is
// a step of an ordered list or an article's line (sign-in-prompts.ts), and a card's own marked note
// stays (offer-notes.ts).
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Garden Feeder","offers":{"@type":"Offer","price":"99.00","priceCurrency":"USD"}}</script>`;
const QA = `<div class="item"><h3>When will my order arrive?</h3><p>Orders leave our warehouse within a day and arrive in three to five working days.</p></div>`;

describe('page: main content rules keep what they guard (product-faqs.ts, sign-in-prompts.ts, offer-notes.ts)', () => {
  it("stops a product's FAQ section at the next heading of its rank", () => {
    const html = page(
      `<main><h1>Garden Feeder</h1><p class="price">$99.00</p>${para('Feeder', 8)}
      <div class="wrap"><div><h2>FAQs</h2>${QA}</div><div><h2>In the box</h2><p>A feeder, a mount and a charging cable.</p></div></div></main>`,
      LD,
    );
    expectOnly(md(html), ['Feeder paragraph 8', 'In the box', 'A feeder, a mount and a charging cable'], ['When will my order arrive', ...CHROME_WORDS]);
  });

  it("does not take a link to the shop's FAQ for the name of a section", () => {
    const html = page(
      `<main><h1>Garden Feeder</h1><p class="price">$99.00</p>${para('Feeder', 8)}
      <div class="more"><ul><li><a href="/faq">FAQs</a></li><li><a href="/care">Care guide</a></li></ul><p>Made of recycled steel, with a roof that lifts off for cleaning.</p></div></main>`,
      LD,
    );
    expectOnly(md(html), ['Feeder paragraph 8', 'Made of recycled steel'], CHROME_WORDS);
  });

  it("keeps a step of an ordered list that says to sign in, on a product's page too", () => {
    const html = page(
      `<main><h1>Garden Feeder</h1><p class="price">$99.00</p>${para('Feeder', 3)}
      <h2>Getting started</h2><ol><li>Sign in to the feeder app.</li><li>Pick the feeder from the list.</li></ol></main>`,
      LD,
    );
    expectOnly(md(html), ['Feeder paragraph 3', 'Sign in to the feeder app.', 'Pick the feeder'], CHROME_WORDS);
  });

  it("keeps an article's line that says to sign in", () => {
    const html = page(
      `<main><article><h1>Setting up the feeder app</h1>${para('Setup', 3)}<p>Sign in to the feeder app.</p>${para('Next', 2)}</article></main>`,
    );
    expectOnly(md(html), ['Setup paragraph 3', 'Sign in to the feeder app.', 'Next paragraph 2'], CHROME_WORDS);
  });

  it("keeps a card's own marked note inside a grid of priced cards", () => {
    const card = (i: number) =>
      `<li class="product"><a href="/p/${i}"><h3>Standing desk ${i}</h3></a><span class="price">$${i}99</span><p>† Limited time offer on desk ${i}</p></li>`;
    const html = page(`<main><h1>Standing desks</h1>${para('Desk', 2)}<ul class="products">${[1, 2, 3, 4, 5, 6].map(card).join('')}</ul></main>`);
    expectOnly(md(html), ['Standing desk 4', 'Limited time offer on desk 4'], CHROME_WORDS);
  });
});
