// Fair sharing of the workers (issue 23 item 5): owner A queues a 10,000-page backlog (100 runs of
// 100 URLs); once it is under way, owner B submits a single one-URL run. Prints how long B's run
// took from submission to `completed`, how much of A's backlog was still waiting then, and A's
// pages/s — with the default limits (limits.concurrentJobs caps A's URLs in progress; owners take
// turns in the queue), on one worker process.
import os from 'node:os';
import { CONFIG_FIELDS, insertScraper, type Owner } from '@gleaner/core/internal';
import { startStack, type Stack } from '../support/stack.ts';
import { request } from '../support/http.ts';
import { waitFor } from '../support/wait.ts';

const RUNS = 100;
const URLS_PER_RUN = 100;
const PAGE_MS = 20;

const RECIPE = { version: 1, container: { selector: 'li' }, fields: { name: { selector: 'a', read: 'text' } } } as const;

function scraperOf(s: Stack, owner: Owner): Promise<string> {
  return s.engine.db.tx((tx) =>
    insertScraper(tx, {
      ownerId: owner.id,
      kind: 'extractor',
      url: `${s.site.url}/page`,
      attributes: [{ name: 'name', type: 'string', description: '' }],
      recipe: RECIPE,
    }),
  );
}

async function waiting(s: Stack, ownerId: string): Promise<number> {
  const { rows } = await s.engine.db.query<{ n: number }>(
    `SELECT coalesce(sum(total - completed), 0)::int AS n FROM runs WHERE owner_id = $1 AND status IN ('queued', 'running')`,
    [ownerId],
  );
  return rows[0].n;
}

export async function run(): Promise<void> {
  const limits = {
    requestsPerMinute: CONFIG_FIELDS['limits.requestsPerMinute'].default as number,
    queuedJobs: CONFIG_FIELDS['limits.queuedJobs'].default as number,
    concurrentJobs: CONFIG_FIELDS['limits.concurrentJobs'].default as number,
  };
  // The worker starts once A's whole backlog is queued, so B really arrives behind 10,000 pages.
  const s = await startStack({ worker: false, config: { limits, database: { poolMax: 10 }, jobs: { shutdownGraceSeconds: 1 } } });
  try {
    s.site.route('/page', async (_q, res) => {
      await new Promise((r) => setTimeout(r, PAGE_MS));
      if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end('<ul><li><a>One</a></li><li><a>Two</a></li></ul>');
    });
    const a = (await s.engine.authenticateApiKey(s.key))!;
    const bKey = (await s.engine.createApiKey('owner-b')).key;
    const b = (await s.engine.authenticateApiKey(bKey))!;
    const [aScraper, bScraper] = [await scraperOf(s, a), await scraperOf(s, b)];

    const queuedAt = Date.now();
    for (let r = 0; r < RUNS; r++) {
      const urls = Array.from({ length: URLS_PER_RUN }, (_, i) => `${s.site.url}/page?r=${r}&i=${i}`);
      const res = await s.api('POST', '/v1/scrapers/run_async', { template_id: aScraper, url: urls });
      if (res.status !== 202) throw new Error(`owner A's run ${r}: ${res.status} ${res.text}`);
    }
    const queueMs = Date.now() - queuedAt;
    await s.engine.startWorker();
    // Let A's backlog get going (a few hundred pages done) before B arrives.
    const total = RUNS * URLS_PER_RUN;
    await waitFor(async () => (await waiting(s, a.id)) < total - 300, 120_000, "A's backlog to start", 200);

    const before = await waiting(s, a.id);
    const submitted = Date.now();
    const bRun = await request(s.url, 'POST', '/v1/scrapers/run_async', {
      body: { template_id: bScraper, url: `${s.site.url}/page?b=1` },
      headers: { 'X-API-KEY': bKey },
    });
    if (bRun.status !== 202) throw new Error(`owner B's run: ${bRun.status} ${bRun.text}`);
    await waitFor(
      async () => {
        const r = await request(s.url, 'GET', `/v1/scrapers/run_async/${bRun.body.run_id}`, { headers: { 'X-API-KEY': bKey } });
        return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : undefined;
      },
      120_000,
      "B's run",
      50,
    );
    const bMs = Date.now() - submitted;
    const after = await waiting(s, a.id);
    const aRate = (before - after) / (bMs / 1000);

    console.log(
      `  machine: ${os.cpus().length} cores, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(`  limits: concurrentJobs ${limits.concurrentJobs}, queuedJobs ${limits.queuedJobs}, requestsPerMinute ${limits.requestsPerMinute}`);
    console.log(`  owner A: ${total} pages queued in ${RUNS} run_async calls (${queueMs} ms, none refused), ${PAGE_MS} ms a page`);
    console.log(`  owner B: a single run submitted with ${before} of A's pages waiting: completed in ${bMs} ms`);
    console.log(`  A's pages still waiting then: ${after} (A ran at ${aRate.toFixed(0)} pages/s meanwhile)`);
  } finally {
    await s.close();
  }
}
