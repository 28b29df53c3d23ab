// Main content on listing pages: the control every row carries even where several rows lead to one
// target (row-controls.ts: a job board's "View Company Profile" under each job, a company with many
// jobs); a link back up the page to one of its parts ("Back to Project", "Back to top", card-counters.ts
// readMoreLinks()); a card's "Read full review"; a consent manager's notice in place of an embed it
// blocks (placeholders.ts); a link aggregator's score, submitter and age under each submission
// (card-counters.ts cardCounters()).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content of a listing, its per-row controls and its links back up the page', () => {
  it("leaves out the control every row carries when some rows share a target (a company's profile under each of its jobs)", () => {
    // 12 jobs of 7 companies: the profile link's targets repeat, but most rows differ
    const company = (i: number) => `acme-${i % 7}`;
    const row = (i: number) =>
      `<li class="job"><a href="/company/${company(i)}"><span class="tip">View Company Profile</span></a>
       <a href="/jobs/${i}"><h3>Senior engineer number ${i} for the platform team</h3><p>Company ${company(i)}, full-time, anywhere in the world</p></a></li>`;
    const html = page(`<main><h1>Remote programming jobs</h1><ul class="jobs">${Array.from({ length: 12 }, (_, i) => row(i)).join('')}</ul></main>`);
    expect(findMainContent(html).type).to.equal('listing');
    expectOnly(md(html), ['Senior engineer number 0 for the platform team', 'Company acme-6'], ['View Company Profile', ...CHROME_WORDS]);
  });

  it('keeps a link every row carries to one and the same page (a tag)', () => {
    const row = (i: number) =>
      `<li class="job"><a href="/jobs/${i}"><h3>Senior engineer number ${i} for the platform team</h3></a>
       <p>Full-time, anywhere in the world. <a href="/tags/remote-first">Remote first</a></p></li>`;
    const html = page(`<main><h1>Remote programming jobs</h1><ul class="jobs">${Array.from({ length: 12 }, (_, i) => row(i)).join('')}</ul></main>`);
    expectOnly(md(html), ['Senior engineer number 11', 'Remote first'], CHROME_WORDS);
  });

  it('leaves out the links back up the page after each section ("Back to Project", "Back to top", "Nach oben")', () => {
    const section = (i: number, back: string) =>
      `<section id="s${i}"><h2>Category ${i} winners</h2><ul class="cards">${Array.from(
        { length: 4 },
        (_, j) => `<li><a href="/awards/${i}-${j}"><h4>Winner ${i}.${j} of the year's best interiors</h4></a><p>Studio ${i}${j}</p></li>`,
      ).join('')}</ul><p class="right"><a href="#${back === 'Nach oben' ? 'top' : 'project'}">${back}</a></p></section>`;
    const html = page(
      `<main><h1 id="project">Best of year awards</h1>${section(1, 'Back to Project')}${section(2, 'Back to Project')}${section(3, 'Back to top')}${section(4, 'Nach oben')}</main>`,
    );
    expectOnly(md(html), ['Category 4 winners', 'Winner 3.3 of the year', 'Studio 12'], ['Back to Project', 'Back to top', 'Nach oben', ...CHROME_WORDS]);
  });

  it('keeps a "Back to ..." link to another page, and a sentence naming the top', () => {
    const html = page(
      `<main><article><h1>How we grew</h1>${para('Growth', 3)}<p><a href="/blog/">Back to blog home</a></p><p><a href="#">Back to cart</a></p><p><a href="#intro">See the introduction</a></p></article></main>`,
    );
    expectOnly(md(html), ['Back to blog home', 'Growth paragraph 3', 'See the introduction'], CHROME_WORDS);
  });

  it('leaves out a card\'s "Read full review" link', () => {
    const card = (i: number) =>
      `<div class="pick"><h3>Scooter ${i} for a daily commute</h3><p>Pick ${i}: light, quick to fold, and good for twenty miles on a charge.</p>
       <p><a href="/reviews/scooter-${i}">Read full review</a></p></div>`;
    const html = page(`<main><article><h1>Best scooters</h1>${para('Intro', 2)}${Array.from({ length: 4 }, (_, i) => card(i)).join('')}</article></main>`);
    expectOnly(md(html), ['Scooter 3 for a daily commute', 'Pick 0: light'], ['Read full review', ...CHROME_WORDS]);
  });

  it("leaves out a consent manager's notice standing in for a blocked embed, and keeps a sentence about cookies", () => {
    const notice = `<div class="embed"><p>This content isn't visible due to your cookie preferences. To load this content, click the Allow button below to opt in to "Social Media &amp; Embedded Content" cookies.</p><div><button>Allow</button><button>Manage preferences</button></div></div>`;
    const video = `<div class="yt"><p>Please accept marketing cookies to watch this video.</p></div>`;
    const html = page(
      `<main><article><h1>What the week brought</h1>${para('News', 2)}${notice}${para('Later', 2)}${video}<p>This post is not available in print; we use cookies to count its readers.</p></article></main>`,
    );
    expectOnly(
      md(html),
      ['News paragraph 2', 'Later paragraph 1', 'This post is not available in print'],
      ["This content isn't visible", 'Social Media', 'accept marketing cookies', ...CHROME_WORDS],
    );
  });

  it("leaves out a link aggregator's score, submitter and age under every submission", () => {
    const row = (i: number) =>
      `<tr class="athing"><td class="title"><span class="rank">${i}.</span> <a href="https://ex${i}.example/">Show: a small tool number ${i} that turns logs into charts</a></td></tr>
       <tr><td class="subtext"><span class="score">${i} point${i > 1 ? 's' : ''}</span> by <a href="user?id=u${i}">user_${i}</a> <span class="age"><a href="item?id=${i}">${i * 3} minutes ago</a></span> | <a href="hide?id=${i}">hide</a> | <a href="item?id=${i}">${i}&nbsp;comment${i > 1 ? 's' : ''}</a></td></tr>`;
    const html = page(`<main><h1>New links</h1><table class="items">${Array.from({ length: 8 }, (_, i) => row(i + 1)).join('')}</table></main>`);
    expect(findMainContent(html).type).to.equal('listing');
    expectOnly(md(html), ['Show: a small tool number 8 that turns logs into charts'], ['point by', 'points by', 'user_3', 'minutes ago', ...CHROME_WORDS]);
  });
});
