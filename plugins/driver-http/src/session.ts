// One HTTP "page": a cookie jar and the navigation loop (redirects followed by hand, each hop guarded).
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { CookieJar, GleanerError } from '@gleaner/core/plugin';
import type { DriverSession, GotoOptions, Logger, PageSnapshot, SsrfGuard } from '@gleaner/core/plugin';
import { readBody, tooLarge } from './body.ts';
import { classifyMediaType, parseContentType, sniffBinary } from '@gleaner/core/plugin';
import { decodeBody, detectEncoding } from './decode.ts';
import { toFetchError } from './errors.ts';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
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

export class HttpSession implements DriverSession {
  #s: HttpSessionSettings;
  #closed = false;
  #navigated = false;

  constructor(settings: HttpSessionSettings) {
    this.#s = settings;
  }

  async goto(url: string, opts: GotoOptions = {}): Promise<PageSnapshot> {
    if (this.#closed) throw new GleanerError('INTERNAL', 'goto() on a closed driver session');
    const deadline = AbortSignal.timeout(this.#s.totalMs);
    const callerSignals = [this.#s.signal, opts.signal];
    const signal = AbortSignal.any([deadline, ...callerSignals.filter((s): s is AbortSignal => s !== undefined)]);
    const where = { url };
    try {
      signal.throwIfAborted();
      return await this.#navigate(url, opts, signal, where);
    } catch (err) {
      throw toFetchError(err, { url: where.url, totalMs: this.#s.totalMs, deadline, callerSignals, viaProxy: this.#s.proxy !== null });
    }
  }

  async #navigate(requested: string, opts: GotoOptions, signal: AbortSignal, where: { url: string }): Promise<PageSnapshot> {
    const s = this.#s;
    let url = s.guard.checkUrl(requested);
    const requestedUrl = url.href;
    if (!this.#navigated) {
      s.jar.bindUnscoped(url.hostname);
      this.#navigated = true;
    }
    const redirects: string[] = [];
    let referer = opts.referer;
    for (;;) {
      where.url = url.href;
      // Through a proxy the connection goes to the proxy, which resolves the target itself: the
      // target's own resolution is checked here first. Directly, the guard's lookup checks it.
      if (s.proxy) await s.guard.resolve(url.hostname);
      const headers: Record<string, string> = { 'user-agent': s.userAgent, accept: ACCEPT, 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'en-US,en;q=0.9' };
      const cookie = s.jar.header(url);
      if (cookie) headers.cookie = cookie;
      if (referer) headers.referer = referer;
      s.logger?.debug({ url: url.href, hop: redirects.length, proxy: Boolean(s.proxy) }, 'http driver: GET');
      const res = await s.dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers,
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
      if (binary) throw new GleanerError('UNSUPPORTED_CONTENT', `${url.href} looks like ${binary}, not an HTML or text page`, { details: { contentType: binary } });
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
      redirects,
      driver: s.driverName,
      cookies: s.jar.list(),
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#s.onClose();
  }
}
