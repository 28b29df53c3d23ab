// Starts the long-lived half of the Selenium driver: chromedriver (spawned by us, detached, so it
// leads a process group that also holds the Chromium it launches) plus one "primary" WebDriver
// session that owns Chromium, and a browser-level DevTools connection. In Grid mode nothing is
// started here: every job gets its own remote session (see page-context.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { Builder } from 'selenium-webdriver';
import type { WebDriver } from 'selenium-webdriver';
import { Options } from 'selenium-webdriver/chrome.js';
import { CHROMIUM_BASE_FLAGS, abortable, killProcessGroup, startFilterProxy } from '@gleaner/core/plugin';
import type { FilterProxy, LaunchedBrowser, Logger, SsrfGuard } from '@gleaner/core/plugin';
import { CdpConnection } from './cdp.ts';

/** Core's CHROMIUM_BASE_FLAGS plus what chromedriver's Chromium needs here (headless, no crash reporting, a window size). */
export const CHROMIUM_FLAGS: readonly string[] = Object.freeze([
  ...CHROMIUM_BASE_FLAGS,
  '--headless=new',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--window-size=1280,720',
]);

/** How long close() waits for the last processes of the browser's group to be reaped. */
const GROUP_EXIT_WAIT_MS = 3_000;

/** Chromium sends loopback traffic around a proxy unless the bypass list says `<-loopback>`. */
export const PROXY_BYPASS_LIST = '<-loopback>';

export interface LaunchSettings {
  chromedriverPath: string;
  chromiumPath: string;
  /** Selenium Grid (or any remote WebDriver) URL; empty: a local chromedriver. */
  seleniumUrl: string;
  ignoreHttpsErrors: boolean;
  guard: SsrfGuard;
  logger?: Logger;
}

/** What the pool leases: a running Chromium (local) or the address of a Grid (remote). */
export interface SeleniumBrowser {
  readonly mode: 'local' | 'grid';
  /** chromedriver's URL (local) or the Grid's. */
  readonly serverUrl: string;
  /** Local: Chromium's DevTools `host:port`, which job sessions attach to. */
  readonly debuggerAddress?: string;
  /** Local: the browser-level DevTools connection (contexts, targets, cookies). */
  readonly cdp?: CdpConnection;
  /** chromedriver's pid (local), the leader of the process group. */
  readonly pid?: number;
  /**
   * Local: WebDriver sessions attached to this Chromium and free for the next job (attaching one
   * costs a round of chromedriver work; a job's state lives in its context, not in the session).
   */
  readonly idleSessions: WebDriver[];
}

/**
 * Chrome options shared by every session this driver creates. The local Chromium path is named only
 * for a local chromedriver: a Grid node knows where its own browser is.
 */
export function chromeOptions(s: LaunchSettings, proxyUrl: string | null): Options {
  const o = new Options();
  if (s.chromiumPath && !s.seleniumUrl) o.setChromeBinaryPath(s.chromiumPath);
  o.addArguments(...CHROMIUM_FLAGS);
  if (proxyUrl) o.addArguments(`--proxy-server=${proxyUrl}`, `--proxy-bypass-list=${PROXY_BYPASS_LIST}`);
  o.setAlertBehavior('dismiss');
  if (s.ignoreHttpsErrors) o.setAcceptInsecureCerts(true);
  return o;
}

/** A WebDriver session on `serverUrl`; selenium's environment overrides (SELENIUM_REMOTE_URL) are off. */
export function buildSession(serverUrl: string, options: Options): Promise<WebDriver> {
  return new Builder().disableEnvironmentOverrides().forBrowser('chrome').setChromeOptions(options).usingServer(serverUrl).build();
}

/** Spawns chromedriver on a port it picks itself and resolves its URL once it listens. */
function spawnChromedriver(path: string): { child: ChildProcess; ready: Promise<string> } {
  // detached: chromedriver leads a new process group, and the Chromium it starts joins it, so
  // killing -pid takes both (crashpad daemonises itself and exits when Chromium is gone).
  const child = spawn(path, ['--port=0', '--log-level=SEVERE'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /started successfully on port (\d+)/.exec(out);
      if (m) {
        out = '';
        resolve(`http://127.0.0.1:${m[1]}`);
      } else if (out.length > 65_536) out = out.slice(-4096);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (err) => reject(new Error(`cannot start chromedriver (${path}): ${err.message}`)));
    child.once('exit', (code, sig) => reject(new Error(`chromedriver exited before it listened (code ${code ?? sig}): ${out.trim().slice(-500)}`)));
  });
  ready.catch(() => undefined);
  return { child, ready };
}

/**
 * spawnChromedriver, spawned again (up to three times) when chromedriver gives up on the port it
 * picked: with --port=0 it chooses a port free on IPv6 and then binds IPv4 to the same number, which
 * another process may hold on 127.0.0.1 ("IPv4 port not available"). Any other failure is final.
 */
async function spawnListeningChromedriver(path: string, signal?: AbortSignal): Promise<{ child: ChildProcess; ready: Promise<string> }> {
  for (let attempt = 1; ; attempt++) {
    const started = spawnChromedriver(path);
    // An abort returns at once: the caller's abortable(ready, signal) then rejects and cleans up.
    const failure = await abortable(started.ready, signal).then(
      () => null,
      (err: Error) => err,
    );
    if (!failure || attempt >= 3 || signal?.aborted || !/Address already in use|port not available/i.test(failure.message)) return started;
  }
}

/** Pids of the processes (zombies included) in process group `pgid`, from /proc (empty elsewhere). */
export function processGroupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const d of entries) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) out.push(Number(d));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/**
 * Waits (bounded) until no process of the group is left, zombies included: when Chromium's main
 * process exits first, its zygotes and renderers are re-parented to init, which reaps them later.
 */
async function groupGone(pgid: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (processGroupMembers(pgid).length && Date.now() < until) await sleep(50);
}

async function devtoolsSocketUrl(debuggerAddress: string, signal?: AbortSignal): Promise<string> {
  const res = await fetch(`http://${debuggerAddress}/json/version`, { signal });
  const body = (await res.json()) as { webSocketDebuggerUrl?: string };
  if (!body.webSocketDebuggerUrl) throw new Error(`Chromium at ${debuggerAddress} did not name its DevTools socket`);
  return body.webSocketDebuggerUrl;
}

/** The `launch` of the browser pool in local mode. */
export function localLauncher(s: LaunchSettings): (signal?: AbortSignal) => Promise<LaunchedBrowser<SeleniumBrowser>> {
  return async (signal) => {
    const { child, ready } = await spawnListeningChromedriver(s.chromedriverPath, signal);
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    let primary: WebDriver | undefined;
    let cdp: CdpConnection | undefined;
    let defaultProxy: FilterProxy | undefined;
    const cleanup = async () => {
      cdp?.close();
      await defaultProxy?.close();
      if (child.pid) killProcessGroup(child.pid);
    };
    try {
      const serverUrl = await abortable(ready, signal);
      // The default context only ever shows about:blank; its traffic is filtered all the same.
      defaultProxy = await startFilterProxy({ guard: s.guard, logger: s.logger });
      primary = await abortable(buildSession(serverUrl, chromeOptions(s, defaultProxy.url)), signal);
      const caps = await primary.getCapabilities();
      const debuggerAddress = (caps.get('goog:chromeOptions') as { debuggerAddress?: string } | undefined)?.debuggerAddress;
      if (!debuggerAddress) throw new Error("chromedriver did not report Chromium's debuggerAddress");
      cdp = await CdpConnection.connect(await devtoolsSocketUrl(debuggerAddress, signal), { timeoutMs: 10_000, signal });
      if (s.ignoreHttpsErrors) await cdp.send('Security.setIgnoreCertificateErrors', { ignore: true });
      const browser: SeleniumBrowser = { mode: 'local', serverUrl, debuggerAddress, cdp, pid: child.pid, idleSessions: [] };
      const conn = cdp;
      const proxy = defaultProxy;
      const session = primary;
      return {
        browser,
        pid: child.pid,
        isAlive: () => child.exitCode === null && child.signalCode === null && !conn.closed,
        async close() {
          conn.close();
          // Attached sessions end with chromedriver; quitting them first keeps its shutdown short.
          await Promise.all(browser.idleSessions.splice(0).map((wd) => wd.quit().catch(() => undefined)));
          // quit() closes Chromium; chromedriver itself has no graceful stop worth waiting for.
          await session.quit().catch(() => undefined);
          await proxy.close();
          // Only while chromedriver runs or its group has members: an empty group's id could be reused.
          const running = child.exitCode === null && child.signalCode === null;
          if (child.pid && (running || processGroupMembers(child.pid).length)) killProcessGroup(child.pid);
          await exited;
          if (child.pid) await groupGone(child.pid, GROUP_EXIT_WAIT_MS);
        },
      };
    } catch (err) {
      await cleanup();
      throw err;
    }
  };
}

/** The `launch` of the browser pool in Grid mode: nothing to start, sessions are per job. */
export function gridLauncher(s: LaunchSettings): () => Promise<LaunchedBrowser<SeleniumBrowser>> {
  return async () => ({
    browser: { mode: 'grid', serverUrl: s.seleniumUrl, idleSessions: [] },
    async close() {},
  });
}

export { devtoolsSocketUrl };
