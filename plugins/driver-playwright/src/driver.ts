// The long-lived half of the Playwright driver: the browser pool (one browser per driver, launched on
// the first session, retired after N pages, killed by process group when hung) and openSession, which
// gives each job a fresh context behind its own filtering proxy.
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext } from 'playwright-core';
import {
  GleanerError,
  createBrowserPool,
  isGleanerError,
  literalAddressScope,
  pickOption,
  resolveBrowserOptions,
  startFilterProxy,
} from '@gleaner/core/plugin';
import type {
  BrowserDriver,
  BrowserDriverOptions,
  BrowserPoolStats,
  DriverCapabilities,
  DriverSession,
  DriverSessionOptions,
  FilterProxy,
  Logger,
  PageLease,
} from '@gleaner/core/plugin';
import { abortError } from './errors.ts';
import { launchBrowser } from './launcher.ts';
import { installBrowserRequestCheck, installRouteCheck } from './route-check.ts';
import type { LaunchRecord } from './launcher.ts';
import { PlaywrightSession } from './session.ts';
import { createSparePage, type PreparedPage } from './spare.ts';

/** The plugin API this plugin was written against (createEngine refuses another major). */
const PLUGIN_API = '1.3';
/** How long after a session's first page loaded the next session's page is made, unless it closed before. */
const SPARE_AFTER_MS = 1000;

export const PLAYWRIGHT_DRIVER_NAME = 'playwright';

export interface PlaywrightDriverOptions extends BrowserDriverOptions {
  /** Overrides `browser.wsEndpoint` (a Playwright ws:// endpoint or an http(s):// CDP URL). */
  wsEndpoint?: string;
  /** Make the next session's page while idle (spare.ts); default true. */
  spareContext?: boolean;
  /** Overrides `browser.proxyListenHost`: where each session's filtering proxy listens, for a remote browser. */
  proxyListenHost?: string;
  /** Overrides `browser.proxyAdvertiseHost`: the address the remote browser reaches the proxy at. */
  proxyAdvertiseHost?: string;
}

export interface PlaywrightDriverStats {
  launches: number;
  retired: number;
  killed: number;
  activePages: number;
  waiting: number;
  browsers: number;
  /** The current local browser's pid (null: none running, or a remote browser). */
  browserPid: number | null;
  pids: number[];
  /** How each browser was started, oldest first (executable, flags, or the endpoint). */
  launchLog: LaunchRecord[];
  /**
   * Where the current browser's request check (the second SSRF layer) runs: `browser` (one
   * browser-wide interception narrowed to literal addresses), `context` (a route per context, the
   * fallback), or `off` (disabled, or every literal range allowed), as of the latest session; null before the first.
   */
  requestCheck: 'browser' | 'context' | 'off' | null;
}

export type PlaywrightDriver = BrowserDriver<PlaywrightDriverStats>;

const CAPABILITIES: Readonly<DriverCapabilities> = Object.freeze({ javascript: true, interaction: true, proxy: true, cookies: true });

/** Creates the Playwright driver (system Chromium, or a remote browser). */
export function createPlaywrightDriver(opts: PlaywrightDriverOptions = {}): PlaywrightDriver {
  const o = resolveBrowserOptions(opts);
  const { guard, allowNetworks, closeTimeoutMs, launchTimeoutMs } = o;
  const defaults = { userAgent: o.userAgent, timeoutMs: o.timeoutMs, maxBytes: o.maxBytes, maxRedirects: o.maxRedirects };
  const launchSettings = {
    chromiumPath: o.chromiumPath,
    wsEndpoint: pickOption(opts.wsEndpoint, opts.config?.browser?.wsEndpoint, 'browser.wsEndpoint'),
    timeoutMs: launchTimeoutMs,
    logger: opts.logger,
  };
  // A remote browser reaches each session's proxy on this worker's address, with the session's own
  // random credentials; a local one uses 127.0.0.1 without.
  const listenHost = pickOption(opts.proxyListenHost, opts.config?.browser?.proxyListenHost, 'browser.proxyListenHost');
  const proxyListen = listenHost
    ? {
        host: listenHost,
        advertiseHost: pickOption(opts.proxyAdvertiseHost, opts.config?.browser?.proxyAdvertiseHost, 'browser.proxyAdvertiseHost') || undefined,
      }
    : undefined;
  // After `load`, at most this long for requests still in flight.
  const settleMs = opts.settleMs ?? 500;
  // The second SSRF layer (route-check.ts): what it checks, and the browsers that have it
  // browser-wide (the others get it per context).
  const checkScope = opts.routeCheck === false ? null : literalAddressScope(allowNetworks);
  const checkedBrowsers = new WeakSet<Browser>();
  let requestCheck: PlaywrightDriverStats['requestCheck'] = null;
  const launchLog: LaunchRecord[] = [];
  const pool = createBrowserPool<Browser>({
    name: PLAYWRIGHT_DRIVER_NAME,
    launch: async (signal) => {
      const launched = await launchBrowser(launchSettings, signal, (r) => launchLog.push(r));
      const browser = launched.browser;
      const onLost = () => void checkedBrowsers.delete(browser);
      if (checkScope && (await installBrowserRequestCheck(browser, { scope: checkScope, guard, timeoutMs: launchTimeoutMs, onLost, logger: opts.logger })))
        checkedBrowsers.add(browser);
      return launched;
    },
    maxPages: o.maxPages,
    retireAfterPages: o.retireAfterPages,
    launchTimeoutMs,
    closeTimeoutMs,
    logger: opts.logger,
  });
  const sessions = new Set<PlaywrightSession>();
  let closed = false;
  const unavailable = () => new GleanerError('DRIVER_UNAVAILABLE', 'the playwright driver is closed');

  /** A context and page on `browser`, behind a fresh filtering proxy. */
  async function makePage(browser: Browser, upstream: string | null, userAgent: string, logger: Logger | undefined): Promise<PreparedPage> {
    let proxy: FilterProxy | undefined;
    let context: BrowserContext | undefined;
    try {
      const credentials = proxyListen ? { username: 'gleaner', password: randomBytes(18).toString('base64url') } : undefined;
      proxy = await startFilterProxy({ guard, upstream, logger, listen: proxyListen, credentials });
      context = await browser.newContext({
        // `<-loopback>` empties Chromium's implicit bypass list: loopback goes through the proxy too.
        proxy: { server: proxy.url, bypass: '<-loopback>', ...credentials },
        serviceWorkers: 'block',
        acceptDownloads: false,
        userAgent,
        ignoreHTTPSErrors: opts.ignoreHttpsErrors ?? false,
      });
      requestCheck = !checkScope ? 'off' : checkedBrowsers.has(browser) ? 'browser' : 'context';
      if (checkScope && requestCheck === 'context') await installRouteCheck(context, checkScope, guard);
      return { browser, proxy, context, page: await context.newPage() };
    } catch (err) {
      await context?.close().catch(() => undefined);
      await proxy?.close().catch(() => undefined);
      throw err;
    }
  }
  const spare = createSparePage((browser) => makePage(browser, null, defaults.userAgent, opts.logger), opts.logger);

  /** A context and page on the leased browser (the spare one when the session has the defaults). */
  async function open(lease: PageLease<Browser>, sessionOpts: DriverSessionOptions): Promise<PlaywrightSession> {
    const logger = sessionOpts.logger ?? opts.logger;
    const upstream = sessionOpts.proxy || null;
    const userAgent = sessionOpts.userAgent || defaults.userAgent;
    const plain = upstream === null && userAgent === defaults.userAgent && opts.spareContext !== false;
    try {
      const { proxy, context, page } = (plain ? await spare.take(lease.browser) : null) ?? (await makePage(lease.browser, upstream, userAgent, logger));
      const behind = plain && spare.behind;
      const totalMs = sessionOpts.timeouts?.totalMs ?? defaults.timeoutMs;
      let spareTimer: NodeJS.Timeout | undefined;
      const session: PlaywrightSession = new PlaywrightSession({
        driverName: PLAYWRIGHT_DRIVER_NAME,
        guard,
        context,
        page,
        proxy,
        viaUpstream: upstream !== null,
        cookies: sessionOpts.cookies ?? [],
        localStorage: sessionOpts.localStorage,
        totalMs,
        maxBytes: sessionOpts.maxBytes ?? defaults.maxBytes,
        maxRedirects: sessionOpts.maxRedirects ?? defaults.maxRedirects,
        settleMs,
        closeTimeoutMs,
        signal: sessionOpts.signal,
        logger,
        release: async (broken) => {
          clearTimeout(spareTimer);
          sessions.delete(session);
          await lease.release({ broken });
          if (plain && !broken && !closed) spare.prepare(lease.browser);
        },
        // The next session's page is made when this one closes, or SPARE_AFTER_MS after its first
        // page loaded when it runs longer (an agent waiting on its model): a short session (a
        // replay) does not share the CPU with a renderer starting, and the next one finds it ready.
        // When sessions follow one another closely (this one found no spare ready), it is made at
        // once instead, so that the next session does not wait for it (spare.ts).
        onFirstLoad: plain
          ? () => {
              if (behind) return void (closed || spare.prepare(lease.browser));
              spareTimer = setTimeout(() => void (closed || spare.prepare(lease.browser)), SPARE_AFTER_MS);
              spareTimer.unref();
            }
          : undefined,
      });
      return session;
    } catch (err) {
      // A bad session option (e.g. a proxy the filtering proxy cannot chain to) is not the browser's fault.
      await lease.release({ broken: !(isGleanerError(err) && err.code === 'CONFIG_INVALID') });
      if (isGleanerError(err)) throw err;
      throw new GleanerError(
        'DRIVER_UNAVAILABLE',
        `the playwright browser could not open a page: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
        { cause: err },
      );
    }
  }

  return {
    name: PLAYWRIGHT_DRIVER_NAME,
    apiVersion: PLUGIN_API,
    capabilities: CAPABILITIES,

    async openSession(sessionOpts: DriverSessionOptions = {}): Promise<DriverSession> {
      if (closed) throw unavailable();
      const signal = sessionOpts.signal;
      if (signal?.aborted) throw abortError(signal, 'a page');
      let lease: PageLease<Browser>;
      try {
        lease = await pool.acquire(signal);
      } catch (err) {
        if (signal?.aborted) throw abortError(signal, 'a page');
        throw err;
      }
      if (closed) {
        await lease.release();
        throw unavailable();
      }
      const session = await open(lease, sessionOpts);
      sessions.add(session);
      if (closed) {
        await session.close();
        throw unavailable();
      }
      if (signal?.aborted) {
        await session.close();
        throw abortError(signal, 'a page');
      }
      return session;
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.all([...sessions].map((s) => s.close()));
      await spare.close();
      await pool.close();
    },

    stats(): PlaywrightDriverStats {
      const s: BrowserPoolStats = pool.stats();
      return {
        launches: s.launches,
        retired: s.retired,
        killed: s.killed,
        activePages: s.activePages,
        waiting: s.waiting,
        browsers: s.browsers,
        browserPid: s.pids.at(-1) ?? null,
        pids: s.pids,
        launchLog: [...launchLog],
        requestCheck,
      };
    },
  };
}
