/**
 * One URL of a scraper run: fetch the page (plain HTTP first, or the browser when the scraper's
 * sample needed one), execute the recipe, follow next pages up to `maxPages`. No model call.
 */
import { mergeRecords, type Attribute, type ExtractedRecord } from '../records/attributes.ts';
import { openBrowser } from '../extract/acquire.ts';
import type { OperationContext } from '../context.ts';
import { findNextPageUrl, linkPage } from '../extract/paginate.ts';
import type { Cookie } from '../net/cookies.ts';
import type { LocalStorageState } from '../plugins/driver.ts';
import type { PageSnapshot } from '../plugins/driver.ts';
import { runRecipe, type Recipe, type RecipeRun } from '../recipes/index.ts';
import type { PoliteScope } from '../politeness/policy.ts';
import type { TrustLog } from '../trust/provenance.ts';

export interface ScrapeInput {
  recipe: Recipe;
  attributes: Attribute[];
  url: string;
  /** Start on the browser driver (the scraper's sample page needed one). */
  preferBrowser?: boolean;
  /** Pages to read at most, the first included (default 1). */
  maxPages?: number;
  proxyCountry?: string | null;
  cookies?: Cookie[];
  /** A profile's local storage by origin. */
  localStorage?: LocalStorageState;
  signal?: AbortSignal;
  /** Robots.txt and per-host pacing (runs and crawls). */
  polite?: PoliteScope;
  /** `provenance: true`: each record's recipe rule is noted here (page URL and content hash). */
  trust?: TrustLog;
}

export interface ScrapedPage {
  html: string;
  url: string;
  driver: string;
  /** The bytes as sent and their encoding, when the driver has them (the snapshot archive keeps them). */
  body?: Uint8Array;
  charset?: string;
}

export interface ScrapeResult {
  /** Every page's records, merged (duplicates across pages dropped). */
  records: ExtractedRecord[];
  pages: Array<{ url: string; driver: string; records: number }>;
  /** The first page's records: what layout drift is judged on (later pages may end a list). */
  firstRecords: ExtractedRecord[];
  /** The driver of the first page. */
  driver: string;
  /** The first page, as the recipe read it: what a regeneration starts from. */
  firstPage: ScrapedPage;
  /** The last page read. */
  lastPage: ScrapedPage;
  /** Every page read, in order, as the recipe read it (what the snapshot archive keeps). */
  documents: ScrapedPage[];
  /** What the run item should say beside its records (pagination fallbacks). */
  message?: string;
}

/**
 * The recipe run on a page; with `trust`, each record's rules are traced and `note` files them in the
 * log (called for the page kept: a plain page given up for the browser's is not noted).
 */
function tracedRun(input: ScrapeInput, page: PageSnapshot): RecipeRun & { note?: () => void } {
  const opts = { url: page.finalUrl, attributes: input.attributes };
  if (!input.trust) return runRecipe(input.recipe, page.html, opts);
  const traced: Array<[ExtractedRecord, Record<string, number>]> = [];
  const run = runRecipe(input.recipe, page.html, { ...opts, trace: (r, rules) => traced.push([r, rules]) });
  const trust = input.trust;
  return { ...run, note: () => trust.recipePage({ url: page.finalUrl, html: page.html }, input.recipe, traced, input.attributes) };
}

/** Fetches one URL (plus pagination) and executes a recipe on it, without any model call. */
export async function scrapeWithRecipe(ctx: OperationContext, input: ScrapeInput): Promise<ScrapeResult> {
  const limit = Math.max(1, input.maxPages ?? 1);
  const browser = await openBrowser(ctx, {
    proxyCountry: input.proxyCountry ?? null,
    cookies: input.cookies ?? [],
    localStorage: input.localStorage,
    preferBrowser: input.preferBrowser,
    signal: input.signal,
    polite: input.polite,
  });
  try {
    const pages: ScrapeResult['pages'] = [];
    const perPage: ExtractedRecord[][] = [];
    const seen = new Set<string>();
    const documents: ScrapedPage[] = [];
    let first: ScrapedPage | null = null;
    let last: ScrapedPage | null = null;
    let next: string | null = input.url;
    const notes: string[] = [];
    while (next && pages.length < limit) {
      input.signal?.throwIfAborted();
      seen.add(next);
      let page: PageSnapshot = await browser.goto(next);
      const read = (p: PageSnapshot) => tracedRun(input, p);
      let run = read(page);
      if (!run.records.length && pages.length === 0) {
        // Nothing on the first page, fetched over plain HTTP, may mean it needs JavaScript: one
        // browser try before the caller calls it layout drift (null when already on a browser, or
        // none is configured). The browser's page counts only when the recipe finds records there;
        // otherwise a regeneration starts from the plain page, so the new version needs no browser.
        const again = await browser.escalate(next, 'the scraper recipe found no records on the plain-HTTP page');
        const rerun = again ? read(again) : null;
        if (again && rerun?.records.length) {
          page = again;
          run = rerun;
        }
      }
      seen.add(page.finalUrl);
      run.note?.();
      last = { html: page.html, url: page.finalUrl, driver: page.driver };
      first ??= last;
      documents.push({ ...last, body: page.body, charset: page.charset });
      perPage.push(run.records);
      pages.push({ url: page.finalUrl, driver: page.driver, records: run.records.length });
      if (pages.length >= limit) break;
      // The recipe's own rule when it has one (it was checked on the sample), else the page's markup —
      // also when the rule finds no new page where the markup shows one (a rule written for another
      // page, e.g. matching product cards): pagination then goes on, and the item says so.
      const fromRule = input.recipe.pagination?.next ? run.nextPageUrl : null;
      let candidate = fromRule && !seen.has(fromRule) ? fromRule : null;
      if (!candidate) {
        const detected = findNextPageUrl(linkPage(page.html, page.finalUrl));
        candidate = detected && !seen.has(detected) ? detected : null;
        if (candidate && input.recipe.pagination?.next) {
          notes.push(
            `the scraper's next-page rule (${input.recipe.pagination.next.selector}) found no next page on ${page.finalUrl}; followed the page's own next link (${candidate}) instead`,
          );
        }
      }
      next = candidate;
    }
    return {
      records: mergeRecords(perPage),
      pages,
      firstRecords: perPage[0] ?? [],
      driver: pages[0]?.driver ?? 'http',
      firstPage: first!,
      lastPage: last!,
      documents,
      ...(notes.length ? { message: notes.join('; ') } : {}),
    };
  } finally {
    await browser.close();
  }
}
