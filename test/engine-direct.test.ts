// An embedder calling the engine's operations directly gets what an HTTP client gets: the body is
// checked against the same schema, with the same 422 issues, and the schema's defaults apply.
import { expect } from 'chai';
import { GleanerError, type ExtractRequest, type Owner } from '@gleaner/core';
import { startStack, type Stack } from './support/stack.ts';
import { rejection } from './support/assert.ts';

describe('engine operations called directly: validated like the HTTP API', () => {
  let s: Stack;
  let alice: Owner;
  before(async () => {
    s = await startStack({ worker: false });
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
});
