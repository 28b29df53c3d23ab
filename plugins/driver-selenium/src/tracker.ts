// Watches one tab over DevTools: what WebDriver cannot tell — the main document's status, headers,
// redirects and size — plus the route check (a second SSRF layer behind the filtering proxy), the
// redirect cap, in-flight requests for "network idle", and dialogs that would block WebDriver.
import { setTimeout as sleep } from 'node:timers/promises';
import { classifyMediaType, parseContentType, refusedRequest } from '@gleaner/core/plugin';
import type { BlockedRequest, GleanerError, Logger, SsrfGuard } from '@gleaner/core/plugin';

import { blockedError, tooLarge, tooManyRedirects, unsupported } from './errors.ts';
import type { PageContext } from './page-context.ts';

/** The main document's response as the browser received it. */
export interface DocResponse {
  requestId: string;
  url: string;
  status: number;
  /** As DevTools gives them: repeated headers joined with "\n". */
  headers: Record<string, string>;
  /** Chromium's (possibly sniffed) media type. */
  mimeType: string;
}

/** One main-frame navigation: started by goto(), or by the page itself (a click, a form, a script). */
export interface Navigation {
  requestedUrl: string;
  /** The URL of the current hop (the last one asked for). */
  url: string;
  requestId?: string;
  /** Every URL that answered with a redirect, in order. */
  redirects: string[];
  response?: DocResponse;
  failed?: { errorText: string; blockedReason?: string };
  finished: boolean;
  /** The main frame's `load` fired (after this navigation began). */
  loaded?: boolean;
  /** Decoded bytes of the document received so far. */
  bytes: number;
  /** Set when the navigation must be stopped (route block, redirect cap, size cap, content refused). */
  error?: GleanerError;
  /** The raw body of a text (non-HTML) document, as served. */
  rawBody?: Buffer;
  /** Sent as Referer with the first request of a goto() (WebDriver's get() has no such option). */
  referer?: string;
}

export interface TrackerSettings {
  guard: SsrfGuard;
  maxRedirects: number;
  maxBytes: number;
  userAgent: string;
  /**
   * The request check's URL patterns (core `literalAddressUrlPatterns`): requests they match are
   * paused and judged by the guard as well; empty: documents only (redirect hops and frames).
   */
  checkPatterns: readonly string[];
  logger?: Logger;
}

type Params = Record<string, any>; // DevTools events are untyped JSON

const url = (p: Params): string => String(p.request?.url ?? '');

// Service workers would let a page fetch outside this tab's routing; registering one is refused.
// (Their traffic would still go through the context's filtering proxy.)
const BLOCK_SERVICE_WORKERS = `(() => {
  try {
    const c = navigator.serviceWorker;
    if (c) Object.defineProperty(c, 'register', { configurable: true, value: () => Promise.reject(new DOMException('Service workers are disabled by Gleaner', 'SecurityError')) });
  } catch {}
})();`;

/** Lower-case names; repeated headers (DevTools joins them with "\n") joined with ", ", Set-Cookie with "\n". */
export function normalizeHeaders(raw: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const lower = name.toLowerCase();
    const sep = lower === 'set-cookie' ? '\n' : ', ';
    const v = String(value).split('\n').join(sep);
    out[lower] = out[lower] === undefined ? v : `${out[lower]}${sep}${v}`;
  }
  return out;
}

export class PageTracker {
  #ctx: PageContext;
  #s: TrackerSettings;
  #unsubscribe: () => void = () => {};
  #extraInfo = new Map<string, Array<{ status: number; headers: Record<string, string> }>>();
  #hops = new Map<string, string[]>();
  /** Requests in flight and when each started (Date.now()). */
  #inflight = new Map<string, number>();
  #lastNetworkChange = Date.now();
  #onError: ((nav: Navigation) => void) | null = null;
  #disconnected = false;
  /** Requests the route check refused (the filtering proxy keeps its own list). */
  readonly routeBlocked: BlockedRequest[] = [];
  current: Navigation = { requestedUrl: 'about:blank', url: 'about:blank', redirects: [], finished: true, bytes: 0 };

  constructor(ctx: PageContext, settings: TrackerSettings) {
    this.#ctx = ctx;
    this.#s = settings;
  }

  /** Requests started and not yet finished or failed. */
  get inflight(): number {
    return this.#inflight.size;
  }

  /** Requests in flight that started at or after `since` (Date.now()). */
  inflightSince(since: number): number {
    let n = 0;
    for (const started of this.#inflight.values()) if (started >= since) n++;
    return n;
  }

  get disconnected(): boolean {
    return this.#disconnected || this.#ctx.cdp.closed;
  }

  /** Subscribes and turns on the domains; call once before the first navigation. */
  async install(): Promise<void> {
    const { cdp, sessionId } = this.#ctx;
    this.#unsubscribe = cdp.subscribe(sessionId, (method, params) => this.#onEvent(method, params));
    const send = (method: string, params: Record<string, unknown> = {}) => cdp.send(method, params, sessionId);
    await Promise.all([
      send('Network.enable', { maxPostDataSize: 0 }),
      send('Page.enable'),
      // Documents are always intercepted: every redirect hop is checked and the redirect cap enforced
      // before the hop is requested. Other requests when their host is a literal address the request
      // check covers (Chromium matches the patterns, so requests for names are never paused).
      send('Fetch.enable', {
        patterns: [
          { urlPattern: '*', resourceType: 'Document', requestStage: 'Request' },
          ...this.#s.checkPatterns.map((urlPattern) => ({ urlPattern, requestStage: 'Request' })),
          { urlPattern: '*', resourceType: 'Document', requestStage: 'Response' },
        ],
      }),
      send('Network.setBypassServiceWorker', { bypass: true }),
      send('Page.addScriptToEvaluateOnNewDocument', { source: BLOCK_SERVICE_WORKERS }),
      send('Network.setUserAgentOverride', { userAgent: this.#s.userAgent }),
    ]);
  }

  /** Starts tracking a goto(); `onError` is called once if the navigation must be stopped. */
  begin(url: string, onError: (nav: Navigation) => void, referer?: string): Navigation {
    this.current = { requestedUrl: url, url, redirects: [], finished: false, bytes: 0, ...(referer ? { referer } : {}) };
    this.#onError = onError;
    return this.current;
  }

  /** Stops calling the goto's onError (the navigation is over). */
  end(): void {
    this.#onError = null;
  }

  /** The main document's headers as received (Set-Cookie included when DevTools reported it). */
  headersOf(res: DocResponse): Record<string, string> {
    const extra = this.#extraInfo
      .get(res.requestId)
      ?.filter((e) => e.status === res.status)
      .at(-1);
    // The raw headers (extraInfo) are complete, Set-Cookie included; the response's own may not be.
    return normalizeHeaders(extra ? extra.headers : res.headers);
  }

  /** Resolves after every DevTools event the tab sent before now has been handled. */
  async barrier(timeoutMs = 2_000): Promise<void> {
    // Bounded: the evaluation needs the page's main thread, which a spinning script holds.
    await this.#ctx.cdp.send('Runtime.evaluate', { expression: '0' }, this.#ctx.sessionId, timeoutMs).catch(() => undefined);
  }

  /**
   * Waits until the DevTools events sent before now have been handled. chromedriver's answer and this
   * socket's events travel separately, so get() may return before the response event is read here.
   */
  async sync(nav: Navigation, timeoutMs = 2_000): Promise<void> {
    await this.barrier();
    const until = Date.now() + timeoutMs;
    while (!nav.response && !nav.failed && !nav.error && Date.now() < until && !this.disconnected) await sleep(20);
  }

  /** Resolves once no request has been in flight for `idleMs`; rejects after `timeoutMs`. */
  async waitNetworkIdle(idleMs: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      signal?.throwIfAborted();
      const quietFor = Date.now() - this.#lastNetworkChange;
      if (this.#inflight.size === 0 && quietFor >= idleMs) return true;
      if (Date.now() >= deadline) return false;
      await sleep(Math.min(50, Math.max(10, idleMs - quietFor)));
    }
  }

  dispose(): void {
    this.#unsubscribe();
    this.#onError = null;
  }

  #fail(nav: Navigation, err: GleanerError): void {
    if (nav.error) return;
    nav.error = err;
    if (nav === this.current) this.#onError?.(nav);
  }

  #isMainDocument(p: Params): boolean {
    return p.type === 'Document' && p.frameId === this.#ctx.targetId;
  }

  #onEvent(method: string, p: Params): void {
    switch (method) {
      case 'Fetch.requestPaused':
        return void this.#onRequestPaused(p);
      case 'Network.requestWillBeSent':
        return this.#onRequest(p);
      case 'Network.responseReceived':
        if (this.#isMainDocument(p) && p.requestId === this.current.requestId) {
          const r = p.response as Params;
          this.current.response = { requestId: p.requestId, url: r.url, status: r.status, headers: r.headers ?? {}, mimeType: r.mimeType ?? '' };
          const length = Number(this.headersOf(this.current.response)['content-length']);
          const encoding = this.headersOf(this.current.response)['content-encoding'];
          if ((!encoding || encoding === 'identity') && Number.isFinite(length) && length > this.#s.maxBytes) {
            this.#fail(this.current, tooLarge(this.#s.maxBytes, r.url));
          }
        }
        return;
      case 'Network.responseReceivedExtraInfo': {
        // Kept for main documents only (their request id is known from requestWillBeSent).
        if (p.requestId !== this.current.requestId) return;
        const list = this.#extraInfo.get(p.requestId) ?? [];
        list.push({ status: p.statusCode, headers: p.headers ?? {} });
        if (list.length === 1) this.#extraInfo.set(p.requestId, list);
        return;
      }
      case 'Network.dataReceived':
        if (p.requestId === this.current.requestId) {
          this.current.bytes += Number(p.dataLength) || 0;
          if (this.current.bytes > this.#s.maxBytes)
            this.#fail(this.current, tooLarge(this.#s.maxBytes, this.current.response?.url ?? this.current.requestedUrl));
        }
        return;
      case 'Network.loadingFinished':
        if (p.requestId === this.current.requestId) this.current.finished = true;
        return this.#settled(p.requestId);
      case 'Network.loadingFailed':
        if (p.requestId === this.current.requestId) {
          this.current.failed = { errorText: p.errorText, blockedReason: p.blockedReason };
          this.current.finished = true;
        }
        return this.#settled(p.requestId);
      case 'Page.loadEventFired':
        this.current.loaded = true;
        return;
      case 'Page.javascriptDialogOpening':
        // An open alert blocks every WebDriver command; beforeunload is accepted so navigation goes on.
        this.#send('Page.handleJavaScriptDialog', { accept: p.type === 'beforeunload' });
        return;
      case 'Gleaner.disconnected':
        this.#disconnected = true;
        return;
    }
  }

  #onRequest(p: Params): void {
    const url: string = p.request?.url ?? '';
    if (!url.startsWith('data:') && !url.startsWith('blob:')) {
      this.#inflight.set(p.requestId, Date.now());
      this.#lastNetworkChange = Date.now();
    }
    if (!this.#isMainDocument(p)) return;
    const nav = this.current;
    if (p.redirectResponse) {
      if (p.requestId === nav.requestId) {
        nav.redirects.push(p.redirectResponse.url);
        nav.url = url;
      }
      return;
    }
    if (nav.requestId === undefined && !nav.finished) {
      nav.requestId = p.requestId;
      nav.url = url;
    } else if (p.requestId !== nav.requestId) {
      // The page navigated by itself (a link, a form, a script): track that one from now on.
      this.#onError = null;
      this.current = { requestedUrl: url, url, requestId: p.requestId, redirects: [], finished: false, bytes: 0 };
    }
  }

  #settled(requestId: string): void {
    if (this.#inflight.delete(requestId)) this.#lastNetworkChange = Date.now();
  }

  async #onRequestPaused(p: Params): Promise<void> {
    const url: string = p.request?.url ?? '';
    const isMainDoc = p.resourceType === 'Document' && p.frameId === this.#ctx.targetId;
    if (p.responseStatusCode !== undefined) return this.#onDocumentResponse(p, isMainDoc);
    const refused = refusedRequest(this.#s.guard, url);
    if (refused) {
      this.routeBlocked.push(refused);
      this.#s.logger?.debug({ url, reason: refused.reason }, 'selenium driver: request refused by the request check');
      if (isMainDoc) this.#fail(this.current, blockedError(refused));
      return this.#send('Fetch.failRequest', { requestId: p.requestId, errorReason: 'BlockedByClient' });
    }
    if (isMainDoc && p.networkId) {
      const hops = this.#hops.get(p.networkId) ?? [];
      if (p.redirectedRequestId && hops.length > this.#s.maxRedirects) {
        this.#fail(this.current, tooManyRedirects(this.#s.maxRedirects, this.current.requestedUrl, hops));
        return this.#send('Fetch.failRequest', { requestId: p.requestId, errorReason: 'Aborted' });
      }
      hops.push(url);
      this.#hops.set(p.networkId, hops);
      const nav = this.current;
      if (nav.referer && !p.redirectedRequestId && !nav.finished && (nav.requestId === undefined || p.networkId === nav.requestId)) {
        const headers = Object.entries((p.request?.headers ?? {}) as Record<string, string>)
          .filter(([name]) => name.toLowerCase() !== 'referer')
          .map(([name, value]) => ({ name, value }));
        headers.push({ name: 'Referer', value: nav.referer });
        return this.#send('Fetch.continueRequest', { requestId: p.requestId, headers });
      }
    }
    this.#send('Fetch.continueRequest', { requestId: p.requestId });
  }

  /**
   * A document's response headers, before the browser renders it. The main document is refused here
   * when it is not HTML or text (no PDF viewer, no download), and a text document's raw bytes are
   * kept, so it is decoded as served (Chromium guesses a legacy encoding when no charset is sent).
   */
  async #onDocumentResponse(p: Params, isMainDoc: boolean): Promise<void> {
    const nav = this.current;
    const status = Number(p.responseStatusCode);
    if (!isMainDoc || (status >= 300 && status < 400) || p.networkId !== nav.requestId) {
      return this.#send('Fetch.continueRequest', { requestId: p.requestId });
    }
    const headers: Record<string, string> = {};
    for (const h of (p.responseHeaders ?? []) as Array<{ name: string; value: string }>) headers[h.name.toLowerCase()] = h.value;
    const media = parseContentType(headers['content-type']);
    const kind = media.type ? classifyMediaType(media.type) : 'html';
    if (kind === 'unsupported') {
      this.#fail(nav, unsupported(url(p), media.type));
      return this.#send('Fetch.failRequest', { requestId: p.requestId, errorReason: 'BlockedByClient' });
    }
    if (kind === 'text') {
      const length = Number(headers['content-length']);
      const encoding = headers['content-encoding'];
      if ((!encoding || encoding === 'identity') && Number.isFinite(length) && length > this.#s.maxBytes) {
        this.#fail(nav, tooLarge(this.#s.maxBytes, url(p)));
        return this.#send('Fetch.failRequest', { requestId: p.requestId, errorReason: 'Aborted' });
      }
      try {
        const body = await this.#ctx.cdp.send<{ body: string; base64Encoded: boolean }>(
          'Fetch.getResponseBody',
          { requestId: p.requestId },
          this.#ctx.sessionId,
        );
        nav.rawBody = Buffer.from(body.body, body.base64Encoded ? 'base64' : 'utf8');
      } catch {
        // The body is then read from what the browser shows.
      }
    }
    this.#send('Fetch.continueRequest', { requestId: p.requestId });
  }

  #send(method: string, params: Record<string, unknown>): void {
    this.#ctx.cdp.send(method, params, this.#ctx.sessionId).catch(() => undefined);
  }
}
