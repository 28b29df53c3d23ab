// The long-lived half of the Selenium driver: the browser pool and the per-job page factory.
import {
  GleanerError,
  createBrowserPool,
  isGleanerError,
  literalAddressScope,
  literalAddressUrlPatterns,
  pickOption,
  resolveBrowserOptions,
} from '@gleaner/core/plugin';
import type { BrowserDriver, BrowserDriverOptions, DriverCapabilities, DriverSession, DriverSessionOptions } from '@gleaner/core/plugin';
import { abortError, browserError } from './errors.ts';
import { gridLauncher, localLauncher } from './launcher.ts';
import type { LaunchSettings, SeleniumBrowser } from './launcher.ts';
import { openPageContext } from './page-context.ts';
import { SeleniumSession } from './session.ts';
import { PageTracker } from './tracker.ts';

/** The plugin API this plugin was written against (createEngine refuses another major). */
const PLUGIN_API = '1.3';

export const SELENIUM_DRIVER_NAME = 'selenium';

export interface SeleniumDriverOptions extends BrowserDriverOptions {
  /** Overrides `browser.chromedriverPath`. */
  chromedriverPath?: string;
  /** Overrides `browser.seleniumUrl`: a Selenium Grid (or remote WebDriver) instead of a local chromedriver. */
  seleniumUrl?: string;
}

/** The Selenium driver, with its pool's figures. */
export type SeleniumDriver = BrowserDriver;

const CAPABILITIES: Readonly<DriverCapabilities> = Object.freeze({ javascript: true, interaction: true, proxy: true, cookies: true });

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
  const o = resolveBrowserOptions(opts);
  // The second SSRF layer (core browser/request-check.ts): the literal-address requests to pause and judge.
  const checkScope = opts.routeCheck === false ? null : literalAddressScope(o.allowNetworks);
  const checkPatterns = checkScope ? literalAddressUrlPatterns(checkScope) : [];
  const { guard } = o;
  const defaults = { userAgent: o.userAgent, timeoutMs: o.timeoutMs, maxBytes: o.maxBytes, maxRedirects: o.maxRedirects, closeTimeoutMs: o.closeTimeoutMs };
  const launch: LaunchSettings = {
    chromedriverPath: pickOption(opts.chromedriverPath, opts.config?.browser?.chromedriverPath, 'browser.chromedriverPath'),
    chromiumPath: o.chromiumPath,
    seleniumUrl: pickOption(opts.seleniumUrl, opts.config?.browser?.seleniumUrl, 'browser.seleniumUrl'),
    ignoreHttpsErrors: opts.ignoreHttpsErrors ?? false,
    guard,
    logger: opts.logger,
  };
  const pool = createBrowserPool<SeleniumBrowser>({
    name: SELENIUM_DRIVER_NAME,
    launch: launch.seleniumUrl ? gridLauncher(launch) : localLauncher(launch),
    maxPages: o.maxPages,
    retireAfterPages: o.retireAfterPages,
    launchTimeoutMs: o.launchTimeoutMs,
    closeTimeoutMs: o.closeTimeoutMs,
    logger: opts.logger,
  });
  const sessions = new Set<SeleniumSession>();
  let closed = false;

  return {
    name: SELENIUM_DRIVER_NAME,
    apiVersion: PLUGIN_API,
    capabilities: CAPABILITIES,

    async openSession(sessionOpts: DriverSessionOptions = {}): Promise<DriverSession> {
      if (closed) throw new GleanerError('DRIVER_UNAVAILABLE', 'the selenium driver is closed');
      const signal = sessionOpts.signal;
      const logger = sessionOpts.logger ?? opts.logger;
      let lease;
      try {
        lease = await pool.acquire(signal);
      } catch (err) {
        // Aborted while waiting for a page slot (or for the browser to start): the signal's reason.
        if (signal?.aborted) throw abortError(signal, 'a page');
        throw err;
      }
      let ctx;
      try {
        ctx = await openPageContext(lease.browser, { ...launch, logger }, { upstream: sessionOpts.proxy || null, signal });
      } catch (err) {
        const aborted = signal?.aborted ?? false;
        // A refused proxy URL is the caller's; anything else means the browser misbehaved.
        const callers = aborted || (isGleanerError(err) && err.code === 'CONFIG_INVALID');
        await lease.release({ broken: !callers });
        if (aborted) throw abortError(signal as AbortSignal, 'a page');
        throw browserError('opening a page', err);
      }
      const tracker = new PageTracker(ctx, {
        guard,
        maxRedirects: sessionOpts.maxRedirects ?? defaults.maxRedirects,
        maxBytes: sessionOpts.maxBytes ?? defaults.maxBytes,
        userAgent: sessionOpts.userAgent || defaults.userAgent,
        checkPatterns,
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
