// Main content: a board's notices (thread-parts.ts) are not the thread's posts.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

describe('page: main content leaves out the notices of a thread', () => {
  it('leaves out an announcement bar, an edit notice and a guest prompt named notice, and keeps the posts', () => {
    const post = (i: number) =>
      `<div class="post" id="p${i}"><div class="postbody"><p>Post number ${i} answers the question with its own words and details.</p>
        ${i === 2 ? '<div class="notice">Last edited by member2 on Monday, edited 3 times in total.</div>' : ''}</div></div>`;
    const html =
      page(`<div class="topic"><ul class="notices notices--block"><li class="notice">The yearly awards results are in! Thanks to all who voted.</li></ul>
      <h1>Lathe question</h1>${[1, 2, 3, 4].map(post).join('')}
      <h2 class="bottom-notice">You must log in to answer this question.</h2></div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(
      md(html),
      ['Lathe question', 'Post number 2 answers', 'Post number 4 answers'],
      ['yearly awards', 'Last edited by', 'You must log in', ...CHROME_WORDS],
    );
  });

  it('keeps a thread whose wrapper is named notice (more than a notice holds)', () => {
    const post = (i: number) =>
      `<div class="post" id="p${i}"><div class="postbody"><p>Post number ${i} answers the question with its own words and details, at length, so that the thread is long. ${'More words on the lathe. '.repeat(4)}</p></div></div>`;
    const html = page(`<div class="notice-board"><h1>Lathe question</h1>${[1, 2, 3, 4, 5, 6].map(post).join('')}</div>`);
    expectOnly(md(html), ['Lathe question', 'Post number 1 answers', 'Post number 6 answers'], CHROME_WORDS);
  });

  it("leaves out a post's signature named by its data-role (camelCase), and keeps the post", () => {
    const post = (i: number) =>
      `<article class="cPost" id="elComment_${i}"><div class="cPost_contentWrap"><div class="richText"><p>Post number ${i} answers the question with its own words and details.</p></div>
        <div data-role="memberSignature" class="ipsBorder_top"><div class="richText"><p>Message me for more help. My rig: a quiet tower with a big cooler.</p></div></div></div></article>`;
    const html = page(`<div class="topic"><h1>Lathe question</h1>${[1, 2, 3, 4].map(post).join('')}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['Lathe question', 'Post number 1 answers', 'Post number 4 answers'], ['Message me for more help', 'quiet tower', ...CHROME_WORDS]);
  });

  it("leaves out a board's alert to guests and an alert left unrendered, named alert, and keeps the posts", () => {
    const post = (i: number) =>
      `<div class="post" id="p${i}"><div class="post-alert alert alert-warning">{{ board.errors[${i}].message }}</div><div class="postbody"><p>Post number ${i} answers the question with its own words and details.</p></div></div>`;
    const html = page(`<div class="topic"><h1>Lathe question</h1>
      <div class="alert alert-info guest-cta">Hello! It looks like you are interested in this conversation, but you do not have an account yet. Sign up to join.</div>
      ${[1, 2, 3, 4].map(post).join('')}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['Lathe question', 'Post number 1 answers', 'Post number 4 answers'], ['do not have an account', 'board.errors', ...CHROME_WORDS]);
  });

  it("keeps an alert box a writer put inside a post's text", () => {
    const post = (i: number) =>
      `<div class="post" id="p${i}"><div class="postbody"><p>Post number ${i} answers the question with its own words and details.</p>${i === 2 ? '<div class="alert alert-danger">Warning: unplug the lathe before you open the gearbox cover.</div>' : ''}</div></div>`;
    const html = page(`<div class="topic"><h1>Lathe question</h1>${[1, 2, 3, 4].map(post).join('')}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['Lathe question', 'Post number 2 answers', 'unplug the lathe before you open'], CHROME_WORDS);
  });
});
