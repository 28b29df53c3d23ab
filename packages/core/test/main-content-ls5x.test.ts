// Main content (ls5): links that run a script, a card's title link printed twice, a list's comparison toggles,
// a sign-up box on a listing.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content, links that run a script', () => {
  it("a comment's fold and children toggles (javascript: links) are left out; one in a sentence or a heading stays", () => {
    const comment = (
      i: number,
    ) => `<div class="thing comment"><p class="tagline"><a href="javascript:void(0)" class="expand">[–]</a><a href="/user/u${i}" class="author">user${i}</a> ${i} points <time>${i} hours ago</time>&nbsp;<a href="javascript:void(0)" class="numchildren">(${i} children)</a></p><div class="extras"><a href="javascript:;" class="extras__trigger"></a></div>
      <div class="md"><p>Comment ${i} says what its author thinks of the study, in a sentence or two of its own words.</p></div></div>`;
    const html = page(`<div class="content"><h1>Thread title</h1>${para('Opening', 3)}
      <p>Readers can claim a <a href="javascript:void(0);">purchase rebate</a> of up to $100 on the kit.</p>
      <h3><a href="javascript:void(0);">How do I claim it?</a></h3><p>Send the form with your receipt within thirty days of buying the kit.</p>
      ${[1, 2, 3, 4, 5].map(comment).join('')}</div>`);
    expectOnly(md(html), ['Thread title', 'Comment 5 says', 'user3', 'purchase rebate', 'How do I claim it?'], ['children)', '[–]', 'javascript:;']);
  });
});

describe('page: main content, a card title linked twice', () => {
  it("a card's title link printed again outside its heading, to the same page, is left out; the heading stays", () => {
    const story = (i: number) => `<div class="story"><a href="/posts/${i}" class="story__cover">Notes on building a compiler, part ${i}</a>
      <div class="story__meta"><a href="/u/${i}">Author ${i}</a></div>
      <h2 class="story__title"><a href="/posts/${i}">Notes on building a compiler, part ${i}</a></h2>
      <div class="story__tags"><a href="/t/rust">#rust</a> <a href="/t/compilers">#compilers</a></div></div>`;
    const html = page(`<main><h1>Latest posts</h1>${[1, 2, 3, 4, 5, 6].map(story).join('')}</main>`);
    const out = md(html);
    expectOnly(out, ['## [Notes on building a compiler, part 4](https://site.example/posts/4)'], []);
    expect(out.split('Notes on building a compiler, part 4').length - 1).to.equal(1);
  });
});

describe("page: main content, a list's comparison toggles", () => {
  it('a "Compare" every row of a ranking carries (a span a script listens to) is left out; a heading so named stays', () => {
    const row = (i: number) => `<div class="entry-row"><div class="rank">${i}.</div><div class="name"><a href="/tools/${i}">Tool number ${i}</a>
      <p>Tool ${i} helps teams label their data and train models faster.</p></div><div class="score">9.${i}</div>
      <div class="cursor-pointer"><span class="text-sm">Compare</span></div></div>`;
    const html = page(
      `<main><h1>Top tools ranked</h1><h2>Compare</h2><p>Pick two tools and see how they differ on price and support.</p>${[1, 2, 3, 4, 5, 6].map(row).join('')}</main>`,
    );
    const out = md(html);
    expectOnly(out, ['## Compare', 'Tool 6 helps teams', 'Tool number 3'], []);
    expect(out.split('Compare').length - 1).to.equal(1);
  });
});

describe('page: main content, a sign-up box on a listing', () => {
  it("a job board's alert sign-up among its results is left out on a listing too", () => {
    const job = (i: number) =>
      `<div class="job"><a href="/jobs/${i}"><h3>Software engineer ${i}</h3></a><a href="/c/${i}">Company ${i}</a> <a href="/l/remote">Remote</a><p>Build the services our customers use every day.</p></div>`;
    const html = page(`<main><h1>Remote software jobs</h1><div class="jobs">${[1, 2, 3, 4, 5, 6].map(job).join('')}
      <div class="row cta-box"><h2>Would you like a shorter week?</h2><form><div>Get weekly alerts for new jobs in your inbox.</div><input type="email" placeholder="Your email"><button>Sign up</button></form></div>
      ${[7, 8, 9, 10, 11, 12].map(job).join('')}</div></main>`);
    const out = md(html);
    expect(findMainContent(html).type).to.equal('listing');
    expectOnly(out, ['Software engineer 12', 'Software engineer 3'], ['Get weekly alerts', 'shorter week']);
  });
});
