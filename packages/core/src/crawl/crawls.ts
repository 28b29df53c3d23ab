/**
 * Crawls (POST /v1/crawls): discover a site's URLs as a map does, then run a classic scraper on
 * every discovered page that matches, in runs of at most 100 URLs (the interface's run limit) under
 * the crawl's politeness. One `crawl.run` job drives a crawl: discovery (written in one
 * transaction), then it keeps up to CRAWL_ACTIVE_RUNS runs going and starts the next when one
 * finishes. A URL is assigned to its run in the transaction that creates the run, so a worker
 * killed mid-crawl (the job is retried elsewhere) or a stop and resume never runs a URL twice.
 */
import { randomUUID } from 'node:crypto';
import type { FromSchema } from 'json-schema-to-ts';
import type { Owner } from '../auth/owners.ts';
import { enqueueCallback } from '../callbacks/index.ts';
import type { OperationContext } from '../context.ts';
import { GleanerError, validationFailed, type ValidationIssue } from '../errors.ts';
import { defineJob } from '../jobs/job-kind.ts';
import { createSsrfGuard } from '../net/ssrf.ts';
import { resolvePolicy, type PolitenessPolicy } from '../politeness/policy.ts';
import { compileSafeRegex } from '../recipes/safe-regex.ts';
import { MAX_RUN_URLS } from '../runs/request.ts';
import { createRun } from '../runs/store.ts';
import { loadScraper } from '../scrapers/index.ts';
import { checkCallbackUrl } from '../tasks/extract-task.ts';
import type { Queryable } from '../store/db.ts';
import { MAP_BODY, MAX_MAP_LIMIT, mapSite } from './map.ts';
import type { CrawlStatus, RunStatus } from '../schemas/statuses.ts';

export const CRAWL_JOB = 'crawl.run';
/** Runs of one crawl in flight at once (each up to 100 URLs; every URL still waits its turn at the host). */
export const CRAWL_ACTIVE_RUNS = 3;
const POLL_MS = 500;

export const CRAWL_BODY = {
  type: 'object',
  required: ['url', 'template_id'],
  properties: {
    url: { type: 'string', minLength: 1, description: 'Where discovery starts (absolute http(s) URL).' },
    template_id: { type: 'string', minLength: 1, description: 'The classic scraper run on every discovered page.' },
    limit: { type: ['integer', 'null'], minimum: 1, maximum: MAX_MAP_LIMIT, description: 'Pages discovered and scraped at most (default 100).' },
    include: MAP_BODY.properties.include,
    exclude: MAP_BODY.properties.exclude,
    sitemap: MAP_BODY.properties.sitemap,
    same_domain: { type: ['boolean', 'null'], description: "Only the start URL's host and its subdomains (default true)." },
    callback_url: { type: ['string', 'null'], description: "The finished crawl's status body is POSTed here, signed (Standard Webhooks)." },
    politeness: MAP_BODY.properties.politeness,
  },
} as const;

export type CrawlRequest = FromSchema<typeof CRAWL_BODY, { keepDefaultedPropertiesOptional: true }>;

export type { CrawlStatus };

interface CrawlOptions {
  limit: number;
  include: string[];
  exclude: string[];
  sitemap: 'include' | 'only' | 'skip';
  sameDomain: boolean;
  politeness: PolitenessPolicy;
}

interface CrawlRow {
  id: string;
  owner_id: string;
  scraper_id: string;
  url: string;
  status: CrawlStatus;
  options: CrawlOptions;
  callback_url: string | null;
  discovered: number;
  map: Record<string, unknown> | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface CrawlStatusBody {
  crawl_id: string;
  status: CrawlStatus;
  url: string;
  template_id: string;
  discovered: number;
  /** URLs whose run finished (completed, failed or skipped). */
  completed: number;
  failed: number;
  skipped: number;
  /** URLs given to a run so far. */
  started: number;
  runs: Array<{ run_id: string; status: RunStatus; completed: number; total: number }>;
  politeness: { concurrency: number; delay_ms: number; robots: 'respected' | 'ignored'; waited_ms: number; backoffs: number };
  map: Record<string, unknown> | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

async function loadCrawl(db: Queryable, ownerId: string | null, id: string): Promise<CrawlRow | null> {
  const { rows } = await db.query<CrawlRow>(
    `SELECT id, owner_id, scraper_id, url, status, options, callback_url, discovered, map, error, created_at::text, finished_at::text
       FROM crawls WHERE id = $1 AND ($2::text IS NULL OR owner_id = $2)`,
    [id, ownerId],
  );
  return rows[0] ?? null;
}

async function statusBody(db: Queryable, crawl: CrawlRow): Promise<CrawlStatusBody> {
  const { rows: runs } = await db.query<{
    id: string;
    status: RunStatus;
    completed: number;
    total: number;
    failed: number;
    skipped: number;
    polite_wait_ms: string;
    backoffs: number;
  }>(
    `SELECT r.id, r.status, r.completed, r.total, r.failed, r.skipped, r.polite_wait_ms, r.backoffs
       FROM runs r WHERE r.id IN (SELECT DISTINCT run_id FROM crawl_urls WHERE crawl_id = $1 AND run_id IS NOT NULL)
      ORDER BY r.created_at`,
    [crawl.id],
  );
  const sum = (f: (r: (typeof runs)[number]) => number) => runs.reduce((n, r) => n + f(r), 0);
  const p = crawl.options.politeness;
  return {
    crawl_id: crawl.id,
    status: crawl.status,
    url: crawl.url,
    template_id: crawl.scraper_id,
    discovered: crawl.discovered,
    completed: sum((r) => r.completed),
    failed: sum((r) => r.failed),
    skipped: sum((r) => r.skipped),
    started: sum((r) => r.total),
    runs: runs.map((r) => ({ run_id: r.id, status: r.status, completed: r.completed, total: r.total })),
    politeness: {
      concurrency: p.concurrency,
      delay_ms: p.delayMs,
      robots: p.robots === 'respect' ? 'respected' : 'ignored',
      waited_ms: sum((r) => Number(r.polite_wait_ms)) + Number((crawl.map?.waited_ms as number | undefined) ?? 0),
      backoffs: sum((r) => r.backoffs) + Number((crawl.map?.backoffs as number | undefined) ?? 0),
    },
    map: crawl.map,
    error: crawl.error,
    created_at: crawl.created_at,
    finished_at: crawl.finished_at,
  };
}

function checkPatterns(list: readonly string[] | null | undefined, field: string, issues: ValidationIssue[]): string[] {
  for (const [i, p] of (list ?? []).entries()) {
    try {
      compileSafeRegex(p);
    } catch (err) {
      issues.push({ loc: ['body', field, i], msg: `Not a usable regular expression: ${(err as Error).message}`, type: 'value_error' });
    }
  }
  return [...(list ?? [])];
}

export interface CrawlOperations {
  submit(owner: Owner, body: CrawlRequest): Promise<CrawlStatusBody>;
  get(owner: Owner, id: string): Promise<CrawlStatusBody>;
  stop(owner: Owner, id: string): Promise<CrawlStatusBody>;
  resume(owner: Owner, id: string): Promise<CrawlStatusBody>;
  /** Every started URL's outcome: {url, status, records, error}, in discovery order. */
  results(owner: Owner, id: string): Promise<Array<{ url: string; status: string; records: unknown[] | null; error: string | null }>>;
}

export function crawlOperations(ctx: OperationContext): CrawlOperations {
  async function mustLoad(owner: Owner, id: string): Promise<CrawlRow> {
    const crawl = await loadCrawl(ctx.db, owner.id, id);
    if (!crawl) throw new GleanerError('NOT_FOUND', `Crawl ${id} not found`);
    return crawl;
  }
  return {
    async submit(owner, body) {
      const issues: ValidationIssue[] = [];
      let start: URL | null = null;
      try {
        start = new URL(body.url.trim());
        if (start.protocol !== 'http:' && start.protocol !== 'https:') throw new Error('not http(s)');
      } catch {
        issues.push({ loc: ['body', 'url'], msg: 'Input should be an absolute http(s) URL', type: 'url_parsing' });
      }
      const include = checkPatterns(body.include, 'include', issues);
      const exclude = checkPatterns(body.exclude, 'exclude', issues);
      const callbackUrl = checkCallbackUrl(body.callback_url, issues);
      if (issues.length) throw validationFailed(issues);
      const guard = createSsrfGuard({ allowNetworks: ctx.config.network.allowNetworks });
      guard.checkUrl(start!);
      if (callbackUrl) guard.checkUrl(callbackUrl);
      const scraper = await loadScraper(ctx.db, owner.id, body.template_id.trim());
      if (!scraper) throw new GleanerError('NOT_FOUND', `Scraper ${body.template_id} not found`);
      if (scraper.kind === 'agentic') {
        throw new GleanerError(
          'BAD_REQUEST',
          `Scraper ${scraper.id} is agentic; a crawl runs a classic scraper (POST /v1/extractor/generate) on every page it finds.`,
        );
      }
      if (!scraper.recipe) throw new GleanerError('SCRAPER_NOT_READY', `Scraper ${scraper.id} has no recipe yet; wait until its status is ready.`);
      const options: CrawlOptions = {
        limit: body.limit ?? 100,
        include,
        exclude,
        sitemap: body.sitemap ?? 'include',
        sameDomain: body.same_domain ?? true,
        politeness: await resolvePolicy(ctx, owner.id, body.politeness),
      };
      const id = randomUUID();
      await ctx.db.tx(async (tx) => {
        await tx.query(`INSERT INTO crawls (id, owner_id, scraper_id, url, status, options, callback_url) VALUES ($1, $2, $3, $4, 'discovering', $5, $6)`, [
          id,
          owner.id,
          scraper.id,
          start!.href,
          JSON.stringify(options),
          callbackUrl,
        ]);
        await ctx.jobs.send(CRAWL_JOB, { crawlId: id }, { db: tx });
      });
      ctx.logger.info({ crawlId: id, url: start!.href, scraperId: scraper.id, limit: options.limit }, 'crawl queued');
      return statusBody(ctx.db, (await loadCrawl(ctx.db, owner.id, id))!);
    },
    async get(owner, id) {
      return statusBody(ctx.db, await mustLoad(owner, id));
    },
    async stop(owner, id) {
      await mustLoad(owner, id);
      await ctx.db.query(`UPDATE crawls SET status = 'stopped' WHERE id = $1 AND status IN ('discovering', 'running')`, [id]);
      return statusBody(ctx.db, await mustLoad(owner, id));
    },
    async resume(owner, id) {
      const crawl = await mustLoad(owner, id);
      if (crawl.status !== 'stopped' && crawl.status !== 'failed') {
        throw new GleanerError('CONFLICT', `Crawl ${id} is ${crawl.status}; only a stopped or failed crawl resumes.`);
      }
      await ctx.db.tx(async (tx) => {
        await tx.query(
          `UPDATE crawls SET status = CASE WHEN discovered > 0 THEN 'running' ELSE 'discovering' END, error = NULL, finished_at = NULL WHERE id = $1`,
          [id],
        );
        await ctx.jobs.send(CRAWL_JOB, { crawlId: id }, { db: tx });
      });
      return statusBody(ctx.db, await mustLoad(owner, id));
    },
    async results(owner, id) {
      await mustLoad(owner, id);
      const { rows } = await ctx.db.query<{ url: string; status: string; records: unknown[] | null; error: string | null }>(
        `SELECT c.url, coalesce(i.status, 'pending') AS status, i.records, i.error
           FROM crawl_urls c LEFT JOIN run_items i ON i.run_id = c.run_id AND i.url = c.url
          WHERE c.crawl_id = $1 ORDER BY c.position`,
        [id],
      );
      return rows;
    },
  };
}

/** Discovery: the map, filtered by include (the start page too), written with the crawl's new status. */
async function discover(ctx: OperationContext, crawl: CrawlRow, signal: AbortSignal): Promise<void> {
  const o = crawl.options;
  const map = await mapSite(
    ctx,
    crawl.owner_id,
    {
      url: crawl.url,
      limit: o.limit,
      include: o.include,
      exclude: o.exclude,
      sitemap: o.sitemap,
      same_domain: o.sameDomain,
      politeness: { concurrency: o.politeness.concurrency, delay_ms: o.politeness.delayMs },
    },
    signal,
    o.politeness,
  );
  const include = o.include.map((p) => compileSafeRegex(p));
  const urls = map.urls.filter((u) => {
    const path = `${new URL(u.url).pathname}${new URL(u.url).search}`;
    return !include.length || include.some((re) => re.test(path));
  });
  await ctx.db.tx(async (tx) => {
    await tx.query(
      `INSERT INTO crawl_urls (crawl_id, position, url, source, found_in)
       SELECT $1, t.position, t.url, t.source, t.found_in FROM json_to_recordset($2::json) AS t(position int, url text, source text, found_in text)
       ON CONFLICT DO NOTHING`,
      [crawl.id, JSON.stringify(urls.map((u, position) => ({ position, url: u.url, source: u.source, found_in: u.found_in ?? null })))],
    );
    await tx.query(
      `UPDATE crawls SET status = 'running', discovered = $2, map = $3, started_at = coalesce(started_at, now()) WHERE id = $1 AND status = 'discovering'`,
      [
        crawl.id,
        urls.length,
        JSON.stringify({
          sitemaps: map.sitemaps,
          pages_visited: map.pages_visited,
          disallowed: map.disallowed,
          waited_ms: map.politeness.waited_ms,
          backoffs: map.politeness.backoffs,
        }),
      ],
    );
  });
  ctx.logger.info({ crawlId: crawl.id, discovered: urls.length, sitemaps: map.sitemaps.length, pagesVisited: map.pages_visited }, 'crawl discovered its URLs');
}

/** Starts the next run of up to 100 pending URLs, in one transaction with their assignment; false when none is left. */
async function startNextRun(ctx: OperationContext, crawl: CrawlRow): Promise<boolean> {
  const scraper = await loadScraper(ctx.db, crawl.owner_id, crawl.scraper_id);
  if (!scraper?.recipe) throw new GleanerError('NOT_FOUND', `Scraper ${crawl.scraper_id} was deleted or has no recipe any more`);
  return ctx.db.tx(async (tx) => {
    const { rows } = await tx.query<{ position: number; url: string }>(
      `SELECT position, url FROM crawl_urls WHERE crawl_id = $1 AND run_id IS NULL ORDER BY position LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [crawl.id, MAX_RUN_URLS],
    );
    if (!rows.length) return false;
    const runId = await createRun(
      ctx,
      crawl.owner_id,
      {
        scraper,
        urls: rows.map((r) => r.url),
        urlForm: 'list',
        options: {
          maxPages: 1,
          proxyCountry: null,
          cookies: [],
          paginationDetectionUrl: null,
          parameters: null,
          source: 'crawl',
          politeness: crawl.options.politeness,
        },
        callbackUrl: null,
      },
      undefined,
      tx,
    );
    await tx.query('UPDATE crawl_urls SET run_id = $3 WHERE crawl_id = $1 AND position = ANY($2::int[])', [crawl.id, rows.map((r) => r.position), runId]);
    return true;
  });
}

async function activeRuns(db: Queryable, crawlId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM runs WHERE status IN ('queued', 'running')
        AND id IN (SELECT DISTINCT run_id FROM crawl_urls WHERE crawl_id = $1 AND run_id IS NOT NULL)`,
    [crawlId],
  );
  return rows[0].n;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

export function crawlJob(ctx: () => OperationContext) {
  return defineJob<{ crawlId: string }>({
    name: CRAWL_JOB,
    payloadSchema: { type: 'object', required: ['crawlId'], additionalProperties: false, properties: { crawlId: { type: 'string', minLength: 1 } } },
    // A crawl lasts as long as its pages take; a dead worker is noticed by missed heartbeats.
    policy: { retryLimit: 5, retryDelaySeconds: 2, retryDelayMaxSeconds: 30, expireInSeconds: 24 * 3600 },
    handler: async ({ crawlId }, job) => {
      const c = ctx();
      let crawl = await loadCrawl(c.db, null, crawlId);
      if (!crawl) return;
      if (crawl.status === 'discovering') {
        await discover(c, crawl, job.signal);
        crawl = (await loadCrawl(c.db, null, crawlId))!;
      }
      for (;;) {
        job.signal.throwIfAborted();
        crawl = (await loadCrawl(c.db, null, crawlId))!;
        if (crawl.status !== 'running') return; // stopped (a resume sends a new job), or finished
        let active = await activeRuns(c.db, crawlId);
        let more = true;
        while (active < CRAWL_ACTIVE_RUNS && (more = await startNextRun(c, crawl))) active++;
        if (!more && active === 0) break;
        await sleep(POLL_MS, job.signal);
      }
      await c.db.tx(async (tx) => {
        const { rowCount } = await tx.query(`UPDATE crawls SET status = 'completed', finished_at = now() WHERE id = $1 AND status = 'running'`, [crawlId]);
        const done = (await loadCrawl(tx, null, crawlId))!;
        if (rowCount && done.callback_url) {
          await enqueueCallback(tx, c.jobs, { ownerId: done.owner_id, url: done.callback_url, subject: `crawl:${crawlId}`, body: await statusBody(tx, done) });
        }
      });
      c.logger.info({ crawlId }, 'crawl completed');
    },
    onFailure: async ({ crawlId }, error) => {
      await ctx().db.query(`UPDATE crawls SET status = 'failed', error = $2, finished_at = now() WHERE id = $1 AND status IN ('discovering', 'running')`, [
        crawlId,
        error.message,
      ]);
    },
  });
}
