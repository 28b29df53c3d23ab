// Main content: an article's byline and dateline (bylines.ts) are left out of the markdown and kept in the model input.
import { expect } from 'chai';
import { isByline } from '../src/page/bylines.ts';
import { reducePage } from '../src/page/reduce.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content of an article with its byline', () => {
  it('reads bylines, dates and reading times in the usual forms, and not sentences, headings or publishers', () => {
    for (const s of [
      'by karina cohen | may 19, 2024',
      'dec 18, 2025 14 min read',
      'last updated on september 16th, 2023 at 09:27 am',
      'updated: january 2, 2025, 9:06am cst',
      'published a day ago · 6 minutes read',
      'written by jane doe',
      '2025-12-19',
    ])
      expect(isByline(s), s).to.equal(true);
    for (const s of ['published on 2025-12-19 in vol 7, no 6', 'by using our site you agree to the terms', 'published by hachette', 'updated', 'written by'])
      expect(isByline(s), s).to.equal(false);
  });

  it("leaves out the byline's block, keeps a date in a table and words of a sentence, and the model input keeps the byline", () => {
    const html = page(`<main><article>
      <header><h1>How to prune an apple tree</h1>
        <div class="credit"><div class="credit__line">By <a href="/authors/jane">Jane Doe</a></div>
        <div class="credit__when"><span>Published March 3, 2025</span> <span>·</span> <span>6 min read</span></div></div></header>
      ${para('Pruning', 3)}
      <p>Her favourite book is <i><span>By Design</span></i>, which she read in the winter when the orchard was quiet and dark.</p>
      <table><tr><th>Date</th><th>Task</th></tr><tr><td>March 3, 2025</td><td>Prune the old wood</td></tr></table>
      ${para('Later', 2)}</article></main>`);
    expectOnly(
      md(html),
      ['How to prune an apple tree', 'By Design', 'March 3, 2025', 'Prune the old wood'],
      ['Jane Doe', '6 min read', 'Published March', ...CHROME_WORDS],
    );
    const text = reducePage(html, { url: 'https://site.example/x/', mode: 'standard' }).text;
    // (the author's linked name too: a byline is no link block)
    expect(text).to.include('[Jane Doe](/authors/jane)');
    expect(text).to.include('Published March 3, 2025');
    expect(text).to.include('6 min read');
  });

  it("keeps a list's dates: more than ten bylines are its rows'", () => {
    const row = (k: number) => `<li><h2><a href="/p/${k}">Story number ${k} about the orchard</a></h2><div class="when">By Jane Doe · March ${k}, 2025</div>
      <p>Story ${k} tells of pruning, grafting and the harvest, in more words than a line of chrome would ever hold.</p></li>`;
    const html = page(`<main><article><h1>All our stories</h1><ul>${Array.from({ length: 12 }, (_, k) => row(k + 1)).join('')}</ul></article></main>`);
    expectOnly(md(html), ['March 1, 2025', 'March 12, 2025', 'Story number 12'], CHROME_WORDS);
  });
});
