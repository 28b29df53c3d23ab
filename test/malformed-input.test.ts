// Issue 16, item 1: malformed input that used to answer 500 — broken compressed bodies, malformed
// percent-encoding, NUL characters and lone surrogates bound for Postgres, absurdly deep documents —
// answers 400/422 with a message, and nothing is stored.
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import pg from 'pg';
import { startStack, type Stack } from './support/stack.ts';
import { request } from './support/http.ts';
import { TEST_DATABASE_URL } from './support/db.ts';

function expectIssue(res: { status: number; body: any }, loc: unknown[], type: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(422);
  expect(res.body.detail).to.be.an('array');
  const hit = (res.body.detail as Array<{ loc: unknown[]; type: string; msg: string }>).find((d) => JSON.stringify(d.loc) === JSON.stringify(loc));
  expect(hit, JSON.stringify(res.body.detail)).to.not.equal(undefined);
  expect(hit!.type).to.equal(type);
  expect(hit!.msg).to.be.a('string').and.not.equal('');
}

async function countRows(s: Stack, table: string): Promise<number> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    return Number((await c.query(`SELECT count(*)::int AS n FROM "${s.schemas.schema}".${table}`)).rows[0].n);
  } finally {
    await c.end();
  }
}

describe('malformed input answers 4xx, never 500 (issue 16 item 1)', () => {
  let s: Stack;
  let bearer: Record<string, string>;
  before(async () => {
    s = await startStack({ worker: false, agents: true });
    bearer = { Authorization: `Bearer ${(await s.engine.createAccessToken('alice')).token}` };
  });
  after(async () => {
    await s?.close();
  });

  for (const encoding of ['gzip', 'deflate', 'br']) {
    it(`answers 400 naming the encoding for a body that is not valid ${encoding} data`, async () => {
      const res = await request(s.url, 'POST', '/v1/extractor/extract_async', {
        raw: '{"url": "http://example.test/", "prompt": "x"}',
        headers: { 'X-API-KEY': s.key, 'Content-Encoding': encoding },
      });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('BAD_REQUEST');
      expect(res.body.detail).to.contain(`Content-Encoding: ${encoding}`);
    });
  }

  it('still reads a valid gzip body', async () => {
    const res = await fetch(new URL('/v1/extractor/extract_async', s.url), {
      method: 'POST',
      headers: { 'X-API-KEY': s.key, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ url: 'http://example.test/' })),
    });
    // It decompressed and validated: the missing attributes/prompt is reported, not a decoding error.
    expect(res.status).to.equal(422);
    expect(((await res.json()) as any).detail[0].loc).to.deep.equal(['body', 'attributes']);
  });

  for (const bad of ['%', '%ff', '%e0%a4', 'a%zz']) {
    it(`answers 400 for malformed percent-encoding in a path parameter (${bad})`, async () => {
      const res = await s.api('POST', `/v1/scraper-apis/${bad}/clone`, {});
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('BAD_REQUEST');
      expect(res.body.detail).to.contain('percent-encoding');
      const get = await s.api('GET', `/v1/extractor/extract_async/${bad}`);
      expect(get.status).to.equal(400);
    });
  }

  it('answers 422 at the path parameter for %00', async () => {
    expectIssue(await s.api('POST', '/v1/scraper-apis/%00/clone', {}, bearer), ['path', 'slug'], 'string_nul');
    expectIssue(await s.api('GET', '/v1/scraper-apis/x%00'), ['path', 'slug'], 'string_nul');
    expectIssue(await s.api('GET', '/v1/extractor/extract_async/a%00b'), ['path', 'task_id'], 'string_nul');
    expectIssue(await s.api('GET', '/v1/extractor/a%00'), ['path', 'scraper_id'], 'string_nul');
  });

  it('answers 422 at the field for a NUL in any string bound for Postgres, and stores nothing', async () => {
    const url = `${s.site.url}/products`;
    expectIssue(await s.api('POST', '/v1/extractor/extract_async', { url, prompt: 'a\u0000b' }), ['body', 'prompt'], 'string_nul');
    expectIssue(await s.api('POST', '/v1/extractor/extract_async', { url, prompt: 'p', source: '\u0000' }), ['body', 'source'], 'string_nul');
    expectIssue(
      await s.api('POST', '/v1/extractor/extract_async', { url, attributes: { 'na\u0000me': 'x' } }),
      ['body', 'attributes', 'na\u0000me'],
      'string_nul',
    );
    expectIssue(
      await s.api('POST', '/v1/extractor/extract_async', { url, attributes: [{ name: 'a\u0000' }] }),
      ['body', 'attributes', 0, 'name'],
      'string_nul',
    );
    expectIssue(await s.api('POST', '/v1/extractor/generate', { template_id: 'x\u0000', url, prompt: 'p' }), ['body', 'template_id'], 'string_nul');
    expectIssue(await s.agents('POST', '/v1/generate', { name: 'n\u0000', url, prompt: 'p' }), ['body', 'name'], 'string_nul');
    expectIssue(await s.agents('POST', '/v1/remove', { name: '\u0000' }), ['body', 'name'], 'string_nul');
    expect(await countRows(s, 'tasks')).to.equal(0);
    expect(await countRows(s, 'scrapers')).to.equal(0);
  });

  it('answers 422 for a lone UTF-16 surrogate, and keeps a valid pair', async () => {
    const url = `${s.site.url}/products`;
    expectIssue(await s.api('POST', '/v1/extractor/extract_async', { url, prompt: 'p', source: 'a\ud800b' }), ['body', 'source'], 'string_unicode');
    expectIssue(await s.api('POST', '/v1/extractor/extract_async', { url, prompt: 'p', source: '\udc00' }), ['body', 'source'], 'string_unicode');
    const ok = await s.api('POST', '/v1/extractor/extract_async', { url, prompt: 'p', source: 'emoji \ud83d\ude00' });
    expect(ok.status).to.equal(202);
  });

  it('answers 422 for an attribute map nested 5,000 levels deep', async () => {
    // Written by hand: JSON.stringify itself overflows the stack on such a document.
    const deep = `${'{"d":'.repeat(5000)}"leaf"${'}'.repeat(5000)}`;
    const raw = `{"url": "${s.site.url}/products", "attributes": {"price": ${deep}}}`;
    const res = await request(s.url, 'POST', '/v1/extractor/extract_async', { raw, headers: { 'X-API-KEY': s.key } });
    expect(res.status).to.equal(422);
    expect(res.body.detail[0].type).to.equal('too_deep');
    expect(res.body.detail[0].loc.slice(0, 3)).to.deep.equal(['body', 'attributes', 'price']);
    const health = await request(s.url, 'GET', '/readyz');
    expect(health.status).to.equal(200);
  });
});
