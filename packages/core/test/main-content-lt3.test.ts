// Main content: rules from helper lt3 (the page type of listings).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { expectOnly, md, page } from './main-content-pages.ts';

const OG_ARTICLE = '<meta property="og:type" content="article">';
const graph = (...types: string[]) =>
  `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[${types.map((t) => `{"@type":"${t}","name":"x"}`).join(',')}]}</script>`;

/** A grid of award winners: each card a linked picture, the project's linked name and its studio. */
const grid = [1, 2, 3, 4, 5, 6]
  .map(
    (n) => `<li class="award-card"><a href="/projects/${n}"><img src="/img/${n}.jpg" alt=""></a>
      <a href="/projects/${n}">Riverside library number ${n}</a><span class="studio">Studio ${n}</span></li>`,
  )
  .join('');
const awards = `<main><h1>Best of year: the winners</h1><p>This year's winners, by category.</p>
  <h3>Libraries</h3><ul class="awards">${grid}</ul>
  <h3>Museums</h3><ul class="awards">${grid.replace(/library/g, 'museum').replace(/projects\//g, 'museums/')}</ul></main>`;

describe('page: the page type of listings (lt3)', () => {
  it('reads a page whose schema.org graph is a plain WebPage from its content, whatever its og:type article', () => {
    const html = page(awards, OG_ARTICLE + graph('WebSite', 'WebPage', 'BreadcrumbList'));
    expect(findMainContent(html).type).to.equal('listing');
    expectOnly(md(html), ['Riverside library number 6', 'Riverside museum number 3', 'Studio 4'], ['Menu one', 'Footer text']);
    // (a post's graph names its Article; a page without a graph keeps og:type article)
    expect(findMainContent(page(awards, OG_ARTICLE + graph('WebPage', 'BlogPosting'))).type).to.equal('article');
    expect(findMainContent(page(awards, OG_ARTICLE)).type).to.equal('article');
  });
});
