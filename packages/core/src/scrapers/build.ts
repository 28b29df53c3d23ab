/**
 * Building a recipe the way every scraper build and heal does: standard extraction reads the sample
 * page, then the model writes a recipe that must reproduce those records on the same page (bounded
 * rounds, differences and brittle selectors sent back). Shared by the build job and healScraper so
 * both validate the same way.
 */
import { suppliedHtml } from '../page/supplied.ts';
import { isGleanerError } from '../errors.ts';
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import { openBrowser } from '../extract/acquire.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { addUsage, emptyUsage, type ModelUsage } from '../usage.ts';
import { runExtraction } from '../extract/pipeline.ts';
import type { ExtractOptions } from '../schemas/normalize.ts';
import type { Cookie } from '../net/cookies.ts';
import { generateRecipe, type Recipe, type RecipeMismatch } from '../recipes/index.ts';

/** A page in hand: its HTML, its (final) URL and the driver that fetched it ('content' for supplied content). */
export interface SamplePage {
  html: string;
  url: string;
  driver: string;
}

/** Base URL of supplied content without a url (the same placeholder /v1/parse uses). */
export const CONTENT_BASE = 'https://content.invalid/';

/** Supplied content as the HTML both standard extraction and the recipe read (text gets paragraphs). */
export function contentPage(content: string, url: string | null): SamplePage {
  return { html: suppliedHtml(content), url: url ?? CONTENT_BASE, driver: 'content' };
}

function standardOptions(attributes: Attribute[], prompt: string): ExtractOptions {
  return { attributes, prompt, mode: 'standard', enablePagination: false, maxPages: 1, proxyCountry: null, cookies: [], source: 'scraper' };
}

/** Standard extraction's records of a page in hand (no fetching). */
export async function standardRecords(
  ctx: OperationContext,
  page: SamplePage,
  attributes: Attribute[],
  prompt: string,
  signal?: AbortSignal,
): Promise<{ records: ExtractedRecord[]; usage: ModelUsage }> {
  const result = await runExtraction(ctx, { content: page.html, url: page.url }, standardOptions(attributes, prompt), signal);
  return { records: result.records, usage: result.usage };
}

/**
 * Fetches the sample page once and extracts it; when plain HTTP shows nothing, the page is fetched
 * again with a browser (if escalation allows) and extracted there.
 */
export async function sampleFromUrl(
  ctx: OperationContext,
  input: { url: string; proxyCountry: string | null; cookies: Cookie[]; attributes: Attribute[]; prompt: string; signal?: AbortSignal },
): Promise<{ page: SamplePage; expected: ExtractedRecord[]; usage: ModelUsage }> {
  const usage = emptyUsage();
  const browser = await openBrowser(ctx, { proxyCountry: input.proxyCountry, cookies: input.cookies, signal: input.signal });
  try {
    const fetched = await browser.goto(input.url);
    let page: SamplePage = { html: fetched.html, url: fetched.finalUrl, driver: fetched.driver };
    let std = await standardRecords(ctx, page, input.attributes, input.prompt, input.signal);
    addUsage(usage, std.usage);
    if (!std.records.length) {
      const again = await browser.escalate(input.url, 'empty extraction');
      if (again) {
        page = { html: again.html, url: again.finalUrl, driver: again.driver };
        std = await standardRecords(ctx, page, input.attributes, input.prompt, input.signal);
        addUsage(usage, std.usage);
      }
    }
    return { page, expected: std.records, usage };
  } finally {
    await browser.close();
  }
}

export type BuildResult =
  | { accepted: true; recipe: Recipe; records: ExtractedRecord[]; rounds: number; usage: ModelUsage; brittle: number }
  | { accepted: false; reason: string; rounds: number; usage: ModelUsage };

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** What a rejected recipe still got wrong, for the scraper's `error` (brittleness alone never fails a build). */
export function describeMismatches(mismatches: RecipeMismatch[]): string {
  const data = mismatches.filter((m) => m.kind !== 'brittle_selector');
  return cut((data.length ? data : mismatches).map((m) => m.message).join(' '), 1500);
}

/**
 * Has the model write a recipe that reproduces `expected` on `page`. A model that writes no valid
 * recipe at all is a rejected build, not an error to retry; the model client's errors (unreachable,
 * timeout) are thrown.
 */
export async function buildRecipe(
  ctx: OperationContext,
  input: { page: SamplePage; expected: ExtractedRecord[]; attributes: Attribute[]; prompt: string; signal?: AbortSignal; maxRounds?: number },
): Promise<BuildResult> {
  const rounds = input.maxRounds ?? ctx.config.scrapers.generateRounds;
  try {
    const built = await generateRecipe({
      model: requireModel(ctx),
      page: { html: input.page.html, url: input.page.url },
      attributes: input.attributes,
      prompt: input.prompt,
      expected: input.expected,
      maxRounds: rounds,
      signal: input.signal,
    });
    if (built.accepted) {
      const brittle = built.mismatches.filter((m) => m.kind === 'brittle_selector').length;
      return { accepted: true, recipe: built.recipe, records: built.records, rounds: built.rounds, usage: built.usage, brittle };
    }
    const reason = `the generated recipe did not reproduce standard extraction on the sample page after ${built.rounds} round${built.rounds === 1 ? '' : 's'}: ${describeMismatches(built.mismatches)}`;
    return { accepted: false, reason, rounds: built.rounds, usage: built.usage };
  } catch (err) {
    if (isGleanerError(err) && err.code === 'MODEL_BAD_OUTPUT') {
      const usage = (err.details as { usage?: ModelUsage } | undefined)?.usage ?? emptyUsage();
      return { accepted: false, reason: err.message, rounds, usage };
    }
    throw err;
  }
}

/** Standard extraction found nothing: there is nothing for a recipe to reproduce. */
export function nothingFound(page: SamplePage): string {
  return page.driver === 'content'
    ? 'standard extraction found no records in the given content, so there is nothing for a scraper to reproduce: check that it holds what the attributes or prompt ask for'
    : `standard extraction found no records on the sample page ${page.url}, so there is nothing for a scraper to reproduce: check that the page holds what the attributes or prompt ask for (and is reachable from the chosen proxy_country)`;
}
