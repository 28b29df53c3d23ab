/**
 * Request cookies: the shapes callers send (docs/api.md, "cookies") normalised into one
 * list, and the matching rules (RFC 6265 domain / path / secure) that build a Cookie header.
 *
 * Accepted inputs:
 * - a list of cookie objects `{name, value, domain?, path?, url?, expires?, httpOnly?, secure?, sameSite?}`;
 * - the older flat form, one object whose keys are cookie names except the attribute keys
 *   (`domain`, `path`, `url`, `expires`, `httpOnly`, `secure`, `sameSite`), which apply to all of them:
 *   `{"sid": "abc", "theme": "dark", "sameSite": "None"}`;
 * - `null`, `undefined`, `""`, `[]`, `{}`: no cookies.
 *
 * Anything else is refused with the accepted forms named: a Cookie-header string (`"a=1; b=2"`),
 * which an earlier version took, and a list item without a `name` (it used to be read as a flat
 * object and became a cookie called "value").
 *
 * Scope: `url` makes a host-only cookie for that URL's host (path = the URL's directory, secure for
 * https, as Playwright does). `domain` matches that domain and its subdomains, like a Set-Cookie
 * Domain attribute (a leading dot is ignored). With neither, the cookie is host-only for the request
 * URL's host; when no request URL is known yet, `domain` stays unset and the session binds it to the
 * host of its first navigation.
 */
import { isIP } from 'node:net';
import { GleanerError } from '../errors.ts';

export type SameSite = 'Strict' | 'Lax' | 'None';

/** A cookie as callers send it (one list item). */
export interface CookieInput {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  url?: string;
  /** Unix time in seconds (-1 or absent: a session cookie); an ISO date string is accepted too. */
  expires?: number | string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: SameSite | string;
}

/** A cookie after normalisation: what drivers receive and what a session's jar holds. */
export interface Cookie {
  name: string;
  value: string;
  /** Lower-case host or domain, no leading dot; unset only until a session binds it to its first host. */
  domain?: string;
  /** true: only `domain` itself; false: `domain` and its subdomains. */
  hostOnly: boolean;
  path: string;
  /** Unix time in seconds; absent for a session cookie. */
  expires?: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: SameSite;
}

const ATTRIBUTE_KEYS = new Set(['domain', 'path', 'url', 'expires', 'httponly', 'secure', 'samesite']);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Control characters and ';' would break the Cookie header (or smuggle another header).
const BAD_VALUE = /[\u0000-\u001f\u007f;]/;

function invalid(msg: string, at: Array<string | number> = []): GleanerError {
  return new GleanerError('VALIDATION_FAILED', `cookies: ${msg}`, {
    details: [{ loc: ['body', 'cookies', ...at], msg, type: 'value_error.cookie' }],
  });
}

function parseExpires(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '' || v === -1) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return v > 1e11 ? Math.floor(v / 1000) : v; // ms given by mistake
  if (typeof v === 'string') {
    if (/^-?\d+(\.\d+)?$/.test(v.trim())) return parseExpires(Number(v));
    const t = Date.parse(v);
    if (!Number.isNaN(t)) return Math.floor(t / 1000);
  }
  throw invalid(`expires must be a Unix time in seconds or a date, not ${JSON.stringify(v)}`);
}

function parseSameSite(v: unknown): SameSite | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const s = String(v).toLowerCase();
  if (s === 'strict') return 'Strict';
  if (s === 'lax') return 'Lax';
  if (s === 'none') return 'None';
  throw invalid(`sameSite must be "Strict", "Lax" or "None", not ${JSON.stringify(v)}`);
}

function toBool(v: unknown): boolean {
  return v === true || v === 'true' || v === 1 || v === '1';
}

/** RFC 6265 5.1.4 default path: the directory of the URL's path. */
export function defaultCookiePath(pathname: string): string {
  if (!pathname.startsWith('/')) return '/';
  const i = pathname.lastIndexOf('/');
  return i <= 0 ? '/' : pathname.slice(0, i);
}

function hostOf(url: string | URL | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return (url instanceof URL ? url : new URL(url)).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function makeCookie(raw: Record<string, unknown>, requestHost: string | undefined): Cookie {
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (!TOKEN.test(name)) throw invalid(`invalid cookie name ${JSON.stringify(raw.name)}`);
  const rawValue = raw.value;
  if (rawValue !== null && rawValue !== undefined && typeof rawValue === 'object') throw invalid(`the value of cookie "${name}" must be a string`);
  const value = rawValue === undefined || rawValue === null ? '' : String(rawValue);
  if (BAD_VALUE.test(value)) throw invalid(`the value of cookie "${name}" contains ';' or a control character`);
  const cookie: Cookie = { name, value, hostOnly: true, path: '/', httpOnly: toBool(raw.httpOnly), secure: toBool(raw.secure) };
  if (typeof raw.url === 'string' && raw.url) {
    let u: URL;
    try {
      u = new URL(raw.url);
    } catch {
      throw invalid(`cookie "${name}": url ${JSON.stringify(raw.url)} is not an absolute URL`);
    }
    cookie.domain = u.hostname.toLowerCase();
    cookie.path = defaultCookiePath(u.pathname);
    if (u.protocol === 'https:' && raw.secure === undefined) cookie.secure = true;
  } else if (typeof raw.domain === 'string' && raw.domain.trim()) {
    cookie.domain = raw.domain.trim().toLowerCase().replace(/^\.+/, '');
    cookie.hostOnly = false;
  } else if (requestHost) {
    cookie.domain = requestHost;
  }
  if (typeof raw.path === 'string' && raw.path.startsWith('/')) cookie.path = raw.path;
  const expires = parseExpires(raw.expires);
  if (expires !== undefined) cookie.expires = expires;
  const sameSite = parseSameSite(raw.sameSite);
  if (sameSite) cookie.sameSite = sameSite;
  return cookie;
}

/** The message of every shape error: what a caller can send instead. */
export const COOKIE_FORMS =
  'a list of cookie objects [{"name": "sid", "value": "abc", "domain"?, "path"?, "url"?, "expires"?, "httpOnly"?, "secure"?, "sameSite"?}] or the flat form {"sid": "abc"}';

function fromFlat(obj: Record<string, unknown>, requestHost: string | undefined): Cookie[] {
  const attrs: Record<string, unknown> = {};
  const pairs: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(obj)) {
    const lower = k.toLowerCase();
    if (ATTRIBUTE_KEYS.has(lower)) attrs[lower === 'httponly' ? 'httpOnly' : lower === 'samesite' ? 'sameSite' : lower] = v;
    else pairs.push([k, v]);
  }
  return pairs.map(([name, value]) => makeCookie({ ...attrs, name, value }, requestHost));
}

function isCookieObject(o: Record<string, unknown>): boolean {
  return typeof o.name === 'string' && 'value' in o;
}

function listItem(item: unknown, i: number, host: string | undefined): Cookie {
  if (!item || typeof item !== 'object' || Array.isArray(item)) {
    throw invalid(`cookie ${i} must be an object {name, value, ...}, not ${JSON.stringify(item)}; accepted: ${COOKIE_FORMS}`, [i]);
  }
  const o = item as Record<string, unknown>;
  if (typeof o.name !== 'string' || !o.name.trim()) throw invalid(`cookie ${i} has no name: each cookie object needs "name" and "value"`, [i, 'name']);
  try {
    return makeCookie(o, host);
  } catch (err) {
    throw invalid((err as Error).message.replace(/^cookies: /, ''), [i]);
  }
}

/**
 * Normalises any accepted cookie input (see the file comment) into a list of `Cookie`.
 * `requestUrl` scopes cookies that name neither `domain` nor `url`. Throws VALIDATION_FAILED.
 */
export function normalizeCookies(input: unknown, requestUrl?: string | URL): Cookie[] {
  const host = hostOf(requestUrl);
  if (input === null || input === undefined || input === '') return [];
  if (Array.isArray(input)) return input.map((item, i) => listItem(item, i, host));
  if (typeof input === 'object') {
    const o = input as Record<string, unknown>;
    if (isCookieObject(o)) return [makeCookie(o, host)];
    if ('value' in o && !('name' in o)) throw invalid('a cookie object has no name: give {"name": ..., "value": ...}', ['name']);
    return fromFlat(o, host);
  }
  throw invalid(`expected ${COOKIE_FORMS}, not a ${typeof input}`);
}

/** RFC 6265 5.1.3 domain-match (never a suffix match for IP addresses). */
export function domainMatches(host: string, domain: string, hostOnly: boolean): boolean {
  const h = host.toLowerCase();
  if (h === domain) return true;
  if (hostOnly || isIP(h.replace(/^\[|\]$/g, ''))) return false;
  return h.endsWith(`.${domain}`);
}

/** RFC 6265 5.1.4 path-match. */
export function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** Whether a cookie is sent with a request to `url` at time `nowSeconds`. */
export function cookieMatches(cookie: Cookie, url: URL, nowSeconds = Date.now() / 1000): boolean {
  if (cookie.domain === undefined) return false;
  if (cookie.expires !== undefined && cookie.expires <= nowSeconds) return false;
  if (cookie.secure && url.protocol !== 'https:') return false;
  return domainMatches(url.hostname, cookie.domain, cookie.hostOnly) && pathMatches(url.pathname || '/', cookie.path);
}

/** The Cookie header for `url` (longer paths first, as RFC 6265 5.4 asks), or '' when none match. */
export function buildCookieHeader(cookies: readonly Cookie[], url: string | URL, nowSeconds?: number): string {
  const u = url instanceof URL ? url : new URL(url);
  return cookies
    .filter((c) => cookieMatches(c, u, nowSeconds))
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.path.length - a.c.path.length || a.i - b.i)
    .map(({ c }) => `${c.name}=${c.value}`)
    .join('; ');
}
