// Markdown: the space written at a block's end (scan.ts assemble(), block-space.ts) survives the
// converter before inline content, is left out before closing punctuation and before a paragraph, and
// a link whose content opens with a block gets no space inside its text (markdown.ts flattenLinks()).
import { expect } from 'chai';
import { md, page, para } from './main-content-pages.ts';

const card = (i: number) => `<li class="card"><div class="card__content">
    <h4 class="card__title"><a href="/news/${i}">Story ${i} about the week in cloud computing</a></h4>
    <div class="card__footer"><div class="card__authors">
      <span>
        <a href="/profile/${i}">Renato Losio</a>
      </span>
    </div>
    <span class="card__date">
      on
      <span>Mar 0${i}</span>
    </span></div></div></li>`;

describe('page: markdown, the space at a block end', () => {
  it("keeps a card's author apart from the inline text after the author's block", () => {
    const out = md(page(`<main><h1>News</h1>${para('Intro', 1)}<ul class="cards">${[1, 2, 3].map(card).join('')}</ul></main>`));
    expect(out).to.include('[Renato Losio](https://site.example/profile/2) on Mar 02');
    expect(out).not.to.include(')on');
  });

  it("keeps a block's last words, with spaces of their own, apart from an inline element after it", () => {
    const row = (i: number) => `<li><div class="name">Plain name ${i}</div><span class="note">then more</span></li>`;
    const out = md(page(`<main><h1>Names</h1>${para('Intro', 1)}<ul>${[1, 2, 3].map(row).join('')}</ul></main>`));
    expect(out).to.include('- Plain name 2 then more');
  });

  it('writes no space before closing punctuation in a box of its own', () => {
    const row = `<li><div>Color</div><span>: Black</span></li><li><div>Free returns</div><span>.</span></li>`;
    const out = md(page(`<main><h1>Specs</h1>${para('Intro', 1)}<ul>${row}</ul></main>`));
    expect(out).to.include('- Color: Black');
    expect(out).to.include('- Free returns.');
  });

  it("keeps a list item's paragraphs apart", () => {
    const out = md(page(`<main><h1>Steps</h1>${para('Intro', 1)}<ol><li><p>Click</p><p>Shaded</p></li><li><p>Press Enter.</p><p>Done.</p></li></ol></main>`));
    expect(out).to.include('1. Click\n\n   Shaded');
    expect(out).to.include('Press Enter.\n\n   Done.');
  });

  it("writes no space inside a link's text when its content opens with a block", () => {
    const out = md(
      page(`<main><h1>Sponsors</h1>${para('Intro', 1)}<div class="row"><p>This newsletter is sponsored by</p><a href="/ag"><p>AG1</p></a></div></main>`),
    );
    expect(out).to.include('[AG1](https://site.example/ag)');
    expect(out).not.to.include('[ AG1]');
  });
});
