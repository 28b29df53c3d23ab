import { expect } from 'chai';
import { parseHTML } from 'linkedom';
import { DocumentStyles, parseRules } from '../src/styles.ts';

describe('driver-http styles: display and visibility by the cascade of <style> rules', () => {
  const styles = (css: string, body: string) => {
    const { document } = parseHTML(`<html><head><style>${css}</style></head><body>${body}</body></html>`);
    const s = new DocumentStyles(document as unknown as Document);
    return (id: string) => s.own(document.getElementById(id) as unknown as Element);
  };

  it('keeps only top-level rules setting display or visibility, one per selector of a list', () => {
    const rules = parseRules(
      '/* x { display: none } */ .a, .b > p { display: none } .c { color: red } @media print { .d { display: none } } @import "x.css"; .e { visibility: hidden !important }',
      0,
    );
    expect(rules.map((r) => [r.selector, r.display?.value, r.visibility?.value, r.visibility?.important])).to.deep.equal([
      ['.a', 'none', undefined, undefined],
      ['.b > p', 'none', undefined, undefined],
      ['.e', undefined, 'hidden', true],
    ]);
  });

  it('picks the winner by importance, then specificity, then order; inline style beats normal rules', () => {
    const own = styles(
      '.panel { display: none } div.panel.open { display: block } #late { display: block } .later { display: none } .later { display: flex } .force { display: none !important } p { visibility: hidden }',
      '<div id="a" class="panel"></div><div id="b" class="panel open"></div><div id="late" class="panel"></div><div id="c" class="later"></div>' +
        '<div id="d" class="panel" style="display: grid"></div><div id="e" class="force" style="display: block"></div><p id="f"></p><span id="g"></span>',
    );
    expect(own('a')).to.deep.equal({ display: 'none' });
    expect(own('b')).to.deep.equal({ display: 'block' });
    expect(own('late')).to.deep.equal({ display: 'block' });
    expect(own('c')).to.deep.equal({ display: 'flex' });
    expect(own('d')).to.deep.equal({ display: 'grid' });
    expect(own('e')).to.deep.equal({ display: 'none' });
    expect(own('f')).to.deep.equal({ visibility: 'hidden' });
    expect(own('g')).to.deep.equal({});
  });

  it('ignores selectors css-select cannot match (pseudo-elements, states) instead of failing', () => {
    const own = styles('.x::before { display: none } .x:hover { display: none } .x:unknown-thing { display: none }', '<p id="x" class="x"></p>');
    expect(own('x')).to.deep.equal({});
  });
});
