// Markdown: the space kept at a block's end (scan.ts assemble()) survives whitespace before the
// block's closing tag and between the inline elements closing there (`<a>Renato Losio</a> </span>
// </div><span>on Mar 1</span>` read "Renato Losio)on Mar 1" in a list item), and a block of several
// words before inline content (`<div>Plain name</div><span>then</span>`, "Plain namethen").
import { expect } from 'chai';
import { md, page, para } from './main-content-pages.ts';

const card = (i: number) => `<li><h4><a href="/s/${i}">Story ${i} about the week in technology</a></h4>
  <div class="k1">   <span>   <a href="/p/r">Renato Losio</a>   </span>  </div>  <span class="k2">  on  <span> Mar 0${i} </span> </span>
  <div class="k3">Plain name ${i}</div><span>then a note</span>
  <p>Teaser ${i}: a sentence or two on what happened and why it matters to readers.</p></li>`;

describe('page: markdown, the space at a block end', () => {
  it('keeps a block apart from the text after it when whitespace ends the block', () => {
    const out = md(page(`<main><h1>Latest</h1>${para('Intro', 1)}<ul class="feed">${[1, 2, 3, 4].map(card).join('')}</ul></main>`));
    expect(out).to.match(/\[Renato Losio\]\(https:\/\/site\.example\/p\/r\) +on Mar 01/);
    expect(out).to.include('Plain name 3 then a note');
  });
});
