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
import { literalAddressRegExp, literalAddressUrlPatterns, refusedRequest } from '@gleaner/core';
import type { LiteralAddressScope, Logger, RefusalLog, SsrfGuard } from '@gleaner/core';

interface RequestPaused {
  requestId: string;
  request: { url: string };
}

/**
 * Installs the check on the whole browser; refused requests fail with `BlockedByClient` and are
 * recorded in `refusals`. Resolves false (nothing installed) when the browser offers no DevTools session.
 */
export async function installBrowserRequestCheck(
  browser: Browser, scope: LiteralAddressScope, guard: SsrfGuard, refusals: RefusalLog, logger?: Logger,
): Promise<boolean> {
  let cdp: CDPSession | undefined;
  try {
    cdp = await browser.newBrowserCDPSession();
    listen(cdp, guard, refusals);
    await cdp.send('Fetch.enable', { patterns: literalAddressUrlPatterns(scope).map((urlPattern) => ({ urlPattern, requestStage: 'Request' as const })) });
    return true;
  } catch (err) {
    await cdp?.detach().catch(() => undefined);
    logger?.warn({ err: err instanceof Error ? err.message : String(err) }, 'playwright: no browser-wide request interception; the request check falls back to context routes');
    return false;
  }
}

function listen(cdp: CDPSession, guard: SsrfGuard, refusals: RefusalLog): void {
  cdp.on('Fetch.requestPaused', (e: RequestPaused) => {
    const refused = refusedRequest(guard, e.request.url);
    // Recorded before the request fails, so the page's `requestfailed` finds it.
    if (refused) refusals.add(refused);
    const answer = refused
      ? cdp.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'BlockedByClient' })
      : cdp.send('Fetch.continueRequest', { requestId: e.requestId });
    // A request of a context closed meanwhile is gone: nothing left to answer.
    answer.catch(() => undefined);
  });
}

/** The fallback: the same check as a route on one context (Playwright matches the expression). */
export async function installRouteCheck(context: BrowserContext, scope: LiteralAddressScope, guard: SsrfGuard, refusals: RefusalLog): Promise<void> {
  await context.route(literalAddressRegExp(scope), async (route: Route) => {
    const refused = refusedRequest(guard, route.request().url());
    if (!refused) return route.fallback().catch(() => undefined);
    refusals.add(refused);
    await route.abort('blockedbyclient').catch(() => undefined);
  });
}
