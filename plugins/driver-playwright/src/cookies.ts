// Core's normalised Cookie <-> Playwright's cookie shape. Playwright (like CDP) marks a domain cookie
// with a leading dot; a cookie set with a bare domain is host-only.
import type { BrowserContext } from 'playwright-core';
import type { Cookie, Logger } from '@gleaner/core/plugin';

type PlaywrightCookie = Parameters<BrowserContext['addCookies']>[0][number];
type StoredCookie = Awaited<ReturnType<BrowserContext['cookies']>>[number];

/** A bound cookie (domain set) as `context.addCookies` takes it. */
export function toPlaywrightCookie(c: Cookie & { domain: string }): PlaywrightCookie {
  return {
    name: c.name,
    value: c.value,
    domain: c.hostOnly ? c.domain : `.${c.domain}`,
    path: c.path || '/',
    expires: c.expires ?? -1,
    httpOnly: c.httpOnly,
    secure: c.secure,
    ...(c.sameSite ? { sameSite: c.sameSite } : {}),
  };
}

/** A cookie from `context.cookies()` as core's Cookie. */
export function fromPlaywrightCookie(c: StoredCookie): Cookie {
  const hostOnly = !c.domain.startsWith('.');
  const out: Cookie = {
    name: c.name,
    value: c.value,
    domain: c.domain.replace(/^\.+/, '').toLowerCase(),
    hostOnly,
    path: c.path,
    httpOnly: c.httpOnly,
    secure: c.secure,
  };
  if (c.expires > 0) out.expires = Math.floor(c.expires);
  if (c.sameSite) out.sameSite = c.sameSite;
  return out;
}

/**
 * Adds cookies to a context, binding the unscoped ones (no domain) to `host`, as driver-http's jar
 * does on the first navigation. Already expired cookies are skipped; a cookie Chromium refuses
 * (e.g. SameSite=None without Secure) is logged and skipped rather than failing the whole job.
 */
export async function addCookies(context: BrowserContext, cookies: readonly Cookie[], host: string, logger?: Logger): Promise<void> {
  const now = Date.now() / 1000;
  const list = cookies
    .filter((c) => c.expires === undefined || c.expires > now)
    .map((c) => toPlaywrightCookie({ ...c, domain: c.domain ?? host.toLowerCase() }));
  if (!list.length) return;
  try {
    await context.addCookies(list);
  } catch {
    for (const one of list) {
      await context.addCookies([one]).catch((err: unknown) => {
        logger?.warn({ cookie: one.name, err: err instanceof Error ? err.message : String(err) }, 'playwright: the browser refused a cookie');
      });
    }
  }
}
