import { expect } from 'chai';
import { parseRobots, robotsVerdict, setOwnerPoliteness, type Owner } from '@gleaner/core/internal';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { TEST_DATABASE_URL } from './support/db.ts';
import { startCli, workerEnv } from './support/process.ts';
import { insertCrawlScraper, record, startCrawlSite, type CrawlSite } from './support/crawl-site.ts';

async function finished(s: Stack, runId: string, ms = 90_000): Promise<any> {
  return waitFor(
    async () => {
      const r = await s.api('GET', `/v1/scrapers/run_async/${runId}`);
      return r.body.status !== 'queued' && r.body.status !== 'running' ? r.body : undefined;
    },
    ms,
    `run ${runId} to finish`,
    100,
  );
}

describe('robots.txt rules', () => {
  const robots = `# shop
User-agent: *
Disallow: /private/
Allow: /private/open$
Disallow: /*.pdf$
Crawl-delay: 2

User-agent: Gleaner
User-agent: OtherBot
Disallow: /only-for-gleaner
Crawl-delay: 0.5
Sitemap: https://shop.example/sitemap.xml`;

  it('takes our group (else *), longest match wins, allow wins ties, * and $ patterns', () => {
    const star = parseRobots(robots, 'SomeBot');
    expect(robotsVerdict(star, 'https://shop.example/private/x').allowed).to.equal(false);
    expect(robotsVerdict(star, 'https://shop.example/private/open').allowed).to.equal(true);
    expect(robotsVerdict(star, 'https://shop.example/private/open/more').allowed).to.equal(false);
    expect(robotsVerdict(star, 'https://shop.example/a/b.pdf').allowed).to.equal(false);
    expect(robotsVerdict(star, 'https://shop.example/a/b.pdf?x=1').allowed).to.equal(true);
    expect(robotsVerdict(star, 'https://shop.example/only-for-gleaner').allowed).to.equal(true);
    expect(star.crawlDelayMs).to.equal(2000);
    const ours = parseRobots(robots, 'Gleaner');
    expect(robotsVerdict(ours, 'https://shop.example/private/x').allowed).to.equal(true);
    expect(robotsVerdict(ours, 'https://shop.example/only-for-gleaner/x')).to.deep.equal({ allowed: false, rule: 'Disallow: /only-for-gleaner' });
    expect(ours.crawlDelayMs).to.equal(500);
    expect(ours.sitemaps).to.deep.equal(['https://shop.example/sitemap.xml']);
  });
});

describe('per-host politeness across worker processes', () => {
  let s: Stack;
  let alice: Owner;
  let site: CrawlSite;
  let scraperId: string;
  const children: Array<ReturnType<typeof startCli>> = [];

  before(async function () {
    this.timeout(240_000); // three processes starting on a loaded machine
    s = await startStack({ worker: false });
    alice = (await s.engine.authenticateApiKey(s.key))!;
    site = await startCrawlSite({ pages: 400, latencyMs: 15, busy: 3, retryAfter: '1' });
    scraperId = await insertCrawlScraper(s.engine.db, alice.id, site);
    // Three `gleaner worker` processes, no worker in this one: every item runs in a child.
    for (let i = 0; i < 3; i++) children.push(startCli(['worker'], workerEnv(s.schemas, TEST_DATABASE_URL, { GLEANER_POLITENESS_BACKOFF_BASE_MS: '200' })));
    await waitFor(() => children.every((c) => c.output().includes('worker started') || c.exitCode !== null), 200_000, 'three child workers');
    for (const c of children) expect(c.exitCode, c.output()).to.equal(null);
  });
  after(async () => {
    for (const c of children) c.kill('SIGTERM');
    await site?.close();
    await s?.close();
  });

  it('never has more than the owner’s limit in flight at one host, and skips what robots.txt disallows', async function () {
    this.timeout(120_000);
    await setOwnerPoliteness(s.engine.db, alice.id, { concurrency: 2, delayMs: 0 });
    site.reset();
    // Three runs of 50 URLs at once (their items spread over the three workers), 3 disallowed.
    const runs = await Promise.all(
      [0, 1, 2].map(async (r) => {
        const urls = Array.from({ length: 47 }, (_, i) => `${site.url}/p/${r * 47 + i + 1}`).concat([1, 2, 3].map((k) => `${site.url}/private/${r}-${k}`));
        const res = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls });
        expect(res.status, res.text).to.equal(202);
        return res.body.run_id as string;
      }),
    );
    const bodies = await Promise.all(runs.map((id) => finished(s, id)));
    for (const [r, body] of bodies.entries()) {
      expect(body).to.include({ status: 'completed', completed: 50, total: 50 });
      expect(body.errors).to.deep.equal({});
      expect(Object.keys(body.skipped)).to.have.length(3);
      expect(body.skipped[`${site.url}/private/${r}-1`]).to.match(/disallowed by the site's robots.txt \(Disallow: \/private\/\)/);
      expect(body.data[`${site.url}/p/${r * 47 + 5}`]).to.deep.equal([record(r * 47 + 5)]);
      expect(body.politeness).to.include({ concurrency: 2, delay_ms: 0, robots: 'respected', skipped: 3 });
      expect(body.politeness.waited_ms).to.be.above(0);
    }
    expect(site.maxInFlight, 'requests at once').to.be.at.most(2);
    expect(site.paths.filter((p) => p.startsWith('/private/'))).to.deep.equal([]);
    // robots.txt is cached in Postgres: the three workers fetched it at most once each.
    expect(site.paths.filter((p) => p === '/robots.txt').length).to.be.within(1, 3);
    expect(site.paths.filter((p) => p.startsWith('/p/')).length).to.equal(141);
  });

  it('fetches robots.txt in a turn at the host, like a page', async function () {
    this.timeout(30_000);
    const other = await startCrawlSite({ pages: 5 });
    try {
      const p = s.engine.context.politeness!;
      const limits = { concurrency: 1, delayMs: 0 };
      const held = await p.gate.acquire(other.host, limits);
      const rules = p.robots.rules(`${other.url}/p/1`, undefined, limits);
      await new Promise((r) => setTimeout(r, 600));
      expect(other.paths, 'requests while the one turn is held').to.deep.equal([]);
      await held.release();
      expect(robotsVerdict(await rules, `${other.url}/private/1`).allowed).to.equal(false);
      expect(other.paths).to.deep.equal(['/robots.txt']);
    } finally {
      await other.close();
    }
  });

  it('keeps the minimum delay between request starts across processes', async function () {
    this.timeout(60_000);
    await setOwnerPoliteness(s.engine.db, alice.id, { concurrency: 4, delayMs: 150 });
    site.reset();
    const urls = Array.from({ length: 12 }, (_, i) => `${site.url}/p/${300 + i}`);
    const res = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls });
    const body = await finished(s, res.body.run_id);
    expect(body).to.include({ status: 'completed', completed: 12 });
    const starts = site.log.filter((l) => l.path.startsWith('/p/')).map((l) => l.at);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]);
    // The delay is kept between the turns Postgres hands out; a loaded machine moves each request's
    // arrival by a few ms either way, so single gaps jitter but their sum cannot shrink.
    expect(starts.at(-1)! - starts[0], `gaps ${gaps.join(',')}`).to.be.at.least(11 * 150 - 100);
    expect(gaps.filter((g) => g >= 100).length, `gaps ${gaps.join(',')}`).to.be.at.least(9);
  });

  it('backs off on 429 Retry-After instead of failing, then recovers; the run reports the wait', async function () {
    this.timeout(60_000);
    // One at a time, so no request granted before a 429 can still be on its way after it.
    await setOwnerPoliteness(s.engine.db, alice.id, { concurrency: 1, delayMs: 0 });
    site.reset();
    const urls = Array.from({ length: 8 }, (_, i) => `${site.url}/busy/${i + 1}`);
    const res = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls });
    const body = await finished(s, res.body.run_id);
    expect(body).to.include({ status: 'completed', completed: 8 });
    expect(body.errors).to.deep.equal({});
    expect(body.politeness.backoffs).to.equal(3);
    expect(body.politeness.waited_ms).to.be.at.least(1000);
    // After each 429 the host was left alone for its Retry-After (1 s).
    const busy = site.log.filter((l) => l.path.startsWith('/busy/'));
    for (const [i, l] of busy.entries()) {
      if (l.status !== 429 || !busy[i + 1]) continue;
      const next = busy.slice(i + 1).find((n) => n.at > l.at);
      if (next) expect(next.at - l.at, 'silence after a 429').to.be.at.least(900);
    }
    // Recovered: the backoff level is back to 0 after the successes.
    const { rows } = await s.engine.db.query('SELECT backoff_level FROM politeness_hosts WHERE host = $1', [site.host]);
    expect(rows[0].backoff_level).to.equal(0);
  });

  it('an owner setting turns robots.txt off, and the run records it', async function () {
    this.timeout(60_000);
    await setOwnerPoliteness(s.engine.db, alice.id, { respectRobots: false, concurrency: 2, delayMs: 0 });
    site.reset();
    const res = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: [`${site.url}/p/7`, `${site.url}/private/9`] });
    const body = await finished(s, res.body.run_id);
    expect(body.politeness).to.include({ robots: 'ignored' });
    expect(body.skipped).to.equal(undefined);
    expect(site.paths).to.include('/private/9');
    await setOwnerPoliteness(s.engine.db, alice.id, { respectRobots: null });
  });
});
