// Politeness, maps and crawls (issue 25): pages/s of a 2,000-page crawl with 1, 2 and 4 `gleaner
// worker` processes (per-host limit raised so the site is not the bottleneck); the same 2,000 pages
// spread over 20 hosts at the default politeness (2 at a time, 250 ms apart per host); the cost of
// the politeness bookkeeping per page (acquire + release in Postgres) next to a page fetch; and map
// throughput (sitemaps, and links breadth first) in URLs/s.
import os from 'node:os';
import { createDatabase, migrate, PolitenessGate, silentLogger, type Owner } from '@gleaner/core/internal';
import { startStack, waitFor, type Stack } from '../support/stack.ts';
import { TEST_DATABASE_URL } from '../support/db.ts';
import { startCli, workerEnv } from '../support/process.ts';
import { insertCrawlScraper, startCrawlSite, type CrawlSite } from '../support/crawl-site.ts';

const PAGES = 2000;
const RAISED = { concurrency: 64, delay_ms: 0 };

const scraperOn = (s: Stack, owner: Owner, site: CrawlSite) => insertCrawlScraper(s.engine.db, owner.id, site);

async function crawlOnce(s: Stack, owner: Owner): Promise<{ seconds: number; pages: number; why: string }> {
  const site = await startCrawlSite({ pages: PAGES });
  try {
    const scraperId = await scraperOn(s, owner, site);
    const t0 = performance.now();
    const res = await s.api('POST', '/v1/crawls', { url: `${site.url}/p/1`, template_id: scraperId, limit: PAGES, sitemap: 'only', politeness: RAISED });
    if (res.status !== 202) throw new Error(`crawl answered ${res.status}: ${res.text}`);
    const done = await waitFor(
      async () => {
        const b = (await s.api('GET', `/v1/crawls/${res.body.crawl_id}`)).body;
        return b.status === 'completed' || b.status === 'failed' ? b : undefined;
      },
      1_800_000,
      'the crawl',
      100,
    );
    if (done.status !== 'completed' || done.completed !== PAGES) throw new Error(`crawl ended ${JSON.stringify(done).slice(0, 400)}`);
    let why = '';
    if (done.failed) {
      // On an overloaded machine some pages time out: the figure says how many, and why.
      const res = await fetch(`${s.url}/v1/crawls/${done.crawl_id}/results`, { headers: { 'X-API-KEY': s.key } });
      const failed = (await res.text()).split('\n').filter((l) => l.includes('"status":"failed"'));
      why = ` (${done.failed} failed, e.g. ${JSON.parse(failed[0]).error})`;
    }
    return { seconds: (performance.now() - t0) / 1000, pages: done.completed - done.failed, why };
  } finally {
    await site.close();
  }
}

async function manyHosts(s: Stack, owner: Owner): Promise<{ seconds: number; pages: number }> {
  // 20 hosts on 20 loopback addresses, 100 pages each, at the server's default politeness.
  const sites = await Promise.all(Array.from({ length: 20 }, (_, i) => startCrawlSite({ pages: 100, host: `127.0.1.${i + 1}` })));
  try {
    const scraperId = await scraperOn(s, owner, sites[0]);
    const t0 = performance.now();
    // 20 runs of 100 URLs, each URL list interleaving the 20 hosts.
    const runs: string[] = [];
    for (let r = 0; r < 20; r++) {
      const urls = Array.from({ length: 100 }, (_, k) => `${sites[k % 20].url}/p/${r * 5 + Math.floor(k / 20) + 1}`);
      const res = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls });
      if (res.status !== 202) throw new Error(`run answered ${res.status}: ${res.text}`);
      runs.push(res.body.run_id);
    }
    let pages = 0;
    for (const id of runs) {
      const b = await waitFor(
        async () => {
          const x = (await s.api('GET', `/v1/scrapers/run_async/${id}`)).body;
          return x.status !== 'queued' && x.status !== 'running' ? x : undefined;
        },
        1_800_000,
        'the runs',
        100,
      );
      pages += b.completed;
    }
    const maxPerHost = Math.max(...sites.map((x) => x.maxInFlight));
    console.log(`  20 hosts: most requests at once at one host: ${maxPerHost} (limit 2)`);
    return { seconds: (performance.now() - t0) / 1000, pages };
  } finally {
    await Promise.all(sites.map((x) => x.close()));
  }
}

async function bookkeeping(): Promise<void> {
  const logger = silentLogger();
  const schema = `bench_polite_${process.pid}`;
  await migrate({ url: TEST_DATABASE_URL, schema, logger });
  const db = createDatabase({ url: TEST_DATABASE_URL, schema, poolMax: 4, connectTimeoutMs: 5000, logger });
  const gate = new PolitenessGate({ db, logger, backoffBaseMs: 1000 });
  const site = await startCrawlSite({ pages: 10 });
  try {
    const N = 1000;
    let t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const lease = await gate.acquire(`host-${i % 50}`, { concurrency: 4, delayMs: 0 });
      await lease.release();
    }
    const gateMs = (performance.now() - t0) / N;
    t0 = performance.now();
    for (let i = 0; i < N; i++) await (await fetch(`${site.url}/p/${(i % 10) + 1}`)).text();
    const fetchMs = (performance.now() - t0) / N;
    console.log(
      `  politeness bookkeeping: ${gateMs.toFixed(2)} ms per page (acquire + release, sequential) vs ${fetchMs.toFixed(2)} ms for a loopback page fetch (a real site: 50-500 ms)`,
    );
  } finally {
    await gate.close();
    await site.close();
    await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.close();
  }
}

async function maps(s: Stack): Promise<void> {
  const site = await startCrawlSite({ pages: 5000 });
  try {
    let t0 = performance.now();
    const a = await s.api('POST', '/v1/map', { url: `${site.url}/p/1`, sitemap: 'only', limit: 5000, politeness: RAISED });
    let sec = (performance.now() - t0) / 1000;
    console.log(`  map from sitemaps: ${a.body.links.length} URLs in ${sec.toFixed(2)} s = ${(a.body.links.length / sec).toFixed(0)} URLs/s`);
    t0 = performance.now();
    const b = await s.api('POST', '/v1/map', { url: `${site.url}/p/1`, sitemap: 'skip', limit: 1000, politeness: RAISED });
    sec = (performance.now() - t0) / 1000;
    console.log(
      `  map by links (breadth first, ${b.body.pages_visited} pages read, per-host limit raised): ${b.body.links.length} URLs in ${sec.toFixed(2)} s = ${(b.body.links.length / sec).toFixed(0)} URLs/s`,
    );
  } finally {
    await site.close();
  }
}

export async function run(): Promise<void> {
  console.log(
    `  load before: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  await bookkeeping();
  // Small pools: four workers share a Postgres whose max_connections other users need too.
  const s = await startStack({ worker: false, config: { database: { poolMax: 4 } } });
  const children: Array<ReturnType<typeof startCli>> = [];
  try {
    const owner = (await s.engine.authenticateApiKey(s.key))!;
    await maps(s);
    const env = workerEnv(s.schemas, TEST_DATABASE_URL, { GLEANER_DB_POOL_MAX: '4' });
    for (const n of [1, 2, 4]) {
      while (children.length < n) children.push(startCli(['worker'], env));
      await waitFor(() => children.every((c) => c.output().includes('worker started') || c.exitCode !== null), 180_000, 'the workers');
      const r = await crawlOnce(s, owner);
      console.log(
        `  crawl of ${r.pages} pages, ${n} worker process${n > 1 ? 'es' : ''}: ${r.seconds.toFixed(1)} s = ${(r.pages / r.seconds).toFixed(1)} pages/s (load ${os.loadavg()[0].toFixed(1)})${r.why}`,
      );
    }
    const m = await manyHosts(s, owner);
    console.log(
      `  ${m.pages} pages over 20 hosts at the default politeness (2 at a time, 250 ms apart), 4 workers: ${m.seconds.toFixed(1)} s = ${(m.pages / m.seconds).toFixed(1)} pages/s (ceiling 20 x 4 = 80 pages/s)`,
    );
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await s.close();
  }
}
