// Main content on articles and documentation: labels between or after the paragraphs that say
// nothing of the content (labels.ts).
import { expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: labels left in the main content', () => {
  it('an ad slot\'s label and the page\'s tools ("Advertisement", "Edit this page") are left out, the same words in a sentence stay', () => {
    const html = page(
      `<main><article><h1>How to start meditating</h1>
        <p><a href="/blog/">Back to blog</a></p>
        ${para('Breathing slowly')}
        <div class="slot"><div class="inner"><span>Advertisement</span></div></div>
        ${para('Guided imagery')}
        <p>ADVERTISEMENT</p>
        ${para('Body scans')}
        <div><p>Article Continues Below</p></div>
        <p>Advertisement is how the magazine pays its writers, the editor says.</p>
        <h2>Pin this for later!</h2>
        <h3>Was this helpful?</h3>
        <p><a href="https://github.example/docs/edit/main/meditate.md">Edit this page on GitHub</a></p></article></main>`,
    );
    expectOnly(
      md(html),
      ['How to start meditating', 'Breathing slowly', 'Guided imagery', 'Body scans', 'Advertisement is how the magazine pays'],
      ['Back to blog', 'Advertisement\n', 'ADVERTISEMENT', 'Article Continues Below', 'Pin this', 'Was this helpful', 'Edit this page'],
    );
  });

  it('a marquee (one short phrase in many elements) is left out, a row of the same values stays', () => {
    const ticker = Array.from({ length: 12 }, () => '<span>Book Now <span class="star">*</span></span>').join('');
    const row = `<table><tr><th>Plan</th>${Array.from({ length: 9 }, () => '<td>Included</td>').join('')}</tr></table>`;
    const html = page(
      `<main><h1>Packaging design</h1>${para('Packaging')}<div class="marquee"><div class="track">${ticker}</div></div>${row}${para('Printing')}</main>`,
    );
    expectOnly(md(html), ['Packaging design', 'Packaging paragraph 3', 'Printing paragraph 1', 'Included'], ['Book Now']);
  });

  it('a newsletter sign-up block in an article (an email field, its pitch) is left out', () => {
    const html = page(
      `<main><article><h1>Setting up a home server</h1>${para('Hardware')}
        <div class="cta"><div><h3>Subscribe to Jo's newsletter</h3><p>Get the latest posts delivered to your inbox.</p>
        <form><input type="email" name="email" placeholder="you@example.com"><button>Subscribe</button></form></div></div>
        ${para('Software')}</article></main>`,
    );
    expectOnly(md(html), ['Setting up a home server', 'Hardware paragraph 2', 'Software paragraph 3'], ["Jo's newsletter", 'latest posts delivered']);
  });
});
