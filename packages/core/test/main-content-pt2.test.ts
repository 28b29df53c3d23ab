// Page type (page-type.ts): a thread of posts numbered by their ids is a forum; an Article whose content
// is a grid of link cards is a listing.
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { page, para } from './main-content-pages.ts';

const sentence = (who: string, i: number) =>
  `<p>${who} wrote reply ${i}: I tried the new firmware on my router and the wireless link stays up through the night now, thanks for the tip.</p>`;

describe('page: page type', () => {
  it('types a thread whose posts carry numbered ids (post123, p123, an empty anchor) a forum, and not a single numbered post', () => {
    const users = ['anna', 'bert', 'carl', 'dora'];
    const bare = users
      .map((u, i) => `<div id="p${100 + i}" class="box"><div class="who">${u}</div><div class="when">Today 10:0${i}</div>${sentence(u, i)}</div>`)
      .join('');
    expect(findMainContent(page(`<div id="main"><h1>Router drops the connection</h1>${bare}</div>`)).type).to.equal('forum');
    // (an empty anchor target so named stands for the post it opens, an <article> here)
    const anchored = users
      .map((u, i) => `<article class="box"><span id="post-${200 + i}"></span><div class="who">${u}</div>${sentence(u, i)}</article>`)
      .join('');
    expect(findMainContent(page(`<div id="main"><h1>Router drops the connection</h1>${anchored}</div>`)).type).to.equal('forum');
    // (one numbered post, a blog's single story, is no thread)
    expect(findMainContent(page(`<div id="main"><h1>Blog</h1><div id="post-300" class="entry">${para('Story', 5)}</div></div>`)).type).not.to.equal('forum');
  });

  it('types an Article whose content is a run of cards, each a title and a list of links, a listing', () => {
    const card = (n: number) =>
      `<section class="card"><h2>Programme ${n}</h2><p>Short courses for working managers, number ${n}.</p><ul>${[1, 2, 3, 4]
        .map((k) => `<li><a href="/c/${n}-${k}">Course ${n}.${k} leadership and negotiation</a></li>`)
        .join('')}</ul></section>`;
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Programmes"}</script>`;
    const html = page(`<div id="main"><h1>Professional development</h1>${[1, 2, 3, 4, 5].map(card).join('')}</div>`, ld);
    expect(findMainContent(html).type).to.equal('listing');
    // (an Article of prose stays an article)
    expect(findMainContent(page(`<div id="main"><h1>Essay</h1>${para('Essay', 6)}</div>`, ld)).type).to.equal('article');
  });
});
