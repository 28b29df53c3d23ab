// Small pages for the tests of the outline of the rest of a page (reduce.ts, outline-chrome.ts):
// an article as the main content, and beside it whatever a test puts there.
import { reducePage } from '../src/page/index.ts';

export const reduce = (html: string, url = 'https://shop.example.com/p/kettle') => reducePage(html, { url, mode: 'standard' }).text;
/** The main content: six paragraphs of a report. */
export const article = Array.from(
  { length: 6 },
  (_, i) => `<p>Paragraph ${i} of the report on the new bridge, which the council approved after a long debate about its cost and its route.</p>`,
).join('');
/** A page whose main content is the article and whose aside holds `rest`. */
export const page = (rest: string) => `<html><body><main><h1>The bridge</h1>${article}</main><div class="extra">${rest}</div></body></html>`;
/** A long line of the aside's own text (a card's description). */
export const card = (n: number) => `<p>The blue kettle number ${n} boils a litre of water in three minutes and keeps it warm for an hour.</p>`;
