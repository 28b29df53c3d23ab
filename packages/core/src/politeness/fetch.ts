/**
 * A small guarded GET for the files a crawler reads besides pages: robots.txt and sitemaps
 * (gzipped ones too, which the page drivers refuse as binary). Every hop passes the SSRF guard
 * (the connection goes to the addresses it checked), with the fetch timeout and size limit.
 */
import http from 'node:http';
import https from 'node:https';
import { gunzipSync } from 'node:zlib';
import { GleanerError } from '../errors.ts';
import type { SsrfGuard } from '../net/ssrf.ts';

export interface RawFetchOptions {
  guard: SsrfGuard;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  finalUrl: string;
  headers: Record<string, string>;
  /** The body, gunzipped when it was gzip (Content-Encoding or a .gz file). */
  body: Buffer;
}

function once(url: URL, o: RawFetchOptions): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.get(
      url,
      {
        lookup: o.guard.lookup,
        headers: { 'user-agent': o.userAgent, accept: '*/*', 'accept-encoding': 'gzip' },
        signal: o.signal,
        timeout: o.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > o.maxBytes) {
            req.destroy(new GleanerError('FETCH_TOO_LARGE', `${url.href} is larger than ${o.maxBytes} bytes (fetch.maxBytes)`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new GleanerError('FETCH_TIMEOUT', `${url.href} did not answer within ${o.timeoutMs} ms`)));
    req.on('error', (err) => reject(err instanceof GleanerError ? err : new GleanerError('FETCH_FAILED', `${url.href}: ${err.message}`)));
  });
}

export async function fetchRaw(target: string, o: RawFetchOptions): Promise<RawResponse> {
  let url = o.guard.checkUrl(target);
  for (let hop = 0; ; hop++) {
    const res = await once(url, o);
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location) {
      if (hop >= (o.maxRedirects ?? 5)) throw new GleanerError('TOO_MANY_REDIRECTS', `more than ${o.maxRedirects ?? 5} redirects starting at ${target}`);
      url = o.guard.checkUrl(new URL(location, url));
      continue;
    }
    let body = res.body;
    if (body[0] === 0x1f && body[1] === 0x8b) {
      try {
        body = gunzipSync(body, { maxOutputLength: o.maxBytes });
      } catch (err) {
        throw new GleanerError('UNSUPPORTED_CONTENT', `${url.href}: its gzip body could not be read (${(err as Error).message})`);
      }
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.status, finalUrl: url.href, headers, body };
  }
}
