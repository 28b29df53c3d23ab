// The outline of the rest of a page (reduce.ts) without the page's controls and prompts
// (outline-chrome.ts): each kind on a small page written for it.
import { expect } from 'chai';
import { card, page, reduce } from './outline-pages.ts';

describe('outline of the rest of the page: controls and prompts left out', () => {
  it("drops a control's label kept above a long line or in its paragraph (Add to cart, Loading..., a label written twice)", () => {
    const text = reduce(
      page(`<p>Add to cart</p>${card(1)}<p>Loading...</p>${card(2)}<p>Send feedback Send feedback</p>${card(3)}
        <p><span>Share this article:</span><br>${card(4).slice(3, -4)}</p><h3>Click to expand...</h3>${card(5)}<p>Skip customer reviews</p>${card(6)}`),
    );
    for (const n of [1, 2, 3, 4, 5, 6]) expect(text).to.include(`kettle number ${n}`);
    for (const c of ['Add to cart', 'Loading', 'Send feedback', 'Share this article', 'Click to expand', 'Skip customer']) expect(text).not.to.include(c);
  });

  it('drops an account prompt, a newsletter prompt and a consent notice, however long; keeps a sentence that names an account', () => {
    const text = reduce(
      page(`<p><a href="/login">You must log in or register to reply here.</a></p><h2>Create an account or sign in to comment</h2>${card(1)}
        <p>Already have an account? Sign in here.</p>
        <p>By signing up, you agree to our privacy policy and to receive emails about our kettles.</p><h3>Join Our Newsletter</h3><p>Get the latest kettle news delivered straight to your inbox every week.</p>
        <h3>Newsletter</h3><p>The creator's guide to writing a newsletter about kettles, in twelve short steps.</p>
        <p>The kettle's warranty is registered to the account of whoever bought it from the shop.</p>`),
    );
    expect(text).to.include('kettle number 1');
    expect(text).to.include("The kettle's warranty is registered to the account");
    expect(text).to.include("The creator's guide to writing a newsletter");
    for (const c of ['You must log in', 'Create an account', 'Join Our Newsletter', 'to your inbox', 'Already have', 'By signing up', '### Newsletter'])
      expect(text).not.to.include(c);
  });

  it("drops a copyright line and a list's result counter, which hold numbers; keeps other lines with numbers", () => {
    const text = reduce(
      page(`<p>Showing 24 of 291 results</p>${card(1)}<p>Page 1 of 2</p><p>Call us: 555 0100</p>
        <p>© 2025 Example Kettles Ltd. All rights reserved.</p><p>Open 8 AM to 8 PM, Monday to Friday</p>`),
    );
    for (const kept of ['kettle number 1', 'Call us: 555 0100', 'Open 8 AM to 8 PM']) expect(text).to.include(kept);
    for (const c of ['Showing 24', 'Page 1 of 2', '© 2025']) expect(text).not.to.include(c);
  });

  it("drops a rail's heading (Related products, You might also like) above its cards; keeps other headings", () => {
    const text = reduce(page(`<h2>Related products</h2>${card(1)}<h2>You Might Also Like</h2>${card(2)}<h2>Delivery times</h2>${card(3)}`));
    for (const n of [1, 2, 3]) expect(text).to.include(`kettle number ${n}`);
    expect(text).to.include('## Delivery times');
    for (const c of ['Related products', 'You Might Also Like']) expect(text).not.to.include(c);
  });

  it("drops a forum member's counters beside a post and a line of button labels said over and over; keeps a product's repeated options", () => {
    const post = (n: number) =>
      `<div class="post"><p>Joined: Feb 8, 2023</p><p>Posts: 1,077</p><p>Reaction score: 10</p><p>I tried kettle number ${n} and it boiled a litre of water in three minutes flat.</p></div>`;
    const buttons = '<p>' + 'Reply '.repeat(12) + 'Start a new thread Reply Reply</p>';
    const options = '<p>' + [1, 2, 3].map((n) => `Option: Kettle, steel, ${n} l Option: Kettle, steel, ${n} l`).join(' ') + '</p>';
    const text = reduce(page(`${post(1)}${buttons}${card(2)}${post(3)}${options}${card(4)}`));
    for (const n of [1, 2, 3, 4]) expect(text).to.include(`kettle number ${n}`);
    expect(text).to.include('Option: Kettle, steel, 3 l');
    for (const c of ['Joined:', 'Posts: 1,077', 'Reaction score', 'Reply Reply', 'Start a new thread']) expect(text).not.to.include(c);
  });

  it('drops a row of button links, every one a control; keeps a row with a link that says something', () => {
    const text = reduce(
      page(`<p><a href="/register">Try for free</a> <a href="/login">Sign in</a></p>${card(1)}
        <p><a href="/sales">Talk to an expert</a><a href="/sales">Talk to an expert</a> <a href="/trial">Get started</a></p>${card(2)}
        <p><a href="/login">Sign in</a> <a href="/guide">The kettle descaling guide</a></p>${card(3)}`),
    );
    for (const n of [1, 2, 3]) expect(text).to.include(`kettle number ${n}`);
    expect(text).to.include('[The kettle descaling guide](/guide)');
    for (const c of ['Try for free', 'Talk to an expert', 'Get started']) expect(text).not.to.include(c);
  });

  it("drops a feedback widget's question and a rail's label that is not a heading", () => {
    const text = reduce(
      page(`<p>How helpful do you find the information on this page?</p>${card(1)}<p>Browse related articles</p>${card(2)}
        <p>Featured blog posts</p>${card(3)}<p>How to descale</p>${card(4)}`),
    );
    for (const n of [1, 2, 3, 4]) expect(text).to.include(`kettle number ${n}`);
    expect(text).to.include('How to descale');
    for (const c of ['How helpful', 'Browse related', 'Featured blog']) expect(text).not.to.include(c);
  });

  it("drops a lone link to the site's home page (its logo or name); keeps a link to another page", () => {
    const text = reduce(
      page(`<p><a href="/"><img src="/logo.png" alt=""> Kettle World, tea and kettles since 1950</a></p>${card(1)}
        <p><a href="/guide">Kettle World's descaling guide for every kettle</a></p>${card(2)}`),
      'https://kettles.example.com/bridge',
    );
    for (const n of [1, 2]) expect(text).to.include(`kettle number ${n}`);
    expect(text).to.include("Kettle World's descaling guide");
    expect(text).not.to.include('since 1950');
  });
});
