// Main content: guards that keep real content on pages other than the ones the rules were written for
// (rv8's review of ls5 and sv5): a firm's client "References", a list whose every title is a script
// link, a field in every card of a list; and a label search that reads a parent of many children once.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content, guards for the reference, script-link and sign-up rules', () => {
  it('keeps a firm\'s client "References" on a service page; an article\'s "References" still goes', () => {
    const project = (name: string) =>
      `<li><strong>${name} Hospital</strong>: we planned and built the new wing of ${name} Hospital, on time and within budget.</li>`;
    const html = page(`<div class="content"><h1>Building services</h1><div class="intro">${para('Building', 5)}</div>
      <h2>References</h2><ul>${['Northfield', 'Riverside', 'Lakeview'].map(project).join('')}</ul>
      <h2>Contact</h2>${para('Contact', 2)}</div>`);
    expect(findMainContent(html).type).to.equal('service');
    expectOnly(md(html), ['## References', 'new wing of Riverside Hospital', 'Contact paragraph 2'], CHROME_WORDS);
    const article = page(`<article><h1>Hospital design</h1>${para('Design', 5)}<h2>References</h2><ol><li>Doe J. Wards that heal. Hosp Des 2019;4:1-9.</li>
      <li>Roe R. Light in wards. Hosp Des 2020;5:10-19.</li></ol></article>`);
    expectOnly(md(article), ['Design paragraph 5'], ['Wards that heal', 'Light in wards']);
  });

  it('keeps a list whose every title is a script link (they are its items, not controls)', () => {
    const row = (i: number) =>
      `<li class="result"><a href="javascript:openNotice(${i})">Public notice number ${i} about the road works</a><span class="date">May ${i}</span></li>`;
    const html = page(
      `<main><h1>Public notices</h1><p>Notices published this month.</p><ul class="results">${[1, 2, 3, 4, 5, 6, 7, 8].map(row).join('')}</ul></main>`,
    );
    expectOnly(md(html), ['Public notice number 3 about the road works', 'Public notice number 8'], CHROME_WORDS);
  });

  it('keeps a short list whose every item holds an email field (an apply or notify-me form), off a product page', () => {
    const job = (i: number) =>
      `<div class="job"><a href="/jobs/${i}"><h3>Software engineer ${i}</h3></a><a href="/c/${i}">Company ${i}</a><p>Build the services our customers use every day.</p>
      <div class="apply"><input type="email" placeholder="Your email"><button>Apply</button></div></div>`;
    const html = page(`<main><h1>Remote software jobs</h1><div class="jobs">${[1, 2, 3, 4, 5, 6].map(job).join('')}</div></main>`);
    expect(findMainContent(html).type).to.equal('listing');
    expectOnly(md(html), ['Software engineer 2', 'Software engineer 6', 'customers use every day'], CHROME_WORDS);
  });

  it('reads a block of many short children once when looking for a rail label', () => {
    const spans = Array.from({ length: 40000 }, (_, i) => `<span>w${i}</span>`).join('');
    const html = page(`<main><h1>Word list</h1>${para('List', 3)}<div class="words">${spans}</div></main>`);
    const t0 = Date.now();
    findMainContent(html);
    expect(Date.now() - t0).to.be.below(8000);
  });
});

describe('page: main content, guards of ls5 and sv5 no test covered', () => {
  it('keeps a script link holding a picture (it may open a viewer on it)', () => {
    const html = page(
      `<article><h1>The bridge</h1>${para('Bridge', 6)}<p><a href="javascript:openViewer(1)"><img src="/b.jpg" alt="The new bridge at dusk"></a></p>${para('After', 3)}</article>`,
    );
    expectOnly(md(html), ['The new bridge at dusk', 'After paragraph 3'], CHROME_WORDS);
  });

  it('keeps "Compare" blocks found fewer than five times', () => {
    const row = (i: number) =>
      `<div class="row"><a href="/tools/${i}">Tool number ${i}</a><p>Tool ${i} helps teams label their data.</p><div><span>Compare</span></div></div>`;
    const html = page(`<main><h1>Top tools</h1>${para('Intro', 3)}${[1, 2, 3].map(row).join('')}</main>`);
    expect(md(html).split('Compare').length - 1).to.equal(3);
  });

  it('keeps a reference list holding more than half of the content', () => {
    const refs = Array.from(
      { length: 12 },
      (_, i) => `<li>Author ${i}. A long title of cited work number ${i} on soil and water. J Soil 20${10 + i};${i}:1-9.</li>`,
    ).join('');
    const html = page(
      `<article><h1>Soil notes</h1><p>A short note on soil and the works it draws on, listed below for readers.</p><h2>References</h2><ol>${refs}</ol></article>`,
    );
    expectOnly(md(html), ['cited work number 11'], CHROME_WORDS);
  });

  it('keeps legal fine print holding a heading of its own, however much of a short page it holds', () => {
    const notes = Array.from(
      { length: 8 },
      (_, i) => `<li>Claim ${i + 1}: based on twelve months of data from customers on paid plans in select countries.</li>`,
    ).join('');
    const html = page(`<main><section class="hero"><h1>Email marketing made simple</h1><p>Grow your audience with easy tools.*</p></section>
      <div class="module"><div class="disclaimers"><h2>Our claims explained</h2><ol>${notes}</ol></div></div></main>`);
    expectOnly(md(html), ['Email marketing made simple', 'Our claims explained', 'Claim 3'], CHROME_WORDS);
  });
});
