// Main content: a thread's post header (author and date) named like an article's meta line, its
// post number, and a post's author written as one link to their profile (post-headers.ts,
// post-authors.ts).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

const NAMES = ['ottoline', 'brambleway', 'kestrel_9', 'quillon'];
const text = (i: number) => `<p>Reply ${i} says what worked for the router, with the settings it used and why.</p>`;

describe('page: main content of a thread, its posts\u2019 authors and dates', () => {
  it('keeps a post header named post-meta inside a schema.org Comment, without its position number', () => {
    const post = (i: number) =>
      `<div id="post_${i}" itemprop="comment" itemscope itemtype="http://schema.org/Comment" class="topic-body crawler-post">
        <div class="crawler-post-meta"><span class="creator" itemprop="author" itemscope itemtype="http://schema.org/Person">
          <a itemprop="url" href="https://site.example/u/${NAMES[i - 1]}"><span itemprop="name">${NAMES[i - 1]}</span></a></span>
          <span class="crawler-post-infos"><time itemprop="datePublished" datetime="2025-05-0${i}T18:30:52Z" class="post-time">May ${i}, 2025, 6:30pm</time>
          <span itemprop="position">${i + 40}</span></span></div>
        <div class="post" itemprop="text">${text(i)}</div></div>`;
    const html = page(
      `<div id="main-outlet" itemscope itemtype="http://schema.org/DiscussionForumPosting"><h1>Router settings</h1>${[1, 2, 3, 4].map(post).join('')}</div>`,
    );
    expect(findMainContent(html).type).to.equal('forum');
    const out = md(html);
    expectOnly(out, ['Router settings', 'Reply 1 says', 'Reply 4 says', 'ottoline', 'quillon', 'May 1, 2025', 'May 4, 2025'], ['41', '44', ...CHROME_WORDS]);
    // (a blog post's meta line, outside any schema.org post item, stays chrome)
    const blog = page(`<main><article><h1>Router settings</h1><div class="entry-meta"><span itemprop="author">ottoline</span> <time>May 1, 2025</time></div>
      ${[1, 2, 3, 4].map(text).join('')}</article></main>`);
    expectOnly(md(blog), ['Reply 1 says'], ['ottoline', 'May 1, 2025']);
  });

  it("keeps a post's author written as one link to their profile on a thread", () => {
    const post = (i: number) =>
      `<article class="message message--post" id="post-${i}"><div class="message-user"><div class="message-name"><a href="/members/${NAMES[i - 1]}.${i}/">${NAMES[i - 1]}</a></div></div>
        <div class="message-content">${text(i)}</div></article>`;
    const html = page(`<div class="thread"><h1>Lathe question</h1><div class="block-body">${[1, 2, 3, 4].map(post).join('')}</div></div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['Lathe question', 'Reply 1 says', 'Reply 4 says', 'ottoline', 'quillon'], CHROME_WORDS);
    // (an avatar's initial, or a profile link saying what it does, is no name)
    const avatar = html.replace(/>(ottoline|brambleway|kestrel_9|quillon)<\/a>/g, (_, n: string) => `>${n[0].toUpperCase()}</a>`);
    expectOnly(md(avatar), ['Reply 1 says'], ['O\n', 'Q\n']);
    const action = html.replace(/>(ottoline|brambleway|kestrel_9|quillon)<\/a>/g, '>View profile</a>');
    expectOnly(md(action), ['Reply 1 says'], ['View profile']);
  });
});
