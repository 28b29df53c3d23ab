import { expect } from 'chai';
import { capOutline, OUTLINE_LIMITS } from '../src/browser/page-scripts.ts';

describe('capOutline: the Node-side bounds of what a page returns as its outline', () => {
  it('keeps well-formed elements only, at most the element bound, strings cut', () => {
    const huge = 'x'.repeat(100_000);
    const raw = {
      url: 'http://shop.test/',
      title: huge,
      text: huge,
      elements: [
        null,
        { role: 'button' }, // no ref
        ...Array.from({ length: 1000 }, (_, i) => ({ ref: `e${i + 1}`, role: 'button', name: huge, selector: `#b${i}`, href: 42 })),
      ],
    };
    const out = capOutline(raw);
    expect(out.elements).to.have.length(OUTLINE_LIMITS.elements);
    expect(out.elements[0]).to.deep.equal({ ref: 'e1', role: 'button', name: 'x'.repeat(OUTLINE_LIMITS.field), selector: '#b0' });
    expect(out.title).to.have.length(OUTLINE_LIMITS.field);
    expect(out.text).to.have.length(OUTLINE_LIMITS.text);
  });

  it('turns anything else into an empty outline', () => {
    expect(capOutline('not an outline')).to.deep.equal({ url: '', title: '', elements: [] });
  });
});
