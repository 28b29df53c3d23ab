// Review of the article rules for captions and author blocks (captions.ts, references.ts
// authorBlocks): on a large page each rule reads the page once, not once per caption or per block.
import { expect } from 'chai';
import { measure } from '../src/page/content-tree.ts';
import { captions } from '../src/page/captions.ts';
import { authorBlocks } from '../src/page/references.ts';

const N = 20000;

describe('page: main content rules on large pages (rv9)', () => {
  it('finds the captions of a gallery of 20,000 pictures in one figure without reading the figure once per caption', () => {
    // (with an article's text longer than the captions: a photo essay's captions are its text and stay)
    const html = `<html><body><main><p>${'text '.repeat(N * 10)}</p><figure class="gallery">${Array.from({ length: N }, (_, i) => `<img src="/${i}.jpg"><figcaption>Photo ${i}</figcaption>`).join('')}</figure></main></body></html>`;
    const t = measure(html);
    const start = Date.now();
    expect(captions(t, 0, () => false)).to.have.length(N);
    expect(Date.now() - start).to.be.below(2000);
  });

  it('still keeps the caption of a figure holding a quote', () => {
    const t = measure(
      `<html><body><main><figure><blockquote>To be or not to be.</blockquote><figcaption>Hamlet</figcaption></figure><figure><img src="/a.jpg"><figcaption>A photo</figcaption></figure></main></body></html>`,
    );
    const out = captions(t, 0, () => false);
    expect(out.map((k) => t.els[k].children.map((c) => ('data' in c ? c.data : '')).join(''))).to.deep.equal(['A photo']);
  });

  it('groups 20,000 author blocks by kind without copying the group for each block', () => {
    const html = `<html><body><main>${Array.from({ length: N }, (_, i) => `<div class="card"><p>Story ${i} text text</p><span class="author">Ann ${i}</span></div>`).join('')}</main></body></html>`;
    const t = measure(html);
    const start = Date.now();
    expect(authorBlocks(t, 0, () => false)).to.have.length(0);
    expect(Date.now() - start).to.be.below(1000);
  });
});
