// A generated shop of N product pages for politeness, map and crawl tests and benches: page /p/n
// links to /p/2n and /p/2n+1 (a binary tree, so following links reaches every page), plus a
// disallowed /private/ page and another site; /robots.txt disallows /private/ (Crawl-delay
// optional) and names /sitemap.xml, a sitemap index over a plain and a gzipped sitemap. The site
// counts requests in flight (overall and the most at once), records every path, and can answer
// 429 with Retry-After to the first K requests of /busy/ pages.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { insertScraper, type Database } from '@gleaner/core/internal';

export interface CrawlSiteOptions {
  pages: number;
  /** Each response waits this long first (so requests overlap). */
  latencyMs?: number;
  crawlDelaySeconds?: number;
  /** /busy/n answers 429 (Retry-After: retryAfter seconds) to its first `busy` requests overall. */
  busy?: number;
  retryAfter?: string;
  /** Listen on another loopback address (127.0.0.2 ...), so hosts differ by name too. */
  host?: string;
}

export interface CrawlSite {
  url: string;
  host: string;
  /** Every path requested, in order. */
  paths: string[];
  /** When each request arrived (ms since epoch) and what it was answered. */
  log: Array<{ path: string; at: number; status: number }>;
  inFlight: number;
  maxInFlight: number;
  /** Every product page URL (what a map of the site must return, robots allowing). */
  productUrls(): string[];
  reset(): void;
  close(): Promise<void>;
}

export const record = (n: number) => ({ name: `Product ${n}`, price: n });

export const CRAWL_RECIPE = {
  version: 1 as const,
  container: { selector: 'div.card' },
  fields: {
    name: { selector: 'h2.name', read: 'text' as const },
    price: { selector: '.price', read: 'text' as const, transforms: [{ op: 'number' as const }] },
  },
};

/** A ready classic scraper for the site's product pages (no model needed to build it). */
export function insertCrawlScraper(db: Database, ownerId: string, site: { url: string }): Promise<string> {
  return db.tx((tx) =>
    insertScraper(tx, {
      ownerId,
      kind: 'extractor',
      url: `${site.url}/p/1`,
      status: 'ready',
      attributes: CRAWL_ATTRIBUTES,
      recipe: CRAWL_RECIPE,
      sampleData: [record(1)],
      sampleDriver: 'http',
    }),
  );
}

export const CRAWL_ATTRIBUTES = [
  { name: 'name', description: '', type: 'string' as const },
  { name: 'price', description: '', type: 'number' as const },
];

function productPage(n: number, pages: number): string {
  const links = [2 * n, 2 * n + 1]
    .filter((k) => k <= pages)
    .map((k) => `<a href="/p/${k}">Product ${k}</a>`)
    .join(' ');
  return `<!doctype html><html><head><title>Product ${n}</title></head><body><main>
<div class="card"><h2 class="name">Product ${n}</h2><span class="price">${n} EUR</span></div>
<nav>${links} <a href="/p/${n}#reviews">reviews</a> <a href="/p/${n}?utm_source=x">share</a> <a href="/private/${n}">admin</a>
<a href="https://elsewhere.example/">elsewhere</a> <a href="mailto:shop@example.com">mail</a></nav></main></body></html>`;
}

export async function startCrawlSite(opts: CrawlSiteOptions): Promise<CrawlSite> {
  const listenHost = opts.host ?? '127.0.0.1';
  let busyLeft = opts.busy ?? 0;
  const site = {
    paths: [] as string[],
    log: [] as CrawlSite['log'],
    inFlight: 0,
    maxInFlight: 0,
  };
  const half = Math.ceil(opts.pages / 2);
  const urlset = (base: string, from: number, to: number) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from(
      { length: to - from + 1 },
      (_, i) => `<url><loc>${base}/p/${from + i}</loc></url>`,
    ).join('')}</urlset>`;
  let base = '';

  function answer(req: IncomingMessage, res: ServerResponse, path: string): [number, Record<string, string>, string | Buffer] {
    if (path === '/robots.txt') {
      const delay = opts.crawlDelaySeconds !== undefined ? `Crawl-delay: ${opts.crawlDelaySeconds}\n` : '';
      return [200, { 'content-type': 'text/plain' }, `User-agent: *\nDisallow: /private/\n${delay}\nSitemap: ${base}/sitemap.xml\n`];
    }
    if (path === '/sitemap.xml') {
      return [
        200,
        { 'content-type': 'application/xml' },
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/sitemap-1.xml</loc></sitemap><sitemap><loc>${base}/sitemap-2.xml.gz</loc></sitemap></sitemapindex>`,
      ];
    }
    if (path === '/sitemap-1.xml') return [200, { 'content-type': 'application/xml' }, urlset(base, 1, half)];
    if (path === '/sitemap-2.xml.gz') return [200, { 'content-type': 'application/gzip' }, gzipSync(urlset(base, half + 1, opts.pages))];
    let m = /^\/p\/(\d+)$/.exec(path);
    if (m && Number(m[1]) >= 1 && Number(m[1]) <= opts.pages) return [200, { 'content-type': 'text/html' }, productPage(Number(m[1]), opts.pages)];
    m = /^\/busy\/(\d+)$/.exec(path);
    if (m) {
      if (busyLeft > 0) {
        busyLeft--;
        return [429, { 'content-type': 'text/plain', 'retry-after': opts.retryAfter ?? '1' }, 'slow down'];
      }
      return [200, { 'content-type': 'text/html' }, productPage(Number(m[1]), 0)];
    }
    if (path.startsWith('/private/')) return [200, { 'content-type': 'text/html' }, productPage(0, 0)];
    return [404, { 'content-type': 'text/plain' }, 'not found'];
  }

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    site.inFlight++;
    site.maxInFlight = Math.max(site.maxInFlight, site.inFlight);
    site.paths.push(path);
    const entry = { path, at: Date.now(), status: 0 };
    site.log.push(entry);
    try {
      if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
      const [status, headers, body] = answer(req, res, path);
      entry.status = status;
      res.writeHead(status, headers).end(body);
    } finally {
      site.inFlight--;
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, listenHost, r));
  const port = (server.address() as AddressInfo).port;
  base = `http://${listenHost}:${port}`;
  return {
    url: base,
    host: `${listenHost}:${port}`,
    get paths() {
      return site.paths;
    },
    get log() {
      return site.log;
    },
    get inFlight() {
      return site.inFlight;
    },
    get maxInFlight() {
      return site.maxInFlight;
    },
    productUrls: () => Array.from({ length: opts.pages }, (_, i) => `${base}/p/${i + 1}`),
    reset() {
      site.paths.length = 0;
      site.log.length = 0;
      site.maxInFlight = site.inFlight;
    },
    close() {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
