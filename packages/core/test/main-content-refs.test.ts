// Main content: an article's reference list, bibliography or sources named by its heading
// (references.ts) is left out, in its own block or among the article's sections, and so is its
// author's bio box; a section merely about sources, or about a subject the heading links to, is kept.
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const refs = `<li>Doe J, Roe R. Sleep and study habits of first-year students. J Sleep Res 2019;12(3):101-110.</li>
  <li>Smith A. Coping with exam stress: a survey. Educ Psychol 2018;40(2):55-70. <a href="https://doi.example/1">CrossRef</a></li>
  <li>Brown K, Lee M. Mindfulness apps in practice. Digit Health 2020;6:1-12.</li>`;

describe('page: main content, reference lists', () => {
  it('leaves out a reference list in a block of its own under its heading', () => {
    const out = md(
      page(`<article><h1>Stress in students</h1>${para('Study', 4)}<h2>Discussion</h2>${para('Findings', 3)}
        <div class="endnotes"><h4>References</h4><ol>${refs}</ol></div></article>`),
    );
    expectOnly(
      out,
      ['Stress in students', 'Study paragraph 4', 'Findings paragraph 3'],
      [...CHROME_WORDS, 'References', 'Sleep and study habits', 'Mindfulness apps'],
    );
  });

  it('leaves out a reference list standing among the sections, up to the next section', () => {
    const out = md(
      page(`<article><h1>Hot housing markets</h1>${para('Market', 4)}<h2>Bibliography</h2><ol>${refs}</ol><p>Cited works were read in May.</p>
        <h2>Methodology</h2>${para('Method', 2)}</article>`),
    );
    expectOnly(out, ['Market paragraph 4', 'Methodology', 'Method paragraph 2'], [...CHROME_WORDS, 'Bibliography', 'Exam stress', 'Cited works were read']);
  });

  it('keeps the text before the heading in the block holding both', () => {
    const out = md(
      page(
        `<article><h1>Plant-based eating</h1>${para('Diet', 4)}<div class="closing"><p>Closing note of the guide, worth keeping.</p><h3>Sources</h3><ul>${refs}</ul></div></article>`,
      ),
    );
    expectOnly(out, ['Diet paragraph 4', 'Closing note of the guide'], [...CHROME_WORDS, 'Sources', 'Mindfulness apps']);
  });

  it("leaves out an author's bio box under a heading linking to the author's page", () => {
    const out = md(
      page(`<article><h1>Renting a car abroad</h1>${para('Rental', 5)}<section class="bio"><h2>About <a href="/author/ann-lee/">Ann Lee</a></h2>
        <p>Ann has tested travel cards and rental programs on four continents for a decade.</p></section></article>`),
    );
    expectOnly(out, ['Rental paragraph 5'], [...CHROME_WORDS, '[Ann Lee]', 'tested travel cards']);
  });

  it('keeps a section about something else, its heading linking elsewhere', () => {
    const out = md(
      page(
        `<article><h1>Renting a car abroad</h1>${para('Rental', 5)}<h2>About <a href="/insurance/">rental insurance</a></h2>${para('Insurance', 2)}</article>`,
      ),
    );
    expectOnly(out, ['## About [rental insurance]', 'Insurance paragraph 2'], CHROME_WORDS);
  });

  it('keeps a section whose heading only mentions sources', () => {
    const out = md(page(`<article><h1>Vitamin D</h1>${para('Vitamin', 4)}<h2>Sources of vitamin D</h2>${para('Food', 2)}</article>`));
    expectOnly(out, ['Sources of vitamin D', 'Food paragraph 2'], CHROME_WORDS);
  });
});
