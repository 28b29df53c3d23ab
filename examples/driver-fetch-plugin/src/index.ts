// An out-of-tree Gleaner driver on fetch: plain pages, no JavaScript, no cookies, no proxy — and the
// SSRF guard on the first URL and every redirect hop, connecting only to the address the guard
// checked. Node's fetch is undici's; undici's `Agent` takes a `connect.lookup`, so the guard's
// `lookup` resolves and checks each host name at connection time, once. fetch and Agent come from
// the same `undici` package: a dispatcher must speak the handler API of the fetch that drives it,
// and the global fetch of Node 22 (undici 6) refuses an undici 8 Agent ("invalid onRequestStart method").
import { Agent, fetch } from 'undici';
import {
  CONFIG_FIELDS,
  GleanerError,
  classifyMediaType,
  createSsrfGuard,
  isGleanerError,
  parseContentType,
  sniffBinary,
  type Driver,
  type DriverCapabilities,
  type DriverOptions,
  type DriverSession,
  type DriverSessionOptions,
  type GotoOptions,
  type PageSnapshot,
} from '@gleaner/core/plugin';

/** The plugin API this driver was written against (createEngine refuses another major). */
const PLUGIN_API = '1.0';
const CAPABILITIES: DriverCapabilities = { javascript: false, interaction: false, proxy: false, cookies: false };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const fallback = <T>(field: string): T => CONFIG_FIELDS[field].default as T;

interface Fetched {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Creates the driver; the options are every driver's (`DriverOptions`). */
export function createFetchDriver(opts: DriverOptions = {}): Driver {
  const fetchCfg = opts.config?.fetch ?? {};
  const guard = opts.guard ?? createSsrfGuard({ allowNetworks: opts.allowNetworks ?? opts.config?.network?.allowNetworks ?? [], resolver: opts.resolver });
  const defaults = {
    timeoutMs: opts.timeoutMs ?? fetchCfg.timeoutMs ?? fallback<number>('fetch.timeoutMs'),
    maxBytes: opts.maxBytes ?? fetchCfg.maxBytes ?? fallback<number>('fetch.maxBytes'),
    maxRedirects: opts.maxRedirects ?? fetchCfg.maxRedirects ?? fallback<number>('fetch.maxRedirects'),
    userAgent: opts.userAgent ?? fetchCfg.userAgent ?? fallback<string>('fetch.userAgent'),
  };
  const closing = new AbortController(); // aborts every navigation in flight when the driver closes

  // Every connection goes through the guard's lookup (a literal IP address was checked by checkUrl).
  const dispatcher = new Agent({ connect: { lookup: guard.lookup } });

  /** One request to an address the guard checked, redirects left to the caller; the body capped at maxBytes. */
  async function request(url: URL, userAgent: string, maxBytes: number, signal: AbortSignal): Promise<Fetched> {
    const res = await fetch(url, { headers: { 'user-agent': userAgent, accept: 'text/html,*/*;q=0.8' }, redirect: 'manual', dispatcher, signal });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += chunk.length;
      if (size > maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        throw new GleanerError('FETCH_TOO_LARGE', `${url.href} is larger than the limit of ${maxBytes} bytes (fetch.maxBytes)`);
      }
      chunks.push(Buffer.from(chunk));
    }
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const cookies = res.headers.getSetCookie();
    if (cookies.length) headers['set-cookie'] = cookies.join('\n');
    return { status: res.status, headers, body: Buffer.concat(chunks) };
  }

  function failure(err: unknown, url: string, signal: AbortSignal, timeoutMs: number, timedOut: () => boolean): GleanerError {
    if (timedOut()) return new GleanerError('FETCH_TIMEOUT', `${url} did not arrive within ${timeoutMs} ms`);
    if (signal.aborted) return isGleanerError(signal.reason) ? signal.reason : new GleanerError('FETCH_TIMEOUT', `fetching ${url} was aborted`);
    if (isGleanerError(err)) return err;
    // fetch reports a connection problem as TypeError('fetch failed') with the reason as its cause
    // (the guard's URL_BLOCKED among them).
    const cause = (err as Error).cause;
    if (isGleanerError(cause)) return cause;
    const reason = cause instanceof Error ? cause.message : (err as Error).message;
    return new GleanerError('FETCH_FAILED', `could not fetch ${url}: ${reason}`, { cause: err });
  }

  async function navigate(start: string, o: DriverSessionOptions, signals: AbortSignal[]): Promise<PageSnapshot> {
    const timeoutMs = o.timeouts?.totalMs ?? defaults.timeoutMs;
    const maxRedirects = o.maxRedirects ?? defaults.maxRedirects;
    const timer = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([timer, closing.signal, ...signals]);
    let url = guard.checkUrl(start); // URL_INVALID / URL_BLOCKED before any connection
    const redirects: string[] = [];
    try {
      for (;;) {
        const res = await request(url, o.userAgent ?? defaults.userAgent, o.maxBytes ?? defaults.maxBytes, signal);
        const location = res.headers.location;
        if (REDIRECTS.has(res.status) && location) {
          if (redirects.length >= maxRedirects)
            throw new GleanerError('TOO_MANY_REDIRECTS', `${start} made more than ${maxRedirects} redirects (fetch.maxRedirects)`);
          redirects.push(url.href);
          url = guard.checkUrl(new URL(location, url)); // every hop is checked again
          continue;
        }
        const media = parseContentType(res.headers['content-type']);
        const type = media.type || sniffBinary(res.body) || 'text/html';
        if (classifyMediaType(type) === 'unsupported' || sniffBinary(res.body)) {
          throw new GleanerError('UNSUPPORTED_CONTENT', `${url.href} is ${type}, not HTML or text`);
        }
        const charset = (media.charset ?? 'utf-8').toLowerCase();
        const html = new TextDecoder(charset, { fatal: false }).decode(res.body);
        return {
          requestedUrl: start,
          finalUrl: url.href,
          status: res.status,
          headers: res.headers,
          contentType: type,
          charset,
          html,
          redirects,
          driver: 'fetch',
        };
      }
    } catch (err) {
      throw failure(err, url.href, signal, timeoutMs, () => timer.aborted);
    }
  }

  return {
    name: 'fetch',
    apiVersion: PLUGIN_API,
    capabilities: CAPABILITIES,
    async openSession(sessionOpts: DriverSessionOptions = {}): Promise<DriverSession> {
      if (closing.signal.aborted) throw new GleanerError('DRIVER_UNAVAILABLE', 'the fetch driver is closed');
      if (sessionOpts.proxy) throw new GleanerError('DRIVER_UNAVAILABLE', 'the fetch driver cannot use a proxy; choose a driver with the proxy capability');
      let open = true;
      return {
        goto: (url: string, gotoOpts: GotoOptions = {}) => {
          if (!open) return Promise.reject(new GleanerError('DRIVER_UNAVAILABLE', 'the session is closed'));
          return navigate(
            url,
            sessionOpts,
            [sessionOpts.signal, gotoOpts.signal].filter((s): s is AbortSignal => !!s),
          );
        },
        async close() {
          open = false;
        },
      };
    },
    async close() {
      if (closing.signal.aborted) return; // closing twice is harmless
      closing.abort(new GleanerError('DRIVER_UNAVAILABLE', 'the fetch driver was closed during the navigation'));
      // destroy(), not close(): a slow page still streaming must not keep the process alive.
      await dispatcher.destroy();
    },
  };
}
