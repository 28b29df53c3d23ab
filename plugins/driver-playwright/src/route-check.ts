// The second SSRF layer behind the filtering proxy (core browser/request-check.ts): request URLs with a
// literal, possibly non-public address are checked inside the browser, so even a request that somehow
// went around the proxy could not reach a blocked address.
//
// It is installed once per browser, on a browser-wide DevTools session: `Fetch.enable` there pauses
// matching requests of every context, page, out-of-process iframe, worker and redirect hop, and
// Chromium itself matches the URL patterns, so requests for host names are never paused. (A Playwright
// `context.route` would turn on interception for every request of the context, and Playwright does
// not show it redirect hops.) Where no browser-wide session can be had, a context route with the same
// scope is the fallback.
import type { Browser, BrowserContext, CDPSession, Route } from 'playwright-core';
import { literalAddressRegExp, literalAddressUrlPatterns, refusedRequest } from '@gleaner/core/plugin';
import type { LiteralAddressScope, Logger, SsrfGuard } from '@gleaner/core/plugin';

interface RequestPaused {
  requestId: string;
  request: { url: string };
}

export interface BrowserRequestCheckOptions {
  scope: LiteralAddressScope;
  guard: SsrfGuard;
  /** Longest wait for the browser to take the interception (a fresh browser answers in ms). */
  timeoutMs: number;
  /** Called if the DevTools session goes away while the browser lives on (the check is then off). */
  onLost(): void;
  logger?: Logger;
}

/**
 * Installs the check on the whole browser; refused requests fail with `BlockedByClient` (the page
 * sees net::ERR_BLOCKED_BY_CLIENT, and the session names the address with the same guard). Resolves
 * false (nothing installed) when the browser offers no DevTools session or does not answer in time.
 */
export async function installBrowserRequestCheck(browser: Browser, o: BrowserRequestCheckOptions): Promise<boolean> {
  let cdp: CDPSession | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the browser did not take the interception within ${o.timeoutMs} ms`)), o.timeoutMs);
    });
    cdp = await Promise.race([browser.newBrowserCDPSession(), timeout]);
    listen(cdp, o);
    await Promise.race([
      cdp.send('Fetch.enable', { patterns: literalAddressUrlPatterns(o.scope).map((urlPattern) => ({ urlPattern, requestStage: 'Request' as const })) }),
      timeout,
    ]);
    cdp.on('close', () => {
      if (!browser.isConnected()) return;
      o.logger?.error('playwright: the browser-wide request check was detached; new contexts fall back to routes');
      o.onLost();
    });
    return true;
  } catch (err) {
    void cdp?.detach().catch(() => undefined);
    o.logger?.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'playwright: no browser-wide request interception; the request check falls back to context routes',
    );
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function listen(cdp: CDPSession, o: BrowserRequestCheckOptions): void {
  cdp.on('Fetch.requestPaused', (e: RequestPaused) => {
    const refused = refusedRequest(o.guard, e.request.url);
    if (refused) o.logger?.debug({ url: refused.url, reason: refused.reason }, 'playwright: request refused by the request check');
    const answer = refused
      ? cdp.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'BlockedByClient' })
      : cdp.send('Fetch.continueRequest', { requestId: e.requestId });
    // A request of a context closed meanwhile is gone: nothing left to answer.
    answer.catch(() => undefined);
  });
}

/** The fallback: the same check as a route on one context (Playwright matches the expression). */
export async function installRouteCheck(context: BrowserContext, scope: LiteralAddressScope, guard: SsrfGuard): Promise<void> {
  await context.route(literalAddressRegExp(scope), async (route: Route) => {
    if (!refusedRequest(guard, route.request().url())) return route.fallback().catch(() => undefined);
    await route.abort('blockedbyclient').catch(() => undefined);
  });
}
