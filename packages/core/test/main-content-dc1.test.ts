// Main content: a card's block printed twice for two layouts (copies.ts, cardTwin) and a loading
// placeholder left in the HTML (placeholders.ts); a rail named by a label that is no heading (rails.ts).
import { expect } from 'chai';
import { expectOnly, md, page, para } from './main-content-pages.ts';

const count = (s: string, sub: string) => s.split(sub).length - 1;

describe('page: card twins and loading placeholders', () => {
  it("a card's byline and date printed twice (two layouts, CSS-in-JS classes) is kept once; like cards repeating a line keep theirs", () => {
    const byline = (n: number) =>
      `<div class="am b al"><div class="oz g"><a href="/@writer${n}">Writer number ${n}</a><span>·</span><span>Nov ${n}, 2025</span></div></div>`;
    const cards = Array.from(
      { length: 4 },
      (_, n) =>
        `<div class="f mg mh"><div class="g"><div class="et me"><a href="/post-${n}"><h2>Post ${n} about scaling storage</h2><h3>A summary of post ${n} for readers</h3></a>${byline(n)}</div></div>` +
        `<div class="di ae">${byline(n)}</div></div>`,
    ).join('');
    const deals = Array.from(
      { length: 3 },
      (_, n) =>
        `<div class="deal"><h3>Deal ${n} on garden tools</h3><p>Save on tool set ${n} this week.</p><div class="exp">Expires 01/01/26 at midnight</div></div>`,
    ).join('');
    const html = page(`<main><h1>Engineering blog</h1>${para('Intro')}<section>${cards}</section><section>${deals}</section></main>`);
    const out = md(html);
    expectOnly(out, ['Post 0 about scaling storage', 'Post 3 about scaling storage', 'Writer number 2', 'Deal 2 on garden tools'], []);
    for (let n = 0; n < 4; n++) expect(count(out, `Nov ${n}, 2025`), `card ${n}`).to.equal(1);
    expect(count(out, 'Expires 01/01/26')).to.equal(3);
  });

  it('a block whose whole text is "Loading..." is left out; a list item "Loading" and a sentence stay', () => {
    const html = page(
      `<main><article><h1>Moving house checklist</h1>${para('Packing')}
        <div class="panel"><div class="overlay"><div class="spinner"><i class="icon-spin"></i> Loading... </div></div></div>
        <ul><li>Packing</li><li>Loading</li><li>Unloading</li></ul>
        <div class="prices"><span>Loading prices for your region…</span></div>
        <p>Loading the van takes about two hours for a flat.</p>${para('Cleaning')}</article></main>`,
    );
    expectOnly(md(html), ['Moving house checklist', '- Loading', 'Loading the van takes', 'Cleaning paragraph 1'], ['Loading...', 'Loading prices']);
  });

  it('a rail named by a label on a div ("ALSO IN THE NEWS") is left out with the block of links after it; prose after such a label stays', () => {
    const teasers = Array.from(
      { length: 4 },
      (_, n) =>
        `<article><h3><a href="/news/${n}">Council story number ${n}</a></h3><a href="/section/front">Front Page</a><p>THE COUNCIL met on Tuesday ${n}...</p></article>`,
    ).join('');
    const html = page(
      `<main><div class="column"><div class="slot"><article><h1>Enrolment now open for evening classes</h1>${para('Enrolment')}</article></div>
        <div><section class="widget"><div class="tmpl"><div class="mainColumnLabel">ALSO IN THE NEWS</div></div></section></div>
        <div class="widget_posts">${teasers}</div></div></main>`,
    );
    expectOnly(md(html), ['Enrolment now open', 'Enrolment paragraph 3'], ['ALSO IN THE NEWS', 'Council story number', 'THE COUNCIL met']);
    const prose = page(
      `<main><article><h1>Our school</h1>${para('History')}<div class="section-title">More news</div><div class="body"><p>${'The school opened a new library wing this spring, funded by parents and alumni over three years of events. '.repeat(2)}</p></div></article></main>`,
    );
    expectOnly(md(prose), ['History paragraph 1', 'opened a new library wing'], []);
  });
});
