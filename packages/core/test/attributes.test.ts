import { expect } from 'chai';
import { coerceRecord, coerceValue, mergeRecords, normalizeAttributes, recordsJsonSchema, GleanerError } from '@gleaner/core/internal';

describe('attributes: shapes, schema, coercion', () => {
  it('normalises the list and both map forms to one list', () => {
    const list = normalizeAttributes([
      { name: 'a', type: 'integer' },
      { name: 'b', description: 'B' },
    ]);
    expect(list).to.deep.equal([
      { name: 'a', description: '', type: 'integer' },
      { name: 'b', description: 'B', type: 'any' },
    ]);
    expect(normalizeAttributes({ a: { type: 'integer' }, b: { description: 'B' } })).to.deep.equal(list);
    expect(normalizeAttributes({ a: 'first', b: 'B' })[1]).to.deep.equal({ name: 'b', description: 'B', type: 'any' });
    expect(normalizeAttributes(null)).to.deep.equal([]);
    expect(normalizeAttributes({})).to.deep.equal([]);
    expect(() => normalizeAttributes([{ name: 'a' }, { name: 'a' }])).to.throw(GleanerError, /given twice/);
  });

  it('builds a schema with every attribute required and nullable', () => {
    const schema = recordsJsonSchema(
      normalizeAttributes([
        { name: 'n', type: 'integer' },
        { name: 'tags', type: 'list' },
      ]),
    ) as any;
    expect(schema.properties.records.items.required).to.deep.equal(['n', 'tags']);
    expect(schema.properties.records.items.properties.n.type).to.deep.equal(['integer', 'null']);
    expect(schema.properties.records.items.properties.tags.type).to.deep.equal(['array', 'null']);
  });

  it('coerces every output type', () => {
    const base = 'https://shop.test/a/b';
    expect(coerceValue('1,299', 'integer', base)).to.equal(1299);
    expect(coerceValue('12,5 €', 'number', base)).to.equal(12.5);
    expect(coerceValue('1.299,99', 'number', base)).to.equal(1299.99);
    expect(coerceValue('n/a', 'number', base)).to.equal(null);
    expect(coerceValue('Yes', 'bool', base)).to.equal(true);
    expect(coerceValue(0, 'bool', base)).to.equal(false);
    expect(coerceValue('maybe', 'bool', base)).to.equal(null);
    expect(coerceValue('red', 'list', base)).to.deep.equal(['red']);
    expect(coerceValue(['a', 'b'], 'list', base)).to.deep.equal(['a', 'b']);
    expect(coerceValue({ k: 1 }, 'object', base)).to.deep.equal({ k: 1 });
    expect(coerceValue('text', 'object', base)).to.equal(null);
    expect(coerceValue('../img/x.png 2x, ../img/y.png 3x', 'image', base)).to.equal('https://shop.test/img/x.png');
    expect(coerceValue('javascript:alert(1)', 'image', base)).to.equal(null);
    expect(coerceValue(42, 'string', base)).to.equal('42');
    expect(coerceValue('  ', 'string', base)).to.equal(null);
    expect(coerceValue({ any: ['thing'] }, 'any', base)).to.deep.equal({ any: ['thing'] });
  });

  it('gives each record exactly the requested keys, and merges without duplicates or empties', () => {
    const attrs = normalizeAttributes([{ name: 'a' }, { name: 'b', type: 'number' }]);
    expect(coerceRecord({ a: 'x', extra: 1 }, attrs, 'https://s.test/')).to.deep.equal({ a: 'x', b: null });
    const merged = mergeRecords([
      [
        { a: 'x', b: 1 },
        { a: null, b: null },
      ],
      [
        { b: 1, a: 'x' },
        { a: 'y', b: 2 },
      ],
    ]);
    expect(merged).to.deep.equal([
      { a: 'x', b: 1 },
      { a: 'y', b: 2 },
    ]);
  });
});
