// Page type: a run of like plain wrappers that mixes prose sections with blocks of linked cards is a
// service page's sections, not a listing (page-type.ts mixedRun()); a run of like linked items stays one.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { page, para } from './main-content-pages.ts';

/** A block of linked cards, each all link: a card's title and teaser in one `<a>`. */
const cards = (topic: string, n: number) =>
  `<div><h2>More ${topic}</h2>${Array.from(
    { length: n },
    (_, i) =>
      `<div class="card"><a href="/${topic}-${i}"><h3>${topic} card ${i}</h3><p>${topic} card ${i} tells in a sentence or two what the linked page offers.</p></a></div>`,
  ).join('')}</div>`;

/** A section of prose under a heading. */
const prose = (topic: string) => `<div><h2>${topic}</h2>${para(topic, 4)}</div>`;

describe('page type: a run of sections mixing prose and linked cards (page-type.ts mixedRun)', () => {
  it('reads a service page whose plain sections alternate prose and linked cards as a service page, not a listing', () => {
    const html = page(
      `<main><h1>Data consulting</h1><div class="region">${prose('Our approach')}${cards('services', 6)}${prose('Why us')}${cards('insights', 6)}${prose('Working together')}</div></main>`,
    );
    expect(findMainContent(html).type).to.not.equal('listing');
  });

  it('still reads a run of like linked items with a sentence each as a listing', () => {
    const items = Array.from(
      { length: 8 },
      (_, i) => `<div><h3><a href="/event-${i}">Event number ${i} in the town hall</a></h3><p>Held on day ${i + 1}.</p></div>`,
    ).join('');
    const html = page(`<main><h1>Events</h1><div class="region">${items}</div></main>`);
    expect(findMainContent(html).type).to.equal('listing');
  });
});
