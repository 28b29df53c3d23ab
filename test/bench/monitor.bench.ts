// Monitoring figures (issue 24): (1) the diff of two runs of 10,000 records (time and memory, the
// comparison alone and the schedule.finish job with its reads and writes); (2) the snapshot archive
// for 100 runs of the same 100 pages with 5% of them changing each run (size, deduplication ratio);
// (3) the scheduler's overhead per firing (creating a firing's run, and the delay from an occurrence
// to its run with a worker's cron pass every second).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  archivePages,
  archiveStore,
  archiveUsage,
  compareRuns,
  createEngine,
  ensureOwner,
  insertScraper,
  loadConfig,
  scheduleJobKinds,
  silentLogger,
  type OperationContext,
} from '@gleaner/core/internal';
import type { ConfigOptions } from '@gleaner/core';
import { fire } from '../../packages/core/src/schedules/operations.ts';
import { loadScheduleById } from '../../packages/core/src/schedules/store.ts';
import { pluginWiring } from '../../packages/server/src/wiring.ts';
import { TEST_DATABASE_URL, dropSchemas } from '../support/db.ts';
import { SHOP_RECIPE, shopHtml } from '../support/monitor-site.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** 100 URLs of 100 products; `round` changes 5% of the prices (and one product per changed page). */
function catalog(round: number): Array<{ url: string; records: Array<{ sku: string; name: string; price: number }> }> {
  return Array.from({ length: 100 }, (_, u) => ({
    url: `https://shop.example/list/${u}`,
    records: Array.from({ length: 100 }, (_, k) => {
      const changed = round > 0 && (u * 100 + k) % 20 === round % 20;
      return { sku: `sku-${u}-${k}`, name: `Product ${u}-${k} with a long descriptive name`, price: 10 + k + (changed ? round : 0) };
    }),
  }));
}

function diffFigures(): void {
  const [a, b] = [catalog(0), catalog(1)];
  const urls = a.map((p, i) => ({ url: p.url, previous: p.records, current: b[i].records }));
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const times: number[] = [];
  let counts: unknown;
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    const out = compareRuns(urls, null);
    times.push(performance.now() - t0);
    counts = out.counts;
    if (i === 0)
      console.log(`diff, 2 x 10,000 records (100 URLs x 100), stable-hash keys: heap +${mb(process.memoryUsage().heapUsed - heap0)} during one diff`);
  }
  const keyed: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    compareRuns(urls, ['sku']);
    keyed.push(performance.now() - t0);
  }
  console.log(`  median of 9: ${median(times).toFixed(1)} ms (key_attributes ["sku"]: ${median(keyed).toFixed(1)} ms); counts ${JSON.stringify(counts)}`);
}

async function withEngine(
  name: string,
  cronSeconds: number,
  fn: (engine: ReturnType<typeof createEngine>) => Promise<void>,
  extra: ConfigOptions = {},
): Promise<void> {
  const schema = `bench_${name}_${Date.now().toString(36)}`;
  const config = loadConfig({
    env: {},
    options: {
      database: { url: TEST_DATABASE_URL, schema, poolMax: 4 },
      jobs: { schema: `${schema}_jobs`, pollingSeconds: 0.5, superviseSeconds: 5 },
      log: { level: 'silent' },
      network: { allowNetworks: ['127.0.0.0/8'] },
      schedules: { cronSeconds },
      limits: { requestsPerMinute: 0, concurrentJobs: 0 },
      ...extra,
    },
  });
  const logger = silentLogger();
  const plugins = pluginWiring(config, logger);
  const engine = createEngine({ config, logger, drivers: plugins.drivers, llm: null });
  try {
    await engine.start();
    await fn(engine);
  } finally {
    await engine.stop();
    await plugins.close();
    await dropSchemas(TEST_DATABASE_URL, schema, `${schema}_jobs`);
  }
}

/** Two finished runs of one schedule, 10,000 records each, then the schedule.finish job on the second. */
async function finishJobFigures(): Promise<void> {
  await withEngine('finish', 30, async (engine) => {
    const db = engine.db;
    const owner = await ensureOwner(db, 'bench');
    await db.query(
      `INSERT INTO schedules (id, owner_id, scraper_id, cron, request, notify, status) VALUES ('s1', $1, 'x', '0 0 1 1 *', '{"url": null}', 'changes', 'active')`,
      [owner.id],
    );
    for (const [i, round] of [
      [1, 0],
      [2, 1],
    ]) {
      const pages = catalog(round);
      await db.query(
        `INSERT INTO runs (id, owner_id, scraper_id, status, url_form, total, completed, options, schedule_id, created_at, finished_at)
         VALUES ($1, $2, 'x', 'completed', 'list', 100, 100, '{}', 's1', now() - make_interval(mins => $3), now())`,
        [`r${i}`, owner.id, 3 - i],
      );
      await db.query(
        `INSERT INTO run_items (run_id, position, url, status, records) SELECT $1, t.n - 1, t.url, 'completed', t.records
           FROM unnest($2::text[], $3::jsonb[]) WITH ORDINALITY AS t(url, records, n)`,
        [`r${i}`, pages.map((p) => p.url), pages.map((p) => JSON.stringify(p.records))],
      );
    }
    const job = scheduleJobKinds(() => engine.context).find((k) => k.name === 'schedule.finish')!;
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    await job.handler({ runId: 'r2' }, { jobId: 'bench', attempt: 0, lastAttempt: false, signal: new AbortController().signal, logger: engine.logger });
    const ms = performance.now() - t0;
    const { rows } = await db.query(`SELECT summary->'counts' AS counts, pg_column_size(records) AS bytes FROM run_changes WHERE run_id = 'r2'`);
    console.log(
      `schedule.finish job on a 10,000-record run (reads both runs, compares, writes run_changes): ${ms.toFixed(0)} ms, rss +${mb(process.memoryUsage().rss - rss0)}; ` +
        `counts ${JSON.stringify(rows[0].counts)}, stored changes ${rows[0].bytes} bytes`,
    );
  });
}

/** A product list page (about 6 KB: 40 products and a navigation bar); `version` changes its prices. */
function productPage(n: number, version: number): string {
  const products = Array.from({ length: 40 }, (_, k) => ({ name: `Product ${n}-${k} — a reasonably long product title`, price: 10 + k + version }));
  return shopHtml(`Shop page ${n}`, products).replace('<main>', `<main><nav>${'<a href="/c">Category</a> '.repeat(60)}</nav>`);
}

/** The archive's figures with the documents in Postgres, or in a directory (snapshots.storage). */
async function archiveFigures(storage: 'postgres' | 'directory'): Promise<void> {
  const directory = storage === 'directory' ? mkdtempSync(path.join(tmpdir(), 'gleaner-bench-snapshots-')) : '';
  await withEngine(
    'archive',
    30,
    async (engine) => {
      const db = engine.db;
      const store = archiveStore(engine.context);
      const owner = await ensureOwner(db, 'bench');
      const version = new Array(100).fill(0);
      const times: number[] = [];
      for (let r = 0; r < 100; r++) {
        // 5% of the pages change before each run after the first.
        if (r > 0) for (let k = 0; k < 5; k++) version[(r * 5 + k) % 100]++;
        const runId = `run-${r}`;
        await db.query(`INSERT INTO runs (id, owner_id, scraper_id, status, url_form, total, options) VALUES ($1, $2, 'x', 'completed', 'list', 100, '{}')`, [
          runId,
          owner.id,
        ]);
        for (let p = 0; p < 100; p++) {
          const t0 = performance.now();
          await archivePages(store, runId, p, [{ url: `https://shop.example/list/${p}`, driver: 'http', html: productPage(p, version[p]) }]);
          times.push(performance.now() - t0);
        }
      }
      const u = await archiveUsage(store, owner.id, 30);
      const table = await db.query<{ bytes: string }>(`SELECT pg_total_relation_size('snapshots') + pg_total_relation_size('run_item_pages') AS bytes`);
      const files = directory ? readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.gz')) : [];
      const fileBytes = files.reduce((n, f) => n + statSync(path.join(directory, f)).size, 0);
      console.log(
        `archive (${storage}), 100 runs x 100 pages (~${(u.document_bytes / u.documents / 1024).toFixed(1)} KB each), 5% changing per run: ${u.pages} pages, ${u.documents} documents; ` +
          `${mb(u.page_bytes)} as fetched -> ${mb(u.stored_bytes)} stored (dedup ${(u.pages / u.documents).toFixed(1)}x, with gzip ${u.ratio}x); ` +
          `tables on disk ${mb(Number(table.rows[0].bytes))}${directory ? `, ${files.length} files of ${mb(fileBytes)}` : ''}; archiving a page: median ${median(times).toFixed(2)} ms`,
      );
    },
    { snapshots: { storage, directory } },
  );
  if (directory) rmSync(directory, { recursive: true, force: true });
}

async function schedulerFigures(): Promise<void> {
  const server = http.createServer((_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(productPage(1, 0)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/shop`;
  try {
    await withEngine('scheduler', 1, async (engine) => {
      const owner = await ensureOwner(engine.db, 'bench');
      const scraperId = await engine.db.tx((tx) =>
        insertScraper(tx, {
          ownerId: owner.id,
          kind: 'extractor',
          url,
          status: 'ready',
          attributes: [
            { name: 'name', description: '', type: 'string' },
            { name: 'price', description: '', type: 'number' },
          ],
          recipe: SHOP_RECIPE,
          sampleData: [{ name: 'x', price: 1 }],
          sampleDriver: 'http',
        }),
      );
      const ctx: OperationContext = engine.context;
      const created = await engine.schedules.create(owner, { template_id: scraperId, cron: '0 0 1 1 *', url });
      const row = (await loadScheduleById(engine.db, created.schedule_id))!;
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        await fire(ctx, row, `bench-${i}`);
        times.push(performance.now() - t0);
      }
      console.log(`a firing's run (load the schedule's scraper, check the request, create run + item + job): median ${median(times).toFixed(2)} ms over 200`);
      // One firing through pg-boss's scheduler: a worker with a cron pass every second.
      await engine.startWorker();
      const wait = 60 - new Date().getUTCSeconds() + 1;
      const at = new Date(Date.now() + wait * 1000);
      const timed = await engine.schedules.create(owner, { template_id: scraperId, cron: `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`, url });
      const occurrence = new Date(at);
      occurrence.setUTCSeconds(0, 0);
      let created2: Date | null = null;
      for (let i = 0; i < 150 && !created2; i++) {
        await new Promise((r) => setTimeout(r, 500));
        const { rows } = await engine.db.query<{ created_at: Date }>('SELECT created_at FROM runs WHERE schedule_id = $1', [timed.schedule_id]);
        created2 = rows[0]?.created_at ?? null;
      }
      console.log(
        created2
          ? `occurrence ${occurrence.toISOString()} -> run created ${((created2.getTime() - occurrence.getTime()) / 1000).toFixed(2)} s later (schedules.cronSeconds 1; 30 by default adds up to 30 s)`
          : 'the scheduled firing did not run within 75 s',
      );
    });
  } finally {
    server.close();
  }
}

export async function run(): Promise<void> {
  diffFigures();
  await finishJobFigures();
  await archiveFigures('postgres');
  await archiveFigures('directory');
  await schedulerFigures();
}
