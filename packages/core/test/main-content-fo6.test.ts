// Main content: a post's date written as a link is the post's (content-tree.ts); a thread's info line
// beside its title (thread-info.ts) is not the thread's posts.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

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
