// The long-lived half of the Selenium driver: the browser pool and the per-job page factory.
import { CONFIG_FIELDS, GleanerError, createBrowserPool, createSsrfGuard, isGleanerError } from '@gleaner/core';
import type {
  BrowserPoolStats, Driver, DriverCapabilities, DriverSession, DriverSessionOptions, GleanerConfig, Logger, Resolver, SsrfGuard,
} from '@gleaner/core';
import { browserError } from './errors.ts';
import { gridLauncher, localLauncher } from './launcher.ts';
import type { LaunchSettings, SeleniumBrowser } from './launcher.ts';
import { openPageContext } from './page-context.ts';
import { SeleniumSession } from './session.ts';
import { PageTracker } from './tracker.ts';

export const SELENIUM_DRIVER_NAME = 'selenium';

export interface SeleniumDriverOptions {
  /** The resolved configuration; `network.allowNetworks`, `fetch.*` and `browser.*` are read from it. */
  config?: {
    network?: Partial<GleanerConfig['network']>;
    fetch?: Partial<GleanerConfig['fetch']>;
    browser?: Partial<GleanerConfig['browser']>;
  };
  /** Overrides `network.allowNetworks`. */
  allowNetworks?: readonly string[];
  /** A guard to share (e.g. with the HTTP driver); built from allowNetworks/resolver otherwise. */
  guard?: SsrfGuard;
  /** Replaces the system DNS resolver (tests). */
  resolver?: Resolver;
  logger?: Logger;
  /** Overrides `browser.chromedriverPath`. */
  chromedriverPath?: string;
  /** Overrides `browser.chromiumPath`. */
  chromiumPath?: string;
  /** Overrides `browser.seleniumUrl`: a Selenium Grid (or remote WebDriver) instead of a local chromedriver. */
  seleniumUrl?: string;
  /** Overrides `browser.maxPages`: pages (jobs) open at once on the browser. */
  maxPages?: number;
  /** Overrides `browser.retireAfterPages`. */
  retireAfterPages?: number;
  /** Overrides `browser.launchTimeoutMs`. */
  launchTimeoutMs?: number;
  /** Overrides `browser.closeTimeoutMs`. */
  closeTimeoutMs?: number;
  /** Overrides `fetch.timeoutMs`. */
  timeoutMs?: number;
  /** Overrides `fetch.maxBytes`. */
  maxBytes?: number;
  /** Overrides `fetch.maxRedirects`. */
  maxRedirects?: number;
  /** Overrides `fetch.userAgent`. */
  userAgent?: string;
  /** Accept invalid or self-signed TLS certificates (tests, internal sites). */
  ignoreHttpsErrors?: boolean;
  /**
   * After `load`, wait at most this long for requests still in flight (default 1000; 0: never).
   * Pages with nothing in flight pay nothing.
   */
  settleMs?: number;
  /**
   * Check every request URL in DevTools request interception too (default true; the filtering proxy
   * checks all of them anyway). Documents are intercepted either way (redirect hops, the redirect cap).
   */
  routeCheck?: boolean;
}

/** The Selenium driver, with its pool's figures. */
export interface SeleniumDriver extends Driver {
  stats(): BrowserPoolStats;
}

const CAPABILITIES: Readonly<DriverCapabilities> = Object.freeze({ javascript: true, interaction: true, proxy: true, cookies: true });

function configDefault<T>(field: string): T {
  return CONFIG_FIELDS[field].default as T;
}

/**
 * Creates the Selenium driver: Chromium driven through WebDriver (selenium-webdriver), with a local
 * chromedriver (`browser.chromedriverPath`, `browser.chromiumPath`) or a Selenium Grid
 * (`browser.seleniumUrl`).
 *
 * Fresh context per job: WebDriver has no browser contexts, so each job gets a DevTools browser
 * context (own cookies, storage, cache, proxy) with one tab, driven by a WebDriver session attached
 * to the pooled Chromium; the context is disposed when the session closes. One Chromium per driver
 * serves up to `maxPages` jobs at once and is relaunched after `retireAfterPages` jobs. In Grid mode
 * each job gets a browser of its own (a new remote session).
 *
 * SSRF: all of a job's traffic goes through a filtering proxy of its own (chained to the job's proxy),
 * with loopback not bypassed; DevTools request interception checks every URL again, and refuses
 * redirects past `maxRedirects`. Service worker registration is refused.
 */
export function createSeleniumDriver(opts: SeleniumDriverOptions = {}): SeleniumDriver {
  const fetchCfg = opts.config?.fetch ?? {};
  const browserCfg = opts.config?.browser ?? {};
  const guard = opts.guard ?? createSsrfGuard({ allowNetworks: opts.allowNetworks ?? opts.config?.network?.allowNetworks ?? [], resolver: opts.resolver });
  const pick = <T>(own: T | undefined, cfg: T | undefined, field: string): T => own ?? cfg ?? configDefault<T>(field);
  const defaults = {
    userAgent: pick(opts.userAgent, fetchCfg.userAgent, 'fetch.userAgent'),
    timeoutMs: pick(opts.timeoutMs, fetchCfg.timeoutMs, 'fetch.timeoutMs'),
    maxBytes: pick(opts.maxBytes, fetchCfg.maxBytes, 'fetch.maxBytes'),
    maxRedirects: pick(opts.maxRedirects, fetchCfg.maxRedirects, 'fetch.maxRedirects'),
    closeTimeoutMs: pick(opts.closeTimeoutMs, browserCfg.closeTimeoutMs, 'browser.closeTimeoutMs'),
  };
  const launch: LaunchSettings = {
    chromedriverPath: pick(opts.chromedriverPath, browserCfg.chromedriverPath, 'browser.chromedriverPath'),
    chromiumPath: pick(opts.chromiumPath, browserCfg.chromiumPath, 'browser.chromiumPath'),
    seleniumUrl: pick(opts.seleniumUrl, browserCfg.seleniumUrl, 'browser.seleniumUrl'),
    ignoreHttpsErrors: opts.ignoreHttpsErrors ?? false,
    guard,
    logger: opts.logger,
  };
  const pool = createBrowserPool<SeleniumBrowser>({
    name: SELENIUM_DRIVER_NAME,
    launch: launch.seleniumUrl ? gridLauncher(launch) : localLauncher(launch),
    maxPages: pick(opts.maxPages, browserCfg.maxPages, 'browser.maxPages'),
    retireAfterPages: pick(opts.retireAfterPages, browserCfg.retireAfterPages, 'browser.retireAfterPages'),
    launchTimeoutMs: pick(opts.launchTimeoutMs, browserCfg.launchTimeoutMs, 'browser.launchTimeoutMs'),
    closeTimeoutMs: defaults.closeTimeoutMs,
    logger: opts.logger,
  });
  const sessions = new Set<SeleniumSession>();
  let closed = false;

  return {
    name: SELENIUM_DRIVER_NAME,
    capabilities: CAPABILITIES,

    async openSession(sessionOpts: DriverSessionOptions = {}): Promise<DriverSession> {
      if (closed) throw new GleanerError('DRIVER_UNAVAILABLE', 'the selenium driver is closed');
      const signal = sessionOpts.signal;
      const logger = sessionOpts.logger ?? opts.logger;
      const lease = await pool.acquire(signal);
      let ctx;
      try {
        ctx = await openPageContext(lease.browser, { ...launch, logger }, { upstream: sessionOpts.proxy || null, signal });
      } catch (err) {
        const aborted = signal?.aborted ?? false;
        // A refused proxy URL is the caller's; anything else means the browser misbehaved.
        const callers = aborted || (isGleanerError(err) && err.code === 'CONFIG_INVALID');
        await lease.release({ broken: !callers });
        if (aborted) throw isGleanerError(signal?.reason) ? signal?.reason : new GleanerError('FETCH_TIMEOUT', 'opening the page was aborted', { cause: err });
        throw browserError('opening a page', err);
      }
      const tracker = new PageTracker(ctx, {
        guard,
        maxRedirects: sessionOpts.maxRedirects ?? defaults.maxRedirects,
        maxBytes: sessionOpts.maxBytes ?? defaults.maxBytes,
        userAgent: sessionOpts.userAgent || defaults.userAgent,
        routeCheck: opts.routeCheck ?? true,
        logger,
      });
      const session: SeleniumSession = new SeleniumSession({
        driverName: SELENIUM_DRIVER_NAME,
        ctx,
        tracker,
        guard,
        cookies: sessionOpts.cookies ?? [],
        totalMs: sessionOpts.timeouts?.totalMs ?? defaults.timeoutMs,
        maxBytes: sessionOpts.maxBytes ?? defaults.maxBytes,
        settleMs: opts.settleMs ?? 1000,
        closeTimeoutMs: defaults.closeTimeoutMs,
        viaProxy: Boolean(sessionOpts.proxy),
        signal,
        logger,
        release: async (broken) => {
          sessions.delete(session);
          await lease.release({ broken });
        },
      });
      sessions.add(session);
      try {
        await tracker.install();
      } catch (err) {
        await session.close();
        throw browserError('preparing the page', err);
      }
      return session;
    },

    stats: () => pool.stats(),

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.all([...sessions].map((s) => s.close()));
      await pool.close();
    },
  };
}
