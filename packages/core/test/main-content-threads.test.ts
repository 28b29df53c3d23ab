// Main content on forum threads and articles with comments: the posts and the article are kept, the
// thread's controls, the posters' extras and the comments under an article or a post are left out (left-out.ts).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content of threads and commented articles', () => {
  it("an article's comment thread is left out", () => {
    const html = page(`<main><article><h1>Essay</h1>${para('Essay', 5)}
      <div id="comments" class="comments-area"><h2>3 comments</h2><ol class="comment-list"><li class="comment"><p>Great essay, thanks for writing it.</p></li><li class="comment"><p>I disagree with the second point.</p></li></ol></div></article></main>`);
    const out = md(html);
    expect(findMainContent(html).type).to.equal('article');
    expectOnly(out, ['Essay', 'Essay paragraph 5'], ['Great essay, thanks', 'I disagree', ...CHROME_WORDS]);
  });

  it("an article's comment section is left out even when it is longer than the article", () => {
    const comment = (i: number) =>
      `<li class="comment"><p>Reader ${i} writes a long reply about the essay, agreeing with some of it and not the rest.</p></li>`;
    const html = page(
      `<main><h1>Short essay</h1><div class="story">${para('Essay', 16)}</div>
      <div id="comments" class="commentwrap"><ul class="comment-list">${Array.from({ length: 40 }, (_, i) => comment(i + 1)).join('')}</ul></div></main>`,
      '<meta property="og:type" content="article">',
    );
    const out = md(html);
    expect(findMainContent(html).type).to.equal('article');
    expectOnly(out, ['Short essay', 'Essay paragraph 1', 'Essay paragraph 16'], ['Reader 1 writes', 'Reader 40 writes', ...CHROME_WORDS]);
    // A thread whose opening post is short keeps its replies: too little outside them to be an article.
    const thread = page(`<main><h1>Short question</h1><p>Does this work?</p>
      <div id="comments" class="commentwrap"><ul class="comment-list">${Array.from({ length: 40 }, (_, i) => comment(i + 1)).join('')}</ul></div></main>`);
    expectOnly(md(thread), ['Short question', 'Reader 1 writes', 'Reader 40 writes'], CHROME_WORDS);
  });

  it("a forum post's signature and its author's profile box are left out", () => {
    const post = (i: number) =>
      `<div class="post" id="p${i}"><dl class="postprofile"><dt>member${i}</dt><dd>Joined: March 2019</dd><dd>Posts: 12${i}</dd></dl>
      <div class="postbody"><p>Post number ${i} answers the question with its own words and details.</p></div>
      <div class="signature">My workshop blog, my build log and my spare parts shop ${i}</div></div>`;
    const html = page(`<div class="topic"><h1>Lathe question</h1>${[1, 2, 3, 4].map(post).join('')}</div>`);
    const out = md(html);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(out, ['Lathe question', 'Post number 1 answers', 'Post number 4 answers'], ['Joined: March', 'Posts: 121', 'spare parts shop', ...CHROME_WORDS]);
    // The rank under the author's name and the note of the post's last edit go too; the name stays.
    const ranked = (i: number) =>
      `<article class="message" id="post-${i}"><div class="message-user"><h4><a href="/u/${i}">member${i}</a></h4><h5 class="userTitle message-userTitle">Well-known member</h5></div>
      <div class="message-content"><p>Post number ${i} answers the question with its own words and details.</p><div class="message-lastEdit">Last edited: Jul ${i}, 2022</div></div></article>`;
    const xf = page(`<div class="thread"><h1>Lathe question</h1>${[1, 2, 3, 4].map(ranked).join('')}</div>`);
    expect(findMainContent(xf).type).to.equal('forum');
    expectOnly(md(xf), ['member1', 'Post number 1 answers', 'Post number 4 answers'], ['Well-known member', 'Last edited']);
    // So do the readers' reactions under each post.
    const reacted = xf.replaceAll('</div></article>', '</div><div class="reactionsBar js-reactionsList">Reactions: ann, bob and 12 others</div></article>');
    expectOnly(md(reacted), ['Post number 1 answers', 'Post number 4 answers'], ['Reactions: ann', '12 others']);
  });

  it("a thread's voting controls beside each post are left out; a post marked unvoted keeps its text", () => {
    const post = (i: number, state = '') =>
      `<div class="post ${state}" id="p${i}"><div class="votecell"><div class="js-voting-container"><button>Up vote</button><div class="js-vote-count">${40 + i}</div><button>Down vote</button></div></div>
      <div class="postbody"><p>Post number ${i} answers the question with its own words and details.</p></div></div>`;
    const html = page(
      `<div id="content"><h1>Lathe question</h1>${[1, 2, 3, 4].map((i) => post(i)).join('')}</div>`,
      '<script type="application/ld+json">{"@type":"QAPage"}</script>',
    );
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['Lathe question', 'Post number 1 answers', 'Post number 4 answers'], ['41', '44', ...CHROME_WORDS]);
    // camelCase names (`VoteBtn`) too; a state class on the post itself (`unvoted`) is not a control.
    const camel = html.replaceAll('js-voting-container', 'ThreadVoteBtn').replaceAll('votecell', 'side').replaceAll('class="post ', 'class="post unvoted ');
    expectOnly(md(camel), ['Post number 1 answers', 'Post number 4 answers'], ['41', '44']);
  });

  it("a post's counters marked as schema.org InteractionCounter items are left out on a forum", () => {
    const post = (i: number) =>
      `<div class="topic-body" itemprop="comment" itemscope itemtype="https://schema.org/Comment"><div class="post" itemprop="text"><p>Reply ${i} says what worked for the router, with the settings it used.</p></div>
      <div itemprop="interactionStatistic" itemscope itemtype="http://schema.org/InteractionCounter"><span class="post-likes">${i + 6} Likes</span></div></div>`;
    const html = page(
      `<div id="main-outlet" itemscope itemtype="http://schema.org/DiscussionForumPosting"><h1>Router settings</h1>${[1, 2, 3, 4].map(post).join('')}</div>`,
    );
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['Router settings', 'Reply 1 says', 'Reply 4 says'], ['7 Likes', '10 Likes', ...CHROME_WORDS]);
  });

  it("a thread's reply box and its prompt to guests are left out on a forum", () => {
    const post = (i: number) =>
      `<article class="message message--post" id="post-${i}"><div class="message-content"><p>Post number ${i} answers the question with its own words and details.</p></div></article>`;
    const guest = `<div class="topic-post-area" data-role="replyArea"><div class="cGuestTeaser"><h2>Create an account or sign in to comment</h2>
      <a href="/register">Register a new account</a> <a href="/login">Sign in now</a></div></div>`;
    const quick = `<form class="block js-quickReply"><div class="message message--quickReply"><textarea></textarea><p>Write your reply here, then press Post reply.</p></div></form>`;
    const html = page(`<div class="thread"><h1>Lathe question</h1><div class="block-body">${[1, 2, 3, 4].map(post).join('')}</div>${guest}${quick}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(
      md(html),
      ['Lathe question', 'Post number 1 answers', 'Post number 4 answers'],
      ['Create an account', 'Sign in now', 'Write your reply', ...CHROME_WORDS],
    );
  });

  it('the remarks under each post of a questions-and-answers thread are left out, a thread of comments is kept', () => {
    const remarks = (i: number) =>
      `<div class="comments" id="comments-${i}"><ul><li class="comment">Remark ${i}a: could you say which version?</li><li class="comment">Remark ${i}b: works for me.</li></ul></div>`;
    const post = (i: number, kind: string) =>
      `<div class="${kind}" id="post-${i}"><div class="post-text"><p>Post ${i} explains the problem and the fix in enough words to stand alone.</p></div>${remarks(i)}</div>`;
    const html = page(
      `<div id="content"><h1>How to mount the drive</h1>${post(1, 'question')}<div id="answers">${post(2, 'answer')}${post(3, 'answer')}${post(4, 'answer')}</div></div>`,
      '<script type="application/ld+json">{"@type":"QAPage"}</script>',
    );
    const out = md(html);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(out, ['How to mount the drive', 'Post 1 explains', 'Post 4 explains'], ['Remark 1a', 'Remark 3b', ...CHROME_WORDS]);
    // Marked by microdata only: Comment items inside an Answer.
    const micro = html
      .replaceAll('class="comment"', 'itemscope itemtype="https://schema.org/Comment"')
      .replaceAll('class="comments" id="comments-', 'class="follow-ups" id="f-')
      .replaceAll('class="answer"', 'class="answer" itemscope itemtype="https://schema.org/Answer"');
    expectOnly(md(micro), ['Post 1 explains', 'Post 4 explains', 'Remark 1a'], ['Remark 2a', 'Remark 4b']);
    // A thread whose posts are the comments, side by side, keeps them.
    const thread = page(
      `<div id="content"><h1>Weekend plans</h1><p>What are you building this weekend, everyone?</p><div class="comment-tree">${[1, 2, 3, 4]
        .map((i) => `<div class="comment"><p>Reply ${i}: a shelf for the garage, with a long story about the wood.</p></div>`)
        .join('')}</div></div>`,
      '<script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script>',
    );
    expectOnly(md(thread), ['Weekend plans', 'Reply 1: a shelf', 'Reply 4: a shelf'], CHROME_WORDS);
  });
});
