import { expect } from 'chai';
import { parseSitemap, normalizeUrl, type Owner } from '@gleaner/core/internal';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { TEST_DATABASE_URL } from './support/db.ts';
import { runCli, startCli, workerEnv } from './support/process.ts';
import { insertCrawlScraper, record, startCrawlSite, type CrawlSite } from './support/crawl-site.ts';

const FAST = { concurrency: 8, delay_ms: 0 };

describe('sitemaps and URL normalisation', () => {
  it('reads sitemap indexes and url sets, entities and CDATA included', () => {
    expect(
      parseSitemap(
        `<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex><urlset><url><loc><![CDATA[https://a.example/x?a=1&b=2]]></loc></url><url>\n<loc> https://a.example/y?a=1&amp;b=2 </loc><lastmod>2024</lastmod></url></urlset>`,
      ),
    ).to.deep.equal({ sitemaps: ['https://a.example/s1.xml'], urls: ['https://a.example/x?a=1&b=2', 'https://a.example/y?a=1&b=2'] });
  });
  it('drops fragments, tracking parameters and default ports; lower-cases the host', () => {
    expect(normalizeUrl('HTTPS://Shop.Example:443/a/b?utm_source=x&id=3#top')).to.equal('https://shop.example/a/b?id=3');
    expect(normalizeUrl('/p/2?', 'http://shop.example/p/1')).to.equal('http://shop.example/p/2');
    expect(normalizeUrl('mailto:x@y.z')).to.equal(null);
  });
});

describe('maps and crawls', () => {
  let s: Stack;
  let alice: Owner;
  let big: CrawlSite;
  let small: CrawlSite;
  let working = false;
  const worker = async () => {
    if (!working) await s.engine.startWorker();
    working = true;
  };

  const scraperFor = (site: CrawlSite) => insertCrawlScraper(s.engine.db, alice.id, site);

  before(async function () {
    this.timeout(60_000);
    s = await startStack({ worker: false });
    alice = (await s.engine.authenticateApiKey(s.key))!;
    big = await startCrawlSite({ pages: 2500 });
    small = await startCrawlSite({ pages: 60, latencyMs: 5 });
  });
  after(async () => {
    await big?.close();
    await small?.close();
    await s?.close();
  });

  it('maps exactly the site’s URLs from its robots.txt sitemap index (a gzipped sitemap too)', async function () {
    this.timeout(60_000);
    big.reset();
    const res = await s.api('POST', '/v1/map', { url: `${big.url}/p/1`, sitemap: 'only', limit: 10_000, politeness: FAST });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.links).to.have.members(big.productUrls());
    expect(res.body.links).to.have.length(2500);
    expect(res.body.urls[0]).to.deep.equal({ url: `${big.url}/p/1`, source: 'start' });
    expect(res.body.urls[2000]).to.deep.equal({ url: `${big.url}/p/2001`, source: 'sitemap', found_in: `${big.url}/sitemap-2.xml.gz` });
    expect(res.body.sitemaps).to.deep.equal([`${big.url}/sitemap.xml`, `${big.url}/sitemap-1.xml`, `${big.url}/sitemap-2.xml.gz`]);
    expect(res.body.pages_visited).to.equal(0);
    expect(big.paths.filter((p) => p.startsWith('/p/'))).to.deep.equal([]);

    const limited = await s.api('POST', '/v1/map', { url: big.url, limit: 40, politeness: FAST });
    expect(limited.body.links).to.have.length(40);
    expect(new Set(limited.body.links).size).to.equal(40);
  });

  it('follows links breadth first: normalised, deduplicated, same site, robots.txt obeyed, filters applied', async function () {
    this.timeout(60_000);
    small.reset();
    const res = await s.api('POST', '/v1/map', { url: `${small.url}/p/1`, sitemap: 'skip', politeness: FAST });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.links).to.have.members(small.productUrls());
    expect(res.body.links).to.have.length(60);
    expect(res.body.urls.find((u: any) => u.url === `${small.url}/p/3`)).to.deep.equal({
      url: `${small.url}/p/3`,
      source: 'link',
      found_in: `${small.url}/p/1`,
    });
    expect(res.body.disallowed).to.equal(60);
    expect(small.paths.filter((p) => p.startsWith('/private/'))).to.deep.equal([]);
    expect(small.paths.filter((p) => p.startsWith('/p/')).length).to.equal(60); // each page read once

    const filtered = await s.api('POST', '/v1/map', {
      url: `${small.url}/p/1`,
      sitemap: 'skip',
      include: ['^/p/\\d*7$'],
      exclude: ['^/p/3\\d$'],
      same_domain: false,
      politeness: FAST,
    });
    expect(filtered.body.links).to.include.members([`${small.url}/p/1`, `${small.url}/p/7`, `${small.url}/p/17`, `${small.url}/p/57`]);
    expect(filtered.body.links).not.to.include(`${small.url}/p/37`);
    expect(filtered.body.links.filter((u: string) => u.startsWith(small.url) && !/\/p\/(1|\d*7)$/.test(u))).to.deep.equal([]);

    const bad = await s.api('POST', '/v1/map', { url: small.url, include: ['(a+)+$'], sitemap: 'bogus' });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail.map((d: any) => d.loc.join('.'))).to.include('body.sitemap');
  });

  it('gleaner map prints one URL per line', async function () {
    this.timeout(60_000);
    const out = await runCli(['map', `${small.url}/p/1`, '--sitemap', 'only', '--urls-only', '--limit', '10'], {
      GLEANER_SERVER: s.url,
      GLEANER_API_KEY: s.key,
    });
    expect(out.code, out.stderr).to.equal(0);
    expect(out.stdout.trim().split('\n')).to.deep.equal(small.productUrls().slice(0, 10));
    expect(out.stderr).to.match(/10 URLs \(2 sitemaps read, 0 pages visited\)/);
  });

  it('crawls 500 pages, each exactly once, through a worker killed mid-crawl', async function () {
    this.timeout(240_000);
    const site = await startCrawlSite({ pages: 500, latencyMs: 5 });
    const child = startCli(['worker'], workerEnv(s.schemas, TEST_DATABASE_URL));
    try {
      const scraperId = await scraperFor(site);
      await waitFor(() => child.output().includes('worker started') || child.exitCode !== null, 60_000, 'the child worker');
      const res = await s.api('POST', '/v1/crawls', { url: `${site.url}/p/1`, template_id: scraperId, limit: 500, politeness: FAST });
      expect(res.status, res.text).to.equal(202);
      expect(res.body).to.include({ status: 'discovering', discovered: 0 });
      const id = res.body.crawl_id;
      await waitFor(
        async () => {
          const r = await s.api('GET', `/v1/crawls/${id}`);
          return r.body.completed >= 50 ? r.body : undefined;
        },
        120_000,
        'the child worker to scrape 50 pages',
        50,
      );
      child.kill('SIGKILL');
      await worker();
      const done = await waitFor(
        async () => {
          const r = await s.api('GET', `/v1/crawls/${id}`);
          return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : undefined;
        },
        180_000,
        'the crawl to finish after the kill',
        250,
      );
      expect(done).to.include({ status: 'completed', discovered: 500, started: 500, completed: 500, failed: 0, skipped: 0 });
      expect(done.runs).to.have.length(5);
      expect(done.runs.every((r: any) => r.total === 100 && r.status === 'completed')).to.equal(true);
      expect(done.map.sitemaps).to.have.length(3);

      const lines = await fetch(`${s.url}/v1/crawls/${id}/results`, { headers: { 'X-API-KEY': s.key } });
      expect(lines.headers.get('content-type')).to.match(/application\/x-ndjson/);
      const results = (await lines.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(results.map((r) => r.url)).to.have.members(site.productUrls());
      expect(results).to.have.length(500);
      for (const r of results) expect(r).to.deep.equal({ url: r.url, status: 'completed', records: [record(Number(r.url.split('/').pop()))], error: null });

      const csv = await (await fetch(`${s.url}/v1/crawls/${id}/results?format=csv`, { headers: { 'X-API-KEY': s.key } })).text();
      const rows = csv.trim().split('\r\n');
      expect(rows[0]).to.equal('url,status,error,name,price');
      expect(rows).to.include(`${site.url}/p/42,completed,,Product 42,42`);
      expect(rows).to.have.length(501);
    } finally {
      child.kill('SIGKILL');
      await site.close();
    }
  });

  it('stops and resumes a crawl without running a URL twice', async function () {
    this.timeout(120_000);
    // 400 URLs: four runs of 100, three of which start at once; the stop keeps the fourth back.
    const site = await startCrawlSite({ pages: 400, latencyMs: 5 });
    try {
      await worker();
      const scraperId = await scraperFor(site);
      const res = await s.api('POST', '/v1/crawls', { url: `${site.url}/p/1`, template_id: scraperId, limit: 400, sitemap: 'only', politeness: FAST });
      const id = res.body.crawl_id;
      await waitFor(async () => (await s.api('GET', `/v1/crawls/${id}`)).body.started > 0 || undefined, 60_000, 'the first run');
      const stopped = await s.api('POST', `/v1/crawls/${id}/stop`);
      expect(stopped.body.status).to.equal('stopped');
      // The runs already going finish; no new one starts.
      const settled = await waitFor(
        async () => {
          const b = (await s.api('GET', `/v1/crawls/${id}`)).body;
          return b.runs.every((r: any) => r.status !== 'queued' && r.status !== 'running') ? b : undefined;
        },
        60_000,
        'the started runs to finish',
        200,
      );
      expect(settled.status).to.equal('stopped');
      expect(settled.started).to.be.below(400);
      await new Promise((r) => setTimeout(r, 1200));
      expect((await s.api('GET', `/v1/crawls/${id}`)).body.started).to.equal(settled.started);
      expect((await s.api('POST', `/v1/crawls/${id}/resume`)).body.status).to.equal('running');
      expect((await s.api('POST', `/v1/crawls/${id}/resume`)).status).to.equal(409);
      const done = await waitFor(
        async () => {
          const b = (await s.api('GET', `/v1/crawls/${id}`)).body;
          return b.status === 'completed' ? b : undefined;
        },
        90_000,
        'the resumed crawl',
        200,
      );
      const failures = (await (await fetch(`${s.url}/v1/crawls/${id}/results`, { headers: { 'X-API-KEY': s.key } })).text())
        .split('\n')
        .filter((l) => l.includes('"failed"'));
      expect(done, failures.join('\n')).to.include({ discovered: 400, started: 400, completed: 400, failed: 0 });
      expect(site.paths.filter((p) => p.startsWith('/p/')).length).to.equal(400);
      const missing = await s.api('GET', '/v1/crawls/00000000-0000-0000-0000-000000000000');
      expect(missing.status).to.equal(404);
    } finally {
      await site.close();
    }
  });
});
