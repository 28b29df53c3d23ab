// Issue 16, item 3: validation gaps real clients hit — cookies without a name or as a bare string,
// and attribute errors reported at the entry and field instead of one union error.
import { expect } from 'chai';
import { startStack, type Stack } from './support/stack.ts';

type Issue = { loc: Array<string | number>; msg: string; type: string };

function issueAt(res: { status: number; body: any }, loc: Array<string | number>): Issue {
  expect(res.status, JSON.stringify(res.body)).to.equal(422);
  const hit = (res.body.detail as Issue[]).find((d) => JSON.stringify(d.loc) === JSON.stringify(loc));
  expect(hit, JSON.stringify(res.body.detail)).to.not.equal(undefined);
  return hit!;
}

describe('validation gaps (issue 16 item 3)', () => {
  let s: Stack;
  let url: string;
  before(async () => {
    s = await startStack({ worker: false, agents: true });
    url = `${s.site.url}/products`;
  });
  after(async () => {
    await s?.close();
  });

  const asyncExtract = (extra: Record<string, unknown>) => s.api('POST', '/v1/extractor/extract_async', { url, prompt: 'products', ...extra });

  it('refuses a cookie object without a name, at the entry', async () => {
    const missing = issueAt(await asyncExtract({ cookies: [{ value: 'abc', domain: 'example.com' }] }), ['body', 'cookies', 0, 'name']);
    expect(missing.type).to.equal('missing');
    const empty = issueAt(
      await asyncExtract({
        cookies: [
          { name: 'ok', value: '1' },
          { name: '', value: 'abc' },
        ],
      }),
      ['body', 'cookies', 1, 'name'],
    );
    expect(empty.type).to.equal('string_too_short');
    // A single object with a value and no name is not the flat form either.
    const single = issueAt(await asyncExtract({ cookies: { value: 'abc', domain: 'example.com' } }), ['body', 'cookies', 'name']);
    expect(single.msg).to.match(/no name/);
  });

  it('refuses cookies given as a bare string, naming the accepted forms', async () => {
    for (const cookies of ['sid=abc; theme=dark', '']) {
      const issue = issueAt(await asyncExtract({ cookies }), ['body', 'cookies']);
      expect(issue.type).to.equal('union_error');
      expect(issue.msg).to.contain('list of cookie objects').and.to.contain('flat form');
    }
    const legacy = await s.agents('POST', '/v1/scrape', { name: 'x', cookies: 'sid=abc' });
    expect(issueAt(legacy, ['body', 'cookies']).type).to.equal('union_error');
  });

  it('still takes both documented cookie forms and null', async () => {
    for (const cookies of [[{ name: 'sid', value: 'abc' }], { sid: 'abc', sameSite: 'Lax' }, null, []]) {
      const res = await asyncExtract({ cookies });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
    }
  });

  it('points attribute errors at the entry and field, with the allowed values', async () => {
    const res = await asyncExtract({ attributes: [{ name: 'title' }, { name: 5 }, { name: 'price', type: 'money' }] });
    const name = issueAt(res, ['body', 'attributes', 1, 'name']);
    expect(name.type).to.equal('string_type');
    const type = issueAt(res, ['body', 'attributes', 2, 'type']);
    expect(type.type).to.equal('enum');
    expect(type.msg).to.contain('"integer"').and.to.contain('"image"');
    expect((res.body.detail as Issue[]).map((d) => d.type)).to.not.include('union_error');
  });

  it('points map-form attribute errors at the key and field', async () => {
    const res = await asyncExtract({ attributes: { price: { type: 'money' }, title: 'the title' } });
    expect(issueAt(res, ['body', 'attributes', 'price', 'type']).type).to.equal('enum');
    expect(res.body.detail).to.have.length(1);
  });

  it('keeps one union error, naming the forms, when no form fits the value type', async () => {
    const issue = issueAt(await asyncExtract({ attributes: 'title, price' }), ['body', 'attributes']);
    expect(issue.type).to.equal('union_error');
    expect(issue.msg).to.contain('a list of {name, description?, type?}');
  });

  it('bounds the number and size of attributes', async () => {
    const many = Array.from({ length: 201 }, (_, i) => ({ name: `a${i}` }));
    expect(issueAt(await asyncExtract({ attributes: many }), ['body', 'attributes']).type).to.equal('too_long');
    const longName = 'n'.repeat(201);
    expect(issueAt(await asyncExtract({ attributes: { [longName]: 'x' } }), ['body', 'attributes', longName]).type).to.equal('string_too_long');
    expect(issueAt(await asyncExtract({ attributes: [{ name: 'a', description: 'd'.repeat(4001) }] }), ['body', 'attributes', 0, 'description']).type).to.equal(
      'string_too_long',
    );
  });
});
