// Page type (page-type.ts): a page declared an article or a listing whose content is a thread (a run of
// replies filling it, or posts marked up as schema.org Comments) is a forum.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { page, para } from './main-content-pages.ts';

const sentence = (who: string, i: number) =>
  `<p>${who} answered ${i}: the kettle stopped switching off by itself after I cleaned the scale from the sensor with vinegar, worth a try before buying a new one.</p>`;
const users = ['anna', 'bert', 'carl', 'dora', 'emil'];
const ogArticle = `<meta property="og:type" content="article">`;

describe('page: page type (threads declared otherwise)', () => {
  it('types a page declared an article whose content is a run of comments filling it a forum', () => {
    const comments = users
      .map((u, i) => `<li class="comment-tree"><div class="byline"><a href="/u/${u}">${u}</a> <time>2 hours ago</time></div>${sentence(u, i)}</li>`)
      .join('');
    expect(findMainContent(page(`<div id="main"><ol class="comments">${comments}</ol></div>`, ogArticle)).type).to.equal('forum');
    // (a blog post whose own body stands beside its comments stays an article)
    const post = `<div id="main"><h1>Descaling a kettle</h1>${para('Kettle', 6)}<ol class="comments">${comments}</ol></div>`;
    expect(findMainContent(page(post, ogArticle)).type).to.equal('article');
  });

  it('types a page declared a listing whose content is posts marked up as schema.org Comments a forum', () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","itemListElement":[]}</script>`;
    const posts = users
      .map(
        (u, i) =>
          `<div class="entry-box" itemscope itemtype="http://schema.org/Comment"><span itemprop="author">${u}</span>${sentence(u, i)}<p>${'More detail on the descaling. '.repeat(3)}</p></div>`,
      )
      .join('<hr>');
    expect(findMainContent(page(`<div id="main"><h1>Kettle will not switch off</h1>${posts}</div>`, ld)).type).to.equal('forum');
    // (an article with a short Comment-marked section stays an article)
    const art = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Kettles"}</script>`;
    const one = `<div itemscope itemtype="http://schema.org/Comment">${sentence('anna', 1)}</div><div itemscope itemtype="http://schema.org/Comment">${sentence('bert', 2)}</div>`;
    expect(findMainContent(page(`<div id="main"><h1>Kettles</h1>${para('Kettle', 8)}${one}</div>`, art)).type).to.equal('article');
  });
});
