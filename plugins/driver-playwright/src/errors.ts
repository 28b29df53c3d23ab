// Turns what Playwright, Chromium (net::ERR_*) or the filtering proxy reported into the GleanerError a
// caller can act on — the same codes and messages as driver-http.
import { errors } from 'playwright-core';
import { GleanerError, isGleanerError } from '@gleaner/core/plugin';
import type { BlockedRequest } from '@gleaner/core/plugin';

export function tooLarge(maxBytes: number, url: string): GleanerError {
  return new GleanerError('FETCH_TOO_LARGE', `the page is larger than fetch.maxBytes (${maxBytes} bytes): ${url}`, { details: { maxBytes } });
}

export function tooManyRedirects(maxRedirects: number, requested: string, redirects: string[]): GleanerError {
  return new GleanerError('TOO_MANY_REDIRECTS', `more than ${maxRedirects} redirects (fetch.maxRedirects) starting at ${requested}`, {
    details: { redirects },
  });
}

export function blocked(b: BlockedRequest): GleanerError {
  return new GleanerError('URL_BLOCKED', b.reason, { details: { url: b.url } });
}

export function unsupported(url: string, type: string): GleanerError {
  return new GleanerError('UNSUPPORTED_CONTENT', `${url} is ${type}, not an HTML or text page`, { details: { contentType: type } });
}

/** The browser (or the driver) closed under a running call. */
export function closedError(what: string): GleanerError {
  return new GleanerError('DRIVER_UNAVAILABLE', `the playwright browser session was closed while ${what}`);
}

export function isTimeout(err: unknown): boolean {
  return err instanceof errors.TimeoutError;
}

export function isClosedError(err: unknown): boolean {
  const m = err instanceof Error ? err.message : '';
  return /Target page, context or browser has been closed|Target closed|Browser has been closed|browser has disconnected|Connection closed/i.test(m);
}

const NET_ERROR = /net::(ERR_[A-Z_0-9]+)/;

export interface NavigationErrorContext {
  /** The URL asked for. */
  url: string;
  totalMs: number;
  maxRedirects: number;
  /** The failed hop's URL when known (a redirect target). */
  failedUrl?: string;
  /** What the proxy refused during this navigation. */
  newlyBlocked: BlockedRequest[];
  /** What the proxy could not reach during this navigation. */
  newFailures: BlockedRequest[];
  viaProxy: boolean;
  /** True when the session or driver was closed under the navigation. */
  closed: boolean;
}

/** The authority (`host:port`) a CONNECT for this URL names, as the proxy records it. */
function authority(url: string): string | undefined {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return undefined;
  }
}

function matching(list: BlockedRequest[], url?: string): BlockedRequest | undefined {
  if (!list.length) return undefined;
  const key = url ? authority(url) : undefined;
  return (key && list.find((b) => b.url === key || b.url === url)) || list.at(-1);
}

/** Maps a failed `page.goto` (not a timeout or abort: those are handled by the caller). */
export function toNavigationError(err: unknown, ctx: NavigationErrorContext): GleanerError {
  if (isGleanerError(err)) return err;
  const where = ctx.failedUrl ?? ctx.url;
  if (isTimeout(err)) return new GleanerError('FETCH_TIMEOUT', `${ctx.url} did not load within ${ctx.totalMs} ms (fetch.timeoutMs)`, { cause: err });
  if (ctx.closed || isClosedError(err)) return closedError(`loading ${ctx.url}`);
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  const net = NET_ERROR.exec(message)?.[1];
  if (net === 'ERR_TOO_MANY_REDIRECTS') return tooManyRedirects(ctx.maxRedirects, ctx.url, []);
  if (net === 'ERR_TUNNEL_CONNECTION_FAILED' || net === 'ERR_PROXY_CONNECTION_FAILED' || net === 'ERR_EMPTY_RESPONSE' || net === 'ERR_BLOCKED_BY_CLIENT') {
    const hit = matching(ctx.newlyBlocked, ctx.failedUrl);
    if (hit) return blocked(hit);
    const failure = matching(ctx.newFailures, ctx.failedUrl);
    if (failure)
      return new GleanerError('FETCH_FAILED', `could not fetch ${where}${ctx.viaProxy ? ' through the proxy' : ''}: ${failure.reason}`, { cause: err });
  }
  if (net === 'ERR_NAME_NOT_RESOLVED') return new GleanerError('FETCH_FAILED', `could not resolve the host of ${where}`, { cause: err });
  if (net === 'ERR_TIMED_OUT' || net === 'ERR_CONNECTION_TIMED_OUT') return new GleanerError('FETCH_TIMEOUT', `${where} timed out (${net})`, { cause: err });
  if (net === 'ERR_UNSAFE_PORT') return new GleanerError('URL_BLOCKED', `blocked: the browser refuses the port of ${where} (a restricted port)`);
  if (/Download is starting/i.test(message)) return unsupported(where, 'a download');
  if (/Cannot navigate to invalid URL|invalid url/i.test(message)) return new GleanerError('URL_INVALID', `not a valid absolute URL: ${ctx.url.slice(0, 200)}`);
  const via = ctx.viaProxy ? ' through the proxy' : '';
  return new GleanerError('FETCH_FAILED', `could not fetch ${where}${via}: ${net ? `net::${net}` : message}`, { cause: err });
}

/** The GleanerError for an aborted call: the signal's GleanerError reason as is, else FETCH_TIMEOUT. */
export function abortError(signal: AbortSignal, url: string): GleanerError {
  if (isGleanerError(signal.reason)) return signal.reason;
  return new GleanerError('FETCH_TIMEOUT', `the fetch of ${url} was aborted`, { cause: signal.reason });
}

/** An interaction (click, type, waitFor, ...) that failed; timeouts name what was waited for. */
export function actionError(err: unknown, what: string, timeoutMs: number): GleanerError {
  if (isGleanerError(err)) return err;
  if (isTimeout(err)) return new GleanerError('FETCH_TIMEOUT', `timed out after ${timeoutMs} ms ${what}`, { cause: err });
  if (isClosedError(err)) return closedError(what);
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return new GleanerError('BAD_REQUEST', `could not complete the page action (${what}): ${message}`, { cause: err });
}
