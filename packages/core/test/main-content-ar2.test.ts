// Main content: an article's newsletter sign-up whose form is already left out by its name keeps no heading or pitch (left-out.ts signups).
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content of an article followed by a newsletter sign-up', () => {
  it('leaves out the heading and pitch beside a sign-up form named as a newsletter form', () => {
    const html = page(`<main><section><article>
      <h1>How to prune an apple tree</h1>
      ${para('Pruning', 4)}</article></section>
      <section class="band"><div class="wrap"><div class="row"><div class="col">
        <h2>Join 20,000 readers who get our weekly letter about orchards.</h2>
        <p>Every Friday, a short note on the season's work in the garden, and nothing else.</p></div></div>
        <div class="row"><div class="col"><form id="form-Newsletter-Box" action="/subscribe" method="post">
          <label for="em">Email address</label><input type="email" id="em" name="email_address" placeholder="Your email">
          <input type="submit" value="Subscribe"></form></div></div></div></section></main>`);
    expectOnly(md(html), ['How to prune an apple tree', 'Pruning'], ['Join 20,000 readers', 'Every Friday', ...CHROME_WORDS]);
  });

  it("keeps the heading and pitch beside a form left out under a name that is no sign-up's", () => {
    const html = page(`<main><article>
      <div class="hero"><h2>Turn your orchard into a business in one season</h2>
        <p>We plan, plant and prune with you, from the first tree to the first harvest sold.</p>
        <form class="booking toolbar" action="/book"><input type="email" name="email"></form></div>
      <h1>How to prune an apple tree</h1>
      ${para('Pruning', 4)}</article></main>`);
    expectOnly(md(html), ['Turn your orchard', 'We plan, plant and prune'], CHROME_WORDS);
  });

  it('keeps a text block beside an email field left out under a hidden popup', () => {
    const html = page(`<main><article>
      <h1>How to prune an apple tree</h1>
      ${para('Pruning', 4)}
      <div class="closing"><p>Thanks for reading this guide to the orchard year.</p>
        <div hidden><form><input type="email" name="email"></form></div></div></article></main>`);
    expectOnly(md(html), ['How to prune an apple tree', 'Thanks for reading'], CHROME_WORDS);
  });
});
