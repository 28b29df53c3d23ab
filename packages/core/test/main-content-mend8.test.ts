// Main content: a link named "Back to …" to a part of the page is a way back up only when its target
// comes before it (card-counters.ts readMoreLinks); one whose target follows it is an entry of the
// page's own contents, "Back to Basics" leading down to that section, and stays.
import { expect } from 'chai';
import { md, page } from './main-content-pages.ts';

const prose = (n: number) =>
  Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} of the guide explains how a beginner sets up the first workbench and keeps the tools sharp.</p>`).join(
    '',
  );

describe('page: main content, links back up the page and links down to a section', () => {
  it('keeps a link to a later section named "Back to Basics", and leaves out "Back to top" after it', () => {
    const html = page(
      `<main><article><h1 id="top">Woodworking for beginners</h1>${prose(3)}
       <p><a href="#back-to-basics">Back to Basics</a></p>${prose(3)}
       <h2 id="back-to-basics">Back to Basics</h2>${prose(4)}
       <p><a href="#top">Back to top</a></p></article></main>`,
    );
    const out = md(html);
    expect(out).to.contain('(#back-to-basics)');
    expect(out).to.contain('Paragraph 3 of the guide');
    expect(out).not.to.contain('Back to top');
  });
});

describe('page: main content, a photo essay', () => {
  it('keeps the captions of an article whose text they mostly are (a photo essay)', () => {
    const shot = (i: number) =>
      `<figure><img src="/shot-${i}.jpg" alt=""><figcaption>Picture ${i}: fishermen mend their nets on the harbour wall at dawn, before the boats go out past the lighthouse and the gulls follow them.</figcaption></figure>`;
    const html = page(
      `<main><article><h1>A morning at the harbour</h1><p>Photographs from one morning on the coast.</p>${[1, 2, 3, 4, 5].map(shot).join('')}</article></main>`,
      '<meta property="og:type" content="article">',
    );
    const out = md(html);
    expect(out).to.contain('Picture 1: fishermen mend their nets');
    expect(out).to.contain('Picture 5: fishermen mend their nets');
  });
});
