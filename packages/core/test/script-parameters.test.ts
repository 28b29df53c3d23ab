import { expect } from 'chai';
import { parameterizeUrl } from '../src/agent/script-parameters.ts';
import { fillPlaceholders } from '../src/agent/script.ts';

const RUN_URL = 'https://shop.example/start';

describe('parameterizeUrl: parameter values in the URLs an agent opened become placeholders', () => {
  it('replaces a value that is a whole path segment or query value, compared decoded', () => {
    const values = { query: 'iron teapot' };
    expect(parameterizeUrl('https://shop.example/browse/iron%20teapot?q=iron+teapot&sort=price', values, RUN_URL)).to.equal(
      'https://shop.example/browse/{{query}}?q={{query}}&sort=price',
    );
  });

  it('replaces a value standing as a word inside a part, not one inside a longer word', () => {
    const values = { query: 'kettle' };
    expect(parameterizeUrl('https://shop.example/s?filter=name%3Akettle&x=kettles&y=red-kettle', values, RUN_URL)).to.equal(
      'https://shop.example/s?filter=name%3A{{query}}&x=kettles&y=red-{{query}}',
    );
    expect(parameterizeUrl('https://shop.example/kettles/list', values, RUN_URL)).to.equal('https://shop.example/kettles/list');
  });

  it('leaves short values to whole parts only, and a URL value or the run URL whole', () => {
    expect(parameterizeUrl('https://shop.example/c/ab?p=ab&q=abc', { code: 'ab' }, RUN_URL)).to.equal('https://shop.example/c/{{code}}?p={{code}}&q=abc');
    expect(parameterizeUrl('https://other.example/x', { start: 'https://other.example/x' }, RUN_URL)).to.equal('{{start}}');
    expect(parameterizeUrl(RUN_URL, {}, RUN_URL)).to.equal('{{url}}');
  });

  it('fills a placeholder back in encoded, so another value stays one segment', () => {
    const template = parameterizeUrl('https://shop.example/browse/kettle?filter=name%3Akettle', { query: 'kettle' }, RUN_URL);
    expect(fillPlaceholders(template, { query: 'tea & cups' }, encodeURIComponent)).to.equal(
      'https://shop.example/browse/tea%20%26%20cups?filter=name%3Atea%20%26%20cups',
    );
  });
});
