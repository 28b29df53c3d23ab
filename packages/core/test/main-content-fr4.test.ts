// Main content on forum threads: the thread's overview box (its figures, top posters, most popular
// posts) and its featured replies are left out (thread-parts.ts); the posts are kept.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

describe('page: main content of a thread with an overview box', () => {
  it("a thread's overview box and its featured replies are left out, the posts kept", () => {
    const post = (i: number) =>
      `<article class="post" id="p${i}"><div class="postprofile"><a href="/u/${i}">member${i}</a></div>
      <div class="postbody"><p>Post number ${i} answers the question with its own words and details, the tools it took and the time it needed.</p></div></article>`;
    const overview = `<div class="ipsBox cTopicOverviewContainer"><div class="cTopicOverview cTopicOverview--main">
      <ul class="cTopicOverview__item"><li><span>Replies</span> <span>154</span></li><li><span>Views</span> <span>26.2k</span></li>
      <li><span>Created</span> <span>1 yr</span></li><li><span>Last Reply</span> <span>Sep 26</span></li></ul>
      <h4>Top Posters In This Topic</h4><ul><li><a href="/u/2">member2</a> 41 posts</li></ul>
      <h4>Most Popular Posts</h4><ul><li>What is the worry, the popular excerpt asks the readers of the thread</li></ul></div></div>`;
    const featured = `<section class="ipsBox ipsBox--featuredComments"><h2>Featured Replies</h2></section>`;
    const html = page(`<div class="topic"><h1>Lathe question</h1>${featured}${post(1)}${overview}${[2, 3, 4, 5, 6, 7, 8].map(post).join('')}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(
      md(html),
      ['Lathe question', 'Post number 1 answers', 'Post number 4 answers'],
      ['Featured Replies', 'Views', '26.2k', 'Last Reply', 'Top Posters', 'popular excerpt', ...CHROME_WORDS],
    );
  });

  it('a page declared an article whose content is a run of posts by several members gets the forum rules', () => {
    const post = (i: number) =>
      `<li class="message" id="post-${i}"><div class="messageUserInfo"><a href="/members/member${i}.${i}/">member${i}</a>
      <dl><dt>Messages:</dt><dd>${100 + i}</dd><dt>Likes Received:</dt><dd>${i}</dd></dl></div>
      <div class="messageContent"><p>Post number ${i} answers the question with its own words and details, the tools it took and the time it needed.</p></div></li>`;
    const html = page(
      `<div class="mainContent"><h1>Do forums still matter?</h1><ol class="messageList">${[1, 2, 3, 4].map(post).join('')}</ol></div>`,
      '<meta property="og:type" content="article">',
    );
    // (typed a forum since the posts, classed as messages, fill the content: main-content-fr5.test.ts)
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(
      md(html),
      ['Do forums still matter?', 'member1', 'Post number 1 answers', 'Post number 4 answers'],
      ['Messages:', 'Likes Received', ...CHROME_WORDS],
    );
    // An article whose paragraphs carry a class named post keeps them: one link target, no run of members.
    const story = page(
      `<main><article><h1>Essay</h1>${[1, 2, 3, 4].map((i) => `<div class="post-section"><p>Essay part ${i} with <a href="/source">a source</a>.</p><dl><dt>Messages:</dt><dd>${i}</dd><dt>Likes Received:</dt><dd>${i}</dd></dl></div>`).join('')}</article></main>`,
      '<meta property="og:type" content="article">',
    );
    expectOnly(md(story), ['Essay part 1', 'Essay part 4', 'Messages:'], []);
  });

  it("a value's short form printed beside its long twin is left out, the long one kept", () => {
    const post = (i: number) =>
      `<article class="post" id="p${i}"><div class="postprofile"><a href="/u/${i}">member${i}</a></div>
      <time datetime="2024-04-0${i}"><span class="ipsTime__long">April ${i}, 2024</span><span class="ipsTime__short">${i} yr</span></time>
      <div class="postbody"><p>Post number ${i} answers the question with its own words and details, the tools it took and the time it needed.</p></div></article>`;
    const html = page(`<div class="topic"><h1>Lathe question</h1>${[1, 2, 3, 4].map(post).join('')}</div>`);
    expectOnly(md(html), ['April 1, 2024', 'April 4, 2024', 'Post number 4 answers'], ['2024 1 yr', '20241', '4 yr']);
    // A short form alone (no long twin beside it) stays.
    const alone = html.replace(/<span class="ipsTime__long">[^<]*<\/span>/g, '');
    expectOnly(md(alone), ['1 yr', '4 yr'], []);
  });

  it("a board's forum jump menu and its list of members browsing are left out of a thread", () => {
    const post = (i: number) =>
      `<div class="post" id="p${i}"><div class="postprofile"><a href="/u/${i}">member${i}</a></div>
      <div class="postbody"><p>Post number ${i} answers the question with its own words and details, the tools it took and the time it needed.</p></div></div>`;
    const jump = `<form><fieldset class="jumpbox"><label for="f">Jump to:</label><select name="f" id="f"><option>General</option><option>Workshop</option></select></fieldset></form>`;
    const online = `<h3><a href="/viewonline">Who is online</a></h3><p>Users browsing this forum: <a href="/u/7">Camtropia</a>, <a href="/u/8">Cro09</a></p>`;
    const widget = `<ul><li class="ipsWidget"><span>Forum Jump</span><ul><li>Categories<ul><li>Welcome to the board</li><li>New members</li></ul></li></ul></li></ul>`;
    const html = page(`<div class="topic"><h1>Lathe question</h1>${[1, 2, 3, 4, 5, 6].map(post).join('')}${jump}${online}${widget}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(
      md(html),
      ['Lathe question', 'Post number 1 answers', 'Post number 6 answers'],
      ['Jump to', 'Who is online', 'Users browsing', 'Camtropia', 'Forum Jump', 'Welcome to the board', ...CHROME_WORDS],
    );
    // A post saying so in a sentence keeps it.
    const said = html.replace('Post number 2 answers', 'Who is online today? Post number 2 answers');
    expectOnly(md(said), ['Who is online today? Post number 2 answers'], []);
  });
});
