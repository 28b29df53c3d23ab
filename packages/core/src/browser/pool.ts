/**
 * A generic browser pool shared by the browser drivers (Playwright, Selenium), so both behave the
 * same: one long-lived browser per driver per worker, a cap on pages open at once, the browser
 * retired and relaunched after N pages, a hung browser killed by its process group, and a job's
 * signal aborting the wait for a page. The driver opens a fresh context per job on the leased
 * browser; the pool only decides which browser and when.
 */
import { GleanerError } from '../errors.ts';
import type { Logger } from '../log.ts';

/** A browser the driver's `launch` started (or connected to). */
export interface LaunchedBrowser<B> {
  browser: B;
  /** OS pid of the browser process when local; it must lead its own process group (spawn it `detached`). */
  pid?: number;
  /** Closes the browser gracefully; the pool bounds it by `closeTimeoutMs` and then kills `pid`'s group. */
  close(): Promise<void>;
  /** False once the browser is unusable (crashed, disconnected); checked before each lease. */
  isAlive?(): boolean;
}

export interface BrowserPoolOptions<B> {
  /** The driver's name, used in logs and error messages. */
  name: string;
  /**
   * Starts a browser. The signal aborts when the launch times out or the pool closes: a launch should
   * then stop and kill whatever it started (a browser it returns late is closed and killed anyway).
   */
  launch(signal?: AbortSignal): Promise<LaunchedBrowser<B>>;
  /** Leases out at once (config `browser.maxPages`). */
  maxPages: number;
  /** Pages one browser serves before it is retired (config `browser.retireAfterPages`). */
  retireAfterPages: number;
  /** Longest a launch may take (config `browser.launchTimeoutMs`). */
  launchTimeoutMs: number;
  /** Longest a close may take before the process group is killed (config `browser.closeTimeoutMs`). */
  closeTimeoutMs: number;
  logger?: Logger;
}

/** One page slot on one browser; always `release()` it in `finally`. */
export interface PageLease<B> {
  readonly browser: B;
  /**
   * Returns the slot; safe to call twice. `broken: true` says the browser misbehaved (e.g. a page or
   * context would not close): the browser is retired and, once its last lease is back, closed — and
   * killed if it will not close. Resolves once any close this release triggered has finished.
   */
  release(opts?: { broken?: boolean }): Promise<void>;
}

export interface BrowserPoolStats {
  /** Browsers running: the current one plus retired ones still serving leases or closing. */
  browsers: number;
  /** Successful launches. */
  launches: number;
  /** Browsers retired (page count reached, or released as broken). */
  retired: number;
  /** Process groups killed (hung close, dead browser, late launch). */
  killed: number;
  /** Slots taken: leases out plus acquirers whose browser is being launched. */
  activePages: number;
  /** Acquirers queued for a slot. */
  waiting: number;
  /** Pids of the running local browsers. */
  pids: number[];
}

export interface BrowserPool<B> {
  /**
   * A page slot on a live browser, launching one when needed. Waits (FIFO) while `maxPages` leases are
   * out; rejects with the signal's reason when `signal` aborts meanwhile, and with DRIVER_UNAVAILABLE
   * when the browser cannot be started or the pool is closed.
   */
  acquire(signal?: AbortSignal): Promise<PageLease<B>>;
  stats(): BrowserPoolStats;
  /** Rejects waiters and closes every browser (killing the hung ones); idempotent. */
  close(): Promise<void>;
}

interface Entry<B> {
  launched: LaunchedBrowser<B>;
  pages: number;
  active: number;
  retired: boolean;
  killed: boolean;
  closing?: Promise<void>;
}

interface Waiter {
  grant(): void;
  reject(err: unknown): void;
}

/**
 * Sends SIGKILL to the process group `-pid` (the browser and its renderers, zygotes, crashpad), falling
 * back to the process alone when it leads no group. True when something was signalled.
 */
export function killProcessGroup(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
      return true;
    } catch {
      return false;
    }
  }
}

/** Settles like `p`, or rejects with the signal's reason as soon as it aborts. */
export function abortable<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Resolves true when `p` settles within `ms`, false otherwise (a rejection counts as settled-badly: false). */
function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    p.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}

function causeText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createBrowserPool<B>(opts: BrowserPoolOptions<B>): BrowserPool<B> {
  const maxPages = Math.max(1, Math.floor(opts.maxPages));
  const retireAfter = Math.max(1, Math.floor(opts.retireAfterPages));
  const log = opts.logger?.child({ pool: opts.name });
  const entries = new Set<Entry<B>>();
  const queue: Waiter[] = [];
  const counts = { launches: 0, retired: 0, killed: 0 };
  let current: Entry<B> | null = null;
  let launching: Promise<void> | null = null;
  let launchAbort: AbortController | null = null;
  let slots = 0;
  let closing: Promise<void> | null = null;

  const closedError = () => new GleanerError('DRIVER_UNAVAILABLE', `The ${opts.name} browser pool is closed (the worker is shutting down); retry the request.`);

  function kill(e: Entry<B>, why: string): void {
    const pid = e.launched.pid;
    if (pid === undefined || e.killed) return;
    e.killed = true;
    if (killProcessGroup(pid)) {
      counts.killed++;
      log?.warn({ pid, why }, 'browser process group killed');
    }
  }

  /** Closes a browser gracefully within closeTimeoutMs, else (or when close fails) kills its group. */
  function closeEntry(e: Entry<B>): Promise<void> {
    e.closing ??= (async () => {
      const closed = await settlesWithin(
        Promise.resolve().then(() => e.launched.close()),
        opts.closeTimeoutMs,
      );
      if (!closed) kill(e, `close did not finish within ${opts.closeTimeoutMs} ms`);
      else log?.info({ pid: e.launched.pid, pages: e.pages }, 'browser closed');
      entries.delete(e);
    })();
    return e.closing;
  }

  function retire(e: Entry<B>, why: string): Promise<void> {
    if (current === e) current = null;
    if (!e.retired) {
      e.retired = true;
      counts.retired++;
      log?.info({ pid: e.launched.pid, pages: e.pages, why }, 'browser retired');
    }
    return e.active === 0 ? closeEntry(e) : Promise.resolve();
  }

  function dropDead(e: Entry<B>): void {
    if (current === e) current = null;
    e.retired = true;
    log?.warn({ pid: e.launched.pid }, 'browser found dead; relaunching');
    kill(e, 'browser found dead');
    if (e.active === 0) void closeEntry(e);
  }

  function startLaunch(): Promise<void> {
    const ac = new AbortController();
    launchAbort = ac;
    let timer: NodeJS.Timeout | undefined;
    const started = Promise.resolve().then(() => opts.launch(ac.signal));
    // Rejects on the timeout, or at once when close() aborts the launch.
    const timedOut = new Promise<never>((_, reject) => {
      ac.signal.addEventListener('abort', () => reject(ac.signal.reason), { once: true });
      timer = setTimeout(() => ac.abort(new Error(`it did not start within ${opts.launchTimeoutMs} ms (browser.launchTimeoutMs)`)), opts.launchTimeoutMs);
      timer.unref();
    });
    timedOut.catch(() => undefined);
    const p = (async () => {
      try {
        const launched = await Promise.race([started, timedOut]);
        if (closing) throw closedError();
        const e: Entry<B> = { launched, pages: 0, active: 0, retired: false, killed: false };
        entries.add(e);
        current = e;
        counts.launches++;
        log?.info({ pid: launched.pid, launches: counts.launches }, 'browser launched');
      } catch (err) {
        if (!ac.signal.aborted) ac.abort(err);
        // Whatever started late (after a timeout or close) is closed, and killed if it hangs.
        const late = started.then(
          (launched) => {
            const e: Entry<B> = { launched, pages: 0, active: 0, retired: true, killed: false };
            entries.add(e);
            return closeEntry(e);
          },
          () => undefined,
        );
        if (closing) await settlesWithin(late, opts.closeTimeoutMs);
        if (err instanceof GleanerError) throw err;
        log?.warn({ err: causeText(err) }, 'browser launch failed');
        throw new GleanerError(
          'DRIVER_UNAVAILABLE',
          `The ${opts.name} browser could not be started: ${causeText(err)}. Check the browser settings ` +
            '(browser.chromiumPath, browser.wsEndpoint, browser.seleniumUrl) and that the machine has memory for a browser; the next request retries the launch.',
          { cause: err },
        );
      } finally {
        clearTimeout(timer);
        launching = null;
        launchAbort = null;
      }
    })();
    p.catch(() => undefined); // acquirers that gave up must not leave an unhandled rejection behind
    launching = p;
    return p;
  }

  /** Counts a page on a live, unretired browser, launching one when there is none. */
  async function browserForPage(signal?: AbortSignal): Promise<Entry<B>> {
    for (;;) {
      if (closing) throw closedError();
      signal?.throwIfAborted();
      const e = current;
      if (e && e.launched.isAlive?.() === false) {
        dropDead(e);
        continue;
      }
      if (e) {
        e.active++;
        e.pages++;
        if (e.pages >= retireAfter) void retire(e, `served ${e.pages} pages (browser.retireAfterPages)`);
        return e;
      }
      await abortable(launching ?? startLaunch(), signal);
    }
  }

  function takeSlot(signal?: AbortSignal): Promise<void> {
    if (slots < maxPages && queue.length === 0) {
      slots++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          slots++;
          resolve();
        },
        reject: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  }

  function freeSlot(): void {
    slots--;
    queue.shift()?.grant();
  }

  function lease(e: Entry<B>): PageLease<B> {
    let released = false;
    return {
      browser: e.launched.browser,
      async release(ro = {}) {
        if (released) return;
        released = true;
        e.active--;
        freeSlot();
        if (ro.broken) {
          log?.warn({ pid: e.launched.pid }, 'page released as broken; retiring its browser');
          await retire(e, 'a page misbehaved');
        } else if (e.retired && e.active === 0) {
          await closeEntry(e);
        }
      },
    };
  }

  return {
    async acquire(signal) {
      if (closing) throw closedError();
      signal?.throwIfAborted();
      await takeSlot(signal);
      try {
        return lease(await browserForPage(signal));
      } catch (err) {
        freeSlot();
        throw err;
      }
    },
    stats() {
      const pids: number[] = [];
      for (const e of entries) if (e.launched.pid !== undefined && !e.killed) pids.push(e.launched.pid);
      return { browsers: entries.size, ...counts, activePages: slots, waiting: queue.length, pids };
    },
    close() {
      closing ??= (async () => {
        const err = closedError();
        for (const w of queue.splice(0)) w.reject(err);
        launchAbort?.abort(err);
        await launching?.catch(() => undefined);
        current = null;
        await Promise.all(
          [...entries].map((e) => {
            e.retired = true;
            return closeEntry(e);
          }),
        );
      })();
      return closing;
    },
  };
}
