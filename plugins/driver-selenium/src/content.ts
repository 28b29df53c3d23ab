// The session's cookies between core's Cookie shape and DevTools' (per browser context).
import type { Cookie, SameSite } from '@gleaner/core/plugin';
import type { CdpConnection } from './cdp.ts';

/** DevTools' cookie shape (Network.Cookie / Network.CookieParam, the fields used here). */
interface CdpCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  session?: boolean;
  sameSite?: string;
}

function hostForUrl(domain: string): string {
  return domain.includes(':') && !domain.startsWith('[') ? `[${domain}]` : domain;
}

const IP_LIKE = /^[\d.]+$|:/;

/** A core cookie as DevTools' CookieParam: host-only cookies by `url`, domain cookies by `domain`. */
export function toCdpCookie(c: Cookie): Record<string, unknown> {
  const out: Record<string, unknown> = { name: c.name, value: c.value, path: c.path, secure: c.secure, httpOnly: c.httpOnly };
  const domain = c.domain as string;
  if (c.hostOnly || IP_LIKE.test(domain)) out.url = `${c.secure ? 'https' : 'http'}://${hostForUrl(domain)}${c.path}`;
  else out.domain = `.${domain}`;
  if (c.expires !== undefined) out.expires = c.expires;
  if (c.sameSite) out.sameSite = c.sameSite;
  return out;
}

export function fromCdpCookie(c: CdpCookie): Cookie {
  const out: Cookie = {
    name: c.name,
    value: c.value,
    domain: c.domain.replace(/^\./, '').toLowerCase(),
    hostOnly: !c.domain.startsWith('.'),
    path: c.path || '/',
    httpOnly: Boolean(c.httpOnly),
    secure: Boolean(c.secure),
  };
  if (!c.session && c.expires > 0) out.expires = Math.floor(c.expires);
  if (c.sameSite === 'Strict' || c.sameSite === 'Lax' || c.sameSite === 'None') out.sameSite = c.sameSite as SameSite;
  return out;
}

/**
 * Puts the job's cookies into its context. A cookie the browser refuses (e.g. SameSite=None without
 * Secure) is skipped rather than failing the job; the rest are still set.
 */
export async function setCookies(cdp: CdpConnection, browserContextId: string | undefined, cookies: readonly Cookie[]): Promise<string[]> {
  const scoped = cookies.filter((c) => c.domain);
  if (!scoped.length) return [];
  const ctx = browserContextId ? { browserContextId } : {};
  try {
    await cdp.send('Storage.setCookies', { cookies: scoped.map(toCdpCookie), ...ctx });
    return [];
  } catch {
    const refused: string[] = [];
    for (const c of scoped) {
      await cdp.send('Storage.setCookies', { cookies: [toCdpCookie(c)], ...ctx }).catch(() => refused.push(c.name));
    }
    return refused;
  }
}

/** Every cookie of the context after the navigation. */
export async function getCookies(cdp: CdpConnection, browserContextId: string | undefined): Promise<Cookie[]> {
  const { cookies } = await cdp.send<{ cookies: CdpCookie[] }>('Storage.getCookies', browserContextId ? { browserContextId } : {});
  return cookies.map(fromCdpCookie);
}
