// One Playwright "page" for one job: a fresh BrowserContext behind its own filtering proxy, the
// navigation (goto) and the interactions. Closed in the job's finally; a context that will not close
// marks the browser as hung for the pool.
import type { BrowserContext, Page, Request, Response } from 'playwright-core';
import { GleanerError, isGleanerError, localStorageInitScript, readReserveMs, refusedRequest, settlesWithin } from '@gleaner/core/plugin';
import type {
  ActionOptions,
  BlockedRequest,
  Cookie,
  DriverSession,
  FilterProxy,
  GotoOptions,
  LocalStorageState,
  Logger,
  PageOutline,
  PageSnapshot,
  ScrollOptions,
  SsrfGuard,
  WaitForOptions,
} from '@gleaner/core/plugin';
import { addCookies } from './cookies.ts';
import { abortError, closedError, isClosedError, toNavigationError, tooLarge, tooManyRedirects } from './errors.ts';
import { Interactions } from './interact.ts';
import { buildSnapshot, checkProxyAnswer } from './snapshot.ts';
import { NetworkTracker } from './tracker.ts';

export interface PlaywrightSessionSettings {
  driverName: string;
  guard: SsrfGuard;
  context: BrowserContext;
  page: Page;
  proxy: FilterProxy;
  viaUpstream: boolean;
  cookies: readonly Cookie[];
  /** Local storage by origin to start with (written by an init script). */
  localStorage?: Readonly<LocalStorageState>;
  totalMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Longest wait for in-flight requests after `load` (0: none). */
  settleMs: number;
  closeTimeoutMs: number;
  signal?: AbortSignal;
  logger?: Logger;
  /** Gives the page slot back; `broken` when the context would not close. */
  release(broken: boolean): Promise<void>;
  /** Called once, when the first navigation has loaded (the driver then makes its spare page). */
  onFirstLoad?: () => void;
}

export class PlaywrightSession implements DriverSession {
  readonly #s: PlaywrightSessionSettings;
  readonly #tracker: NetworkTracker;
  readonly #ui: Interactions;
  #closing: Promise<void> | null = null;
  #navigated = false;
  #requested = '';
  #onSessionAbort: (() => void) | null = null;
  /** A failed navigation being stopped (about:blank); later calls wait for it. */
  #cancelling: Promise<void> | null = null;
  /** Requests of this page the request check refused (literal addresses), next to the proxy's list. */
  readonly #routeBlocked: BlockedRequest[] = [];

  constructor(settings: PlaywrightSessionSettings) {
    this.#s = settings;
    this.#tracker = new NetworkTracker(settings.page);
    // The request check (route-check.ts) fails what it refuses with ERR_BLOCKED_BY_CLIENT; the same
    // guard names the address again here (its verdict on a literal address depends on the URL alone).
    settings.page.on('requestfailed', (req: Request) => {
      if (!req.failure()?.errorText.includes('ERR_BLOCKED_BY_CLIENT')) return;
      const refused = refusedRequest(settings.guard, req.url());
      if (refused && this.#routeBlocked.length < 1000) this.#routeBlocked.push(refused);
    });
    this.#ui = new Interactions({
      page: settings.page,
      tracker: this.#tracker,
      defaultTimeoutMs: settings.totalMs,
      guardCall: (what, fn) => this.#call(what, fn),
    });
    const signal = settings.signal;
    if (signal) {
      // The job's signal aborts whatever runs and closes the page.
      this.#onSessionAbort = () => void this.close();
      signal.addEventListener('abort', this.#onSessionAbort, { once: true });
    }
  }

  get closed(): boolean {
    return this.#closing !== null;
  }

  #blockedList(): BlockedRequest[] {
    return this.#routeBlocked.length ? [...this.#s.proxy.blocked, ...this.#routeBlocked] : this.#s.proxy.blocked;
  }

  async goto(url: string, opts: GotoOptions = {}): Promise<PageSnapshot> {
    const s = this.#s;
    if (this.closed) throw s.signal?.aborted ? abortError(s.signal, url) : closedError(`asked to load ${url}`);
    const target = s.guard.checkUrl(url); // URL_INVALID / URL_BLOCKED before the browser sees it
    const requested = target.href;
    this.#ui.markAction();
    this.#requested = requested;
    const started = Date.now();
    const signals = [s.signal, opts.signal].filter((x): x is AbortSignal => x !== undefined);
    for (const sig of signals) if (sig.aborted) throw abortError(sig, requested);
    if (!this.#navigated) {
      this.#navigated = true;
      await addCookies(s.context, s.cookies, target.hostname, s.logger);
      const storage = localStorageInitScript(s.localStorage);
      if (storage) await s.context.addInitScript({ content: storage });
    }
    const before = { blocked: s.proxy.blocked.length, route: this.#routeBlocked.length, failures: s.proxy.failures.length };
    let failedUrl: string | undefined;
    let stop!: (err: GleanerError) => void;
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    stopped.catch(() => undefined);
    let readTimer: NodeJS.Timeout | undefined;
    const aborters = signals.map((sig) => {
      const fn = () => stop(abortError(sig, requested));
      sig.addEventListener('abort', fn, { once: true });
      return () => sig.removeEventListener('abort', fn);
    });
    this.#tracker.observer = {
      onRequest: (_req: Request, redirects: string[]) => {
        // Only this navigation's chain: a stopped navigation (a redirect loop refused a moment ago)
        // can still be followed by the browser and report its hops while the next goto runs.
        if (redirects.length > s.maxRedirects && sameUrl(redirects[0], requested)) stop(tooManyRedirects(s.maxRedirects, requested, redirects));
      },
      onResponse: (res: Response) => {
        const h = res.headers();
        if (h['x-gleaner-blocked'] || h['x-gleaner-proxy-error']) {
          void checkProxyAnswer(res, h, this.#blockedList()).catch((err: GleanerError) => stop(err));
        }
        const length = Number(h['content-length']);
        if ((!h['content-encoding'] || h['content-encoding'] === 'identity') && Number.isFinite(length) && length > s.maxBytes)
          stop(tooLarge(s.maxBytes, res.url()));
      },
      onFailed: (req: Request) => {
        failedUrl = req.url();
      },
    };
    const remaining = () => Math.max(1, s.totalMs - (Date.now() - started));
    const reserve = readReserveMs(s.totalMs);
    const beforeRead = () => Math.max(1, remaining() - reserve);
    try {
      // A failed navigation of this session may still be being stopped.
      if (this.#cancelling) await Promise.race([this.#cancelling, stopped]);
      const navigation = s.page.goto(requested, { timeout: remaining(), waitUntil: 'domcontentloaded', referer: opts.referer });
      navigation.catch(() => undefined);
      const response = await Promise.race([navigation, stopped]);
      // The document is parsed; give its subresources until `load` (within the budget, less the
      // read's reserve), then a short settle for requests still running (usually none: free).
      await Promise.race([s.page.waitForLoadState('load', { timeout: beforeRead() }).catch(() => undefined), stopped]);
      if (s.settleMs > 0 && this.#tracker.inflight > 0) await Promise.race([this.#tracker.idle(0, Math.min(s.settleMs, beforeRead())), stopped]);
      const main = response ?? this.#tracker.lastMain;
      const first = s.onFirstLoad;
      s.onFirstLoad = undefined;
      first?.();
      if (main && main.request().redirectedFrom()) {
        // Also caught early by the tracker; this covers a chain the observer saw only in part.
        let hops = 0;
        for (let r = main.request().redirectedFrom(); r; r = r.redirectedFrom()) hops++;
        if (hops > s.maxRedirects) throw tooManyRedirects(s.maxRedirects, requested, []);
      }
      // Reading the page has what is left of the budget, and at least the reserve (a page whose
      // script spins after `load` would otherwise hold the read forever).
      readTimer = setTimeout(
        () => stop(new GleanerError('FETCH_TIMEOUT', `${requested} did not load within ${s.totalMs} ms (fetch.timeoutMs): reading the page did not finish`)),
        Math.max(remaining(), reserve),
      );
      return await Promise.race([
        buildSnapshot({
          driverName: s.driverName,
          page: s.page,
          context: s.context,
          response: main,
          latest: () => this.#tracker.lastMain,
          requestedUrl: requested,
          maxBytes: s.maxBytes,
          blockedList: this.#blockedList(),
          withFrames: false,
          content: opts.content,
        }),
        stopped,
      ]);
    } catch (err) {
      const mapped = toNavigationError(err, {
        url: requested,
        totalMs: s.totalMs,
        maxRedirects: s.maxRedirects,
        failedUrl,
        newlyBlocked: [...s.proxy.blocked.slice(before.blocked), ...this.#routeBlocked.slice(before.route)],
        newFailures: s.proxy.failures.slice(before.failures),
        viaProxy: s.viaUpstream,
        closed: this.closed,
      });
      // Stopped in the background (a page that spins holds it until its timeout): the error is
      // reported now, and the next call on this session waits for the stop.
      if (!this.closed) this.#cancelling = this.#cancelNavigation();
      throw mapped;
    } finally {
      clearTimeout(readTimer);
      this.#tracker.observer = null;
      for (const off of aborters) off();
    }
  }

  /** Stops a navigation we gave up on, so the session stays usable for the next goto. */
  async #cancelNavigation(): Promise<void> {
    await this.#cancelling;
    await this.#s.page.goto('about:blank', { timeout: Math.min(5000, this.#s.closeTimeoutMs) }).catch(() => undefined);
  }

  /** Runs an interaction: refused once closed, interrupted (with the signal's reason) when the job aborts. */
  async #call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    const signal = this.#s.signal;
    if (this.closed) throw signal?.aborted ? abortError(signal, this.#requested || what) : closedError(what);
    try {
      await this.#cancelling;
      return await fn();
    } catch (err) {
      if (signal?.aborted) throw abortError(signal, this.#requested || what);
      if (this.closed || isClosedError(err)) throw closedError(what);
      throw err;
    }
  }

  click(target: string, opts?: ActionOptions): Promise<void> {
    return this.#ui.click(target, opts);
  }

  type(target: string, text: string, opts?: ActionOptions & { clear?: boolean; pressEnter?: boolean }): Promise<void> {
    return this.#ui.type(target, text, opts);
  }

  select(target: string, values: string | string[], opts?: ActionOptions): Promise<void> {
    return this.#ui.select(target, values, opts);
  }

  scroll(opts: ScrollOptions): Promise<void> {
    return this.#ui.scroll(opts);
  }

  waitFor(opts: WaitForOptions): Promise<void> {
    return this.#ui.waitFor(opts);
  }

  outline(): Promise<PageOutline> {
    return this.#ui.outline();
  }

  /** Every origin's local storage in the context (what a profile saves). */
  localStorage(): Promise<LocalStorageState> {
    return this.#call('reading the local storage', async () => {
      const state = await this.#s.context.storageState();
      return Object.fromEntries(state.origins.map((o) => [o.origin, Object.fromEntries(o.localStorage.map((i) => [i.name, i.value]))]));
    });
  }

  snapshot(): Promise<PageSnapshot> {
    const s = this.#s;
    return this.#call('taking a snapshot', async () => {
      const work = buildSnapshot({
        driverName: s.driverName,
        page: s.page,
        context: s.context,
        response: this.#tracker.lastMain,
        latest: () => this.#tracker.lastMain,
        requestedUrl: this.#requested || s.page.url(),
        maxBytes: s.maxBytes,
        blockedList: this.#blockedList(),
        withFrames: true,
      });
      work.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new GleanerError('FETCH_TIMEOUT', `reading the page took longer than ${s.totalMs} ms (fetch.timeoutMs)`)), s.totalMs);
      });
      try {
        return await Promise.race([work, deadline]);
      } catch (err) {
        if (isGleanerError(err) || isClosedError(err)) throw err;
        throw new GleanerError('FETCH_FAILED', `could not read the page: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, { cause: err });
      } finally {
        clearTimeout(timer);
      }
    });
  }

  /** Closes the context (bounded by closeTimeoutMs), the proxy, and gives the slot back; idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const s = this.#s;
      if (this.#onSessionAbort) s.signal?.removeEventListener('abort', this.#onSessionAbort);
      this.#tracker.detach();
      let broken = false;
      const closing = s.context.close();
      closing.catch(() => undefined);
      if (!(await settlesWithin(closing, s.closeTimeoutMs))) {
        broken = true;
        s.logger?.warn({ closeTimeoutMs: s.closeTimeoutMs }, 'playwright: the browser context did not close in time; retiring the browser');
      }
      await s.proxy.close().catch(() => undefined);
      await s.release(broken);
    })();
    return this.#closing;
  }
}

/** Two URLs equal once parsed (the browser's form against ours); false for an unparsable one. */
function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}
