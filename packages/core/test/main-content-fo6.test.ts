// Main content: a post's date written as a link is the post's (content-tree.ts); a thread's info line
// beside its title (thread-info.ts) is not the thread's posts.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

const post = (i: number) =>
  `<div class="post" id="p${i}"><div class="post-header"><a href="/members/user${i}">user${i}</a> <time datetime="2024-03-0${i}">Mar ${i}, 2024</time></div>
    <div class="postbody"><p>Post number ${i} answers the question with its own words and details.</p></div></div>`;

describe("page: main content leaves out a thread's info line", () => {
  it('leaves out the asked / modified / viewed row under the title, and keeps each post with its author and date', () => {
    const html = page(`<div class="topic"><h1>Lathe question</h1>
      <div class="info-row"><div class="item"><span>Asked</span> <time datetime="2011-02-11">14 years ago</time></div>
      <div class="item"><span>Modified</span> <a href="?lastactivity">5 years ago</a></div><div class="item"><span>Viewed</span> 6k times</div></div>
      ${[1, 2, 3, 4].map(post).join('')}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(
      md(html),
      ['Lathe question', 'Post number 1 answers', 'Post number 4 answers', 'user1', 'Mar 1, 2024', 'Mar 4, 2024'],
      ['Viewed', '6k times', '14 years ago', ...CHROME_WORDS],
    );
  });

  it('leaves out a starter and start date list wrapped in a description block', () => {
    const html = page(`<div class="topic"><h1>Lathe question</h1>
      <div class="thread-facts"><ul class="inline-list"><li><span class="label">Thread starter</span> <a href="/members/user1">user1</a></li>
      <li><span class="label">Start date</span> <time datetime="2024-03-01">Mar 1, 2024</time></li>
      <li><a href="/t/1?order=score">Sort by reaction score</a></li></ul></div>
      ${[1, 2, 3, 4].map(post).join('')}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(
      md(html),
      ['Lathe question', 'Post number 1 answers', 'Post number 4 answers', 'Mar 2, 2024'],
      ['Start date', 'Sort by reaction', ...CHROME_WORDS],
    );
  });
});

describe("page: main content keeps a post's date written as a link", () => {
  it('keeps the dates of posts whose header is a permalink on the date, beside share and number links', () => {
    const post = (i: number) =>
      `<article class="message message--post" id="post-${i}"><div class="message-user"><h4><a href="/members/user${i}">user${i}</a></h4></div>
      <div class="message-main"><header class="message-attribution"><ul class="attribution-main"><li><a href="/t/lathe/post-${i}"><time datetime="2024-07-1${i}">Jul 1${i}, 2024</time></a></li></ul>
      <ul class="attribution-opposite"><li><a href="/t/lathe/post-${i}/share">Share</a></li><li><a href="/t/lathe/post-${i}">#${i}</a></li></ul></header>
      <div class="message-body"><p>${i === 2 ? 'Same here.' : `Post number ${i} answers the question with its own words and details.`}</p></div></div></article>`;
    const html = page(`<div class="thread"><h1>Lathe question</h1>${[1, 2, 3, 4].map(post).join('')}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['Lathe question', 'Post number 1 answers', 'Same here', 'Jul 11, 2024', 'Jul 12, 2024', 'Jul 14, 2024'], CHROME_WORDS);
  });
});
