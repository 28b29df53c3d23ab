// One HTTP "page": a cookie jar, the navigation loop (redirects followed by hand, each hop guarded;
// GET, and POST for submitted forms) and the interactions on the last response (interact.ts).
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { CookieJar, GleanerError, isGleanerError } from '@gleaner/core/plugin';
import type { ActionOptions, DriverSession, GotoOptions, Logger, PageSnapshot, SsrfGuard } from '@gleaner/core/plugin';
import { readBody, tooLarge } from './body.ts';
import { classifyMediaType, parseContentType, sniffBinary } from '@gleaner/core/plugin';
import { decodeBody, detectEncoding } from './decode.ts';
import { toFetchError } from './errors.ts';
import { Interactions } from './interact.ts';
import type { ActionNavigation, InteractionHost } from './interact.ts';
import { PageDocument } from './page-document.ts';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Redirects that keep a POST a POST (with its body); 301/302/303 turn it into a GET, as browsers do. */
const KEEP_METHOD = new Set([307, 308]);
const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5';

export interface HttpSessionSettings {
  driverName: string;
  guard: SsrfGuard;
  dispatcher: Dispatcher;
  /** Set when the dispatcher goes through a proxy: the target's resolution is checked before sending. */
  proxy: string | null;
  jar: CookieJar;
  userAgent: string;
  totalMs: number;
  headersMs: number;
  bodyMs: number;
  maxBytes: number;
  maxRedirects: number;
  signal?: AbortSignal;
  logger?: Logger;
  onClose: () => void;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(name.toLowerCase() === 'set-cookie' ? '\n' : ', ') : value;
  }
  return out;
}

function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** One request of a navigation: goto's GET, or what a click or a submitted form asks for. */
type Navigation = Pick<ActionNavigation, 'url' | 'method' | 'body' | 'contentType' | 'referer' | 'origin'>;

/**
 * The session: navigation here, the interactions (click, type, select, scroll, waitFor, snapshot,
 * outline) inherited from Interactions, which reaches the page through the host given to it.
 */
export class HttpSession extends Interactions implements DriverSession {
  #s: HttpSessionSettings;
  #closed = false;
  /** Aborted by close(): stops a navigation or wait in flight. */
  #closer = new AbortController();
  #navigated = false;
  /** The last page loaded, and its document once an interaction parsed it. */
  #page: { snap: PageSnapshot; doc?: PageDocument } | null = null;

  constructor(settings: HttpSessionSettings) {
    const host = { totalMs: settings.totalMs } as InteractionHost;
    super(host);
    this.#s = settings;
    Object.assign(host, {
      page: (what: string) => {
        const page = this.#current(what);
        // Parsed on the first interaction only: plain extraction never pays for a DOM.
        page.doc ??= new PageDocument(page.snap.html, page.snap.contentType, page.snap.finalUrl, page.snap.charset);
        return { doc: page.doc, snap: page.snap };
      },
      current: (what: string) => this.#current(what),
      navigate: async (nav: ActionNavigation, opts?: ActionOptions) => {
        await this.#load(nav, undefined, opts?.timeoutMs);
      },
      call: <T>(what: string, fn: () => Promise<T>) => this.#call(what, fn),
      sleep: (ms: number) => this.#sleep(ms),
    } satisfies Omit<InteractionHost, 'totalMs'>);
  }

  #current(what: string): { snap: PageSnapshot; doc?: PageDocument } {
    if (!this.#page) throw new GleanerError('BAD_REQUEST', `${what} before any page was loaded; call goto() first`);
    return this.#page;
  }

  async goto(url: string, opts: GotoOptions = {}): Promise<PageSnapshot> {
    if (this.#closed) throw new GleanerError('INTERNAL', 'goto() on a closed driver session');
    return this.#load({ url, method: 'GET', referer: opts.referer }, opts.signal);
  }

  /** Loads a navigation (bounded by fetch.timeoutMs, or a shorter action timeout) and makes it the current page. */
  async #load(nav: Navigation, extra?: AbortSignal, timeoutMs?: number): Promise<PageSnapshot> {
    const totalMs = Math.min(timeoutMs ?? this.#s.totalMs, this.#s.totalMs);
    const deadline = AbortSignal.timeout(totalMs);
    const callerSignals = [this.#s.signal, extra, this.#closer.signal];
    const signal = AbortSignal.any([deadline, ...callerSignals.filter((s): s is AbortSignal => s !== undefined)]);
    const where = { url: nav.url };
    try {
      signal.throwIfAborted();
      const snap = await this.#navigate(nav, signal, where);
      this.#page = { snap };
      return snap;
    } catch (err) {
      throw toFetchError(err, { url: where.url, totalMs, deadline, callerSignals, viaProxy: this.#s.proxy !== null });
    }
  }

  /** Runs an interaction: refused once closed or aborted (with the signal's reason). */
  async #call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    const signal = this.#s.signal;
    if (signal?.aborted) throw isGleanerError(signal.reason) ? signal.reason : new GleanerError('FETCH_TIMEOUT', `${what} was aborted`);
    if (this.#closed) throw new GleanerError('DRIVER_UNAVAILABLE', `the http session was closed before ${what}`);
    return fn();
  }

  /** Waits `ms`, cut short by the session's signal or close(). */
  #sleep(ms: number): Promise<void> {
    const signal = this.#s.signal ? AbortSignal.any([this.#s.signal, this.#closer.signal]) : this.#closer.signal;
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(isGleanerError(signal.reason) ? signal.reason : new GleanerError('FETCH_TIMEOUT', 'the wait was aborted'));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async #navigate(nav: Navigation, signal: AbortSignal, where: { url: string }): Promise<PageSnapshot> {
    const s = this.#s;
    let url = s.guard.checkUrl(nav.url);
    const requestedUrl = url.href;
    if (!this.#navigated) {
      s.jar.bindUnscoped(url.hostname);
      this.#navigated = true;
    }
    const redirects: string[] = [];
    let referer = nav.referer;
    let post = nav.method === 'POST' ? { body: nav.body ?? Buffer.alloc(0), contentType: nav.contentType, origin: nav.origin } : null;
    for (;;) {
      where.url = url.href;
      // Through a proxy the connection goes to the proxy, which resolves the target itself: the
      // target's own resolution is checked here first. Directly, the guard's lookup checks it.
      if (s.proxy) await s.guard.resolve(url.hostname);
      const headers: Record<string, string> = {
        'user-agent': s.userAgent,
        accept: ACCEPT,
        'accept-encoding': 'gzip, deflate, br',
        'accept-language': 'en-US,en;q=0.9',
      };
      const cookie = s.jar.header(url);
      if (cookie) headers.cookie = cookie;
      if (referer) headers.referer = referer;
      if (post?.contentType) headers['content-type'] = post.contentType;
      if (post?.origin) headers.origin = post.origin;
      const method = post ? 'POST' : 'GET';
      s.logger?.debug({ url: url.href, hop: redirects.length, proxy: Boolean(s.proxy) }, `http driver: ${method}`);
      const res = await s.dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        ...(post ? { body: post.body } : {}),
        signal,
        headersTimeout: s.headersMs,
        bodyTimeout: s.bodyMs,
      });
      s.jar.setFromResponse(res.headers['set-cookie'], url);

      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(res.statusCode) && typeof location === 'string' && location) {
        discard(res.body);
        if (redirects.length >= s.maxRedirects) {
          throw new GleanerError('TOO_MANY_REDIRECTS', `more than ${s.maxRedirects} redirects (fetch.maxRedirects) starting at ${requestedUrl}`, {
            details: { redirects: [...redirects, url.href] },
          });
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new GleanerError('URL_INVALID', `${url.href} redirected to an invalid URL: ${location.slice(0, 200)}`);
        }
        if (!next.hash && url.hash) next.hash = url.hash;
        redirects.push(url.href);
        referer = url.protocol === 'https:' && next.protocol === 'http:' ? undefined : url.href;
        if (!KEEP_METHOD.has(res.statusCode)) post = null;
        url = s.guard.checkUrl(next); // every hop passes the guard (its address at connect time)
        continue;
      }
      return await this.#snapshot(requestedUrl, url, res, redirects, signal);
    }
  }

  async #snapshot(requested: string, url: URL, res: Dispatcher.ResponseData, redirects: string[], signal: AbortSignal): Promise<PageSnapshot> {
    const s = this.#s;
    const headers = flattenHeaders(res.headers);
    const media = parseContentType(headers['content-type']);
    let kind = media.type ? classifyMediaType(media.type) : 'html';
    if (kind === 'unsupported') {
      discard(res.body);
      throw new GleanerError('UNSUPPORTED_CONTENT', `${url.href} is ${media.type}, not an HTML or text page`, { details: { contentType: media.type } });
    }
    const encoding = headers['content-encoding'];
    const declared = Number(headers['content-length']);
    if ((!encoding || encoding === 'identity') && Number.isFinite(declared) && declared > s.maxBytes) {
      discard(res.body);
      throw tooLarge(s.maxBytes, url.href);
    }
    const bytes = await readBody(res.body, { contentEncoding: encoding, maxBytes: s.maxBytes, signal, url: url.href });
    if (!media.type) {
      const binary = sniffBinary(bytes);
      if (binary)
        throw new GleanerError('UNSUPPORTED_CONTENT', `${url.href} looks like ${binary}, not an HTML or text page`, { details: { contentType: binary } });
      kind = 'html';
    }
    const charset = detectEncoding(bytes, media.charset, kind);
    return {
      requestedUrl: requested,
      finalUrl: url.href,
      status: res.statusCode,
      headers,
      contentType: media.type,
      charset,
      html: decodeBody(bytes, charset),
      body: bytes,
      redirects,
      driver: s.driverName,
      cookies: s.jar.list(),
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#page = null;
    this.#closer.abort(new GleanerError('DRIVER_UNAVAILABLE', 'the http session was closed'));
    this.#s.onClose();
  }
}
