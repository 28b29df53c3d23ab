/**
 * Maps (POST /v1/map): a site's URLs from its sitemaps (those robots.txt names, else /sitemap.xml;
 * sitemap indexes and gzipped files followed) and from the links of the pages it visits, breadth
 * first, up to `limit`. URLs are normalised (fragment and tracking parameters dropped, scheme and
 * host lower-cased, default port removed) and deduplicated; each keeps where it was first found.
 * Every fetch is polite (robots.txt, the per-host gate); pages are read over plain HTTP unless one
 * needs a browser (the usual escalation).
 */
import { GleanerError, validationFailed, type ValidationIssue } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import { openBrowser } from '../extract/acquire.ts';
import { linkPage } from '../extract/paginate.ts';
import { createSsrfGuard } from '../net/ssrf.ts';
import { stripTracking } from '../page/urls.ts';
import { selectAll } from 'css-select';
import { attrOf, type AnyNode, type Element } from '../recipes/dom.ts';
import { compileSafeRegex } from '../recipes/safe-regex.ts';
import { fetchRaw } from '../politeness/fetch.ts';
import {
  checkRobots,
  fetchPolitely,
  politeScope,
  POLITENESS_REQUEST_SCHEMA,
  resolvePolicy,
  type PoliteScope,
  type PolitenessPolicy,
} from '../politeness/policy.ts';
import type { FromSchema } from 'json-schema-to-ts';

/** URLs a map returns at most. */
export const MAX_MAP_LIMIT = 10_000;
const DEFAULT_MAP_LIMIT = 1_000;
/** Sitemap files read per map (indexes included), and how deep indexes nest. */
const MAX_SITEMAPS = 100;
const MAX_SITEMAP_DEPTH = 4;

export const MAP_BODY = {
  type: 'object',
  required: ['url'],
  properties: {
    url: { type: 'string', minLength: 1, description: 'Where the map starts (absolute http(s) URL): its site is mapped.' },
    limit: { type: ['integer', 'null'], minimum: 1, maximum: MAX_MAP_LIMIT, description: `URLs returned at most (default ${DEFAULT_MAP_LIMIT}).` },
    include: {
      type: ['array', 'null'],
      items: { type: 'string', minLength: 1, maxLength: 200 },
      maxItems: 20,
      description: 'Regular expressions on the URL path and query: only URLs matching one of them are returned (pages are still followed).',
    },
    exclude: {
      type: ['array', 'null'],
      items: { type: 'string', minLength: 1, maxLength: 200 },
      maxItems: 20,
      description: 'Regular expressions on the URL path and query: matching URLs are neither returned nor followed.',
    },
    sitemap: {
      type: ['string', 'null'],
      enum: ['include', 'only', 'skip', null],
      description: 'include (default): sitemaps, then links; only: sitemaps alone (no page is fetched); skip: links alone.',
    },
    same_domain: {
      type: ['boolean', 'null'],
      description: "Only URLs on the start URL's host and its subdomains (default true); false also lists other sites' URLs (never followed).",
    },
    politeness: POLITENESS_REQUEST_SCHEMA,
  },
} as const;

export type MapRequest = FromSchema<typeof MAP_BODY, { keepDefaultedPropertiesOptional: true }>;

export type MapSource = 'start' | 'sitemap' | 'link';

export interface MappedUrl {
  url: string;
  source: MapSource;
  /** The sitemap or page it was found in (absent for the start URL). */
  found_in?: string;
}

export interface MapResult {
  success: true;
  url: string;
  urls: MappedUrl[];
  /** The same URLs, as a list of strings (what clients of other map endpoints read). */
  links: string[];
  sitemaps: string[];
  pages_visited: number;
  /** Found but disallowed by robots.txt (not listed). */
  disallowed: number;
  /** The map stopped at its deadline (the HTTP request's time limit) before `limit`: what it had so far. */
  partial: boolean;
  politeness: { concurrency: number; delay_ms: number; robots: 'respected' | 'ignored'; waited_ms: number; backoffs: number };
}

/** Canonical form used for dedup: no fragment, no tracking parameters, lower-case host, no default port. */
export function normalizeUrl(href: string, base?: string): string | null {
  let u: URL;
  try {
    u = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  u.hash = '';
  if (!u.search) u.search = ''; // a bare '?' goes
  return stripTracking(u);
}

function patterns(list: readonly string[] | null | undefined, field: string, issues: ValidationIssue[]): RegExp[] {
  return (list ?? []).flatMap((p, i) => {
    try {
      return [compileSafeRegex(p)];
    } catch (err) {
      issues.push({ loc: ['body', field, i], msg: `Not a usable regular expression: ${(err as Error).message}`, type: 'value_error' });
      return [];
    }
  });
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unxml = (s: string) =>
  s
    .replace(/^<!\[CDATA\[|\]\]>$/g, '')
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => XML_ENTITIES[e])
    .trim();

/** The <loc>s of a sitemap: child sitemaps (an index) and page URLs. */
export function parseSitemap(xml: string): { sitemaps: string[]; urls: string[] } {
  const locs = (block: string) =>
    [...xml.matchAll(new RegExp(`<${block}\\b[^>]*>([\\s\\S]*?)</${block}>`, 'gi'))].map((m) => /<loc>([\s\S]*?)<\/loc>/i.exec(m[1])?.[1]);
  const clean = (xs: Array<string | undefined>) => xs.filter((x): x is string => !!x).map(unxml);
  return { sitemaps: clean(locs('sitemap')), urls: clean(locs('url')) };
}

/** Maps a site (see the module comment). */
export async function mapSite(
  ctx: OperationContext,
  ownerId: string,
  body: MapRequest,
  signal?: AbortSignal,
  /** The policy recorded on a crawl (instead of resolving the owner's now). */
  recorded?: PolitenessPolicy,
  /** Stop (partial) at this time (epoch ms), e.g. before the HTTP request's time limit. */
  deadline?: number,
): Promise<MapResult> {
  const issues: ValidationIssue[] = [];
  const start = normalizeUrl(body.url);
  if (!start) issues.push({ loc: ['body', 'url'], msg: 'Input should be an absolute http(s) URL', type: 'url_parsing' });
  const include = patterns(body.include, 'include', issues);
  const exclude = patterns(body.exclude, 'exclude', issues);
  if (issues.length) throw validationFailed(issues);
  createSsrfGuard({ allowNetworks: ctx.config.network.allowNetworks }).checkUrl(start!);
  const policy = recorded ?? (await resolvePolicy(ctx, ownerId, body.politeness));
  const scope = politeScope(policy);
  return new SiteMapper(ctx, scope, {
    start: start!,
    limit: body.limit ?? DEFAULT_MAP_LIMIT,
    include,
    exclude,
    sitemap: body.sitemap ?? 'include',
    sameDomain: body.same_domain ?? true,
    signal,
    deadline,
  }).run();
}

interface MapperOptions {
  start: string;
  limit: number;
  include: RegExp[];
  exclude: RegExp[];
  sitemap: 'include' | 'only' | 'skip';
  sameDomain: boolean;
  signal?: AbortSignal;
  deadline?: number;
}

class SiteMapper {
  readonly found = new Map<string, MappedUrl>();
  /** Every URL judged already (listed or not), so each is judged once. */
  readonly #seen = new Set<string>();
  readonly sitemapsRead: string[] = [];
  readonly siteHost: string;
  disallowed = 0;
  pagesVisited = 0;
  readonly #ctx: OperationContext;
  readonly #scope: PoliteScope;
  readonly #o: MapperOptions;

  constructor(ctx: OperationContext, scope: PoliteScope, o: MapperOptions) {
    this.#ctx = ctx;
    this.#scope = scope;
    this.#o = o;
    this.siteHost = new URL(o.start).hostname.replace(/^www\./, '');
  }

  partial = false;

  /** Enough URLs, or out of time (then the result says partial). */
  get full(): boolean {
    if (this.found.size >= this.#o.limit) return true;
    if (this.#o.deadline !== undefined && Date.now() >= this.#o.deadline) this.partial = true;
    return this.partial;
  }

  #onSite(url: string): boolean {
    const h = new URL(url).hostname;
    return h === this.siteHost || h.endsWith(`.${this.siteHost}`);
  }

  #pathOf(url: string): string {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  }

  /** Whether a URL may be followed (and listed, unless include says otherwise). */
  #followable(url: string): boolean {
    return this.#onSite(url) && !this.#o.exclude.some((re) => re.test(this.#pathOf(url)));
  }

  async #allowed(url: string): Promise<boolean> {
    try {
      await checkRobots(this.#ctx, this.#scope, url, this.#o.signal);
      return true;
    } catch (err) {
      if (err instanceof GleanerError && err.code === 'ROBOTS_DISALLOWED') return false;
      throw err;
    }
  }

  /** Lists a URL when the filters and robots.txt let it; true when it is new and may be followed. */
  async add(href: string, source: MapSource, foundIn?: string): Promise<boolean> {
    const url = normalizeUrl(href, foundIn);
    if (!url || this.full || this.#seen.has(url)) return false;
    this.#seen.add(url);
    const onSite = this.#onSite(url);
    if (!onSite && this.#o.sameDomain) return false;
    const path = this.#pathOf(url);
    if (this.#o.exclude.some((re) => re.test(path))) return false;
    if (onSite && !(await this.#allowed(url))) {
      this.disallowed++;
      return false;
    }
    if (this.full) return false;
    const listed = source === 'start' || !this.#o.include.length || this.#o.include.some((re) => re.test(path));
    if (listed) this.found.set(url, foundIn ? { url, source, found_in: foundIn } : { url, source });
    return onSite;
  }

  async run(): Promise<MapResult> {
    const o = this.#o;
    const startAllowed = await this.#allowed(o.start);
    if (!startAllowed) {
      throw new GleanerError('ROBOTS_DISALLOWED', `${o.start} is disallowed by the site's robots.txt; nothing to map from there`);
    }
    await this.add(o.start, 'start');
    if (o.sitemap !== 'skip') await this.#readSitemaps();
    if (o.sitemap !== 'only') await this.#crawl();
    const urls = [...this.found.values()];
    const s = this.#scope;
    return {
      success: true,
      url: o.start,
      urls,
      links: urls.map((u) => u.url),
      sitemaps: this.sitemapsRead,
      pages_visited: this.pagesVisited,
      disallowed: this.disallowed,
      partial: this.partial,
      politeness: {
        concurrency: s.policy.concurrency,
        delay_ms: s.policy.delayMs,
        robots: s.policy.robots === 'respect' ? 'respected' : 'ignored',
        waited_ms: Math.round(s.stats.waitedMs),
        backoffs: s.stats.backoffs,
      },
    };
  }

  async #readSitemaps(): Promise<void> {
    const origin = new URL(this.#o.start).origin;
    const robots = this.#ctx.politeness ? await this.#ctx.politeness.robots.rules(this.#o.start, this.#o.signal) : null;
    const queue: Array<{ url: string; depth: number }> = (robots?.sitemaps.length ? robots.sitemaps : [`${origin}/sitemap.xml`]).map((url) => ({
      url,
      depth: 0,
    }));
    const seen = new Set<string>();
    while (queue.length && !this.full && this.sitemapsRead.length < MAX_SITEMAPS) {
      const { url, depth } = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const xml = await this.#fetchSitemap(url);
      if (xml === null) continue;
      this.sitemapsRead.push(url);
      const parsed = parseSitemap(xml);
      if (depth < MAX_SITEMAP_DEPTH) for (const child of parsed.sitemaps) queue.push({ url: child, depth: depth + 1 });
      for (const u of parsed.urls) {
        if (this.full) break;
        await this.add(u, 'sitemap', url);
      }
    }
  }

  /** A sitemap's text, or null (missing, refused, unreadable: logged, the map goes on without it). */
  async #fetchSitemap(url: string): Promise<string | null> {
    const c = this.#ctx;
    try {
      const res = await fetchPolitely(
        c,
        this.#scope,
        url,
        () =>
          fetchRaw(url, {
            guard: createSsrfGuard({ allowNetworks: c.config.network.allowNetworks }),
            userAgent: c.config.fetch.userAgent,
            timeoutMs: c.config.fetch.timeoutMs,
            maxBytes: c.config.fetch.maxBytes,
            signal: this.#o.signal,
          }),
        this.#o.signal,
      );
      if (res.status >= 400) {
        c.logger.debug({ url, status: res.status }, 'sitemap unavailable');
        return null;
      }
      return res.body.toString('utf8');
    } catch (err) {
      if (err instanceof GleanerError && err.code === 'JOB_ABORTED') throw err;
      this.#o.signal?.throwIfAborted();
      c.logger.info({ url, err: (err as Error).message }, 'sitemap skipped');
      return null;
    }
  }

  /** Breadth first over the links of visited pages, `concurrency` pages at a time. */
  async #crawl(): Promise<void> {
    const c = this.#ctx;
    const queue: string[] = [];
    const visited = new Set<string>();
    // The start page first, then what the sitemaps listed (their links may add more).
    for (const u of this.found.keys()) if (this.#followable(u)) queue.push(u);
    if (!queue.includes(this.#o.start) && this.#followable(this.#o.start)) queue.unshift(this.#o.start);
    const workers = Math.max(1, Math.min(this.#scope.policy.concurrency, 8));
    let active = 0;
    const next = (): string | undefined => {
      while (queue.length) {
        const u = queue.shift()!;
        if (!visited.has(u)) {
          visited.add(u);
          return u;
        }
      }
      return undefined;
    };
    await Promise.all(
      Array.from({ length: workers }, async () => {
        const browser = await openBrowser(c, { proxyCountry: null, cookies: [], signal: this.#o.signal, polite: this.#scope });
        try {
          for (;;) {
            if (this.full) return;
            const url = next();
            if (!url) {
              if (!active) return;
              await new Promise((r) => setTimeout(r, 20)); // another worker may still add links
              continue;
            }
            active++;
            try {
              const page = await browser.goto(url);
              this.pagesVisited++;
              const doc = linkPage(page.html, page.finalUrl);
              for (const a of selectAll<AnyNode, Element>('a[href], area[href], link[rel~="next"][href]', doc.doc)) {
                if (this.full) break;
                const href = normalizeUrl(attrOf(a, 'href') ?? '', doc.base);
                if (href && (await this.add(href, 'link', page.finalUrl)) && this.#followable(href)) queue.push(href);
              }
            } catch (err) {
              this.#o.signal?.throwIfAborted();
              if (err instanceof GleanerError && err.code === 'JOB_ABORTED') throw err;
              c.logger.debug({ url, err: (err as Error).message }, 'map: page not read');
            } finally {
              active--;
            }
          }
        } finally {
          await browser.close();
        }
      }),
    );
  }
}
