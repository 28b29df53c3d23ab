// Main content: the guards that keep the text a rule of offer-notes.ts, loyalty.ts and the
// testimonials of a shop's grid (left-out.ts) would otherwise take: replies opening with "^" on a
// thread, the text after a note in one block, a game's rewards without a number, a company's reviews.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const post = (i: number, text: string) =>
  `<div class="post" id="p${i}"><div class="post-header"><a href="/members/user${i}">user${i}</a> <time datetime="2024-03-0${i}">Mar ${i}, 2024</time></div>
    <div class="postbody"><p>${text}</p></div></div>`;

describe('page: main content keeps what looks like a footnote but is not one', () => {
  it('keeps replies opening with "^" on a thread', () => {
    const html = page(`<div class="topic"><h1>Lathe question</h1>
      ${post(1, 'Which lathe should a beginner buy for small wooden bowls and pens?')}
      ${post(2, '^ This is the right question to ask before spending anything at all.')}
      ${post(3, '^^ Agreed, and buy the chisels before you buy the lathe itself.')}
      ${post(4, 'A second hand bench lathe is enough for bowls up to eight inches.')}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['Lathe question', 'This is the right question', 'Agreed, and buy the chisels', 'second hand bench lathe'], CHROME_WORDS);
  });

  it("keeps the text after a note in the note's block, and leaves out the notes", () => {
    const html = page(`<main><article><h1>Store card offers</h1>${para('Offer', 3)}
      <div class="terms"><p>‡ Subject to credit approval.</p><p>The store card also gives free delivery on every order over fifty dollars.</p></div>
      <div class="terms"><p>^ Not combinable with other offers.</p></div></article></main>`);
    expectOnly(md(html), ['Offer paragraph 3', 'The store card also gives free delivery'], ['Subject to credit approval', 'Not combinable', ...CHROME_WORDS]);
  });
});

describe("page: main content keeps a product's words about rewards that are not the shop's points", () => {
  const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Star Quest","offers":{"@type":"Offer","price":"19.99","priceCurrency":"USD"}}</script>`;
  it('keeps a game\'s "earn rewards" without a number, and leaves out the note with one', () => {
    const html = page(
      `<main><h1>Star Quest</h1><div class="box"><p class="price">$19.99</p><div class="points"><span>Members earn 20 points on this purchase.</span></div></div>
      ${para('Quest', 3)}<p>Complete daily quests to earn rewards.</p></main>`,
      LD,
    );
    expectOnly(md(html), ['Star Quest', 'Quest paragraph 3', 'Complete daily quests to earn rewards'], ['Members earn', ...CHROME_WORDS]);
  });
});

describe("page: main content of a category page keeps a block of a company's reviews", () => {
  const card = (i: number) =>
    `<li class="item"><a href="/p/${i}"><h3>Graphics card ${i}</h3></a><p>Triple fans, 16GB of memory, quiet under load.</p><span class="price">$${i}99.99</span></li>`;
  it('keeps a block named company-reviews beside the grid, and leaves out one named bestselling-reviews', () => {
    const html = page(`<main><h1>Graphics cards</h1><ul class="grid">${[1, 2, 3, 4, 5, 6, 7, 8].map(card).join('')}</ul>
      <div class="company-reviews"><h2>What reviewers say about our shop</h2><p>Fast delivery and a careful choice of cards, says the Hardware Weekly review.</p></div>
      <div class="bestselling-reviews"><h2>Bestsellers reviewed</h2><p>Runs every game I own at high settings without a sound.</p></div></main>`);
    expectOnly(md(html), ['Graphics card 4', 'What reviewers say', 'Hardware Weekly review'], ['Bestsellers reviewed', 'Runs every game', ...CHROME_WORDS]);
  });
});

describe("page: main content keeps a help page's step that says where to sign in", () => {
  it('keeps "Log in to your account and open Billing", and leaves out a prompt to sign in to do something', () => {
    const html = page(`<main><h1>Billing help</h1>${para('Billing', 3)}<p>Log in to your account and open Billing to see every invoice.</p>
      <div class="cta"><p>Sign in to save this answer to your list.</p><button>Sign in</button></div></main>`);
    expectOnly(md(html), ['Billing paragraph 3', 'Log in to your account and open Billing'], ['Sign in to save', ...CHROME_WORDS]);
  });
});
