/**
 * A session's cookie jar: the caller's cookies plus what the sites set (Set-Cookie on any response,
 * redirect hops included), sent back by the RFC 6265 rules. Drivers without a browser cookie store
 * (driver-http) keep one jar per session. Public-suffix checks are not done: a Domain attribute must
 * still domain-match the host that set it and contain a dot, which stops `Domain=com` style cookies.
 */
import { isIP } from 'node:net';
import type { Cookie, SameSite } from './cookies.ts';
import { buildCookieHeader, defaultCookiePath, domainMatches } from './cookies.ts';
import { own } from '../own.ts';

/**
 * Parses one Set-Cookie header value received from `url`. Returns null for a cookie the user agent
 * must ignore (bad syntax, a Domain the host may not set, Secure over http). An expired cookie is
 * returned with its past `expires`, which tells the jar to delete it.
 */
export function parseSetCookie(header: string, url: URL, nowSeconds = Date.now() / 1000): Cookie | null {
  const [pair, ...attrs] = header.split(';');
  const eq = pair.indexOf('=');
  if (eq <= 0) return null;
  const name = pair.slice(0, eq).trim();
  const value = pair
    .slice(eq + 1)
    .trim()
    .replace(/^"(.*)"$/, '$1');
  if (!name) return null;
  const host = url.hostname.toLowerCase();
  const cookie: Cookie = { name, value, domain: host, hostOnly: true, path: defaultCookiePath(url.pathname), httpOnly: false, secure: false };
  let maxAge: number | undefined;
  let expires: number | undefined;
  for (const attr of attrs) {
    const i = attr.indexOf('=');
    const key = (i < 0 ? attr : attr.slice(0, i)).trim().toLowerCase();
    const val = i < 0 ? '' : attr.slice(i + 1).trim();
    switch (key) {
      case 'domain': {
        const d = val.toLowerCase().replace(/^\.+/, '');
        if (!d) break;
        if (d !== host && (!d.includes('.') || isIP(host.replace(/^\[|\]$/g, '')) || !domainMatches(host, d, false))) return null;
        cookie.domain = d;
        cookie.hostOnly = false;
        break;
      }
      case 'path':
        if (val.startsWith('/')) cookie.path = val;
        break;
      case 'max-age':
        if (/^-?\d+$/.test(val)) maxAge = Number(val);
        break;
      case 'expires': {
        const t = Date.parse(val);
        if (!Number.isNaN(t)) expires = Math.floor(t / 1000);
        break;
      }
      case 'secure':
        cookie.secure = true;
        break;
      case 'httponly':
        cookie.httpOnly = true;
        break;
      case 'samesite': {
        const s = val.toLowerCase();
        const map: Record<string, SameSite> = { strict: 'Strict', lax: 'Lax', none: 'None' };
        const sameSite = own(map, s);
        if (sameSite) cookie.sameSite = sameSite;
        break;
      }
    }
  }
  if (cookie.secure && url.protocol !== 'https:') return null;
  // Max-Age wins over Expires (RFC 6265 5.3 step 3).
  if (maxAge !== undefined) cookie.expires = maxAge <= 0 ? 0 : Math.floor(nowSeconds) + maxAge;
  else if (expires !== undefined) cookie.expires = expires;
  return cookie;
}

function sameSlot(a: Cookie, b: Cookie): boolean {
  return a.name === b.name && a.domain === b.domain && a.path === b.path && a.hostOnly === b.hostOnly;
}

/** The cookies of one session. */
export class CookieJar {
  #cookies: Cookie[] = [];

  constructor(cookies: readonly Cookie[] = []) {
    for (const c of cookies) this.set({ ...c });
  }

  /** Adds or replaces a cookie (same name, domain, path); an expired one deletes its slot. */
  set(cookie: Cookie, nowSeconds = Date.now() / 1000): void {
    this.#cookies = this.#cookies.filter((c) => !sameSlot(c, cookie));
    if (cookie.expires !== undefined && cookie.expires <= nowSeconds) return;
    this.#cookies.push(cookie);
  }

  /** Applies the Set-Cookie header(s) of a response received from `url`. */
  setFromResponse(setCookie: string | readonly string[] | undefined, url: URL): void {
    if (!setCookie) return;
    for (const line of typeof setCookie === 'string' ? [setCookie] : setCookie) {
      const c = parseSetCookie(line, url);
      if (c) this.set(c);
    }
  }

  /** Gives cookies that were normalised without a request URL the host of the first navigation. */
  bindUnscoped(host: string): void {
    for (const c of this.#cookies) if (c.domain === undefined) c.domain = host.toLowerCase();
  }

  /** The Cookie header for a request to `url` ('' when no cookie matches). */
  header(url: URL): string {
    return buildCookieHeader(this.#cookies, url);
  }

  /** A copy of the live (unexpired) cookies. */
  list(nowSeconds = Date.now() / 1000): Cookie[] {
    return this.#cookies.filter((c) => c.expires === undefined || c.expires > nowSeconds).map((c) => ({ ...c }));
  }
}
