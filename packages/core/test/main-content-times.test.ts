// Markdown: an element ending in a word and, right after it, one holding a `<time>` (a card's author
// and its date) are written apart (markdown.ts separateBoxes(), GLUED_TIME).
import { expect } from 'chai';
import { md, page, para } from './main-content-pages.ts';

const card = (i: number) => `<li class="card"><h3><a href="/s/${i}">Story ${i} about the week in technology</a></h3>
  <div class="k8dtcj1"><span class="k8dtcj3">Terrence O'Brien</span><span class="k8dtcj8"><time datetime="2026-03-0${i}">Mar ${i}</time></span></div>
  <p>Teaser ${i}: a sentence or two on what happened and why it matters to readers.</p></li>`;

describe('page: markdown, a date after a name', () => {
  it("writes a card's author and its date apart", () => {
    const html = page(`<main><h1>Latest</h1>${para('Intro', 1)}<ul class="feed">${[1, 2, 3, 4].map(card).join('')}</ul></main>`);
    const out = md(html);
    expect(out).to.include("Terrence O'Brien Mar 2");
    expect(out).not.to.include("O'BrienMar");
  });

  it('leaves a date already spaced from its label as it is', () => {
    const html = page(`<main><h1>Post</h1>${para('Post', 2)}<p>Updated <time datetime="2026-03-07">Mar 7, 2026</time></p></main>`);
    expect(md(html)).to.include('Updated Mar 7, 2026');
  });
});
