// One job's page: a fresh browser context (its own cookies, storage, cache and proxy) with one tab,
// a WebDriver session driving that tab, and a DevTools session watching it.
//
// WebDriver has no browser contexts, so the context comes from DevTools (`Target.createBrowserContext`,
// what Playwright's newContext() does) and a second WebDriver session is attached to the running
// Chromium (`debuggerAddress`) and switched to the context's tab. Each job thus has a WebDriver
// session to itself ("current window" is per session), jobs run side by side on one browser up to
// `browser.maxPages`, and disposing the context drops everything the job left behind. The attached
// sessions hold no job state and are reused by later jobs (see SeleniumBrowser.idleSessions).
//
// Every context gets its own filtering proxy, chained to the job's proxy (proxy_country) when it has
// one: the context's `proxyServer` points at it with the bypass list `<-loopback>`.
//
// Grid mode: a remote Chromium cannot be attached to, so each job gets a new remote session (a new
// browser, fresh by construction) started with the filtering proxy as its `--proxy-server`.
import type { WebDriver } from 'selenium-webdriver';
import { Options } from 'selenium-webdriver/chrome.js';
import { abortable, startFilterProxy } from '@gleaner/core/plugin';
import type { FilterProxy } from '@gleaner/core/plugin';
import { CdpConnection } from './cdp.ts';
import { PROXY_BYPASS_LIST, buildSession, chromeOptions, devtoolsSocketUrl } from './launcher.ts';
import type { LaunchSettings, SeleniumBrowser } from './launcher.ts';

export interface PageContext {
  wd: WebDriver;
  cdp: CdpConnection;
  /** The DevTools session of the tab (flat mode). */
  sessionId: string;
  /** The tab's target id, which is also its WebDriver window handle and its main frame id. */
  targetId: string;
  /** Absent in Grid mode (the default context of a browser of its own). */
  browserContextId?: string;
  /** The filtering proxy every request of this context goes through. */
  proxy: FilterProxy;
  /**
   * Closes the tab and the context; the WebDriver session goes back to the browser's idle list when
   * `reuse` (default), else it is quit. Throws if the browser would not.
   */
  dispose(reuse?: boolean): Promise<void>;
}

export interface OpenPageOptions {
  /** The job's upstream proxy (resolved URL), or null for direct connections. */
  upstream: string | null;
  signal?: AbortSignal;
}

/** Attaches to the local Chromium without launching anything. */
function attachOptions(debuggerAddress: string): Options {
  const o = new Options();
  o.debuggerAddress(debuggerAddress);
  o.setAlertBehavior('dismiss');
  return o;
}

async function openLocal(browser: SeleniumBrowser, proxy: FilterProxy, signal?: AbortSignal): Promise<PageContext> {
  const cdp = browser.cdp as CdpConnection;
  const reused = browser.idleSessions.pop();
  const wdPromise = reused ? Promise.resolve(reused) : buildSession(browser.serverUrl, attachOptions(browser.debuggerAddress as string));
  wdPromise.catch(() => undefined);
  let browserContextId: string | undefined;
  let wd: WebDriver | undefined;
  try {
    ({ browserContextId } = await cdp.send<{ browserContextId: string }>('Target.createBrowserContext', {
      disposeOnDetach: false,
      proxyServer: proxy.url,
      proxyBypassList: PROXY_BYPASS_LIST,
    }));
    // Downloads refused while the tab is made (the tab loads nothing before it is navigated).
    const [, { targetId }] = await Promise.all([
      cdp.send('Browser.setDownloadBehavior', { behavior: 'deny', browserContextId }),
      cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId, width: 1280, height: 720 }),
    ]);
    // chromedriver's switch to a new tab is the slow step (~tens of ms): attach DevTools meanwhile.
    const switched = abortable(wdPromise, signal).then(async (d) => {
      wd = d;
      await d.switchTo().window(targetId);
      return d;
    });
    switched.catch(() => undefined);
    const [{ sessionId }, session] = await Promise.all([cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true }), switched]);
    const contextId = browserContextId;
    return {
      wd: session,
      cdp,
      sessionId,
      targetId,
      browserContextId,
      proxy,
      async dispose(reuse = true) {
        try {
          // Disposing the context closes its tab; the WebDriver session stays attached for the next job.
          await cdp.send('Target.disposeBrowserContext', { browserContextId: contextId });
        } catch (err) {
          await session.quit().catch(() => undefined);
          throw err;
        }
        // A session a stuck page held is not handed to the next job (it could still be busy).
        if (reuse) browser.idleSessions.push(session);
        else void session.quit().catch(() => undefined);
      },
    };
  } catch (err) {
    if (browserContextId) await cdp.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
    const late = wd ?? (await wdPromise.catch(() => undefined));
    await late?.quit().catch(() => undefined);
    throw err;
  }
}

async function openGrid(browser: SeleniumBrowser, s: LaunchSettings, proxy: FilterProxy, signal?: AbortSignal): Promise<PageContext> {
  const wdPromise = buildSession(browser.serverUrl, chromeOptions(s, proxy.url));
  wdPromise.catch(() => undefined);
  let wd: WebDriver | undefined;
  let cdp: CdpConnection | undefined;
  try {
    wd = await abortable(wdPromise, signal);
    const caps = await wd.getCapabilities();
    // Selenium Grid 4 relays DevTools at `se:cdp`; a plain remote chromedriver names Chromium's port.
    let socket = caps.get('se:cdp') as string | undefined;
    if (!socket) {
      const addr = (caps.get('goog:chromeOptions') as { debuggerAddress?: string } | undefined)?.debuggerAddress;
      if (!addr) throw new Error('the remote end offers no DevTools endpoint (se:cdp or goog:chromeOptions.debuggerAddress)');
      socket = await devtoolsSocketUrl(addr, signal);
    }
    cdp = await CdpConnection.connect(socket, { timeoutMs: 10_000, signal });
    const targetId = await wd.getWindowHandle();
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'deny' }).catch(() => undefined);
    const session = wd;
    const conn = cdp;
    return {
      wd: session,
      cdp: conn,
      sessionId,
      targetId,
      proxy,
      async dispose() {
        conn.close();
        await session.quit();
      },
    };
  } catch (err) {
    cdp?.close();
    const late = wd ?? (await wdPromise.catch(() => undefined));
    await late?.quit().catch(() => undefined);
    throw err;
  }
}

/** Opens a job's page on a leased browser; close it with `dispose()` then `proxy.close()`. */
export async function openPageContext(browser: SeleniumBrowser, s: LaunchSettings, opts: OpenPageOptions): Promise<PageContext> {
  const proxy = await startFilterProxy({ guard: s.guard, upstream: opts.upstream, logger: s.logger });
  try {
    return browser.mode === 'local' ? await openLocal(browser, proxy, opts.signal) : await openGrid(browser, s, proxy, opts.signal);
  } catch (err) {
    await proxy.close();
    throw err;
  }
}
