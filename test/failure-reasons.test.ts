// Issue 23, item 8: clients that read one field for a failure get the reason — `error` on a failed
// run's status body (the first failure's reason) and `message` (the same text as `detail`) in every
// error body, on both listeners.
import { expect } from 'chai';
import { insertScraper } from '@gleaner/core/internal';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { request } from './support/http.ts';

describe('failure reasons where clients read them (issue 23 item 8)', () => {
  let s: Stack;
  let scraper: string;
  before(async () => {
    s = await startStack({ agents: true });
    s.site.page('/shelf', '<html><body><ul><li><a>One</a></li><li><a>Two</a></li></ul></body></html>');
    const owner = (await s.engine.authenticateApiKey(s.key))!;
    const recipe = { version: 1, container: { selector: 'li' }, fields: { name: { selector: 'a', read: 'text' } } } as const;
    const attributes = [{ name: 'name', type: 'string' as const, description: '' }];
    scraper = await s.engine.db.tx((tx) => insertScraper(tx, { ownerId: owner.id, kind: 'extractor', url: `${s.site.url}/shelf`, attributes, recipe }));
  });
  after(() => s?.close());

  it("puts the first failure's reason in `error` of a failed run (async and sync bodies; the callback posts the async one), and none on a run that did not fail", async () => {
    const urls = [`${s.site.url}/gone-1`, `${s.site.url}/gone-2`];
    const started = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraper, url: urls });
    expect(started.status, started.text).to.equal(202);
    const done = await waitFor(
      async () => {
        const r = await s.api('GET', `/v1/scrapers/run_async/${started.body.run_id}`);
        return r.body.status === 'failed' ? r.body : undefined;
      },
      60_000,
      'the run to fail',
    );
    expect(done.error).to.be.a('string').and.equal(done.errors[urls[0]]);
    expect(done.error).to.contain('/gone-1').and.contain('404');

    const sync = await s.api('POST', '/v1/scrapers/run', { template_id: scraper, url: `${s.site.url}/gone-3` });
    expect(sync.status, sync.text).to.equal(200);
    expect(sync.body.status).to.equal('failed');
    expect(sync.body.error).to.equal(sync.body.errors[`${s.site.url}/gone-3`]);

    const partial = await s.api('POST', '/v1/scrapers/run', { template_id: scraper, url: [`${s.site.url}/shelf`, `${s.site.url}/gone-4`] });
    expect(partial.body.status).to.equal('completed_partial');
    expect(partial.body).to.not.have.property('error'); // the reasons stay per URL in `errors`
  });

  it('gives every error body a `message` equal to its `detail` (422: the issues as one line), on both listeners', async () => {
    const notFound = await s.api('GET', '/v1/scrapers/run_async/00000000-0000-0000-0000-000000000000');
    expect(notFound.status).to.equal(404);
    expect(notFound.body.message).to.be.a('string').and.equal(notFound.body.detail);

    const noEndpoint = await s.api('GET', '/v1/nowhere');
    expect(noEndpoint.body).to.deep.equal({ detail: 'no endpoint GET /v1/nowhere', code: 'NOT_FOUND', message: 'no endpoint GET /v1/nowhere' });

    const unauthorized = await request(s.url, 'GET', '/v1/scrapers', { headers: { 'X-API-KEY': 'glk_wrong' } });
    expect(unauthorized.status).to.equal(401);
    expect(unauthorized.body.message).to.equal(unauthorized.body.detail);

    const invalid = await s.api('POST', '/v1/extractor/extract', { prompt: 'x' });
    expect(invalid.status).to.equal(422);
    expect(invalid.body.detail[0].loc).to.deep.equal(['body', 'url']); // the documented list is unchanged
    expect(invalid.body.message).to.equal(invalid.body.detail.map((d: any) => `${d.loc.join('.')}: ${d.msg}`).join('; '));

    const badJson = await request(s.url, 'POST', '/v1/extractor/extract', { headers: { 'X-API-KEY': s.key }, raw: '{' });
    expect(badJson.status).to.equal(422);
    expect(badJson.body.message).to.contain('JSON decode error');

    const legacy = await s.agents('POST', '/v1/remove', {});
    expect(legacy.status).to.be.within(400, 499);
    expect(legacy.body.message).to.be.a('string').and.not.equal('');
  });
});
