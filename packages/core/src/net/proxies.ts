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
 * - A known country with no proxy configured (and no `"*"`) follows `network.unproxiedCountry`:
 *   `direct` (default) fetches without a proxy, since the table lists what clients may ask for, not
 *   what this install has bought, and refusing would break every client that always sends a
 *   country; `refuse` answers PROXY_NOT_CONFIGURED (400) naming the countries that have a proxy.
 *   Either way it is logged, and `proxyRoute` says what happened for the task or run item.
 * - `random` picks one of the configured proxies (a random country through `"*"` when that is all
 *   there is); with none configured it fetches directly, with the same warning.
 */
import type { Logger } from '../log.ts';
import { GleanerError } from '../errors.ts';
import { own } from '../own.ts';
import listed from './proxy-countries.json' with { type: 'json' };

/** value -> label: the country names the hosted service documents (and its n8n node offers), `random` first. */
const LISTED: Record<string, string> = listed;

/** value -> ISO 3166-1 alpha-2, lower case: `gb` for UnitedKingdom, the alias a caller may send. */
const ISO: Record<string, string> = {
  Afghanistan: 'af',
  Albania: 'al',
  Algeria: 'dz',
  Argentina: 'ar',
  Armenia: 'am',
  Aruba: 'aw',
  Australia: 'au',
  Austria: 'at',
  Azerbaijan: 'az',
  Bahamas: 'bs',
  Bahrain: 'bh',
  Bangladesh: 'bd',
  Belarus: 'by',
  Belgium: 'be',
  BosniaandHerzegovina: 'ba',
  Brazil: 'br',
  BritishVirginIslands: 'vg',
  Brunei: 'bn',
  Bulgaria: 'bg',
  Cambodia: 'kh',
  Cameroon: 'cm',
  Canada: 'ca',
  Chile: 'cl',
  China: 'cn',
  Colombia: 'co',
  CostaRica: 'cr',
  Croatia: 'hr',
  Cuba: 'cu',
  Cyprus: 'cy',
  Chechia: 'cz',
  Denmark: 'dk',
  DominicanRepublic: 'do',
  Ecuador: 'ec',
  Egypt: 'eg',
  ElSalvador: 'sv',
  Estonia: 'ee',
  Ethiopia: 'et',
  Finland: 'fi',
  France: 'fr',
  Georgia: 'ge',
  Germany: 'de',
  Ghana: 'gh',
  Greece: 'gr',
  Guatemala: 'gt',
  Guyana: 'gy',
  HashemiteKingdomofJordan: 'jo',
  HongKong: 'hk',
  Hungary: 'hu',
  India: 'in',
  Indonesia: 'id',
  Iraq: 'iq',
  Ireland: 'ie',
  Israel: 'il',
  Italy: 'it',
  Jamaica: 'jm',
  Japan: 'jp',
  Kazakhstan: 'kz',
  Kenya: 'ke',
  Kuwait: 'kw',
  Latvia: 'lv',
  Liechtenstein: 'li',
  Luxembourg: 'lu',
  Macedonia: 'mk',
  Madagascar: 'mg',
  Malaysia: 'my',
  Mauritius: 'mu',
  Mexico: 'mx',
  Mongolia: 'mn',
  Montenegro: 'me',
  Morocco: 'ma',
  Mozambique: 'mz',
  Myanmar: 'mm',
  Nepal: 'np',
  Netherlands: 'nl',
  NewZealand: 'nz',
  Nigeria: 'ng',
  Norway: 'no',
  Oman: 'om',
  Pakistan: 'pk',
  Panama: 'pa',
  PapuaNewGuinea: 'pg',
  Paraguay: 'py',
  Peru: 'pe',
  Philippines: 'ph',
  Poland: 'pl',
  Portugal: 'pt',
  PuertoRico: 'pr',
  Qatar: 'qa',
  RepublicOfLithuania: 'lt',
  RepublicOfMoldova: 'md',
  Romania: 'ro',
  Russia: 'ru',
  SaudiArabia: 'sa',
  Senegal: 'sn',
  Serbia: 'rs',
  Seychelles: 'sc',
  Singapore: 'sg',
  Slovakia: 'sk',
  Slovenia: 'si',
  Somalia: 'so',
  SouthAfrica: 'za',
  SouthKorea: 'kr',
  Spain: 'es',
  SriLanka: 'lk',
  Sudan: 'sd',
  Suriname: 'sr',
  Sweden: 'se',
  Switzerland: 'ch',
  Syria: 'sy',
  Taiwan: 'tw',
  Tajikistan: 'tj',
  Thailand: 'th',
  TrinidadandTobago: 'tt',
  Tunisia: 'tn',
  Turkey: 'tr',
  Uganda: 'ug',
  Ukraine: 'ua',
  UnitedArabEmirates: 'ae',
  UnitedKingdom: 'gb',
  UnitedStates: 'us',
  Uzbekistan: 'uz',
  Venezuela: 've',
  Vietnam: 'vn',
  Zambia: 'zm',
};

/** Earlier names of a listed value, still accepted. */
const ALIASES: Record<string, string> = { czechrepublic: 'Chechia', czechia: 'Chechia' };

/** value -> [label, ISO 3166-1 alpha-2] */
const COUNTRIES: Record<string, [string, string]> = Object.fromEntries(
  Object.entries(LISTED)
    .filter(([value]) => value !== 'random')
    .map(([value, label]) => [value, [label, ISO[value]]]),
);

export const RANDOM_PROXY_COUNTRY = 'random';

/** The part of the configuration proxy resolution reads. */
export interface ProxyConfig {
  network: { proxies: Record<string, string>; defaultProxyCountry: string; unproxiedCountry?: 'direct' | 'refuse' };
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
  const alias = own(ALIASES, v);
  if (alias) return alias;
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
  const iso = own(COUNTRIES, country)?.[1] ?? country.toLowerCase();
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
    throw unknownCountry(asked);
  }
  const url = configuredFor(key, proxies);
  if (!url) {
    if (config.network.unproxiedCountry === 'refuse') {
      opts.logger?.warn({ proxyCountry: key }, `no proxy configured for ${key} (network.proxies); refused`);
      throw notConfigured(key, config);
    }
    opts.logger?.warn({ proxyCountry: key }, `no proxy configured for ${key} (network.proxies); fetching directly`);
    return null;
  }
  return url;
}

function unknownCountry(asked: string): GleanerError {
  return new GleanerError('PROXY_COUNTRY_UNKNOWN', `unknown proxy_country "${asked}"; GET /v1/proxy-countries lists the accepted values`, {
    details: { proxyCountry: asked },
  });
}

function notConfigured(country: string, config: ProxyConfig): GleanerError {
  const have = Object.keys(config.network.proxies ?? {}).filter((k) => k !== '*');
  const list = have.length ? `countries with a proxy: ${have.join(', ')}` : 'no country has one';
  return new GleanerError('PROXY_NOT_CONFIGURED', `proxy_country "${country}" has no proxy configured on this server (${list}); send one of those, or none`, {
    details: { proxyCountry: country, configured: have },
  });
}

/**
 * How a request's `proxy_country` will be fetched, for the task or run item and the logs:
 * `direct` (none asked), `proxy:<Country>`, `proxy:random`, or `direct:no proxy for <Country>`.
 * Throws like resolveProxy (PROXY_COUNTRY_UNKNOWN, PROXY_NOT_CONFIGURED under `refuse`).
 */
export function proxyRoute(country: string | null | undefined, config: ProxyConfig): string {
  const asked = (country ?? '').trim() || (config.network.defaultProxyCountry ?? '').trim();
  if (!asked) return 'direct';
  const proxies = config.network.proxies ?? {};
  if (asked.toLowerCase() === RANDOM_PROXY_COUNTRY) {
    return Object.keys(proxies).length ? 'proxy:random' : 'direct:no proxy configured';
  }
  const key = findCountry(asked, config);
  if (!key) throw unknownCountry(asked);
  if (configuredFor(key, proxies)) return `proxy:${key}`;
  if (config.network.unproxiedCountry === 'refuse') throw notConfigured(key, config);
  return `direct:no proxy for ${key}`;
}
