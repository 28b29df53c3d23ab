/**
 * Extraction options in normal form, from a request body already checked against its JSON Schema:
 * the cross-field rules the schema cannot say (url or content, attributes or prompt), aliases,
 * limits, proxy country and cookies. Problems are 422 issues with their `loc`.
 */
import type { GleanerError, ValidationIssue } from '../errors.ts';
import type { LocalStorageState } from '../plugins/driver.ts';
import type { GleanerConfig } from '../config/types.ts';
import { normalizeAttributes, type Attribute } from '../records/attributes.ts';
import { normalizeCookies, type Cookie } from '../net/cookies.ts';
import { canonicalProxyCountry, proxyRoute } from '../net/proxies.ts';
import { own } from '../own.ts';
import type { GroundingPolicy } from '../trust/provenance.ts';

export type ExtractMode = 'standard' | 'precision' | 'code';

export interface ExtractOptions {
  attributes: Attribute[];
  prompt: string;
  mode: ExtractMode;
  enablePagination: boolean;
  maxPages: number;
  /** Canonical proxy_country, or null for none (the configured default applies at fetch time). */
  proxyCountry: string | null;
  cookies: Cookie[];
  /** A profile's local storage by origin (set from the profile, never from the request). */
  localStorage?: LocalStorageState;
  source: string;
  /** The grounding policy asked for (`grounding`); null or absent: the owner's setting, else keep. */
  grounding?: GroundingPolicy | null;
  /** `provenance: true`: trace every value (code mode runs its recipe with a trace). */
  provenance?: boolean;
  /** `max_credits` / `max_tokens` of the request (null: none). */
  maxCredits?: number | null;
  maxTokens?: number | null;
}

const MODE_ALIASES: Record<string, ExtractMode> = { standard: 'standard', fast: 'standard', light: 'standard', precision: 'precision', code: 'code' };

/** An absolute http(s) URL, or an issue at `loc`. */
export function checkHttpUrl(value: unknown, loc: Array<string | number>, issues: ValidationIssue[]): string | null {
  if (typeof value !== 'string' || !value.trim()) {
    issues.push({ loc, msg: 'Field required', type: 'missing' });
    return null;
  }
  try {
    const u = new URL(value.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    return u.href;
  } catch {
    issues.push({ loc, msg: 'URL must be an absolute http:// or https:// URL', type: 'url_parsing' });
    return null;
  }
}

export function normalizeProxyCountry(value: unknown, config: Readonly<GleanerConfig>, issues: ValidationIssue[]): string | null {
  if (value === null || value === undefined || value === '') return null;
  const canonical = canonicalProxyCountry(String(value), config);
  if (!canonical) {
    issues.push({ loc: ['body', 'proxy_country'], msg: `Unknown proxy_country "${value}"; GET /v1/proxy-countries lists the accepted values`, type: 'enum' });
    return null;
  }
  proxyRoute(canonical, config); // under network.unproxiedCountry "refuse": 400 now, before anything is stored
  return canonical;
}

export function normalizeCookieInput(value: unknown, url: string | null, issues: ValidationIssue[]): Cookie[] {
  try {
    return normalizeCookies(value as never, url ?? undefined);
  } catch (err) {
    const details = (err as GleanerError).details as ValidationIssue[] | undefined;
    issues.push(...(Array.isArray(details) ? details : [{ loc: ['body', 'cookies'], msg: (err as Error).message, type: 'value_error' }]));
    return [];
  }
}

/** `attributes` in normal form (any of the three shapes), or [] with its problems added as 422 issues. */
export function normalizeAttributeInput(value: unknown, issues: ValidationIssue[]): Attribute[] {
  try {
    return normalizeAttributes(value);
  } catch (err) {
    const details = (err as GleanerError).details as ValidationIssue[] | undefined;
    issues.push(...(details ?? [{ loc: ['body', 'attributes'], msg: (err as Error).message, type: 'value_error' }]));
    return [];
  }
}

/** Options of /v1/extract, /v1/parse and extract_async (body fields per spec 4.1). */
export function normalizeExtractOptions(
  body: Record<string, any>,
  config: Readonly<GleanerConfig>,
  url: string | null,
  issues: ValidationIssue[],
): ExtractOptions {
  const attributes = normalizeAttributeInput(body.attributes, issues);
  const prompt = typeof body.prompt === 'string' ? body.prompt.trim() : '';
  if (!attributes.length && !prompt) {
    issues.push({ loc: ['body', 'attributes'], msg: 'Give attributes (what to extract) or a prompt, or both', type: 'missing' });
  }
  if (body.provenance === true && attributes.some((a) => a.name === '_provenance'))
    issues.push({
      loc: ['body', 'attributes'],
      msg: 'an attribute named "_provenance" cannot be used with provenance: true (the key carries the provenance)',
      type: 'value_error',
    });
  const mode = own(MODE_ALIASES, String(body.mode ?? 'standard')) ?? 'standard';
  const maxPages = body.max_pages ?? 2;
  if (maxPages > config.extract.maxPagesLimit) {
    issues.push({ loc: ['body', 'max_pages'], msg: `Input should be less than or equal to ${config.extract.maxPagesLimit}`, type: 'less_than_equal' });
  }
  return {
    attributes,
    prompt,
    mode,
    enablePagination: Boolean(body.enable_pagination),
    maxPages: Math.min(maxPages, config.extract.maxPagesLimit),
    proxyCountry: normalizeProxyCountry(body.proxy_country, config, issues),
    cookies: normalizeCookieInput(body.cookies, url, issues),
    source: typeof body.source === 'string' && body.source ? body.source : 'api',
    grounding: (body.grounding as GroundingPolicy | null | undefined) ?? null,
    provenance: body.provenance === true,
    maxCredits: typeof body.max_credits === 'number' ? body.max_credits : null,
    maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : null,
  };
}
