// An embedder calling the engine's operations directly gets what an HTTP client gets: the body is
// checked against the same schema, with the same 422 issues, and the schema's defaults apply.
import { expect } from 'chai';
import { GleanerError, type ExtractRequest, type Owner } from '@gleaner/core';
import { startStack, type Stack } from './support/stack.ts';
import { rejection } from '@gleaner/testing';

describe('engine operations called directly: validated like the HTTP API', () => {
  let s: Stack;
  let alice: Owner;
  before(async () => {
    s = await startStack({ worker: false, agents: true });
    alice = await s.engine.ensureOwner('alice');
  });
  after(() => s?.close());

  const bad = { url: 'http://127.0.0.1:1/', max_pages: 'abc', mode: 'turbo' } as unknown as ExtractRequest;

  it('refuses a bad body with VALIDATION_FAILED and the issues the API answers with 422', async () => {
    const direct = await rejection(s.engine.extract(alice, bad));
    expect(direct).to.be.instanceOf(GleanerError);
    expect(direct.code).to.equal('VALIDATION_FAILED');
    const http = await s.api('POST', '/v1/extractor/extract', bad);
    expect(http.status).to.equal(422);
    expect(direct.details).to.deep.equal(http.body.detail);
    expect((direct.details as Array<{ loc: unknown[] }>).map((i) => i.loc)).to.deep.include.members([
      ['body', 'max_pages'],
      ['body', 'mode'],
    ]);
  });

  it("checks parse, markdown and async submissions too, without touching the caller's object", async () => {
    expect((await rejection(s.engine.parse(alice, {} as never))).details).to.deep.equal([{ loc: ['body', 'content'], msg: 'Field required', type: 'missing' }]);
    expect((await rejection(s.engine.extractMarkdown(alice, { url: 5 } as never))).code).to.equal('VALIDATION_FAILED');
    const body = { url: 'http://127.0.0.1:1/', callback_url: 7 } as never;
    expect((await rejection(s.engine.submitExtractTask(alice, body))).code).to.equal('VALIDATION_FAILED');
    expect(body).to.deep.equal({ url: 'http://127.0.0.1:1/', callback_url: 7 });
  });

  // The scraper, run, agent and legacy operations: each case is a direct call and the same body sent
  // to its endpoint; the core issues must be the 422 body, field for field.
  const cases: Array<{ what: string; body: unknown; direct: (b: never) => Promise<unknown>; http: [api: 'api' | 'agents', path: string]; locs: unknown[][] }> =
    [
      {
        what: 'runs.submit',
        body: { scraper_id: 1, urls: 'x', max_pages: 'abc' },
        direct: (b) => s.engine.runs.submit(alice, b),
        http: ['api', '/v1/scrapers/run_async'],
        locs: [
          ['body', 'scraper_id'],
          ['body', 'max_pages'],
        ],
      },
      {
        what: 'runs.run',
        body: { template_id: 'x', url: [], parameters: 'p', max_pages: 0 },
        direct: (b) => s.engine.runs.run(alice, b),
        http: ['api', '/v1/scrapers/run'],
        locs: [
          ['body', 'url'],
          ['body', 'parameters'],
          ['body', 'max_pages'],
        ],
      },
      {
        what: 'scrapers.generate',
        body: { url: 5, template_id: 'x'.repeat(201), cookies: 'a=b' },
        direct: (b) => s.engine.scrapers.generate(alice, b),
        http: ['api', '/v1/extractor/generate'],
        locs: [
          ['body', 'url'],
          ['body', 'template_id'],
          ['body', 'cookies'],
        ],
      },
      {
        what: "scrapers.generate (kind 'agentic')",
        body: { url: 'http://127.0.0.1:1/' },
        direct: (b) => s.engine.scrapers.generate(alice, b, 'agentic'),
        http: ['api', '/v1/agent/generate'],
        locs: [['body', 'prompt']],
      },
      {
        what: 'agent.submit',
        body: { url: '', prompt: 3 },
        direct: (b) => s.engine.agent.submit(alice, b),
        http: ['api', '/v1/agent/extract'],
        locs: [
          ['body', 'url'],
          ['body', 'prompt'],
        ],
      },
      {
        what: 'catalog.legacy.generate',
        body: { name: '', url: 'http://127.0.0.1:1/', attributes: 7 },
        direct: (b) => s.engine.catalog.legacy.generate(alice, b),
        http: ['agents', '/v1/generate'],
        locs: [
          ['body', 'name'],
          ['body', 'attributes'],
        ],
      },
      {
        what: 'catalog.legacy.scrape',
        body: { url: 1 },
        direct: (b) => s.engine.catalog.legacy.scrape(alice, b),
        http: ['agents', '/v1/scrape'],
        locs: [
          ['body', 'name'],
          ['body', 'url'],
        ],
      },
      {
        what: 'catalog.legacy.remove',
        body: { name: ['a'] },
        direct: (b) => s.engine.catalog.legacy.remove(alice, b),
        http: ['agents', '/v1/remove'],
        locs: [['body', 'name']],
      },
    ];
  for (const c of cases) {
    it(`${c.what}: a bad body gets the issues its endpoint answers with 422`, async () => {
      const direct = await rejection(c.direct(structuredClone(c.body) as never));
      expect(direct).to.be.instanceOf(GleanerError);
      expect(direct.code).to.equal('VALIDATION_FAILED');
      const http = await s[c.http[0]]('POST', c.http[1], c.body);
      expect(http.status).to.equal(422);
      expect(direct.details).to.deep.equal(http.body.detail);
      expect((direct.details as Array<{ loc: unknown[] }>).map((i) => i.loc)).to.have.deep.members(c.locs);
    });
  }

  it("lets a well-formed run through to the scraper look-up (404 as over HTTP), leaving the caller's object alone", async () => {
    const body = { template_id: 'no-such-scraper' };
    // Valid shape: the operation goes on to look the scraper up, as the API does (404).
    expect((await rejection(s.engine.runs.submit(alice, body))).code).to.equal('NOT_FOUND');
    expect(body).to.deep.equal({ template_id: 'no-such-scraper' });
    const http = await s.api('POST', '/v1/scrapers/run_async', body);
    expect(http.status).to.equal(404);
  });
});
