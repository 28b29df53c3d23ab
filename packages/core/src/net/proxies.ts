/**
 * Proxy countries: the table GET /v1/proxy-countries serves and the resolution of a request's
 * `proxy_country` to a proxy URL from `network.proxies`.
 *
 * Decisions (documented for operators in docs/configuration.md):
 * - `proxy_country` null/empty: `network.defaultProxyCountry`, and when that is empty too, no proxy.
 * - A value is matched case-insensitively against the table (and against any extra country an
 *   operator configured); an ISO 3166 alpha-2 code (`US`, `gb`) is accepted as an alias.
 *   Anything else is PROXY_COUNTRY_UNKNOWN (the API answers 422).
 * - `network.proxies` may hold a `"*"` entry: a gateway proxy used for every country without its own
 *   entry. `{country}` (the CamelCase value) and `{iso}` (lower-case alpha-2) in it are replaced,
 *   which fits providers that pick the exit country from the user name (`http://user-country-{iso}:pw@gw:8000`).
 * - A known country with no proxy configured (and no `"*"`) is fetched directly and a warning is
 *   logged: the table lists what clients may ask for, not what this install has bought, and refusing
 *   would break every client that always sends a country.
 * - `random` picks one of the configured proxies (a random country through `"*"` when that is all
 *   there is); with none configured it fetches directly, with the same warning.
 */
import type { Logger } from '../log.ts';
import { GleanerError } from '../errors.ts';

/** value -> [label, ISO 3166-1 alpha-2] */
const COUNTRIES: Record<string, [string, string]> = {
  UnitedStates: ['United States', 'us'],
  UnitedKingdom: ['United Kingdom', 'gb'],
  Canada: ['Canada', 'ca'],
  Germany: ['Germany', 'de'],
  France: ['France', 'fr'],
  Netherlands: ['Netherlands', 'nl'],
  Belgium: ['Belgium', 'be'],
  Switzerland: ['Switzerland', 'ch'],
  Austria: ['Austria', 'at'],
  Spain: ['Spain', 'es'],
  Portugal: ['Portugal', 'pt'],
  Italy: ['Italy', 'it'],
  Ireland: ['Ireland', 'ie'],
  Sweden: ['Sweden', 'se'],
  Norway: ['Norway', 'no'],
  Denmark: ['Denmark', 'dk'],
  Finland: ['Finland', 'fi'],
  Poland: ['Poland', 'pl'],
  CzechRepublic: ['Czech Republic', 'cz'],
  Ukraine: ['Ukraine', 'ua'],
  Turkey: ['Turkey', 'tr'],
  Israel: ['Israel', 'il'],
  UnitedArabEmirates: ['United Arab Emirates', 'ae'],
  India: ['India', 'in'],
  Singapore: ['Singapore', 'sg'],
  HongKong: ['Hong Kong', 'hk'],
  Taiwan: ['Taiwan', 'tw'],
  Japan: ['Japan', 'jp'],
  SouthKorea: ['South Korea', 'kr'],
  Indonesia: ['Indonesia', 'id'],
  Australia: ['Australia', 'au'],
  NewZealand: ['New Zealand', 'nz'],
  Brazil: ['Brazil', 'br'],
  Mexico: ['Mexico', 'mx'],
  Argentina: ['Argentina', 'ar'],
  SouthAfrica: ['South Africa', 'za'],
};

export const RANDOM_PROXY_COUNTRY = 'random';

/** The part of the configuration proxy resolution reads. */
export interface ProxyConfig {
  network: { proxies: Record<string, string>; defaultProxyCountry: string };
}

function splitCamel(value: string): string {
  return value.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/**
 * The body of GET /v1/proxy-countries: value -> label, `random` first, then the built-in table,
 * then any country the operator configured that the table lacks.
 */
export function listProxyCountries(config?: ProxyConfig): Record<string, string> {
  const out: Record<string, string> = { [RANDOM_PROXY_COUNTRY]: 'Random Country' };
  for (const [value, [label]] of Object.entries(COUNTRIES)) out[value] = label;
  for (const key of Object.keys(config?.network.proxies ?? {})) {
    if (key !== '*' && key.toLowerCase() !== RANDOM_PROXY_COUNTRY && !findCountry(key, undefined)) out[key] = splitCamel(key);
  }
  return out;
}

function findCountry(value: string, config: ProxyConfig | undefined): string | undefined {
  const v = value.trim().toLowerCase();
  for (const [key, [, iso]] of Object.entries(COUNTRIES)) if (key.toLowerCase() === v || iso === v) return key;
  for (const key of Object.keys(config?.network.proxies ?? {})) if (key !== '*' && key.toLowerCase() === v) return key;
  return undefined;
}

/** The canonical value of a proxy country (`unitedstates`, `US` -> `UnitedStates`), or undefined. */
export function canonicalProxyCountry(value: string, config?: ProxyConfig): string | undefined {
  if (value.trim().toLowerCase() === RANDOM_PROXY_COUNTRY) return RANDOM_PROXY_COUNTRY;
  return findCountry(value, config);
}

function checkProxyUrl(url: string, key: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new GleanerError('CONFIG_INVALID', `network.proxies.${key}: not a URL`);
  }
  if (!['http:', 'https:', 'socks5:', 'socks:'].includes(u.protocol)) {
    throw new GleanerError('CONFIG_INVALID', `network.proxies.${key}: a proxy URL must be http://, https:// or socks5://`);
  }
  return url;
}

function configuredFor(country: string, proxies: Record<string, string>): string | undefined {
  const lower = country.toLowerCase();
  for (const [key, url] of Object.entries(proxies)) if (key.toLowerCase() === lower) return checkProxyUrl(url, key);
  const gateway = proxies['*'];
  if (!gateway) return undefined;
  const iso = COUNTRIES[country]?.[1] ?? country.toLowerCase();
  return checkProxyUrl(gateway.replaceAll('{country}', encodeURIComponent(country)).replaceAll('{iso}', iso), '*');
}

export interface ResolveProxyOptions {
  logger?: Logger;
  /** Random number in [0, 1) for `random` (tests pin it). */
  random?: () => number;
}

/**
 * The proxy URL for a request's `proxy_country` (see the file comment for every case), or null for
 * a direct fetch. Throws PROXY_COUNTRY_UNKNOWN for a value not in the table.
 */
export function resolveProxy(country: string | null | undefined, config: ProxyConfig, opts: ResolveProxyOptions = {}): string | null {
  const proxies = config.network.proxies ?? {};
  const asked = (country ?? '').trim() || (config.network.defaultProxyCountry ?? '').trim();
  if (!asked) return null;
  const random = opts.random ?? Math.random;

  if (asked.toLowerCase() === RANDOM_PROXY_COUNTRY) {
    const keys = Object.keys(proxies).filter((k) => k !== '*' && k.toLowerCase() !== RANDOM_PROXY_COUNTRY);
    if (keys.length) {
      const key = keys[Math.floor(random() * keys.length) % keys.length];
      return checkProxyUrl(proxies[key], key);
    }
    if (proxies['*']) {
      const all = Object.keys(COUNTRIES);
      return configuredFor(all[Math.floor(random() * all.length) % all.length], proxies) ?? null;
    }
    opts.logger?.warn({ proxyCountry: asked }, 'proxy_country "random" asked but network.proxies is empty; fetching directly');
    return null;
  }

  const key = findCountry(asked, config);
  if (!key) {
    throw new GleanerError('PROXY_COUNTRY_UNKNOWN', `unknown proxy_country "${asked}"; GET /v1/proxy-countries lists the accepted values`, {
      details: { proxyCountry: asked },
    });
  }
  const url = configuredFor(key, proxies);
  if (!url) {
    opts.logger?.warn({ proxyCountry: key }, `no proxy configured for ${key} (network.proxies); fetching directly`);
    return null;
  }
  return url;
}
