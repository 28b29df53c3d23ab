// Scraper run figures: wall time of a 100-URL run over loopback fixture pages, from the request
// (POST /v1/scrapers/run_async) to `completed` (the finishing transaction's NOTIFY), next to a bare
// loop (fetch + parse + the same recipe executor, no queue, no database) over the same pages in the
// same process; pages/s of both, their ratio, and model calls per page during runs (must be 0).
import os from 'node:os';
import pg from 'pg';
import { insertScraper, RUN_ITEM_BATCH_SIZE, RUN_ITEM_CONCURRENCY, runChannel, scrapeWithRecipe, type Recipe } from '@gleaner/core/internal';
import { startStack } from '../support/stack.ts';

const URLS = 100;
const ROUNDS = 9;
const ITEMS_PER_PAGE = 20;

const RECIPE: Recipe = {
  version: 1,
  container: { selector: 'div.card' },
  fields: {
    name: { selector: 'h2.name', read: 'text' },
    price: { selector: '.price', read: 'text', transforms: [{ op: 'number' }] },
    url: { selector: 'a', read: 'attr', attr: 'href', transforms: [{ op: 'absolute_url' }] },
  },
};
const ATTRIBUTES = [
  { name: 'name', description: '', type: 'string' as const },
  { name: 'price', description: '', type: 'number' as const },
  { name: 'url', description: '', type: 'string' as const },
];

/** A listing page of ~25 KB: navigation, 20 cards, footer. */
function listing(n: number): string {
  const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="/cat/${i}">Category ${i}</a></li>`).join('');
  const cards = Array.from(
    { length: ITEMS_PER_PAGE },
    (_, k) =>
      `<div class="card"><img src="/img/${n}-${k}.jpg" alt=""><h2 class="name">Widget ${n}-${k}</h2><p class="desc">A sturdy widget, model ${n}-${k}, with the usual features and a long description to weigh the page.</p><span class="price">${n}.${k} EUR</span><a href="/p/${n}-${k}">Details</a></div>`,
  ).join('\n');
  return `<!doctype html><html><head><title>Shop ${n}</title><style>.card{margin:1em}</style><script>var x = ${n};</script></head><body><nav><ul>${nav}</ul></nav><main><h1>Shop page ${n}</h1>${cards}</main><footer>${'Shop Inc. terms and conditions. '.repeat(20)}</footer></body></html>`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function run(): Promise<void> {
  // The engine's default pool size (the test default is smaller).
  const s = await startStack({ config: { database: { poolMax: 10 } } });
  const listener = new pg.Client({ connectionString: s.engine.db.url });
  try {
    s.site.route(
      '/shop',
      (_q, res, url) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(listing(Number(url.searchParams.get('page')))),
    );
    const owner = (await s.engine.authenticateApiKey(s.key))!;
    const scraperId = await s.engine.db.tx((tx) =>
      insertScraper(tx, {
        ownerId: owner.id,
        kind: 'extractor',
        url: `${s.site.url}/shop?page=1`,
        status: 'ready',
        attributes: ATTRIBUTES,
        recipe: RECIPE,
        sampleData: [{ name: 'Widget 1-0', price: 1, url: `${s.site.url}/p/1-0` }],
        sampleDriver: 'http',
      }),
    );
    const urls = (round: number) => Array.from({ length: URLS }, (_, i) => `${s.site.url}/shop?page=${round * URLS + i + 1}`);

    // The queued run (request -> NOTIFY of the finishing transaction) and the bare loop (the same
    // kind of pages, fetched and executed one after another: no queue, no database) take turns, so
    // both see the same machine; round 0 warms up (JIT, connections).
    await listener.connect();
    const finished = new Map<string, () => void>();
    listener.on('notification', (m) => finished.get(m.payload ?? '')?.());
    await listener.query(`LISTEN "${runChannel(s.engine.db.schema)}"`);
    const runMs: number[] = [];
    const bareMs: number[] = [];
    const ratios: number[] = [];
    const calls = s.model.chatRequests().length;
    for (let round = 0; round <= ROUNDS; round++) {
      let done!: () => void;
      const notified = new Promise<void>((r) => (done = r));
      const t0 = performance.now();
      const res = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: urls(2 * round), politeness: { concurrency: 64, delay_ms: 0 } });
      if (res.status !== 202) throw new Error(`run_async answered ${res.status}: ${res.text}`);
      finished.set(res.body.run_id, done);
      // The NOTIFY may come before the id is known here: the status check covers that case.
      const status = await s.api('GET', `/v1/scrapers/run_async/${res.body.run_id}`);
      if (status.body.status !== 'completed') await notified;
      const queued = performance.now() - t0;
      const check = await s.api('GET', `/v1/scrapers/run_async/${res.body.run_id}`);
      if (check.body.status !== 'completed') throw new Error(`run ended ${check.body.status}: ${JSON.stringify(check.body.errors)}`);

      const t1 = performance.now();
      for (const url of urls(2 * round + 1)) {
        const r = await scrapeWithRecipe(s.engine.context, { recipe: RECIPE, attributes: ATTRIBUTES, url });
        if (r.records.length !== ITEMS_PER_PAGE) throw new Error(`bare loop read ${r.records.length} records on ${url}`);
      }
      const bare = performance.now() - t1;
      if (round === 0) continue;
      runMs.push(queued);
      bareMs.push(bare);
      ratios.push(bare / queued);
    }
    const modelCalls = s.model.chatRequests().length - calls;

    const rate = (ms: number) => ((URLS / ms) * 1000).toFixed(0);
    const [run, bare] = [median(runMs), median(bareMs)];
    const [runBest, bareBest] = [Math.min(...runMs), Math.min(...bareMs)];
    console.log(
      `100-URL run, POST run_async -> completed (NOTIFY): median ${(run / 1000).toFixed(3)} s = ${rate(run)} pages/s; best ${(runBest / 1000).toFixed(3)} s = ${rate(runBest)} pages/s (${ROUNDS} runs; target <= 1.5 s)`,
    );
    console.log(
      `bare loop (fetch + parse + the same recipe executor, sequential, no queue, no database): median ${(bare / 1000).toFixed(3)} s = ${rate(bare)} pages/s; best ${(bareBest / 1000).toFixed(3)} s = ${rate(bareBest)} pages/s`,
    );
    console.log(
      `pages/s ratio run/bare: median of rounds ${median(ratios).toFixed(2)}x (${ratios.map((r) => r.toFixed(2)).join(', ')}), best/best ${(bareBest / runBest).toFixed(2)}x (target >= 0.7x)`,
    );
    console.log(
      `pages of ~${(listing(1).length / 1024).toFixed(0)} KB with ${ITEMS_PER_PAGE} records each; run.item batchSize ${RUN_ITEM_BATCH_SIZE} x concurrency ${RUN_ITEM_CONCURRENCY}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${os.cpus().length} CPUs (the figures are only meaningful on a quiet machine)`,
    );
    console.log(
      `model calls per page during runs: ${(modelCalls / (URLS * (ROUNDS + 1))).toFixed(3)} (${modelCalls} in ${URLS * (ROUNDS + 1)} pages; must be 0)`,
    );
  } finally {
    await listener.end().catch(() => undefined);
    await s.close();
  }
}
