// Issue 23, item 5: limits that accept a backlog. With the default limits a client's 100 run_async
// calls are all accepted (the cap on queued work is generous, request-rate limiting off); the
// per-owner limit is one of execution — at most limits.concurrentJobs of an owner's URLs run at
// once — and owners take turns, so a single run behind another owner's backlog finishes first.
// (The 10,000-page figure is test/bench/fairness.bench.ts.)
import { expect } from 'chai';
import { CONFIG_FIELDS, insertScraper, RUN_ITEM_BATCH_SIZE, RUN_ITEM_CONCURRENCY, type Owner } from '@gleaner/core/internal';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { request } from './support/http.ts';

const RECIPE = { version: 1, container: { selector: 'li' }, fields: { name: { selector: 'a', read: 'text' } } } as const;
const ATTRIBUTES = [{ name: 'name', type: 'string' as const, description: '' }];

async function scraperOf(s: Stack, owner: Owner, url: string): Promise<string> {
  return s.engine.db.tx((tx) => insertScraper(tx, { ownerId: owner.id, kind: 'extractor', url, attributes: ATTRIBUTES, recipe: RECIPE }));
}

describe('limits that accept a backlog (issue 23 item 5)', () => {
  it('defaults: no request-rate limit, a generous cap on queued work, a per-owner cap on execution', () => {
    expect(CONFIG_FIELDS['limits.requestsPerMinute'].default).to.equal(0);
    expect(CONFIG_FIELDS['limits.queuedJobs'].default).to.be.at.least(1000);
    expect(CONFIG_FIELDS['limits.concurrentJobs'].default).to.be.greaterThan(0);
  });

  describe('with the default limits', () => {
    let s: Stack;
    before(async () => {
      const d = (k: string) => CONFIG_FIELDS[k].default as number;
      const limits = { requestsPerMinute: d('limits.requestsPerMinute'), queuedJobs: d('limits.queuedJobs'), concurrentJobs: d('limits.concurrentJobs') };
      s = await startStack({ worker: false, config: { limits } });
    });
    after(() => s?.close());

    it('accepts 100 run_async calls of one client, and their status polls', async () => {
      const owner = (await s.engine.authenticateApiKey(s.key))!;
      const id = await scraperOf(s, owner, `${s.site.url}/list`);
      for (let i = 0; i < 100; i++) {
        const res = await s.api('POST', '/v1/scrapers/run_async', { template_id: id, url: `${s.site.url}/list?n=${i}` });
        expect(res.status, `call ${i + 1}: ${res.text}`).to.equal(202);
        expect((await s.api('GET', `/v1/scrapers/run_async/${res.body.run_id}`)).status).to.equal(200);
      }
    });
  });

  /** A stack whose /slow pages take `ms` and count, per owner (`?owner=`), the requests in flight. */
  function slowSite(limits: { concurrentJobs: number }, ms: number) {
    const t = { s: undefined as unknown as Stack, peak: new Map<string, number>() };
    before(async () => {
      // One test host stands for many sites: per-host politeness would cap every owner at its limit.
      t.s = await startStack({ config: { limits, politeness: { concurrency: 64, delayMs: 0 } } });
      const inFlight = new Map<string, number>();
      t.s.site.route('/slow', async (_q, res, url) => {
        const who = url.searchParams.get('owner')!;
        inFlight.set(who, (inFlight.get(who) ?? 0) + 1);
        t.peak.set(who, Math.max(t.peak.get(who) ?? 0, inFlight.get(who)!));
        await new Promise((r) => setTimeout(r, ms));
        inFlight.set(who, inFlight.get(who)! - 1);
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end('<ul><li><a>One</a></li></ul>');
      });
    });
    after(() => t.s?.close());
    return t;
  }

  /** `runs` runs of `size` URLs for alice; their ids. */
  async function backlog(s: Stack, scraper: string, runs: number, size = 100): Promise<string[]> {
    const ids: string[] = [];
    for (let r = 0; r < runs; r++) {
      const urls = Array.from({ length: size }, (_, i) => `${s.site.url}/slow?owner=alice&r=${r}&i=${i}`);
      const res = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraper, url: urls });
      expect(res.status, res.text).to.equal(202);
      ids.push(res.body.run_id);
    }
    return ids;
  }

  const left = async (s: Stack, runs: string[]) =>
    (await s.engine.db.query<{ n: number }>(`SELECT coalesce(sum(total - completed), 0)::int AS n FROM runs WHERE id = ANY($1)`, [runs])).rows[0].n;

  describe('owners take turns (no cap: one owner alone gets every worker)', () => {
    const t = slowSite({ concurrentJobs: 0 }, 300);

    it("runs a single run submitted behind another owner's 1,000-URL backlog before the backlog", async function () {
      this.timeout(180_000);
      const { s, peak } = t;
      const alice = (await s.engine.authenticateApiKey(s.key))!;
      const bobKey = (await s.engine.createApiKey('bob')).key;
      const bob = (await s.engine.authenticateApiKey(bobKey))!;
      const aliceRuns = await backlog(s, await scraperOf(s, alice, `${s.site.url}/slow?owner=alice`), 10);
      const bobScraper = await scraperOf(s, bob, `${s.site.url}/slow?owner=bob`);
      await waitFor(() => (peak.get('alice') ?? 0) > 0, 30_000, "alice's backlog to start");
      const submitted = Date.now();
      const bobRun = await request(s.url, 'POST', '/v1/scrapers/run_async', {
        body: { template_id: bobScraper, url: `${s.site.url}/slow?owner=bob` },
        headers: { 'X-API-KEY': bobKey },
      });
      expect(bobRun.status, bobRun.text).to.equal(202);
      const done = await waitFor(
        async () => {
          const r = await request(s.url, 'GET', `/v1/scrapers/run_async/${bobRun.body.run_id}`, { headers: { 'X-API-KEY': bobKey } });
          return r.body.status === 'completed' ? r.body : undefined;
        },
        60_000,
        "bob's run",
      );
      const bobMs = Date.now() - submitted;
      expect(done.data[`${s.site.url}/slow?owner=bob`]).to.deep.equal([{ name: 'One' }]);
      // Bob waited for the batches in progress, not for Alice's backlog: in her order he would have
      // come after all of it, leaving at most what a worker holds at once (its loops' batches).
      expect(await left(s, aliceRuns), `bob finished after ${bobMs} ms`).to.be.greaterThan(RUN_ITEM_BATCH_SIZE * RUN_ITEM_CONCURRENCY);
      expect(peak.get('alice')).to.be.greaterThan(4); // nothing held back while Alice was alone
    });
  });

  describe('the per-owner cap on execution (limits.concurrentJobs)', () => {
    const t = slowSite({ concurrentJobs: 4 }, 100);

    it("keeps one owner's URLs in progress near the cap, across the whole backlog", async function () {
      this.timeout(180_000);
      const { s, peak } = t;
      const alice = (await s.engine.authenticateApiKey(s.key))!;
      const runs = await backlog(s, await scraperOf(s, alice, `${s.site.url}/slow?owner=alice`), 1, 40);
      await waitFor(async () => (await left(s, runs)) === 0, 120_000, "alice's run");
      // The cap is applied when workers fetch, and fetch loops of the same instant do not see each
      // other's claims: each keeps to the cap, so a process may briefly run up to cap x loops (16
      // here) — never what it runs uncapped (a batch of 25 per loop).
      expect(peak.get('alice'))
        .to.be.within(1, 4 * RUN_ITEM_CONCURRENCY)
        .and.below(RUN_ITEM_BATCH_SIZE);
    });
  });
});
