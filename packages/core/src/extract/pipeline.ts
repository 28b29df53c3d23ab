/**
 * One extraction: acquire -> extract (model, or a generated recipe in code mode) -> paginate.
 * Used by /v1/extract, /v1/parse and async extraction tasks.
 */
import { suppliedHtml } from '../page/supplied.ts';
import type { PageSnapshot } from '../plugins/driver.ts';
import { generateRecipe, executeRecipe, type Recipe } from '../recipes/index.ts';
import { mergeRecords, type ExtractedRecord } from '../records/attributes.ts';
import { openBrowser } from './acquire.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { addUsage, creditsFor, emptyUsage, type ModelUsage } from '../usage.ts';
import { extractWithModel } from './model-extract.ts';
import { askModelForNextPage, findNextPageUrl, linkPage } from './paginate.ts';
import type { ExtractOptions } from '../schemas/normalize.ts';
import { TrustLog } from '../trust/provenance.ts';
import type { PageGuard } from '../cost/guard.ts';

export type ExtractTarget = { url: string } | { content: string; url?: string };

export interface PageResult {
  url: string;
  driver: string;
  records: number;
}

export interface ExtractionResult {
  records: ExtractedRecord[];
  pages: PageResult[];
  usage: ModelUsage;
  credits: number;
  /** The driver of the first page ('content' for /v1/parse). */
  driver: string;
  /** Set when no record was found, saying why as far as known. */
  message?: string;
  recipe?: Recipe;
  /** Each record's provenance and grounding (the `grounding` policy already applied to the records). */
  trust: TrustLog;
  /** Set when a budget stopped pagination: why, and that the records are those of the pages read. */
  stopped?: string;
}

const CONTENT_BASE = 'https://content.invalid/';

/** Whether the named driver runs JavaScript (the page was rendered). */
function renderedBy(ctx: OperationContext, driver: string): boolean {
  return ctx.drivers.some((d) => d.name === driver && d.capabilities.javascript);
}

/** Extracts from one page, with the model or (code mode) the recipe generated on the first page. */
async function extractPage(
  ctx: OperationContext,
  page: { html: string; url: string },
  options: ExtractOptions,
  state: ExtractionState,
  signal?: AbortSignal,
): Promise<ExtractedRecord[]> {
  if (options.mode === 'code') {
    let records: ExtractedRecord[] | null = null;
    if (!state.recipe) {
      const built = await generateRecipe({ model: requireModel(ctx), page, attributes: options.attributes, prompt: options.prompt, signal });
      addUsage(state.usage, built.usage);
      state.recipe = built.recipe;
      state.modelPages++;
      if (!options.provenance) return built.records;
    } else {
      state.recipePages++;
      if (!options.provenance) return executeRecipe(state.recipe, page.html, { url: page.url, attributes: options.attributes });
    }
    // Provenance asked: run the recipe again, noting which rule gave each value.
    const traced: Array<[ExtractedRecord, Record<string, number>]> = [];
    records = executeRecipe(state.recipe, page.html, { url: page.url, attributes: options.attributes, trace: (r, rules) => traced.push([r, rules]) });
    state.trust.recipePage(page, state.recipe, traced, options.attributes);
    return records;
  }
  state.modelPages++;
  const res = await extractWithModel(ctx, { ...page, attributes: options.attributes, prompt: options.prompt, precision: options.mode === 'precision', signal });
  addUsage(state.usage, res.usage);
  if (res.skippedChunks) ctx.logger.warn({ url: page.url, skipped: res.skippedChunks }, 'page longer than extract.maxChunks allows; the rest was not read');
  state.trust.modelPage(page, res.page, res.records, options.attributes);
  return res.records;
}

interface ExtractionState {
  recipe?: Recipe;
  usage: ModelUsage;
  modelPages: number;
  recipePages: number;
  trust: TrustLog;
}

/**
 * `onPage` sees each page read, in order, with its HTML (for the opt-in extraction details; nothing
 * is kept otherwise).
 */
export async function runExtraction(
  ctx: OperationContext,
  target: ExtractTarget,
  options: ExtractOptions,
  signal?: AbortSignal,
  onPage?: (page: { url: string; driver: string; html: string; body?: Uint8Array; charset?: string }) => void,
  guard?: PageGuard | null,
): Promise<ExtractionResult> {
  const state: ExtractionState = { usage: emptyUsage(), modelPages: 0, recipePages: 0, trust: new TrustLog(options.grounding ?? 'keep') };
  const pages: PageResult[] = [];
  const perPage: ExtractedRecord[][] = [];
  let stopped: string | undefined;

  if ('content' in target) {
    const url = target.url ?? CONTENT_BASE;
    const html = suppliedHtml(target.content);
    await guard?.beforePage({ html, url }, 0, state);
    perPage.push(await extractPage(ctx, { html, url }, options, state, signal));
    pages.push({ url, driver: 'content', records: perPage[0].length });
    onPage?.({ url, driver: 'content', html });
  } else {
    const browser = await openBrowser(ctx, { proxyCountry: options.proxyCountry, cookies: options.cookies, localStorage: options.localStorage, signal });
    try {
      const seen = new Set<string>();
      let next: string | null = target.url;
      const limit = options.enablePagination ? options.maxPages : 1;
      while (next && pages.length < limit) {
        seen.add(next);
        let page: PageSnapshot = await browser.goto(next);
        seen.add(page.finalUrl);
        const stop = await guard?.beforePage({ html: page.html, url: page.finalUrl }, pages.length, state);
        if (stop) {
          stopped = stop;
          break;
        }
        let records = await extractPage(ctx, { html: page.html, url: page.finalUrl }, options, state, signal);
        if (!records.length && pages.length === 0) {
          // Nothing on a plain-HTTP first page: the content may be rendered by JavaScript.
          const rendered = await browser.escalate(next, 'empty extraction');
          if (rendered) {
            page = rendered;
            if (options.mode === 'code') delete state.recipe; // the recipe was written for the unrendered page
            records = await extractPage(ctx, { html: page.html, url: page.finalUrl }, options, state, signal);
          }
        }
        perPage.push(records);
        pages.push({ url: page.finalUrl, driver: page.driver, records: records.length });
        onPage?.({ url: page.finalUrl, driver: page.driver, html: page.html, body: page.body, charset: page.charset });
        if (pages.length >= limit) break;
        const links = linkPage(page.html, page.finalUrl);
        let candidate = findNextPageUrl(links);
        if (!candidate && options.mode !== 'code') {
          // A failed guess at the next page ends pagination; it does not fail the pages already read.
          candidate = await askModelForNextPage(ctx, links, state.usage, signal).catch((err: Error) => {
            ctx.logger.warn({ url: page.finalUrl, err: err.message }, 'next-page detection by the model failed');
            return null;
          });
        }
        next = candidate && !seen.has(candidate) ? candidate : null;
      }
    } finally {
      await browser.close();
    }
  }

  const records = mergeRecords(perPage);
  const result: ExtractionResult = {
    records,
    pages,
    usage: state.usage,
    credits: creditsFor(ctx.config, { modelPages: state.modelPages, recipePages: state.recipePages, usage: state.usage }),
    driver: pages[0]?.driver ?? 'http',
    trust: state.trust,
  };
  if (state.recipe) result.recipe = state.recipe;
  if (stopped) result.stopped = result.message = stopped;
  else if (!records.length) {
    result.message =
      'content' in target
        ? 'No records found in the content: it may not contain what was asked.'
        : `No records found on ${pages.length === 1 ? 'the page' : `${pages.length} pages`}: the page may not contain what was asked${renderedBy(ctx, result.driver) ? '' : ', or may need JavaScript to render it'}.`;
  }
  return result;
}
