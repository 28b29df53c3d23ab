/**
 * List -> detail: the agent's `visit` tool. From the listing page the agent is on, the links like the
 * ones the model pointed at (the same URL shape, see `linkPattern`) are gathered, on this page and,
 * when asked, on the listing's next pages (rel=next or a "Next" link); each detail page is fetched
 * in parallel within the per-site politeness limits (robots.txt, per-host concurrency and delay,
 * 429/503 backoff: politeness/policy.ts), through the SSRF guard every driver navigation passes and
 * the task's allowed_domains; then extracted:
 *
 * - the first detail page by the model, and a classic recipe is generated that reproduces it
 *   (the classic build's buildRecipe);
 * - the second by the model too, and the recipe must reproduce that (verification);
 * - every other page by the recipe alone, without a model call; a page where the recipe finds
 *   nothing, or leaves empty a field it filled on both verified pages, is extracted by the model.
 *
 * A recipe that fails verification is replaced by one generated on the page it failed on (at most
 * VISIT_LIMITS.recipes times), else every page is extracted by the model. The detail records are
 * merged into the listing's records (`mergeVisited`). An agentic scraper records the visit with its
 * recipe as a script step; its replay (`replayVisit`) runs the recipe on every page with no model.
 */
import { selectAll } from 'css-select';
import type { OperationContext } from '../context.ts';
import { GleanerError, isGleanerError } from '../errors.ts';
import { openBrowser, type Browser } from '../extract/acquire.ts';
import { extractWithModel } from '../extract/model-extract.ts';
import { findNextPageUrl, linkPage } from '../extract/paginate.ts';
import type { Cookie } from '../net/cookies.ts';
import type { PageSnapshot } from '../plugins/driver.ts';
import { defaultPolicy, politeScope, resolvePolicy, type PoliteScope } from '../politeness/policy.ts';
import { attrOf, type AnyNode, type Element } from '../recipes/dom.ts';
import { compareRecipeOutput, executeRecipe, type Recipe } from '../recipes/index.ts';
import { mergeRecords, type Attribute, type ExtractedRecord } from '../records/attributes.ts';
import { buildRecipe } from '../scrapers/build.ts';
import { addUsage, type ModelUsage } from '../usage.ts';
import { domainAllowed } from './domains.ts';

export const VISIT_LIMITS = Object.freeze({
  /** Listing pages read at most (the current one included) when following pagination. */
  pages: 20,
  /** Detail pages opened at most by one visit. */
  items: 200,
  /** Detail pages fetched at once at most (the host's politeness concurrency bounds it further). */
  workers: 8,
  /** Recipes generated at most by one visit before the rest goes to the model. */
  recipes: 2,
  /** Model extractions at once for the pages where the recipe failed. */
  modelAtOnce: 4,
});

/** Which links a visit opens: the URL shape (`/product/*`, `/item?id=*`), or exactly these URLs. */
export interface VisitLinks {
  /** Path segments, `*` for one varying segment; `?key=*` for query keys that vary. Same host as the listing. */
  pattern: string | null;
  /** The URLs themselves, when no pattern fits (links of different shapes). */
  urls?: string[];
}

export interface VisitRequest {
  links: VisitLinks;
  /** Also gather such links on the listing's next pages. */
  followPagination: boolean;
  maxItems: number;
}

/** One detail page's outcome. */
export interface VisitedPage {
  url: string;
  records: ExtractedRecord[];
  /** `recipe`: the recipe alone; `model`: the model (first pages, verification, fallback); `failed`: not read. */
  by: 'recipe' | 'model' | 'failed';
  driver?: string;
  error?: string;
  /** The page as read (for the snapshot archive); absent when it could not be fetched. */
  document?: { html: string; body?: Uint8Array; charset?: string };
}

/** The driver and document of a page read, for a VisitedPage. */
const readFrom = (page: PageSnapshot) => ({ driver: page.driver, document: { html: page.html, body: page.body, charset: page.charset } });

export interface VisitOutcome {
  /** The listing pages read (the current one first). */
  listingPages: string[];
  pages: VisitedPage[];
  /** The verified recipe, null when none held. */
  recipe: Recipe | null;
  usage: ModelUsage;
  modelMs: number;
  /** Links found but not opened: outside allowed_domains, or past maxItems. */
  skipped: { domain: number; limit: number };
}

// ---------------------------------------------------------------- link shapes

const segmentsOf = (u: URL) => u.pathname.split('/').filter(Boolean);

/**
 * The shape shared by the example links: equal path segments kept, differing ones `*`. One example
 * (or examples differing only in the query) varies in its query keys when it has a query, else in its
 * last segment. Null when the examples' paths have different lengths (the URLs are then used as given).
 */
export function linkPattern(examples: string[]): string | null {
  const urls = examples.map((e) => URL.parse(e)).filter((u): u is URL => u !== null);
  if (!urls.length) return null;
  const segs = urls.map(segmentsOf);
  if (segs.some((s) => s.length !== segs[0].length)) return null;
  const path = segs[0].map((seg, i) => (segs.every((s) => s[i] === seg) ? seg : '*'));
  const keys = [...new Set(urls.flatMap((u) => [...u.searchParams.keys()]))].sort();
  const queryVaries = urls.length > 1 && urls.some((u) => u.search !== urls[0].search);
  if (!path.includes('*')) {
    if (keys.length && (urls.length === 1 || queryVaries)) return `/${path.join('/')}?${keys.map((k) => `${k}=*`).join('&')}`;
    if (!path.length) return null; // the site's root: no shape to generalize
    path[path.length - 1] = '*';
  }
  return `/${path.join('/')}`;
}

/** Whether `url` has the pattern's shape (and the listing's host). */
export function matchesPattern(url: string, pattern: string, host: string): boolean {
  const u = URL.parse(url);
  if (!u || u.host !== host) return false;
  const [p, q] = pattern.split('?');
  const want = p.split('/').filter(Boolean);
  const have = segmentsOf(u);
  if (want.length !== have.length || !want.every((w, i) => w === '*' || w === have[i])) return false;
  if (q) return q.split('&').every((kv) => u.searchParams.has(kv.split('=')[0]));
  return true;
}

/** The page's links with the pattern's shape, in document order, without duplicates (fragments dropped). */
export function linksLike(html: string, url: string, pattern: string): string[] {
  const page = linkPage(html, url);
  const host = new URL(url).host;
  const out = new Set<string>();
  for (const a of selectAll<AnyNode, Element>('a[href]', page.doc)) {
    const u = URL.parse(attrOf(a, 'href') ?? '', page.base);
    if (!u || !/^https?:$/.test(u.protocol)) continue;
    u.hash = '';
    if (u.href !== url && matchesPattern(u.href, pattern, host)) out.add(u.href);
  }
  return [...out];
}

// ---------------------------------------------------------------- merging

const filled = (v: unknown) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);
const sameUrl = (v: unknown, url: string, base: string) => {
  if (typeof v !== 'string' || !v) return false;
  const u = URL.parse(v, base);
  if (!u) return false;
  u.hash = '';
  return u.href.replace(/\/$/, '') === url.replace(/\/$/, '');
};
const norm = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase().replace(/\s+/g, ' ') : JSON.stringify(v));

/**
 * Detail records into the listing's: a detail page that gave one record is merged into the listing
 * record that links to it (a value equal to its URL) or, failing that, into the one listing record
 * with the same first field (a name); the detail's filled values win. Every other detail record is
 * added. Duplicates are dropped, as across pages.
 */
export function mergeVisited(
  listing: ExtractedRecord[],
  visits: Array<{ listingUrl: string; pages: Array<Pick<VisitedPage, 'url' | 'records'>> }>,
): ExtractedRecord[] {
  const out = listing.map((r) => ({ ...r }));
  const added: ExtractedRecord[] = [];
  for (const v of visits) {
    for (const p of v.pages) {
      if (p.records.length !== 1) {
        added.push(...p.records);
        continue;
      }
      const d = p.records[0];
      let i = out.findIndex((r) => Object.values(r).some((x) => sameUrl(x, p.url, v.listingUrl)));
      if (i < 0) {
        const key = Object.keys(d).find((k) => filled(d[k]));
        const hits = key ? out.flatMap((r, j) => (filled(r[key]) && norm(r[key]) === norm(d[key]) ? [j] : [])) : [];
        if (hits.length === 1) i = hits[0];
      }
      if (i < 0) added.push(d);
      else out[i] = { ...out[i], ...Object.fromEntries(Object.entries(d).filter(([, x]) => filled(x))) };
    }
  }
  return mergeRecords([out, added]);
}

// ---------------------------------------------------------------- fetching

type Fetched = { ok: true; page: PageSnapshot } | { ok: false; error: string };

/**
 * Pages fetched by up to `workers` sessions at once, each page waiting its turn at its host
 * (fetchPolitely through openBrowser's `polite`); URLs can be added while others are fetched.
 */
class FetchPool {
  readonly #queue: Array<{ url: string; done: (f: Fetched) => void }> = [];
  readonly #browsers: Promise<Browser>[] = [];
  readonly #workers: Promise<void>[] = [];
  #wake: Array<() => void> = [];
  #closed = false;

  readonly ctx: OperationContext;
  readonly opts: { workers: number; cookies: Cookie[]; preferBrowser: boolean; proxyCountry: string | null; polite: PoliteScope; signal: AbortSignal };

  constructor(ctx: OperationContext, opts: FetchPool['opts']) {
    this.ctx = ctx;
    this.opts = opts;
  }

  add(url: string): Promise<Fetched> {
    return new Promise((done) => {
      this.#queue.push({ url, done });
      if (this.#workers.length < this.opts.workers) this.#workers.push(this.#work());
      this.#wake.shift()?.();
    });
  }

  async #work(): Promise<void> {
    const browser = openBrowser(this.ctx, {
      proxyCountry: this.opts.proxyCountry,
      cookies: this.opts.cookies,
      preferBrowser: this.opts.preferBrowser,
      signal: this.opts.signal,
      polite: this.opts.polite,
    });
    browser.catch(() => undefined);
    this.#browsers.push(browser);
    for (;;) {
      const job = this.#queue.shift();
      if (!job) {
        if (this.#closed) return;
        await new Promise<void>((r) => this.#wake.push(r));
        continue;
      }
      try {
        this.opts.signal.throwIfAborted();
        const b = await browser;
        // A page that timed out or answered 5xx (a busy host or machine) is tried once more.
        const page = await b.goto(job.url).catch((err: unknown) => {
          if (this.opts.signal.aborted || !isGleanerError(err) || !err.retryable) throw err;
          this.ctx.logger.info({ url: job.url, err: err.message }, 'visit: fetching a detail page again');
          return b.goto(job.url);
        });
        job.done({ ok: true, page });
      } catch (err) {
        if (this.opts.signal.aborted) job.done({ ok: false, error: 'stopped' });
        else if (isGleanerError(err) && err.code === 'DRIVER_UNAVAILABLE') job.done({ ok: false, error: err.message });
        else job.done({ ok: false, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const w of this.#wake.splice(0)) w();
    await Promise.allSettled(this.#workers);
    await Promise.allSettled(this.#browsers.map(async (b) => (await b).close()));
  }
}

// ---------------------------------------------------------------- the visit

export interface VisitContext {
  ctx: OperationContext;
  /** The listing page the agent is on. */
  listing: { url: string; html: string };
  request: VisitRequest;
  attributes: Attribute[];
  prompt: string;
  cookies: Cookie[];
  /** The agent is on a browser: detail pages are fetched with it too. */
  preferBrowser: boolean;
  proxyCountry?: string | null;
  ownerId?: string;
  allowedDomains?: string[] | null;
  signal: AbortSignal;
  /**
   * With a model: the first pages teach a recipe, failures fall back to it. Without (a replay): the
   * given recipe runs on every page. `canSpend` says whether the token budget still allows a call.
   */
  model?: { canSpend: () => boolean };
  /** A replay's recorded recipe. */
  recipe?: Recipe;
  /** Puts secret placeholders back in every page text bound for the model (the agent's redaction). */
  hide?: (text: string) => string;
}

/** The detail URLs: the links like the pattern on the listing and its next pages (or the URLs given). */
async function gather(v: VisitContext, pool: FetchPool): Promise<{ urls: string[]; listingPages: string[]; skipped: VisitOutcome['skipped'] }> {
  const { request, listing } = v;
  const skipped = { domain: 0, limit: 0 };
  const urls = new Set<string>();
  const listingPages = [listing.url];
  const take = (found: string[]) => {
    for (const u of found) {
      if (urls.has(u) || listingPages.includes(u)) continue;
      if (!domainAllowed(u, v.allowedDomains)) skipped.domain++;
      else if (urls.size >= request.maxItems) skipped.limit++;
      else urls.add(u);
    }
  };
  const pattern = request.links.pattern;
  if (!pattern) {
    take(request.links.urls ?? []);
    return { urls: [...urls], listingPages, skipped };
  }
  let html = listing.html;
  let url = listing.url;
  take(linksLike(html, url, pattern));
  while (request.followPagination && listingPages.length < VISIT_LIMITS.pages) {
    const next = findNextPageUrl(linkPage(html, url));
    if (!next || listingPages.includes(next) || !domainAllowed(next, v.allowedDomains)) break;
    const got = await pool.add(next);
    if (!got.ok) break;
    listingPages.push(next);
    html = got.page.html;
    url = got.page.finalUrl;
    take(linksLike(html, url, pattern));
  }
  return { urls: [...urls], listingPages, skipped };
}

/** Fields that have a value in some record. */
const filledFields = (records: ExtractedRecord[]) => new Set(records.flatMap((r) => Object.keys(r).filter((k) => filled(r[k]))));

/** Runs a visit (see the module comment). Model errors other than a bad answer are thrown. */
export async function runVisit(v: VisitContext): Promise<VisitOutcome> {
  const { ctx, signal } = v;
  const policy = v.ownerId ? await resolvePolicy(ctx, v.ownerId) : defaultPolicy(ctx);
  // A browser driver leases its pages from a pool of browser.maxPages: the caller's own page holds
  // one, so the workers take at most the rest (more would wait for a page only this visit can free).
  const browserPages = ctx.drivers.some((d) => d.capabilities.javascript) ? Math.max(1, ctx.config.browser.maxPages - 1) : Infinity;
  const pool = new FetchPool(ctx, {
    workers: Math.max(1, Math.min(VISIT_LIMITS.workers, policy.concurrency, browserPages)),
    cookies: v.cookies,
    preferBrowser: v.preferBrowser,
    proxyCountry: v.proxyCountry ?? null,
    polite: politeScope(policy),
    signal,
  });
  const usage: ModelUsage = { modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  let modelMs = 0;
  const attributes = v.attributes.length ? v.attributes : undefined;
  try {
    const { urls, listingPages, skipped } = await gather(v, pool);
    // Every page is on its way at once; the pool keeps to the host's pace.
    const fetched = urls.map((u) => pool.add(u));
    const pages: VisitedPage[] = [];

    const byModel = async (page: PageSnapshot): Promise<ExtractedRecord[] | string> => {
      if (!v.model?.canSpend()) return 'the token budget is spent';
      const started = Date.now();
      const once = () =>
        extractWithModel(ctx, {
          html: v.hide ? v.hide(page.html) : page.html,
          url: page.finalUrl,
          attributes: v.attributes,
          prompt: v.prompt,
          precision: false,
          signal,
        });
      try {
        const res = await once().catch((err: unknown) => (isGleanerError(err) && err.code === 'MODEL_BAD_OUTPUT' ? once() : Promise.reject(err)));
        addUsage(usage, res.usage);
        return res.records;
      } catch (err) {
        if (!(isGleanerError(err) && err.code === 'MODEL_BAD_OUTPUT')) throw err;
        addUsage(usage, (err.details as { usage?: ModelUsage } | undefined)?.usage ?? { modelCalls: 1, inputTokens: 0, outputTokens: 0 });
        return err.message;
      } finally {
        modelMs += Date.now() - started;
      }
    };
    // Fallbacks after the learning pages run a few at a time.
    let active = 0;
    const queued: Array<() => void> = [];
    const limited = async <T>(fn: () => Promise<T>): Promise<T> => {
      while (active >= VISIT_LIMITS.modelAtOnce) await new Promise<void>((r) => queued.push(r));
      active++;
      try {
        return await fn();
      } finally {
        active--;
        queued.shift()?.();
      }
    };
    const withRecipe = (recipe: Recipe, page: PageSnapshot) => executeRecipe(recipe, page.html, { url: page.finalUrl, attributes });

    // Learning: model records teach a recipe, the next page verifies it.
    let recipe: Recipe | null = v.recipe ?? null;
    let verified = v.recipe !== undefined;
    /** Fields the recipe filled on the verified pages: a page where one is empty goes to the model. */
    let expectFields = new Set<string>();
    let recipesMade = 0;
    let i = 0;
    if (v.model && !v.recipe) {
      for (; i < fetched.length && !verified; i++) {
        const got = await fetched[i];
        signal.throwIfAborted();
        if (!got.ok) {
          pages.push({ url: urls[i], records: [], by: 'failed', error: got.error });
          continue;
        }
        const page = got.page;
        const records = await byModel(page);
        if (typeof records === 'string') {
          pages.push({ url: page.finalUrl, records: [], by: 'failed', ...readFrom(page), error: records });
          continue;
        }
        pages.push({ url: page.finalUrl, records, by: 'model', ...readFrom(page) });
        if (!records.length) continue;
        if (recipe) {
          const actual = withRecipe(recipe, page);
          if (compareRecipeOutput(actual, records, { baseUrl: page.finalUrl }).ok) {
            verified = true;
            expectFields = new Set([...expectFields].filter((f) => filledFields(actual).has(f)));
            break;
          }
          recipe = null;
        }
        if (recipesMade >= VISIT_LIMITS.recipes || !v.model.canSpend()) continue;
        recipesMade++;
        const started = Date.now();
        const built = await buildRecipe(ctx, {
          page: { html: v.hide ? v.hide(page.html) : page.html, url: page.finalUrl, driver: page.driver },
          expected: records,
          attributes: v.attributes,
          prompt: v.prompt,
          signal,
        }).finally(() => (modelMs += Date.now() - started));
        addUsage(usage, built.usage);
        if (built.accepted) {
          recipe = built.recipe;
          expectFields = filledFields(built.records);
        } else ctx.logger.info({ url: page.finalUrl, reason: built.reason }, 'visit: no recipe reproduces this detail page');
      }
      if (verified) i++;
      else recipe = null;
    }

    // Applying: the recipe alone; the model where it fails (or for everything when none held).
    const rest = fetched.slice(i).map(async (p, k): Promise<VisitedPage> => {
      const got = await p;
      if (!got.ok) return { url: urls[i + k], records: [], by: 'failed', error: got.error };
      const page = got.page;
      if (recipe) {
        const records = withRecipe(recipe, page);
        const have = filledFields(records);
        if (records.length && [...expectFields].every((f) => have.has(f))) return { url: page.finalUrl, records, by: 'recipe', ...readFrom(page) };
        if (!v.model) return { url: page.finalUrl, records, by: 'recipe', ...readFrom(page) };
      }
      if (!v.model) return { url: page.finalUrl, records: [], by: 'failed', ...readFrom(page), error: 'no recipe' };
      const records = await limited(() => byModel(page));
      return typeof records === 'string'
        ? { url: page.finalUrl, records: [], by: 'failed', ...readFrom(page), error: records }
        : { url: page.finalUrl, records, by: 'model', ...readFrom(page) };
    });
    pages.push(...(await Promise.all(rest)));
    return { listingPages, pages, recipe: verified ? recipe : null, usage, modelMs, skipped };
  } finally {
    await pool.close();
  }
}

/** The model's answer after a visit. */
export function describeVisit(o: VisitOutcome): string {
  const count = (by: VisitedPage['by']) => o.pages.filter((p) => p.by === by).length;
  const records = o.pages.reduce((n, p) => n + p.records.length, 0);
  const parts = [
    `Visited ${o.pages.length} page${o.pages.length === 1 ? '' : 's'} found on ${o.listingPages.length} listing page${o.listingPages.length === 1 ? '' : 's'}: ${records} record${records === 1 ? '' : 's'}, merged into the records`,
  ];
  parts.push(`(${count('recipe')} read by a recipe, ${count('model')} by the model${count('failed') ? `, ${count('failed')} failed` : ''})`);
  const failed = o.pages.find((p) => p.by === 'failed');
  let text = `${parts.join(' ')}.`;
  if (failed) text += ` E.g. ${failed.url}: ${failed.error?.slice(0, 200)}.`;
  if (o.skipped.domain) text += ` ${o.skipped.domain} link${o.skipped.domain === 1 ? ' is' : 's are'} outside allowed_domains and were not opened.`;
  if (o.skipped.limit) text += ` ${o.skipped.limit} more link${o.skipped.limit === 1 ? '' : 's'} past max_items were not opened.`;
  if (!o.pages.length) text = `No links like these were found on ${o.listingPages.length} listing page${o.listingPages.length === 1 ? '' : 's'}.`;
  return text;
}

/** The links the model pointed at, checked: http(s) links on the page. */
export function visitLinks(hrefs: string[], base: string): VisitLinks {
  const urls = hrefs.map((h) => URL.parse(h, base)).filter((u): u is URL => u !== null && /^https?:$/.test(u.protocol));
  if (!urls.length) throw new GleanerError('BAD_REQUEST', 'visit needs "refs" of links (elements with an href) on this page');
  for (const u of urls) u.hash = '';
  const pattern = linkPattern(urls.map((u) => u.href));
  return pattern ? { pattern } : { pattern: null, urls: [...new Set(urls.map((u) => u.href))] };
}
