// Main content: a listing whose cards are Web Components a script has yet to draw, their items'
// titles in attributes (attribute-cards.ts attributeCards()).
import { expect } from 'chai';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const cards = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<course-card name='Course ${i} on data pipelines' path='/courses/${i}' duration='2 hours' type='course'></course-card>`,
  ).join('\n');

describe('page: main content, cards drawn by a script from their attributes', () => {
  it('writes a run of empty custom elements as a list of their titles, linked', () => {
    const html = page(`<main><h1>Data engineer path</h1>${para('Path', 2)}<div class="grid">${cards(6)}</div></main>`);
    const out = md(html);
    expectOnly(out, ['Path paragraph 1', 'Course 0 on data pipelines', 'Course 5 on data pipelines'], [...CHROME_WORDS, '2 hours']);
    expect(out).to.include('- [Course 3 on data pipelines](https://site.example/courses/3)');
  });

  it('leaves a lone element and identifiers alone', () => {
    const html = page(
      `<main><h1>One post</h1>${para('Post', 3)}<share-button title='One post on a subject' href='/share'></share-button>
      <x-icon name='arrow-right'></x-icon><x-icon name='arrow-left'></x-icon><x-icon name='arrow-up'></x-icon></main>`,
    );
    expectOnly(md(html), ['Post paragraph 3'], ['One post on a subject', 'arrow-right']);
  });
});
