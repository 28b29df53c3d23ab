// Main content: a page's skip link names where its content starts (skip-target.ts); a forum post's
// author pane details (thread-parts.ts) are not the post.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { onlyFields } from '../src/page/profile-fields.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content named by a skip link, and forum author panes', () => {
  it('takes the target of a "Skip to main content" link as the landmark when the page has no <main>', () => {
    // A header whose mega menu and call bar outweigh the content, named in words no rule knows.
    const links = Array.from({ length: 40 }, (_, i) => `<li><a href="/pests/${i}">Pest control service ${i}</a></li>`).join('');
    const html = `<!doctype html><html><head><title>T</title></head><body>
      <a href="#main-content" class="skip">Skip to main content</a>
      <div class="page-wrapper">
        <div class="header-container"><div class="call-bar">Need Help? Call (855) 000-0000 today for a quote</div>
          <div class="menubar"><ul>${links}</ul></div>
          <div class="promo-strip">Schedule a free inspection today and save on your first visit with us</div></div>
        <div class="body-wrapper" id="main-content"><h1>Discounts and coupons</h1>${para('Coupon', 2)}</div>
      </div></body></html>`;
    expectOnly(md(html), ['Discounts and coupons', 'Coupon paragraph 2'], ['Need Help?', 'Pest control service 3', 'Schedule a free inspection']);
  });

  it("leaves out a forum post author pane's group, stats and custom fields, and keeps the author's name", () => {
    const post = (i: number) =>
      `<article class="cPost ipsComment" id="elComment_${i}">
        <aside class="ipsComment_author cAuthorPane"><h3 class="cAuthorPane_author"><a href="/profile/${i}">member${i}</a></h3>
          <ul class="cAuthorPane_info ipsList_reset"><li data-role="group">Members</li><li data-role="stats">12${i} posts</li>
          <li data-role="custom-field">Location: Lisbon, Portugal</li></ul></aside>
        <div class="ipsColumn"><div class="cPost_contentWrap"><p>Post number ${i} answers the question with its own words and details.</p></div></div>
        <ul class="ipsEntry__authorFields"><li data-role="custom-field">City: Denver, Colorado</li></ul>
      </article>`;
    const html = `<!doctype html><html><head><title>T</title></head><body><header class="site-header"><a href="/">Logo</a><nav><a href="/a">Menu one</a></nav></header>
      <div class="topic"><h1>Lathe question</h1>${[1, 2, 3, 4].map(post).join('')}</div><footer><p>Footer text © Example Inc.</p></footer></body></html>`;
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['member3', 'Post number 4 answers'], ['Lisbon', 'Denver', '123 posts', ...CHROME_WORDS.slice(0, 2)]);
  });

  it("leaves out a forum post's author details written as labelled fields, whatever their markup, and keeps a post that starts so", () => {
    const post = (i: number) =>
      `<div class="postbit" id="post${i}"><div class="userpane"><a class="bigusername" href="/u/${i}">member${i}</a>
        <div class="smallfont">Join Date: Aug 200${i}<br>Location: AMS<br>Posts: 67${i}</div>
        <dl class="pairs"><dt>Likes Received:</dt><dd>1${i}</dd></dl></div>
        <div class="postbody"><p>Post number ${i} answers the question with its own words and details.</p>
        ${i === 2 ? '<p>Location: the shed behind the house, where the lathe has stood for twenty years next to the bench.</p>' : ''}</div></div>`;
    const html = `<!doctype html><html><head><title>T</title></head><body><div class="thread"><h1>Lathe question</h1>${[1, 2, 3, 4].map(post).join('')}</div></body></html>`;
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['member3', 'Post number 4 answers', 'Location: the shed'], ['Join Date', 'AMS', 'Posts: 673', 'Likes Received']);
    expect(onlyFields('Registered: 2016-07-02 Posts: 710')).to.equal(true);
    expect(onlyFields('Location: the shed behind the house, where the lathe has stood for twenty years')).to.equal(false);
    expect(onlyFields('Posted: today, and more')).to.equal(false);
  });

  it("keeps a services page's grid of cards, each one link around a heading and a description, and drops a menu of links and picture teasers", () => {
    const card = (name: string) =>
      `<div class="col"><a href="/services/${name.toLowerCase()}"><div class="card"><h3>${name}</h3>
        <p>We help you understand and manage the ${name.toLowerCase()} risks your business faces, with advice and hands-on work.</p></div></a></div>`;
    const teaser = (i: number) =>
      `<div class="col"><a href="/blog/${i}"><img src="/b${i}.jpg" alt=""><h3>Blog post number ${i}</h3><p>What every owner should know about bookkeeping before the end of the fiscal year.</p></a></div>`;
    const html = page(`<div class="content"><h1>Consulting</h1><div class="intro">${para('Consulting', 5)}</div><div class="more">${para('Method', 5)}</div>
      <div class="grid">${['Cloud', 'Data', 'Identity', 'Payroll'].map(card).join('')}</div>
      <div class="grid">${[1, 2, 3].map(teaser).join('')}</div>
      <div class="links"><a href="/a">Accounting services</a> <a href="/b">Audit services</a> <a href="/c">Tax services</a> <a href="/d">Advisory services</a></div></div>`);
    expect(findMainContent(html).type).to.equal('service');
    expectOnly(md(html), ['Cloud', 'manage the identity risks', 'Consulting paragraph 3'], ['Blog post number 2', 'Audit services', ...CHROME_WORDS]);
  });

  it("reads an FAQ's answer hidden by an inline style right after its question, written without heading markup", () => {
    const faq = (q: string, a: string) =>
      `<div class="qa"><div class="row" style="cursor:pointer"><div>${q}</div><div><svg></svg></div></div>
        <div style="visibility:hidden;height:0">${a}</div></div>`;
    const html = page(`<main><h1>Pet insurance</h1>${para('Insurance', 2)}
      ${faq('What does pet insurance cover?', 'Coverage ranges from accident-only plans to comprehensive accident and illness plans.')}
      ${faq('How much does it cost?', 'Your monthly premium depends on your pet and its health history.')}
      <div class="note"><div>Our promise</div><div style="display:none">A hidden promotional banner that a script shows on a timer.</div></div></main>`);
    expectOnly(
      md(html),
      ['What does pet insurance cover?', 'comprehensive accident and illness plans', 'monthly premium depends'],
      ['hidden promotional banner', ...CHROME_WORDS],
    );
  });

  it("leaves out a thread's status notice ('Not open for further replies')", () => {
    const post = (i: number) =>
      `<article class="message message--post" id="js-post-${i}"><div class="message-cell"><h4 class="message-name"><a href="/members/m${i}.${i}/">member${i}</a></h4></div>
        <div class="message-content"><div class="bbWrapper">Post number ${i} answers the question with its own words and details.</div></div></article>`;
    const html = page(`<div class="p-body"><h1>Lathe question</h1>
      <dl class="blockStatus"><dt>Status</dt><dd class="blockStatus-message blockStatus-message--locked">Not open for further replies.</dd></dl>
      <div class="block-body">${[1, 2, 3, 4].map(post).join('')}</div></div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['Lathe question', 'Post number 4 answers'], ['Not open for further replies', ...CHROME_WORDS]);
  });

  it("leaves out the thread starter's badge on a post, and keeps the word in a sentence", () => {
    const post = (i: number) =>
      `<div class="post" id="p${i}"><div class="poster"><a href="/members/m${i}">member${i}</a>${i % 2 ? '<ul class="badges"><li><span class="badge">Original poster</span></li></ul>' : ''}</div>
        <div class="postbody"><p>Post number ${i} answers the question with its own words and details.</p>${i === 2 ? '<p>Ask the <b>Author</b> of the guide.</p>' : ''}</div></div>`;
    const html = page(`<div class="topic"><h1>Lathe question</h1>${[1, 2, 3, 4].map(post).join('')}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['member3', 'Post number 4 answers', '**Author** of the guide'], ['Original poster', ...CHROME_WORDS]);
  });

  it("leaves out a thread's display options whose sort select is named by its label alone", () => {
    const post = (i: number) =>
      `<div class="post" id="p${i}"><div class="postbody"><p>Post number ${i} answers the question with its own words and details.</p></div></div>`;
    const html = page(`<div class="topic"><h1>Lathe question</h1>${[1, 2, 3, 4].map(post).join('')}
      <form id="viewtopic"><fieldset class="opts"><label>Display posts from previous:<select name="st"><option>All posts</option></select></label>
      <label>Sort by<select name="sk"><option>Post time</option></select></label><label><select name="sd"><option>Ascending</option></select></label>
      <input type="submit" value="Go"></fieldset></form></div>`);
    expectOnly(md(html), ['Post number 4 answers'], ['Display posts from previous', 'Sort by', ...CHROME_WORDS]);
  });

  it("leaves out an ad slot's label with a note after it ('Advertisement - Members don't see this ad')", () => {
    const html = page(`<main><h1>Application thread</h1>${para('Thread', 2)}
      <div class="ad-label">Advertisement - Members don't see this ad</div><div><span>Advertisement (gone after registration)</span></div>${para('Later', 2)}
      <p>Advertisement - the craft of selling, as taught in the evening course, was her subject for years.</p></main>`);
    expectOnly(
      md(html),
      ['Thread paragraph 2', 'Later paragraph 2', 'the craft of selling'],
      ["Members don't see", 'gone after registration', ...CHROME_WORDS],
    );
  });
});
