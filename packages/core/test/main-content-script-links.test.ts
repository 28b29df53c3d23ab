import { expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content, links that run a script', () => {
  it("a comment's fold and children toggles (javascript: links) are left out; one in a sentence or a heading stays", () => {
    const comment = (
      i: number,
    ) => `<div class="thing comment"><p class="tagline"><a href="javascript:void(0)" class="expand">[–]</a><a href="/user/u${i}" class="author">user${i}</a> ${i} points <time>${i} hours ago</time>&nbsp;<a href="javascript:void(0)" class="numchildren">(${i} children)</a></p>
      <div class="md"><p>Comment ${i} says what its author thinks of the study, in a sentence or two of its own words.</p></div></div>`;
    const html = page(`<div class="content"><h1>Thread title</h1>${para('Opening', 3)}
      <p>Readers can claim a <a href="javascript:void(0);">purchase rebate</a> of up to $100 on the kit.</p>
      <h3><a href="javascript:void(0);">How do I claim it?</a></h3><p>Send the form with your receipt within thirty days of buying the kit.</p>
      ${[1, 2, 3, 4, 5].map(comment).join('')}</div>`);
    expectOnly(md(html), ['Thread title', 'Comment 5 says', 'user3', 'purchase rebate', 'How do I claim it?'], ['children)', '[–]']);
  });
});
