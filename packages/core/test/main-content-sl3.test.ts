// Main content of service and listing pages: a section's bare "View all" link and a bare "Download"
// (card-counters.ts readMoreLinks()), a filter header named by its class (left-out.ts facets()), a carousel's spoken position, "Slide 1 of 8", a caption's toggle and a paid card's tag, "Sponsored" (labels.ts).
import { expect } from 'chai';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content of service and listing pages (sl3)', () => {
  it('leaves out a section\'s bare "View all" and "See more" links, not a link naming what it leads to', () => {
    const html = page(`<main><h1>Garden design services</h1>${para('Design', 3)}
      <section><h2>Our latest projects</h2>
        <div class="cards"><div class="card"><h3>A courtyard in town</h3><p>Stone paving and climbing roses on three walls, built in a month.</p></div>
        <div class="card"><h3>A meadow by the river</h3><p>Wild flowers sown on an old lawn, cut once a year in late summer.</p></div></div>
        <div class="more"><a href="/projects">View all</a></div></section>
      <section><h2>Planting guides</h2>${para('Planting', 2)}<p><a href="/guides">See more →</a></p>
        <p><a href="/guides/roses">See more about roses</a></p></section></main>`);
    expectOnly(md(html), ['A courtyard in town', 'Planting paragraph 2', 'See more about roses'], [...CHROME_WORDS, 'View all', 'See more →']);
  });

  it("leaves out a carousel's spoken position beside its slides", () => {
    const html = page(`<main><h1>Design tools for teams</h1>${para('Tools', 3)}
      <div class="carousel"><span role="status" aria-live="polite">Slide 1 of 8</span>
        <div class="slides"><div class="slide"><h3>Whiteboards</h3><p>Sketch ideas together on one board, in real time.</p></div>
        <div class="slide"><h3>Prototypes</h3><p>Click through a design before a line of code is written.</p></div></div></div></main>`);
    expectOnly(md(html), ['Whiteboards', 'Prototypes', 'Tools paragraph 3'], [...CHROME_WORDS, 'Slide 1 of 8']);
  });

  it("leaves out a photo caption's toggle", () => {
    const html = page(`<main><h1>Science news</h1>${para('Science', 3)}
      <figure><img src="/a.jpg" alt="A tusk"><div class="caption-tools"><span class="toggle-caption"><b>toggle caption</b></span></div>
        <figcaption>A mammoth's tusk, recovered from the Arctic ice last spring.</figcaption></figure></main>`);
    expectOnly(md(html), ['Science paragraph 3', "A mammoth's tusk"], [...CHROME_WORDS, 'toggle caption']);
  });

  it("leaves out a paid card's tag and keeps the card", () => {
    const card = (name: string, tag = '') =>
      `<li class="card">${tag}<h3><a href="/p/${name.toLowerCase()}">${name} rowing machine</a></h3><p>Folds flat, with a quiet magnetic brake and a seat on rollers.</p><span>$449.00</span></li>`;
    const html = page(`<main><h1>Rowing machines</h1><ul class="grid">
      ${card('Alder', '<div class="badge">Sponsored</div>')}${card('Birch')}${card('Cedar', '<span class="tag">Promoted</span>')}${card('Douglas')}${card('Elm')}</ul></main>`);
    expectOnly(md(html), ['Alder rowing machine', 'Cedar rowing machine', 'Elm rowing machine'], [...CHROME_WORDS, 'Sponsored', 'Promoted']);
  });

  it('leaves out a filter header above the results, named so by its class', () => {
    const row = (n: number) =>
      `<li class="event"><h3><a href="/e/${n}">Cloud security summit number ${n}</a></h3><p>An online day of talks on keeping data safe in the cloud.</p></li>`;
    const html = page(`<main><h1>Online tech conferences</h1>
      <div class="filter-header-container"><span>1 filter applied</span><button>Filters</button>
        <div class="chips"><span>Date</span><span>Neighborhood</span><span>Category</span></div></div>
      <ul class="results">${[1, 2, 3, 4, 5, 6].map(row).join('')}</ul></main>`);
    expectOnly(md(html), ['Cloud security summit number 1', 'Cloud security summit number 6'], [...CHROME_WORDS, '1 filter applied', 'Neighborhood']);
  });

  it('leaves out a list\'s "Sort by" and "Filters (2)" labels, not a heading named so on a reference page', () => {
    const row = (n: number) =>
      `<li class="item"><h3><a href="/bikes/${n}">Exercise bike model ${n}</a></h3><p>A quiet flywheel, a padded seat and twenty levels of resistance.</p></li>`;
    const html = page(`<main><h1>Exercise bikes</h1>
      <div class="list-head"><div class="chip"><span>Filters (2)</span></div><div class="sorter"><span>Sort by</span><select name="s"><option>Price</option></select></div></div>
      <ul class="results">${[1, 2, 3, 4, 5, 6].map(row).join('')}</ul></main>`);
    expectOnly(md(html), ['Exercise bike model 1', 'Exercise bike model 6'], [...CHROME_WORDS, 'Filters (2)', 'Sort by']);
    const doc = page(`<main><article><h1>Query reference</h1>${para('Query', 3)}<h2>Filters</h2>${para('Filter', 2)}</article></main>`);
    expectOnly(md(doc), ['## Filters', 'Filter paragraph 2'], CHROME_WORDS);
  });

  it('leaves out a bare "Download" link standing alone, not a table row\'s file', () => {
    const html = page(
      `<main><h1>Science stories</h1>
      <article class="story"><h2><a href="/s/1">Mammoths and the ethics of bringing them back</a></h2>${para('Story', 2)}
        <div class="audio-tools"><a href="/audio/1.mp3">Download</a></div></article>
      <table><tr><th>Lecture</th><th>Notes</th></tr><tr><td>Week one: cells</td><td><a href="/notes/1.pdf">Download</a></td></tr></table></main>`,
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"CollectionPage"}</script>',
    );
    const out = md(html);
    expectOnly(out, ['Story paragraph 2', 'Week one: cells'], CHROME_WORDS);
    expect(out.match(/Download/g)?.length).to.equal(1);
  });

  it('leaves out the words of a follow or share control left standing', () => {
    const html = page(`<main><h1>Gaming news</h1><div class="follow"><span class="f-off">Follow</span><span class="f-on">Followed</span></div>
      ${para('News', 3)}<div class="tools"><span>Share</span></div></main>`);
    expectOnly(md(html), ['News paragraph 3'], [...CHROME_WORDS, 'Follow', 'Share']);
  });

  it("leaves out a carousel's arrow words and a pager's", () => {
    const html = page(`<main><h1>Fitness equipment rentals</h1>${para('Rental', 3)}
      <div class="reviews-carousel"><div class="quote"><p>The treadmill arrived on time and the pickup was simple.</p></div>
        <div class="arrows"><span>Previous</span> <span>Next</span></div></div>
      <div class="pager"><a href="?page=2">Next Page »</a></div></main>`);
    expectOnly(md(html), ['Rental paragraph 3', 'The treadmill arrived'], [...CHROME_WORDS, 'Previous', 'Next Page']);
    const doc = page(`<main><article><h1>Iterators</h1>${para('Iterator', 3)}
      <pre><code><span class="n">value</span> <span class="o">=</span> <span class="nb">next</span><span class="p">(</span><span class="n">it</span><span class="p">)</span>
      <span class="n">odd</span> <span class="o">=</span> <span class="nb">filter</span><span class="p">(</span><span class="n">f</span><span class="p">)</span></code></pre></article></main>`);
    expectOnly(md(doc), ['value = next(it)', 'odd = filter(f)'], CHROME_WORDS);
  });
});
