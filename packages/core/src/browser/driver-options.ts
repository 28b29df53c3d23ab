/**
 * The options every browser driver factory accepts, and their resolution against the configuration
 * (explicit option > `config` > the schema's default), so both browser drivers read them alike.
 */
import { CONFIG_FIELDS } from '../config/load.ts';
import type { GleanerConfig } from '../config/types.ts';
import type { Logger } from '../log.ts';
import { createSsrfGuard, type SsrfGuard } from '../net/ssrf.ts';
import type { Driver, DriverOptions } from '../plugins/driver.ts';
import type { BrowserPoolStats } from './pool.ts';

/** A browser driver: a Driver that reports its pool's figures (a driver may add its own to them). */
export interface BrowserDriver<S extends BrowserPoolStats = BrowserPoolStats> extends Driver {
  stats(): S;
}

/** The shared driver options plus the browser's own (`browser.*` read from `config`). */
export interface BrowserDriverOptions extends DriverOptions {
  /** Overrides `browser.chromiumPath`. */
  chromiumPath?: string;
  /** Overrides `browser.maxPages`: pages (jobs) open at once on the browser. */
  maxPages?: number;
  /** Overrides `browser.retireAfterPages`. */
  retireAfterPages?: number;
  /** Overrides `browser.launchTimeoutMs`. */
  launchTimeoutMs?: number;
  /** Overrides `browser.closeTimeoutMs`. */
  closeTimeoutMs?: number;
  /** Accept invalid or self-signed TLS certificates (tests, internal sites). */
  ignoreHttpsErrors?: boolean;
  /** After `load`, wait at most this long for requests still in flight (0: never). Pages with nothing in flight pay nothing. */
  settleMs?: number;
  /** Check request URLs inside the browser too, as a second layer behind the filtering proxy (default true). */
  routeCheck?: boolean;
}

export interface ResolvedBrowserOptions {
  guard: SsrfGuard;
  /** undefined when a shared guard of unknown configuration was given. */
  allowNetworks: readonly string[] | undefined;
  chromiumPath: string;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  maxPages: number;
  retireAfterPages: number;
  launchTimeoutMs: number;
  closeTimeoutMs: number;
}

/** An explicit option, else the configured value, else the schema's default of `field`. */
export function pickOption<T>(explicit: T | undefined, configured: T | undefined, field: string): T {
  return explicit ?? configured ?? (CONFIG_FIELDS[field].default as T);
}

/** Resolves the options both browser drivers share. */
export function resolveBrowserOptions(opts: BrowserDriverOptions): ResolvedBrowserOptions {
  const f = opts.config?.fetch ?? {};
  const b = opts.config?.browser ?? {};
  const allowNetworks = opts.allowNetworks ?? opts.config?.network?.allowNetworks ?? (opts.guard ? undefined : []);
  return {
    guard: opts.guard ?? createSsrfGuard({ allowNetworks, resolver: opts.resolver }),
    allowNetworks,
    chromiumPath: pickOption(opts.chromiumPath, b.chromiumPath, 'browser.chromiumPath'),
    userAgent: pickOption(opts.userAgent, f.userAgent, 'fetch.userAgent'),
    timeoutMs: pickOption(opts.timeoutMs, f.timeoutMs, 'fetch.timeoutMs'),
    maxBytes: pickOption(opts.maxBytes, f.maxBytes, 'fetch.maxBytes'),
    maxRedirects: pickOption(opts.maxRedirects, f.maxRedirects, 'fetch.maxRedirects'),
    maxPages: pickOption(opts.maxPages, b.maxPages, 'browser.maxPages'),
    retireAfterPages: pickOption(opts.retireAfterPages, b.retireAfterPages, 'browser.retireAfterPages'),
    launchTimeoutMs: pickOption(opts.launchTimeoutMs, b.launchTimeoutMs, 'browser.launchTimeoutMs'),
    closeTimeoutMs: pickOption(opts.closeTimeoutMs, b.closeTimeoutMs, 'browser.closeTimeoutMs'),
  };
}

/**
 * The part of a page's `timeouts.totalMs` kept for reading the page: waiting for `load` and the
 * settle end this much before the deadline, and the read gets at least this much even when the
 * navigation used the whole budget (a page whose `load` never fires is still returned as it is).
 */
export function readReserveMs(totalMs: number): number {
  return Math.min(2000, Math.max(50, Math.floor(totalMs / 5)));
}

/** A charset name a page reported, if it looks like one (lower-cased); anything else is dropped. */
export function charsetLabel(value: unknown): string | undefined {
  return typeof value === 'string' && /^[a-z0-9._:-]{1,40}$/i.test(value) ? value.toLowerCase() : undefined;
}

/** Resolves true when `p` settles (either way) within `ms`, false when the time runs out first. */
export function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    p.then(
      () => resolve(true),
      () => resolve(true),
    ).finally(() => clearTimeout(timer));
  });
}

/**
 * True when a main-frame response is the document a page at `pageUrl` now shows: not a redirect
 * hop or a 204/205 (which leave the page as it was), and the page's URL is its URL (fragments aside).
 */
export function showsDocument(status: number, responseUrl: string, pageUrl: string): boolean {
  if ((status >= 300 && status < 400) || status === 204 || status === 205) return false;
  return pageUrl.split('#')[0] === responseUrl.split('#')[0];
}
