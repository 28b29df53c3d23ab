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

  it("types a category's or a tag's archive (WordPress body classes) a listing, whatever its og:type", () => {
    const posts = [1, 2, 3, 4, 5, 6]
      .map(
        (n) => `<article class="post type-post excerpt"><div class="thumb"><a href="/blog/post-${n}/"><img src="/img/${n}.jpg" alt=""></a></div>
        <header><h2 class="excerpt-title"><a href="/blog/post-${n}/">Ten easy swaps for a greener kitchen, part ${n}</a></h2></header></article>`,
      )
      .join('');
    const body = `<main><h1>Posts for beginners</h1><p>Start here: the posts below are the ones to read first, in order.</p>${posts}</main>`;
    const archive = (cls: string) => page(body, OG_ARTICLE).replace('<body>', `<body class="${cls}">`);
    expect(findMainContent(archive('archive category category-beginners wp-theme-x')).type).to.equal('listing');
    expect(findMainContent(archive('archive tag tag-kitchen')).type).to.equal('listing');
    expectOnly(md(archive('archive category category-beginners')), ['greener kitchen, part 1', 'greener kitchen, part 6'], ['Menu one', 'Footer text']);
    // (a post filed under the category, and an archive of another kind, keep their og:type)
    expect(findMainContent(archive('single single-post category-beginners')).type).to.equal('article');
    expect(findMainContent(archive('archive post-type-archive')).type).to.equal('article');
  });
});
