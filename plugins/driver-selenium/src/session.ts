// One job's page on the Selenium driver: goto() through WebDriver, with DevTools filling in what
// WebDriver does not report (status, headers, redirects, cookies, size), and the interactions.
import {
  FILTER_PROXY_BLOCKED_HEADER,
  FILTER_PROXY_ERROR_HEADER,
  GleanerError,
  classifyMediaType,
  isGleanerError,
  localStorageInitScript,
  parseContentType,
  READ_LOCAL_STORAGE_SCRIPT,
  readReserveMs,
  charsetLabel,
  settlesWithin,
  showsDocument,
} from '@gleaner/core/plugin';
import type {
  ActionOptions,
  Cookie,
  DriverSession,
  GotoOptions,
  LocalStorageState,
  Logger,
  PageOutline,
  PageSnapshot,
  ScrollOptions,
  SsrfGuard,
  WaitForOptions,
} from '@gleaner/core/plugin';
import { getCookies, setCookies } from './content.ts';
import type { ContentKind } from '@gleaner/core/plugin';
import {
  abortError,
  blockedError,
  browserError,
  findBlocked,
  netError,
  proxyFailure,
  timeoutError,
  tooLarge,
  unsupported,
  webDriverErrorName,
} from './errors.ts';
import { Interactions } from './interact.ts';
import type { PageContext } from './page-context.ts';
import type { DocResponse, Navigation, PageTracker } from './tracker.ts';

export interface SeleniumSessionSettings {
  driverName: string;
  ctx: PageContext;
  tracker: PageTracker;
  guard: SsrfGuard;
  cookies: readonly Cookie[];
  /** Local storage by origin to start with (written by a script run before each document's own). */
  localStorage?: Readonly<LocalStorageState>;
  totalMs: number;
  maxBytes: number;
  /** After load, the longest wait for requests still in flight (0: none). */
  settleMs: number;
  closeTimeoutMs: number;
  /** True when the job goes through an upstream proxy (named in error messages). */
  viaProxy: boolean;
  signal?: AbortSignal;
  logger?: Logger;
  /** Returns the browser slot; `broken` when the page would not close cleanly. */
  release(broken: boolean): Promise<void>;
}

/** How long a stopped navigation or cut-off read may take to return in WebDriver before the page counts as hung. */
const STOP_GRACE_MS = 5_000;

interface PageRead {
  html: string;
  charset?: string;
  url: string;
}

/** A text body as served: a BOM, else the header's charset, else UTF-8 (as the HTTP driver decodes). */
function decodeText(bytes: Buffer, label: string | undefined): { html: string; charset: string } {
  let decoder: TextDecoder;
  const bom =
    bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
      ? 'utf-8'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : bytes[0] === 0xff && bytes[1] === 0xfe
          ? 'utf-16le'
          : undefined;
  try {
    decoder = new TextDecoder(bom ?? label ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return { html: decoder.decode(bytes), charset: decoder.encoding };
}

function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
    p.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

export class SeleniumSession implements DriverSession {
  #s: SeleniumSessionSettings;
  #ui: Interactions;
  #closed = false;
  #cookiesSet = false;
  #broken = false;
  /** A navigation stopped or a page read cut off whose WebDriver call may still be running. */
  #stuck: Promise<unknown> | null = null;
  /** The page-load timeout WebDriver was last given (set again only when it changes). */
  #pageLoadMs = 0;

  constructor(settings: SeleniumSessionSettings) {
    this.#s = settings;
    this.#ui = new Interactions({ ctx: settings.ctx, tracker: settings.tracker, defaultTimeoutMs: settings.totalMs, signal: settings.signal });
  }

  async goto(url: string, opts: GotoOptions = {}): Promise<PageSnapshot> {
    if (this.#closed) throw new GleanerError('INTERNAL', 'goto() on a closed driver session');
    const s = this.#s;
    const target = s.guard.checkUrl(url);
    const signals = [s.signal, opts.signal].filter((x): x is AbortSignal => x !== undefined);
    for (const sig of signals) if (sig.aborted) throw abortError(sig, target.href);
    this.#ui.markAction();
    await this.#notStuck();
    const { ctx, tracker } = s;
    if (!this.#cookiesSet) {
      this.#cookiesSet = true;
      // A cookie without a domain binds to the host of the first navigation.
      const bound = s.cookies.map((c) => (c.domain ? c : { ...c, domain: target.hostname.replace(/^\[|\]$/g, '').toLowerCase() }));
      const refused = await setCookies(ctx.cdp, ctx.browserContextId, bound).catch((err: unknown) => {
        throw browserError('setting the cookies', err);
      });
      if (refused.length) s.logger?.warn({ cookies: refused }, 'selenium driver: the browser refused some cookies');
      const storage = localStorageInitScript(s.localStorage);
      if (storage)
        await ctx.cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: storage }, ctx.sessionId).catch((err: unknown) => {
          throw browserError('setting the local storage', err);
        });
    }
    const since = Date.now();
    let stopped: GleanerError | null = null;
    let hung: (() => void) | null = null;
    const hangs = new Promise<never>((_, reject) => {
      hung = () => reject(new Error('the navigation did not stop'));
    });
    hangs.catch(() => undefined);
    const stop = (err: GleanerError) => {
      if (stopped) return;
      stopped = err;
      ctx.cdp.send('Page.stopLoading', {}, ctx.sessionId).catch(() => undefined);
      // Reported at once; WebDriver's get() may return later (the next call waits for it, briefly).
      hung?.();
    };
    const nav = tracker.begin(target.href, (n) => n.error && stop(n.error), opts.referer);
    const onAbort = (ev: Event) => stop(abortError(ev.target as AbortSignal, target.href));
    for (const sig of signals) sig.addEventListener('abort', onAbort, { once: true });
    const timedOut = () => stop(timeoutError(target.href, s.totalMs));
    let deadline = setTimeout(timedOut, s.totalMs);
    // The document came in full but `load` has not (a subresource that never finishes): at the read's
    // reserve, loading stops and the page is read as it is, as driver-playwright does. get() then has
    // the reserve to return before the deadline stops it.
    const reserve = readReserveMs(s.totalMs);
    const loadCut = setTimeout(
      () => {
        if (stopped || !nav.response || !nav.finished || nav.loaded || nav.failed || nav.error) return;
        ctx.cdp.send('Page.stopLoading', {}, ctx.sessionId).catch(() => undefined);
        clearTimeout(deadline);
        deadline = setTimeout(timedOut, reserve);
      },
      Math.max(1, s.totalMs - reserve),
    );
    let getting: Promise<void> | undefined;
    try {
      // chromedriver's own page-load timeout is a backstop behind ours.
      if (this.#pageLoadMs !== s.totalMs + STOP_GRACE_MS) {
        await ctx.wd.manage().setTimeouts({ pageLoad: s.totalMs + STOP_GRACE_MS });
        this.#pageLoadMs = s.totalMs + STOP_GRACE_MS;
      }
      if (stopped) throw stopped;
      getting = ctx.wd.get(target.href);
      getting.catch(() => undefined);
      await Promise.race([getting, hangs]);
    } catch (err) {
      if ((err as Error).message === 'the navigation did not stop') {
        if (getting) this.#stuck = getting;
        throw stopped ?? timeoutError(target.href, s.totalMs);
      }
      if (stopped) throw stopped;
      if (nav.error) throw nav.error;
      if (webDriverErrorName(err) === 'TimeoutError') throw timeoutError(target.href, s.totalMs);
      const text = err instanceof Error ? err.message : String(err);
      const net = /net::ERR_[A-Z_]+/.exec(text);
      if (!net) throw browserError(`loading ${target.href}`, err);
      nav.failed ??= { errorText: net[0] };
    } finally {
      clearTimeout(deadline);
      clearTimeout(loadCut);
      for (const sig of signals) sig.removeEventListener('abort', onAbort);
      tracker.end();
    }
    await tracker.sync(nav);
    // Requests still running after load (late XHRs filling the page) get a short, bounded settle,
    // ending the read's reserve before the deadline.
    const left = () => s.totalMs - (Date.now() - since);
    if (!stopped && !nav.error && s.settleMs > 0 && tracker.inflight > 0 && left() - reserve > 0) {
      await tracker.waitNetworkIdle(0, Math.min(s.settleMs, left() - reserve), AbortSignal.any(signals)).catch(() => undefined);
      const aborted = signals.find((sig) => sig.aborted);
      if (aborted) throw abortError(aborted, target.href);
    }
    if (stopped) throw stopped;
    if (nav.error) throw nav.error;
    return this.#withinBudget(this.#shownSnapshot(nav, target.href, since, opts.content !== false), Math.max(left(), reserve), target.href, signals);
  }

  /**
   * The snapshot of `nav`, unless the page replaced itself after load (a script, a meta refresh):
   * then of the navigation whose document the page shows, so status, headers and URL match the HTML.
   */
  async #shownSnapshot(nav: Navigation, requestedUrl: string, since: number, content: boolean): Promise<PageSnapshot> {
    const { tracker } = this.#s;
    const first = await this.#snapshotOf(nav, requestedUrl, since, content);
    await tracker.barrier();
    const latest = tracker.current;
    const res = latest.response;
    if (latest === nav || !res || latest.failed || latest.error || !showsDocument(res.status, res.url, first.finalUrl)) return first;
    return this.#snapshotOf(latest, requestedUrl, since, content);
  }

  /**
   * Reading the page has a deadline: a page whose script spins after load would hold the WebDriver
   * call (and every later one on this browser, chromedriver runs one at a time) until chromedriver's
   * script timeout. The session gives up at the deadline; while the cut-off call still runs, the
   * session refuses further calls, and closing it then retires the browser.
   */
  async #withinBudget<T>(work: Promise<T>, leftMs: number, url: string, signals: AbortSignal[]): Promise<T> {
    work.catch(() => undefined);
    const aborted = signals.find((sig) => sig.aborted);
    if (aborted) {
      this.#stuck = work;
      throw abortError(aborted, url);
    }
    let timer: NodeJS.Timeout | undefined;
    let onAbort: ((ev: Event) => void) | undefined;
    const cut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          this.#stuck = work;
          reject(timeoutError(url, this.#s.totalMs));
        },
        Math.max(1, leftMs),
      );
      onAbort = (ev: Event) => {
        this.#stuck = work;
        reject(abortError(ev.target as AbortSignal, url));
      };
      for (const sig of signals) sig.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work, cut]);
    } finally {
      clearTimeout(timer);
      for (const sig of signals) if (onAbort) sig.removeEventListener('abort', onAbort);
    }
  }

  /** True when a stopped navigation or cut-off read still holds WebDriver after STOP_GRACE_MS. */
  async #stillStuck(): Promise<boolean> {
    const stuck = this.#stuck;
    if (!stuck) return false;
    const done = await settlesWithin(stuck, STOP_GRACE_MS);
    this.#stuck = null;
    // Held past the grace: WebDriver is stuck on this page for good (the browser is retired on close).
    if (!done) this.#broken = true;
    return !done;
  }

  /** Refuses calls once WebDriver is held by a page that stopped answering (they would queue behind it). */
  async #notStuck(): Promise<void> {
    if (this.#broken || (await this.#stillStuck())) {
      throw new GleanerError('DRIVER_UNAVAILABLE', 'the page stopped answering (a script that does not return); this session cannot go on, open a new one');
    }
  }

  /** `content` false: the navigation's outcome only (`html: ''`, no cookies; plugin API 1.1 `GotoOptions.content`). */
  async #snapshotOf(nav: Navigation, requestedUrl: string, since: number, content = true): Promise<PageSnapshot> {
    const s = this.#s;
    const { ctx, tracker } = s;
    if (nav.error) throw nav.error;
    if (nav.failed && !nav.response) {
      const hop = nav.url;
      const blocked = findBlocked(tracker.routeBlocked, hop, since) ?? findBlocked(ctx.proxy.blocked, hop, since);
      if (blocked) throw blockedError(blocked);
      const failure = findBlocked(ctx.proxy.failures, hop, since);
      if (failure) throw proxyFailure(failure, hop, s.viaProxy);
      throw netError(nav.failed.errorText, hop, s.viaProxy);
    }
    const res = nav.response;
    if (!res) throw new GleanerError('FETCH_FAILED', `${requestedUrl} sent no response the browser could show`);
    const headers = tracker.headersOf(res);
    if (headers[FILTER_PROXY_BLOCKED_HEADER]) {
      const blocked = findBlocked(ctx.proxy.blocked, res.url, since);
      throw blocked ? blockedError(blocked) : new GleanerError('URL_BLOCKED', `blocked: ${res.url} was refused by the SSRF guard`);
    }
    if (headers[FILTER_PROXY_ERROR_HEADER]) {
      // The filtering proxy's own answer: the target (or the upstream proxy) could not be reached.
      const failure = findBlocked(ctx.proxy.failures, res.url, since) ?? { url: res.url, reason: `the proxy answered ${res.status}`, at: Date.now() };
      throw proxyFailure(failure, res.url, s.viaProxy);
    }
    const media = parseContentType(headers['content-type']);
    const kind: ContentKind = classifyMediaType(media.type || res.mimeType || 'text/html');
    if (kind === 'unsupported') throw unsupported(res.url, media.type || res.mimeType);
    if (!content) {
      const charset = charsetLabel(media.charset);
      return {
        requestedUrl,
        // The fragment asked for stays (the document is the same); WebDriver is not asked for the URL.
        finalUrl: requestedUrl.split('#')[0] === res.url.split('#')[0] ? requestedUrl : res.url,
        status: res.status,
        headers,
        contentType: media.type,
        ...(charset ? { charset } : {}),
        html: '',
        redirects: [...nav.redirects],
        driver: s.driverName,
      };
    }
    const page = await this.#read(kind, res, media.charset, nav.rawBody);
    if (Buffer.byteLength(page.html) > s.maxBytes) throw tooLarge(s.maxBytes, res.url);
    const cookies = await getCookies(ctx.cdp, ctx.browserContextId).catch((err: unknown) => {
      throw browserError('reading the cookies', err);
    });
    return {
      requestedUrl,
      finalUrl: page.url || res.url,
      status: res.status,
      headers,
      contentType: media.type,
      ...(page.charset ? { charset: page.charset } : {}),
      html: page.html,
      redirects: [...nav.redirects],
      driver: s.driverName,
      cookies,
    };
  }

  /** The document: the rendered DOM for HTML (same-origin iframes inlined), the body itself for text. */
  async #read(kind: ContentKind, res: DocResponse, headerCharset: string | undefined, raw: Buffer | undefined): Promise<PageRead> {
    const { ctx } = this.#s;
    const info = await this.#ui.pageInfo(kind === 'html').catch((err: unknown) => {
      throw browserError(`reading ${res.url}`, err);
    });
    if (kind === 'html') return { html: info.html ?? '', charset: charsetLabel(info.charset), url: info.url };
    if (raw) return { ...decodeText(raw, headerCharset), url: info.url };
    try {
      const body = await ctx.cdp.send<{ body: string; base64Encoded: boolean }>('Network.getResponseBody', { requestId: res.requestId }, ctx.sessionId);
      if (body.base64Encoded) return { ...decodeText(Buffer.from(body.body, 'base64'), headerCharset), url: info.url };
      return { html: body.body, charset: info.charset, url: info.url };
    } catch {
      // The body is gone from DevTools' buffer (a large or evicted response): the shown text then.
      return { html: info.text ?? '', charset: info.charset, url: info.url };
    }
  }

  /** Interactions: refused on a closed session; WebDriver failures become GleanerErrors. */
  async #interact<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new GleanerError('INTERNAL', `${what} on a closed driver session`);
    try {
      await this.#notStuck();
      return await fn();
    } catch (err) {
      if (isGleanerError(err)) throw err;
      // The browser went away under the page: retryable. Anything else is about the page or the action.
      if (this.#s.tracker.disconnected || webDriverErrorName(err) === 'NoSuchWindowError' || webDriverErrorName(err) === 'NoSuchSessionError')
        throw browserError(what, err);
      const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
      throw new GleanerError('BAD_REQUEST', `could not complete the page action (${what}): ${message}`, { cause: err });
    }
  }

  // Interaction (capabilities.interaction): the shared page scripts make results match Playwright's.
  click(selector: string, opts?: ActionOptions): Promise<void> {
    return this.#interact(`clicking ${selector}`, () => this.#ui.click(selector, opts));
  }

  type(selector: string, text: string, opts?: ActionOptions & { clear?: boolean; pressEnter?: boolean }): Promise<void> {
    return this.#interact(`typing into ${selector}`, () => this.#ui.type(selector, text, opts));
  }

  select(selector: string, values: string | string[], opts?: ActionOptions): Promise<void> {
    return this.#interact(`selecting in ${selector}`, () => this.#ui.select(selector, values, opts));
  }

  scroll(opts: ScrollOptions): Promise<void> {
    return this.#interact('scrolling', () => this.#ui.scroll(opts));
  }

  waitFor(opts: WaitForOptions): Promise<void> {
    return this.#interact('waiting', () => this.#ui.waitFor(opts));
  }

  outline(): Promise<PageOutline> {
    return this.#interact('outlining the page', () => this.#ui.outline());
  }

  /**
   * The local storage the session started with, and the current page's origin as the page holds it
   * now (DevTools reads one document's storage; a profile's sign-in ends on the site it signs in to).
   */
  localStorage(): Promise<LocalStorageState> {
    return this.#interact('reading the local storage', async () => {
      const state: LocalStorageState = { ...this.#s.localStorage };
      const { result } = await this.#s.ctx.cdp.send<{ result: { value?: string } }>(
        'Runtime.evaluate',
        { expression: READ_LOCAL_STORAGE_SCRIPT, returnByValue: true },
        this.#s.ctx.sessionId,
      );
      const now = JSON.parse(result.value ?? 'null') as { origin: string; items: Record<string, string> } | null;
      if (now && now.origin.startsWith('http')) state[now.origin] = now.items;
      return state;
    });
  }

  /** The current page after interactions, without navigating (status and headers of its last navigation). */
  async snapshot(): Promise<PageSnapshot> {
    if (this.#closed) throw new GleanerError('INTERNAL', 'snapshot() on a closed driver session');
    await this.#notStuck();
    const { tracker } = this.#s;
    // The page may have navigated by itself (a click, a form) and its events may still be in flight.
    await tracker.barrier();
    const nav = tracker.current;
    // Its events up to now are handled (the barrier): waited for only while its response is still to come.
    if (!nav.response && !nav.failed && !nav.error) await tracker.sync(nav);
    if (!nav.response && !nav.failed) throw new GleanerError('INTERNAL', 'snapshot() before any page was loaded');
    const signals = this.#s.signal ? [this.#s.signal] : [];
    return this.#withinBudget(this.#snapshotOf(nav, nav.requestedUrl, 0), this.#s.totalMs, nav.url || nav.requestedUrl, signals);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const s = this.#s;
    s.tracker.dispose();
    let broken = (await this.#stillStuck()) || this.#broken || s.tracker.disconnected;
    try {
      await bounded(s.ctx.dispose(!broken), s.closeTimeoutMs, 'closing the page');
    } catch (err) {
      broken = true;
      s.logger?.warn({ err: err instanceof Error ? err.message : String(err) }, 'selenium driver: the page did not close cleanly; retiring its browser');
    }
    await s.ctx.proxy.close();
    await s.release(broken);
  }
}
