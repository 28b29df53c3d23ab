// Starts the browser the pool leases pages on: the system Chromium (never a download) or a remote
// browser. A local browser's pid is read over CDP so a hung one can be killed by process group.
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { CHROMIUM_BASE_FLAGS } from '@gleaner/core/plugin';
import type { LaunchedBrowser, Logger } from '@gleaner/core/plugin';

/** The flags of every local launch (core's CHROMIUM_BASE_FLAGS; Playwright adds --headless itself). */
export const CHROMIUM_ARGS: readonly string[] = CHROMIUM_BASE_FLAGS;

export interface LaunchSettings {
  /** Local Chromium executable (browser.chromiumPath). */
  chromiumPath: string;
  /** Remote browser: a Playwright ws:// endpoint, or an http(s):// CDP URL (browser.wsEndpoint). */
  wsEndpoint?: string;
  timeoutMs: number;
  logger?: Logger;
}

/** How the browser was started, for logs and the tests that check it. */
export interface LaunchRecord {
  mode: 'launch' | 'connect' | 'connectOverCDP';
  executablePath?: string;
  args?: readonly string[];
  endpoint?: string;
}

/**
 * The browser's own pid, asked over CDP (`SystemInfo.getProcessInfo`). Playwright spawns a local
 * Chromium `detached`, so that pid leads the process group of the browser and its children. Reading
 * it this way keeps the plain `launch()` pipe transport (launchServer()+connect adds a websocket hop
 * to every protocol message).
 */
async function browserPid(browser: Browser): Promise<number | undefined> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
    return info.processInfo.find((p) => p.type === 'browser')?.id;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** Launches (or connects to) one browser; `record` is told how, for tests and logs. */
export async function launchBrowser(s: LaunchSettings, signal?: AbortSignal, record?: (r: LaunchRecord) => void): Promise<LaunchedBrowser<Browser>> {
  let browser: Browser;
  let pid: number | undefined;
  const endpoint = s.wsEndpoint?.trim();
  if (endpoint) {
    const cdp = /^https?:/i.test(endpoint);
    record?.({ mode: cdp ? 'connectOverCDP' : 'connect', endpoint });
    browser = cdp ? await chromium.connectOverCDP(endpoint, { timeout: s.timeoutMs }) : await chromium.connect(endpoint, { timeout: s.timeoutMs });
  } else {
    record?.({ mode: 'launch', executablePath: s.chromiumPath, args: CHROMIUM_ARGS });
    browser = await chromium.launch({
      executablePath: s.chromiumPath,
      headless: true,
      args: [...CHROMIUM_ARGS],
      timeout: s.timeoutMs,
      // The pool owns the browser's lifetime; Playwright must not kill it on our signals.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    try {
      pid = await browserPid(browser);
    } catch (err) {
      s.logger?.warn({ err: err instanceof Error ? err.message : String(err) }, 'playwright: could not read the browser pid; a hung browser cannot be killed');
    }
  }
  if (signal?.aborted) {
    // The pool gave up on this launch (timeout or shutdown): it closes and kills what it gets back.
    s.logger?.debug('playwright: launch finished after it was abandoned');
  }
  return {
    browser,
    pid,
    close: () => browser.close(),
    isAlive: () => browser.isConnected(),
  };
}
