// Turns what chromedriver, Chromium's network stack and the filtering proxy report into the
// GleanerError a caller can act on, with the same codes and wording as the HTTP driver.
import { GleanerError, isGleanerError } from '@gleaner/core/plugin';
import type { BlockedRequest } from '@gleaner/core/plugin';

/** The guard's message for a target the filtering proxy (or the route check) refused, if any. */
export function findBlocked(blocked: readonly BlockedRequest[], url: string, since = 0): BlockedRequest | undefined {
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  const authority = u ? `${u.hostname.replace(/^\[|\]$/g, '')}:${u.port || (u.protocol === 'https:' ? '443' : '80')}` : '';
  const bracketed = u ? `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}` : '';
  const recent = blocked.filter((b) => b.at >= since);
  return [...recent].reverse().find((b) => b.url === url || b.url === u?.href || b.url === authority || b.url === bracketed);
}

export function blockedError(b: BlockedRequest): GleanerError {
  return new GleanerError('URL_BLOCKED', b.reason, { details: { url: b.url } });
}

/** A target the filtering proxy could not reach (DNS, refused, timeout, the upstream proxy failing). */
export function proxyFailure(f: BlockedRequest, url: string, viaProxy: boolean): GleanerError {
  const timedOut = /timed out/.test(f.reason);
  const via = viaProxy ? ' through the proxy' : '';
  return new GleanerError(timedOut ? 'FETCH_TIMEOUT' : 'FETCH_FAILED', `could not fetch ${url}${via}: ${f.reason}`);
}

/** Chromium net error names that mean "could not connect" rather than "the page misbehaved". */
const TIMEOUT_NET_ERRORS = new Set(['net::ERR_TIMED_OUT', 'net::ERR_CONNECTION_TIMED_OUT']);

/** A main-document load failure (`Network.loadingFailed.errorText`) as a GleanerError. */
export function netError(errorText: string, url: string, viaProxy: boolean): GleanerError {
  if (TIMEOUT_NET_ERRORS.has(errorText)) return new GleanerError('FETCH_TIMEOUT', `${url} timed out (${errorText})`);
  if (errorText === 'net::ERR_NAME_NOT_RESOLVED') return new GleanerError('FETCH_FAILED', `could not resolve the host of ${url}`);
  if (errorText === 'net::ERR_UNSAFE_PORT') return new GleanerError('URL_BLOCKED', `blocked: the browser refuses the port of ${url} (a restricted port)`);
  const via = viaProxy ? ' through the proxy' : '';
  return new GleanerError('FETCH_FAILED', `could not fetch ${url}${via}: ${errorText}`);
}

/** What an abort (the job's or the goto's signal) becomes: its GleanerError reason as is. */
export function abortError(signal: AbortSignal, url: string): GleanerError {
  if (isGleanerError(signal.reason)) return signal.reason;
  return new GleanerError('FETCH_TIMEOUT', `the fetch of ${url} was aborted`, { cause: signal.reason });
}

export function timeoutError(url: string, totalMs: number): GleanerError {
  return new GleanerError('FETCH_TIMEOUT', `${url} did not load within ${totalMs} ms (fetch.timeoutMs)`);
}

export function tooLarge(maxBytes: number, url: string): GleanerError {
  return new GleanerError('FETCH_TOO_LARGE', `the page is larger than fetch.maxBytes (${maxBytes} bytes): ${url}`, { details: { maxBytes } });
}

export function unsupported(url: string, type: string): GleanerError {
  return new GleanerError('UNSUPPORTED_CONTENT', `${url} is ${type}, not an HTML or text page`, { details: { contentType: type } });
}

export function tooManyRedirects(maxRedirects: number, requested: string, redirects: string[]): GleanerError {
  return new GleanerError('TOO_MANY_REDIRECTS', `more than ${maxRedirects} redirects (fetch.maxRedirects) starting at ${requested}`, {
    details: { redirects },
  });
}

/** The browser or chromedriver misbehaved (a command failed that should not). */
export function browserError(what: string, err: unknown): GleanerError {
  if (isGleanerError(err)) return err;
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return new GleanerError('DRIVER_UNAVAILABLE', `the selenium browser failed while ${what}: ${message}`, { cause: err });
}

/** An interaction that cannot be done as asked (invalid selector, not a <select>, no such option). */
export function actionError(message: string): GleanerError {
  return new GleanerError('BAD_REQUEST', message);
}

/** An interaction whose wait ran out (as the Playwright driver words it). */
export function actionTimeout(what: string, timeoutMs: number, why?: string): GleanerError {
  return new GleanerError('FETCH_TIMEOUT', `timed out after ${timeoutMs} ms ${what}${why ? ` (${why})` : ''}`);
}

/** selenium-webdriver's error class name (`TimeoutError`, `NoSuchElementError`, ...). */
export function webDriverErrorName(err: unknown): string {
  return err instanceof Error ? err.name : '';
}
