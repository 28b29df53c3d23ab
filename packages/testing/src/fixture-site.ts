// A small web site on 127.0.0.1:0 for driver tests: built-in pages for the usual cases, routes a
// test can add, a record of every request and connection, and a close() that destroys sockets.
import { setTimeout as sleep } from 'node:timers/promises';
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import zlib from 'node:zlib';

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

export interface FixtureSite {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:43121`. */
  url: string;
  host: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** TCP connections accepted (a refused fetch must leave this at 0). */
  connections: number;
  /** Adds or replaces a route (exact path, query ignored). */
  route(path: string, handler: Handler): void;
  /** Adds an HTML page. */
  page(path: string, html: string, opts?: { status?: number; headers?: Record<string, string> }): void;
  close(): Promise<void>;
}

export interface FixtureSiteOptions {
  /** Listen address (default 127.0.0.1). */
  host?: string;
  port?: number;
  /** Serve https with the test certificate below (trust it with `ca: FIXTURE_CA`). */
  tls?: boolean;
}

// A self-signed test certificate for localhost, 127.0.0.1 and ::1 (valid until 2126). Test-only.
export const FIXTURE_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg2VAPEAh23+dRKHm6
uKyfDUFgEK/wwNzlp1EuZ5Jl0B2hRANCAARNuxSAr0OLQ3g13o99quf8ZBKHg0kA
g4+foHIu9gs8+eu+fTRWH0iV7RTMds7calvj8Rrulqxkio3BPh3hcAhL
-----END PRIVATE KEY-----
`;
export const FIXTURE_CA = `-----BEGIN CERTIFICATE-----
MIIBrjCCAVSgAwIBAgIUCQjfrwyoT48xhJ7lHee8Sjwu06cwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMTA5NDI0M1oYDzIxMjYxMDI4
MDk0MjQzWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARNuxSAr0OLQ3g13o99quf8ZBKHg0kAg4+foHIu9gs8+eu+fTRWH0iV
7RTMds7calvj8Rrulqxkio3BPh3hcAhLo4GBMH8wHQYDVR0OBBYEFO4TyVQ4eMLn
OyTX74S5SazVoP1+MB8GA1UdIwQYMBaAFO4TyVQ4eMLnOyTX74S5SazVoP1+MA8G
A1UdEwEB/wQFMAMBAf8wLAYDVR0RBCUwI4IJbG9jYWxob3N0hwR/AAABhxAAAAAA
AAAAAAAAAAAAAAABMAoGCCqGSM49BAMCA0gAMEUCICkmTrok7W99SR/KgmZoAavj
dLu73iNbFUjcjMOAaBBuAiEAnjIzDYnfn+PuMGDX3qzUxDHjsX4EaHNjQmqjCGcc
lts=
-----END CERTIFICATE-----
`;

export const LATIN1_TEXT = 'Café crème, naïve façade, Straße, ½ prix';
const HTML_TYPE = 'text/html; charset=utf-8';

function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'content-type': HTML_TYPE, ...headers });
  res.end(body);
}

function builtInRoutes(): Map<string, Handler> {
  const doc = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
  const compressed = doc('Compressed', '<p id="c">squeezed but intact</p>'.repeat(50));
  const r = new Map<string, Handler>();
  r.set('/', (_q, res) => send(res, 200, doc('Home', '<h1>Fixture home</h1><a href="/page">page</a>')));
  r.set('/page', (_q, res) => send(res, 200, doc('A page', '<h1>A page</h1>')));
  r.set('/error', (_q, res) => send(res, 500, doc('Server error', '<h1>Something broke</h1>')));
  r.set('/latin1', (_q, res) =>
    send(res, 200, Buffer.from(doc('Latin-1', `<p id="t">${LATIN1_TEXT}</p>`), 'latin1'), { 'content-type': 'text/html; charset=ISO-8859-1' }),
  );
  r.set('/latin1-meta', (_q, res) =>
    send(
      res,
      200,
      Buffer.from(
        `<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><body><p>${LATIN1_TEXT}</p></body></html>`,
        'latin1',
      ),
      { 'content-type': 'text/html' },
    ),
  );
  r.set('/gzip', (_q, res) => send(res, 200, zlib.gzipSync(compressed), { 'content-encoding': 'gzip' }));
  r.set('/br', (_q, res) => send(res, 200, zlib.brotliCompressSync(compressed), { 'content-encoding': 'br' }));
  r.set('/deflate', (_q, res) => send(res, 200, zlib.deflateSync(compressed), { 'content-encoding': 'deflate' }));
  r.set('/deflate-raw', (_q, res) => send(res, 200, zlib.deflateRawSync(compressed), { 'content-encoding': 'deflate' }));
  // /big?bytes=N streams N bytes of HTML without a Content-Length; &gzip=1 compresses it.
  r.set('/big', async (_q, res, url) => {
    const total = Number(url.searchParams.get('bytes') ?? 1_000_000);
    const gzip = url.searchParams.get('gzip') === '1';
    res.writeHead(200, { 'content-type': HTML_TYPE, ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
    const out = gzip ? zlib.createGzip() : null;
    if (out) out.pipe(res);
    const sink = out ?? res;
    const chunk = '<p>filler filler filler filler filler filler filler filler</p>\n'.repeat(64);
    let closed = false;
    res.once('close', () => {
      closed = true;
      sink.emit('drain'); // wake the loop below
    });
    for (let sent = 0; sent < total && !closed; sent += chunk.length) {
      if (!sink.write(chunk)) await new Promise<void>((ok) => sink.once('drain', ok));
    }
    if (!closed) sink.end();
  });
  // /slow?ms=N waits N ms before the headers; /slow-body sends headers, then trickles forever.
  r.set('/slow', async (_q, res, url) => {
    const ms = Number(url.searchParams.get('ms') ?? 5000);
    await new Promise<void>((ok) => {
      const timer = setTimeout(ok, ms);
      res.once('close', () => {
        clearTimeout(timer);
        ok();
      }); // a client that gave up frees the timer
    });
    if (!res.destroyed && !res.writableEnded) send(res, 200, doc('Slow', '<p>finally</p>'));
  });
  r.set('/slow-body', async (_q, res) => {
    res.writeHead(200, { 'content-type': HTML_TYPE });
    res.write('<html><body>');
    while (!res.destroyed) {
      await sleep(200);
      res.write('<p>.</p>');
    }
  });
  // /redirect?to=URL&status=302
  r.set('/redirect', (_q, res, url) => send(res, Number(url.searchParams.get('status') ?? 302), '', { location: url.searchParams.get('to') ?? '/' }));
  r.set('/loop', (_q, res) => send(res, 302, '', { location: '/loop' }));
  r.set('/cookies', (req, res) => send(res, 200, doc('Cookies', `<pre id="cookie">${req.headers.cookie ?? ''}</pre>`)));
  r.set('/set-cookie-redirect', (_q, res) =>
    send(res, 302, '', { location: '/cookies', 'set-cookie': ['hop=1; Path=/', 'gone=x; Path=/; Max-Age=0', 'other=2; Path=/elsewhere'] }),
  );
  r.set('/text', (_q, res) => send(res, 200, 'just text', { 'content-type': 'text/plain' }));
  r.set('/json', (_q, res) => send(res, 200, '{"ok":true,"name":"Zoë"}', { 'content-type': 'application/json' }));
  r.set('/xhtml', (_q, res) =>
    send(res, 200, '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>', { 'content-type': 'application/xhtml+xml' }),
  );
  r.set('/image.png', (_q, res) => send(res, 200, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), { 'content-type': 'image/png' }));
  r.set('/doc.pdf', (_q, res) => send(res, 200, '%PDF-1.4\n', { 'content-type': 'application/pdf' }));
  r.set('/bin', (_q, res) => send(res, 200, Buffer.from([0, 1, 2, 3]), { 'content-type': 'application/octet-stream' }));
  r.set('/untyped-pdf', (_q, res) => {
    res.writeHead(200);
    res.end('%PDF-1.4\n%\u00e2\u00e3\n');
  });
  return r;
}

/** Starts the fixture site; always `await site.close()` in `after`. */
export async function startFixtureSite(opts: FixtureSiteOptions = {}): Promise<FixtureSite> {
  const routes = builtInRoutes();
  const sockets = new Set<Socket>();
  const requests: RecordedRequest[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fixture.invalid');
    requests.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, headers: req.headers });
    const handler = routes.get(url.pathname);
    if (!handler) return send(res, 404, '<h1>Not found</h1>');
    Promise.resolve(handler(req, res, url)).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, String(err));
      else res.destroy();
    });
  };
  const server = opts.tls ? https.createServer({ key: FIXTURE_KEY, cert: FIXTURE_CA }, listener) : http.createServer(listener);
  const site: FixtureSite = {
    url: '',
    host: opts.host ?? '127.0.0.1',
    port: 0,
    requests,
    connections: 0,
    route: (path, handler) => void routes.set(path, handler),
    page: (path, html, o = {}) => void routes.set(path, (_q, res) => send(res, o.status ?? 200, html, o.headers)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket: Socket) => {
    site.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, site.host, () => resolve());
  });
  const addr = server.address();
  site.port = typeof addr === 'object' && addr ? addr.port : 0;
  const hostPart = site.host.includes(':') ? `[${site.host}]` : site.host;
  site.url = `${opts.tls ? 'https' : 'http'}://${hostPart}:${site.port}`;
  return site;
}
