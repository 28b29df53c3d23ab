/**
 * A run request in normal form (spec 4.3 items 2-3): which scraper, which URLs, which options.
 * Shape problems are 422 issues; the scraper's own rules answer 404 (unknown or another owner's
 * id), 400 (agentic scrapers: parameter rules, one URL, run_async only) and 409 (not ready).
 */
import { GleanerError, validationFailed, type ValidationIssue } from '../errors.ts';
import type { Owner } from '../auth/owners.ts';
import type { OperationContext } from '../context.ts';
import { checkHttpUrl, normalizeCookieInput, normalizeProxyCountry } from '../schemas/normalize.ts';
import type { Cookie } from '../net/cookies.ts';
import type { LocalStorageState } from '../plugins/driver.ts';
import { createSsrfGuard, refuseBlockedUrls } from '../net/ssrf.ts';
import { coerceParameter } from '../agent/script-parameters.ts';
import { loadScraper, type ParameterSpec, type ScraperRecord } from '../scrapers/index.ts';
import { checkCallbackUrl } from '../tasks/extract-task.ts';
import type { RunScraperRequest } from '../schemas/run-requests.ts';
import { ownerKeepsSnapshots } from '../snapshots/archive.ts';
import { own } from '../own.ts';
import { sealRunSecrets, secretSpecs } from '../scrapers/secret-parameters.ts';
import { checkProfile, profileField } from '../profiles/index.ts';
import { resolvePolicy, type PolitenessPolicy } from '../politeness/policy.ts';

/** URLs per run (spec 8). */
export const MAX_RUN_URLS = 100;

/** What every item of the run needs, stored on the run row. */
export interface RunOptions {
  maxPages: number;
  proxyCountry: string | null;
  cookies: Cookie[];
  /** Set: pagination is on for the run (see "Running scrapers" in docs/api.md). */
  paginationDetectionUrl: string | null;
  /** Agentic scrapers' custom parameters, after the spec 4.3 rules (a top-level url moved in). */
  parameters: Record<string, unknown> | null;
  source: string;
  /** Keep every fetched page in the snapshot archive (Gleaner extension; on for scheduled runs). */
  snapshots?: boolean;
  /** `max_credits` (a Gleaner extension): items stop being read once the run would cost more. */
  maxCredits?: number | null;
  /** `provenance: true` (a Gleaner extension): each record carries `_provenance` (its recipe rule, page URL and hash). */
  provenance?: boolean;
  /** The pace and robots.txt rule of the run (absent on runs created before they were recorded). */
  politeness?: PolitenessPolicy;
  /** A run's own values of the scraper's secret parameters, sealed (scrapers/secret-parameters.ts). */
  secrets?: string;
  /** The browser profile whose cookies the run's pages are fetched with. */
  profile?: string;
  /** The profile's local storage, set in memory while an item runs (never stored on the run). */
  localStorage?: LocalStorageState;
}

export interface RunRequest {
  scraper: ScraperRecord;
  /** The URLs as written by the caller (the keys of `data`), duplicates removed, in order. */
  urls: string[];
  urlForm: 'single' | 'list';
  options: RunOptions;
  callbackUrl: string | null;
}

/** Pages per URL when neither max_pages nor pagination_detection_url is given. */
const DEFAULT_MAX_PAGES = 1;
/** Pages per URL when pagination_detection_url turns pagination on without max_pages. */
const DEFAULT_PAGINATED_MAX_PAGES = 2;

function urlList(body: RunScraperRequest, scraper: ScraperRecord, issues: ValidationIssue[]): { urls: string[]; form: 'single' | 'list' } {
  const value = body.url;
  if (value === null || value === undefined || value === '') {
    if (!scraper.url) {
      issues.push({ loc: ['body', 'url'], msg: 'Field required: this scraper was built from content and has no URL of its own', type: 'missing' });
      return { urls: [], form: 'single' };
    }
    return { urls: [scraper.url], form: 'single' };
  }
  if (typeof value === 'string') {
    checkHttpUrl(value, ['body', 'url'], issues);
    return { urls: [value.trim()], form: 'single' };
  }
  if (!Array.isArray(value)) {
    issues.push({ loc: ['body', 'url'], msg: 'Input should be a URL, a list of URLs or null', type: 'type_error' });
    return { urls: [], form: 'single' };
  }
  if (value.length === 0) issues.push({ loc: ['body', 'url'], msg: 'List should have at least 1 item', type: 'too_short' });
  if (value.length > MAX_RUN_URLS)
    issues.push({ loc: ['body', 'url'], msg: `List should have at most ${MAX_RUN_URLS} items (URLs per run)`, type: 'too_long' });
  value.forEach((u, i) => checkHttpUrl(u, ['body', 'url', i], issues));
  const urls = [...new Set(value.filter((u): u is string => typeof u === 'string').map((u) => u.trim()))];
  return { urls, form: 'list' };
}

/** The scraper's URL-typed parameter (the one a top-level url fills), if any. */
export function urlParameter(schema: ParameterSpec[] | null): ParameterSpec | undefined {
  return schema?.find((p) => /^(url|uri)$/i.test(p.type));
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  bool: 'true or false',
  url: 'an absolute http(s) URL',
  string: 'a string',
};

/**
 * Spec 4.3's custom-parameter rules, for a scraper that declares a parameters_schema: parameters
 * required, required ones present (a top-level url fills the URL-typed one), defaults filled, each
 * value of its declared type (numeric strings are accepted for numbers, "true"/"false" for bools).
 */
export function applyParameterRules(schema: ParameterSpec[] | null, body: Record<string, any>, url: string | null): Record<string, unknown> | null {
  if (!schema?.length) return null; // parameters is ignored without a schema
  const given = body.parameters;
  if (given === null || given === undefined) throw new GleanerError('BAD_REQUEST', 'parameters is required for this scraper.');
  if (typeof given !== 'object' || Array.isArray(given)) throw new GleanerError('BAD_REQUEST', 'parameters must be an object of parameter names to values.');
  // Own entries only: a parameter named "constructor" is missing when the client did not send it.
  const parameters: Record<string, unknown> = Object.assign(Object.create(null), given);
  const urlParam = urlParameter(schema);
  if (urlParam && url && (parameters[urlParam.name] === undefined || parameters[urlParam.name] === null)) parameters[urlParam.name] = url;
  const missing = schema.filter((p) => p.default === undefined && (parameters[p.name] === undefined || parameters[p.name] === null)).map((p) => p.name);
  if (missing.length) throw new GleanerError('BAD_REQUEST', `Missing required parameters: ${missing.join(', ')}`);
  for (const p of schema) {
    if (parameters[p.name] === undefined || parameters[p.name] === null) {
      parameters[p.name] = p.default;
      continue;
    }
    const value = coerceParameter(p.type, parameters[p.name]);
    if (value === undefined) {
      throw new GleanerError(
        'BAD_REQUEST',
        `Parameter ${p.name} must be ${own(TYPE_NAMES, p.type) ?? `of type ${p.type}`}; got ${JSON.stringify(parameters[p.name]).slice(0, 100)}.`,
      );
    }
    parameters[p.name] = value;
  }
  return parameters;
}

function notReady(scraper: ScraperRecord): GleanerError {
  const path = scraper.kind === 'agentic' ? '/v1/agent' : '/v1/extractor';
  const id = scraper.id;
  switch (scraper.status) {
    case 'generating':
      return new GleanerError('SCRAPER_NOT_READY', `Scraper ${id} is still being generated; poll GET ${path}/${id} until its status is ready, then run it.`);
    case 'failed':
      return new GleanerError(
        'SCRAPER_NOT_READY',
        `Scraper ${id} failed to build${scraper.error ? ` (${scraper.error})` : ''}; generate it again with POST ${path}/generate and template_id ${id}.`,
      );
    default:
      return new GleanerError('SCRAPER_NOT_READY', `Scraper ${id} has not been generated yet; POST ${path}/generate with template_id ${id} first.`);
  }
}

/** Validates a run request and loads its scraper (see the module comment for the statuses). */
export async function normalizeRunRequest(ctx: OperationContext, owner: Owner, body: RunScraperRequest, opts: { sync?: boolean } = {}): Promise<RunRequest> {
  const issues: ValidationIssue[] = [];
  const id = body.template_id ?? body.scraper_id;
  if (typeof id !== 'string' || !id.trim()) {
    throw validationFailed([{ loc: ['body', 'template_id'], msg: 'Field required (template_id, or the legacy scraper_id)', type: 'missing' }]);
  }
  const scraper = await loadScraper(ctx.db, owner.id, id.trim());
  if (!scraper) throw new GleanerError('NOT_FOUND', `Scraper ${id.trim()} not found`);

  const agentic = scraper.kind === 'agentic';
  if (agentic && opts.sync) {
    throw new GleanerError(
      'BAD_REQUEST',
      `Scraper ${scraper.id} is agentic: run it with POST /v1/scrapers/run_async (and poll GET /v1/scrapers/run_async/{run_id}, or give a callback_url); POST /v1/scrapers/run serves classic scrapers only.`,
    );
  }
  const { urls, form } = urlList(body, scraper, issues);
  if (agentic && urls.length > 1) {
    throw new GleanerError(
      'BAD_REQUEST',
      `An agentic scraper runs on one URL at a time, and ${urls.length} were given: give url as one URL (or none for the scraper's own), and start one run_async per URL.`,
    );
  }
  const detection =
    body.pagination_detection_url === null || body.pagination_detection_url === undefined || body.pagination_detection_url === ''
      ? null
      : checkHttpUrl(body.pagination_detection_url, ['body', 'pagination_detection_url'], issues);
  // An agentic scraper's paginate step follows "next" until it is gone, up to max_pages: by default the limit.
  let maxPages = body.max_pages ?? (agentic ? ctx.config.extract.maxPagesLimit : detection ? DEFAULT_PAGINATED_MAX_PAGES : DEFAULT_MAX_PAGES);
  if (typeof maxPages !== 'number' || !Number.isInteger(maxPages) || maxPages < 1) {
    issues.push({ loc: ['body', 'max_pages'], msg: 'Input should be an integer of at least 1', type: 'greater_than_equal' });
    maxPages = DEFAULT_MAX_PAGES;
  } else if (maxPages > ctx.config.extract.maxPagesLimit) {
    issues.push({ loc: ['body', 'max_pages'], msg: `Input should be less than or equal to ${ctx.config.extract.maxPagesLimit}`, type: 'less_than_equal' });
  }
  // Agentic scrapers ignore proxy_country and cookies (spec 4.3).
  const proxyCountry = agentic ? null : normalizeProxyCountry(body.proxy_country, ctx.config, issues);
  const cookies = agentic ? [] : normalizeCookieInput(body.cookies, null, issues);
  const callbackUrl = checkCallbackUrl(body.callback_url, issues);
  if (body.provenance === true && scraper.attributes.some((a) => a.name === '_provenance'))
    issues.push({
      loc: ['body', 'provenance'],
      msg: 'this scraper has an attribute named "_provenance", which provenance: true cannot be used with (the key carries the provenance)',
      type: 'value_error',
    });
  if (issues.length) throw validationFailed(issues);
  // A literal private address fails now rather than after a day of retries.
  if (callbackUrl) createSsrfGuard({ allowNetworks: ctx.config.network.allowNetworks }).checkUrl(callbackUrl);
  // A blocked URL is refused now, with the answer its fetch would give (extract answers so at once).
  await refuseBlockedUrls(ctx.config.network.allowNetworks, detection ? [...urls, detection] : urls);

  // Only a url the caller gave moves into the URL-typed parameter (the scraper's own is its default).
  const given = body.url !== undefined && body.url !== null && body.url !== '';
  // Secret parameters: a run's own values are sealed (runs store their options); stored ones may be left out.
  const secretList = agentic ? secretSpecs(scraper.parametersSchema) : [];
  let secrets: string | null = null;
  let ruled: Record<string, any> = body;
  if (secretList.length) {
    const given = body.parameters && typeof body.parameters === 'object' && !Array.isArray(body.parameters) ? { ...body.parameters } : {};
    const missing = secretList.filter((p) => !p.stored && (given[p.name] === undefined || given[p.name] === null || given[p.name] === '')).map((p) => p.name);
    if (missing.length) throw new GleanerError('BAD_REQUEST', `Missing required parameters: ${missing.join(', ')}`);
    secrets = sealRunSecrets(ctx, scraper.parametersSchema, given);
    ruled = { ...body, parameters: Object.keys(given).length || body.parameters ? given : body.parameters };
  }
  const plainSchema = secretList.length ? (scraper.parametersSchema ?? []).filter((p) => !secretList.includes(p)) : scraper.parametersSchema;
  const parameters = agentic ? applyParameterRules(plainSchema, ruled, given ? (urls[0] ?? null) : null) : null;
  const profile = profileField(body.profile, ['body', 'profile'], issues);
  if (issues.length) throw validationFailed(issues);
  await checkProfile(ctx, owner.id, profile);
  // The run's URL (the key of `data`) is where the replay starts: the URL-typed parameter's value.
  const startParam = agentic ? urlParameter(scraper.parametersSchema) : undefined;
  const runUrls = startParam && typeof parameters?.[startParam.name] === 'string' ? [parameters[startParam.name] as string] : urls;
  // A scraper runs whenever it has a recipe (a script): a regeneration in progress (or failed)
  // leaves the last accepted version in place.
  if (agentic ? !scraper.script : !scraper.recipe) throw notReady(scraper);
  return {
    scraper,
    urls: runUrls,
    urlForm: form,
    options: {
      maxPages,
      proxyCountry,
      cookies,
      paginationDetectionUrl: detection,
      parameters,
      source: typeof body.source === 'string' && body.source ? body.source : 'api',
      snapshots: typeof body.snapshots === 'boolean' ? body.snapshots : await ownerKeepsSnapshots(ctx.db, owner.id),
      maxCredits: typeof body.max_credits === 'number' ? body.max_credits : null,
      ...(body.provenance === true ? { provenance: true } : {}),
      politeness: await resolvePolicy(ctx, owner.id, body.politeness),
      ...(secrets ? { secrets } : {}),
      ...(profile ? { profile } : {}),
    },
    callbackUrl,
  };
}
