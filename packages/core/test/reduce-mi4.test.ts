// The outline of the rest of a page (reduce.ts, outline-chrome.ts): more of the page's controls,
// prompts and notices left out, and a paragraph's short lines other than its first; each kind on a
// small page written for it.
import { expect } from 'chai';
import { article, card, page, reduce } from './outline-pages.ts';

describe('outline of the rest of the page: more controls, prompts and notices left out', () => {
  it('drops calls to subscribe or be notified; keeps a sentence about a subscription', () => {
    const text = reduce(
      page(`<p>Subscribe to our blog and receive notifications of new stories by email.</p><h2>Subscribe to stay in the know</h2>${card(1)}
        <h3>Sign up for deals, updates and a free guide</h3>${card(2)}<p>Get notified by email when this product is in stock.</p>
        <p>Join Kettleblog for free to get updates from this writer.</p>
        <p>The subscription delivers a new descaling kit to your door every three months.</p><p>Get notified when the water boils, so the tea is never stewed.</p>`),
    );
    for (const n of [1, 2]) expect(text).to.include(`kettle number ${n}`);
    expect(text).to.include('The subscription delivers a new descaling kit');
    expect(text).to.include('Get notified when the water boils');
    for (const c of ['Subscribe to our blog', 'Subscribe to stay', 'Sign up for deals', 'Get notified by email', 'Join Kettleblog'])
      expect(text).not.to.include(c);
  });

  it('drops a cookie notice and a longer account prompt (up to 50 words)', () => {
    const text = reduce(
      page(`<p>This site uses cookies to help personalise content, tailor your experience and to keep you logged in if you register.</p>${card(1)}
        <p>You're browsing the kettle boards as a guest. <a href="/register">Sign Up</a> for free (or <a href="/login">Log In</a> if you already have
        an account) to be able to post messages, change how messages are displayed, and view media in posts.</p>${card(2)}`),
    );
    for (const n of [1, 2]) expect(text).to.include(`kettle number ${n}`);
    for (const c of ['uses cookies', 'as a guest']) expect(text).not.to.include(c);
  });

  it('keeps a sentence about cookies or pressing that is not a notice or a key', () => {
    const text = reduce(
      page(
        `<p>This cheesecake uses cookies and cream for its crust and sets overnight.</p>${card(1)}<p>Press coverage of the Escape Room festival filled three pages.</p>${card(2)}`,
      ),
    );
    for (const c of ['uses cookies and cream', 'Press coverage of the Escape Room']) expect(text).to.include(c);
  });

  it("drops a widget's keyboard help, a notice bar with its dismiss control and a thread's closed status", () => {
    const text = reduce(
      page(`<p>Use left/right arrows to navigate the slideshow or swipe left/right if using a mobile device</p>${card(1)}
        <p>Press S or / to search in the book</p><p>Press ↵ Enter for accessibility for blind people who use screen readers</p><p><a href="/notice">Notice: the boards close in August</a> ×</p>${card(2)}
        <p><a href="/a/9">Updated boards and increased security for everyone</a> Hide announcement</p><p>Status: Not open for further replies.</p>${card(3)}`),
    );
    for (const n of [1, 2, 3]) expect(text).to.include(`kettle number ${n}`);
    for (const c of ['arrows to navigate', 'Press S', 'Enter for accessibility', 'Notice:', 'Updated boards', 'further replies'])
      expect(text).not.to.include(c);
  });

  it('drops links to the previous and next posts; keeps a link to the next page of a list', () => {
    const text = reduce(
      page(`<p><a href="/blog/a">Previous Post How we tested every kettle in the shop</a> <a href="/blog/c">Next Post Plastic-free tea for the whole family</a></p>${card(1)}
        <p><a href="/blog?page=2">Next page of kettle reviews and tea guides</a></p>`),
    );
    expect(text).to.include('kettle number 1');
    expect(text).to.include('/blog?page=2');
    for (const c of ['How we tested', 'Plastic-free tea']) expect(text).not.to.include(c);
  });

  it('drops more calls to act (Click to get quotes, Book your free demo, See all case studies) and a row of control labels without links', () => {
    const text = reduce(
      page(`<p>Click to Get Quotes</p>${card(1)}<p>Book Your Free Demo</p>${card(2)}<p><a href="/cases">See all case studies</a></p>${card(3)}
        <p>Download for macOS Download for Windows</p>${card(4)}<p>Schedule a strategy call</p>${card(5)}<p>Downloads for every kettle</p>${card(6)}`),
    );
    for (const n of [1, 2, 3, 4, 5, 6]) expect(text).to.include(`kettle number ${n}`);
    expect(text).to.include('Downloads for every kettle');
    for (const c of ['Get Quotes', 'Free Demo', 'case studies', 'Download for', 'strategy call']) expect(text).not.to.include(c);
  });

  it("drops a site section's heading (About us, Our services, Stay in touch, Contact us for a quote) above its text; keeps other headings", () => {
    const text = reduce(
      page(`<h3>About us</h3>${card(1)}<h6>Our Services</h6>${card(2)}<h2>STAY IN TOUCH</h2>${card(3)}<h2>Contact Us for a Free Quote</h2>${card(4)}
        <h2>About the kettle</h2>${card(5)}`),
    );
    for (const n of [1, 2, 3, 4, 5]) expect(text).to.include(`kettle number ${n}`);
    expect(text).to.include('## About the kettle');
    for (const c of ['About us', 'Our Services', 'STAY IN TOUCH', 'Contact Us']) expect(text).not.to.include(c);
  });

  it('reads a line written twice over as once: a short label doubled is not a long line', () => {
    const text = reduce(page(`<p>Show schools list Show schools list</p><p>Open every day</p>`));
    expect(text).not.to.include('Show schools list');
  });

  it("keeps a paragraph's first short line (its title, the reviewer's name) and the one above a long line; its other short lines go", () => {
    const text = reduce(
      page(`<div><a href="/u/ann">Ann Smith</a><br>Verified buyer<br>Kettle owner<br>${card(1).slice(3, -4)}<br>Report this review<br>Helpful?</div>`),
    );
    for (const kept of ['kettle number 1', 'Ann Smith', 'Kettle owner']) expect(text).to.include(kept);
    for (const c of ['Verified buyer', 'Report this review', 'Helpful']) expect(text).not.to.include(c);
  });
});

describe('structured data: a long string the page text shows, written otherwise, is read once', () => {
  const post =
    'I upgraded to the steel kettle from the old plastic one and have been very happy with it, since it boils a full litre in three minutes and keeps the water warm for an hour while the family wakes up, which the old one never managed';
  const other =
    'A second opinion nobody posted on the page itself: the kettle is loud when it boils, the lid sticks in cold weather, and the handle gets hot after several boils in a row';
  const html = `<html><head><script type="application/ld+json">${JSON.stringify({
    '@type': 'DiscussionForumPosting',
    headline: 'Steel kettles',
    comment: [
      { '@type': 'Comment', author: { '@type': 'Person', name: 'Ann' }, text: `Bob said: Which kettle? Click to expand... ${post}.` },
      { '@type': 'Comment', author: { '@type': 'Person', name: 'Cy' }, text: other },
    ],
  })}</script></head><body><main><h1>Steel kettles</h1>${article}
    <div class="post"><p>${post.replace('steel kettle', '<a href="/k/steel">steel kettle</a>').replace('three minutes', 'three minutes <img src="/smile.gif" alt=":smile:">')}.</p></div></main></body></html>`;

  it("leaves out a forum post's text in its Comment data when the page shows it with links and smileys between; keeps a text it does not show", () => {
    const text = reduce(html);
    const ld = text.slice(text.indexOf('## JSON-LD'));
    expect(ld).to.include('"name":"Ann"');
    expect(ld).not.to.include('keeps the water warm');
    expect(ld).to.include('the lid sticks in cold weather');
  });
});
