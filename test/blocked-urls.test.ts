// Issue 23, item 2: a blocked start URL gets the same answer at the same moment from every endpoint —
// 400 URL_BLOCKED saying how to allow the network (GLEANER_ALLOW_NETWORKS) — before anything is queued.
import { expect } from 'chai';
import { insertScraper, refuseBlockedUrls } from '@gleaner/core/internal';
import { startStack, type Stack } from './support/stack.ts';

describe('blocked start URLs (issue 23 item 2)', () => {
  let s: Stack;
  let classic: string;
  let agentic: string;
  before(async () => {
    // The stack's fixture site is on loopback, which this stack does not allow.
    s = await startStack({ config: { network: { allowNetworks: [] } } });
    const owner = (await s.engine.authenticateApiKey(s.key))!;
    const recipe = { version: 1, container: { selector: 'li' }, fields: { name: { selector: 'a', read: 'text' } } } as const;
    const attributes = [{ name: 'name', type: 'string' as const, description: '' }];
    classic = await s.engine.db.tx((tx) => insertScraper(tx, { ownerId: owner.id, kind: 'extractor', url: 'https://example.com/', attributes, recipe }));
    agentic = await s.engine.db.tx((tx) =>
      insertScraper(tx, {
        ownerId: owner.id,
        kind: 'agentic',
        url: 'https://example.com/',
        status: 'ready',
        script: { steps: [] },
        parametersSchema: [{ name: 'start_url', type: 'url' }],
      }),
    );
  });
  after(() => s?.close());

  for (const [label, host] of [
    ['a literal loopback address', '127.0.0.1'],
    ['a name resolving to loopback', 'localhost'],
  ] as const) {
    it(`answers 400 URL_BLOCKED at once, identically, on every endpoint, for ${label}`, async () => {
      const url = `http://${host}:${s.site.port}/shop`;
      const calls: Array<[string, unknown]> = [
        ['/v1/extractor/extract', { url, prompt: 'products' }],
        ['/v1/extractor/extract_markdown', { url }],
        ['/v1/extractor/extract_async', { url, prompt: 'products' }],
        ['/v1/agent/extract', { url, prompt: 'products' }],
        ['/v1/extractor/generate', { url, attributes: [{ name: 'name', type: 'string', description: 'product name' }] }],
        ['/v1/agent/generate', { url, prompt: 'products' }],
        ['/v1/scrapers/run', { template_id: classic, url }],
        ['/v1/scrapers/run_async', { template_id: classic, url: [`https://example.com/`, url] }],
        ['/v1/scrapers/run_async', { template_id: agentic, url }],
      ];
      const details = new Set<string>();
      for (const [path, body] of calls) {
        const started = Date.now();
        const res = await s.api('POST', path, body);
        expect(res.status, `${path}: ${res.text}`).to.equal(400);
        expect(res.body.code, path).to.equal('URL_BLOCKED');
        expect(Date.now() - started, path).to.be.below(3_000);
        details.add(res.body.detail);
      }
      expect([...details]).to.deep.equal([
        `blocked: ${host === 'localhost' ? 'localhost resolves to 127.0.0.1,' : '127.0.0.1 is'} a loopback address; to allow it, add 127.0.0.1/32 (or a network holding it) to GLEANER_ALLOW_NETWORKS (network.allowNetworks) and restart Gleaner`,
      ]);
      expect(s.site.requests.filter((r) => r.path.startsWith('/shop'))).to.have.length(0);
      const { rows } = await s.engine.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM tasks) + (SELECT count(*) FROM runs) + (SELECT count(*) FROM scrapers WHERE status = 'generating') AS n`,
      );
      expect(Number(rows[0].n)).to.equal(0);
    });
  }

  it('leaves a name that does not resolve to the fetch, and allows what GLEANER_ALLOW_NETWORKS allows', async () => {
    await refuseBlockedUrls([], ['http://no-such-host.invalid/']);
    await refuseBlockedUrls(['127.0.0.0/8'], ['http://127.0.0.1/', 'http://localhost/']);
    const slow = () => new Promise<never>(() => {}); // a resolver that never answers: given up on, not waited for
    const started = Date.now();
    await refuseBlockedUrls([], ['http://slow.example/'], { resolver: slow, timeoutMs: 200 });
    expect(Date.now() - started).to.be.below(2_000);
    const err = await refuseBlockedUrls([], ['https://example.com/', 'http://10.0.0.1/']).catch((e) => e);
    expect(err).to.include({ code: 'URL_BLOCKED' });
  });
});
