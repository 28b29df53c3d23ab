/**
 * The filtering proxy every browser request goes through (one per browser session). Browsers do not
 * let us check each connection ourselves — Playwright skips route handlers for redirect hops, service
 * workers and some subresources bypass routing, and Chromium talks to loopback and link-local
 * addresses around a configured proxy — so the browser is pointed at this local HTTP proxy instead,
 * with the bypass list emptied. For each CONNECT tunnel (https, wss) and each absolute-form request
 * (plain http, Upgrade included) it checks the target with the SSRF guard, resolves a name once, and
 * connects to exactly the address it checked (or, with `upstream`, hands the checked target to the
 * operator's proxy). A refused target gets a 403 and is recorded; nothing is connected.
 *
 * Only node:net / node:http / node:tls: core does not depend on undici.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { GleanerError, isGleanerError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { ResolvedAddress, SsrfGuard } from './ssrf.ts';
import { isIpLiteral, unbracket } from './ssrf.ts';

export interface FilterProxyOptions {
  /** The guard every target passes (the same one the HTTP driver uses). */
  guard: SsrfGuard;
  /** An http(s):// proxy to chain to (the session's proxy_country proxy), or null/absent = direct. */
  upstream?: string | null;
  logger?: Logger;
  /** Longest wait for a TCP connection to the target or the upstream proxy (default 15000). */
  connectTimeoutMs?: number;
  /**
   * Where to listen, for a browser on another host (browser.proxyListenHost): `host` to bind,
   * `advertiseHost` the address the browser reaches it at (default `host`). Default 127.0.0.1.
   */
  listen?: { host: string; advertiseHost?: string };
  /**
   * Proxy credentials every request must carry (Proxy-Authorization: Basic), else 407: a proxy
   * reachable from other hosts serves only the session it was made for.
   */
  credentials?: { username: string; password: string };
}

/** One request the proxy refused. */
export interface BlockedRequest {
  /** The absolute URL, or `host:port` for a CONNECT tunnel. */
  url: string;
  /** The guard's message, e.g. `blocked: 127.0.0.1 is a loopback address`. */
  reason: string;
  /** Date.now() when it was refused. */
  at: number;
}

export interface FilterProxy {
  /** `http://127.0.0.1:<port>` (or the advertised address): give it to the browser as its proxy server. */
  readonly url: string;
  readonly port: number;
  /** Every refused request, oldest first (the last 1000). */
  readonly blocked: BlockedRequest[];
  /** Targets the proxy could not reach (DNS, refused, timeout, upstream failure), oldest first (the last 1000). */
  readonly failures: BlockedRequest[];
  /** Stops listening and destroys every open socket (client and target side). */
  close(): Promise<void>;
}

/** Response header the proxy sets on its own 403 so a driver can tell it from a site's 403. */
export const FILTER_PROXY_BLOCKED_HEADER = 'x-gleaner-blocked';
/** Response header on the proxy's own 400/502/504 (target unreachable): a fetch failure, not a page. */
export const FILTER_PROXY_ERROR_HEADER = 'x-gleaner-proxy-error';

const MAX_RECORDED = 1000;
const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

interface Target {
  host: string;
  port: number;
  /** The checked addresses to connect to (direct mode), in resolver order. */
  addresses: ResolvedAddress[];
}

/**
 * A `lookup` that answers with addresses already checked (never resolving again), so `net.connect`
 * with `autoSelectFamily` tries each of them in turn (a name with ::1 and 127.0.0.1, one refusing).
 */
function checkedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const fam = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
    const list = fam === 4 || fam === 6 ? addresses.filter((a) => a.family === fam) : addresses;
    if (!list.length) callback(Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }), '');
    else if (options.all)
      callback(
        null,
        list.map((a): LookupAddress => ({ address: a.address, family: a.family })),
      );
    else callback(null, list[0].address, list[0].family);
  };
}

function hopless(headers: IncomingMessage['headers'], keepUpgrade = false): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const listed = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (keepUpgrade && (lower === 'connection' || lower === 'upgrade')) {
      out[lower] = value;
      continue;
    }
    if (HOP_BY_HOP.includes(lower) || listed.includes(lower)) continue;
    out[lower] = value;
  }
  return out;
}

/** `host:port` / `[v6]:port` of a CONNECT request. */
function parseAuthority(authority: string): { host: string; port: number } | null {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(authority) ?? /^([^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1].toLowerCase(), port } : null;
}

function rawHead(lines: string[]): string {
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function headerLines(headers: Record<string, string | string[]>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(headers)) for (const one of Array.isArray(v) ? v : [v]) out.push(`${k}: ${one}`);
  return out;
}

/** Starts a filtering proxy on 127.0.0.1 (a free port). Close it with the session. */
export async function startFilterProxy(opts: FilterProxyOptions): Promise<FilterProxy> {
  const { guard, logger } = opts;
  const connectTimeoutMs = opts.connectTimeoutMs ?? 15_000;
  let upstream: URL | null = null;
  if (opts.upstream) {
    try {
      upstream = new URL(opts.upstream);
    } catch {
      throw new GleanerError('CONFIG_INVALID', 'the proxy URL is not a valid URL');
    }
    if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') {
      throw new GleanerError('CONFIG_INVALID', `a browser session can chain only to an http:// or https:// proxy, not ${upstream.protocol}`);
    }
  }
  const upstreamAuth = upstream?.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`).toString('base64')}`
    : null;
  const blocked: BlockedRequest[] = [];
  const failures: BlockedRequest[] = [];
  const remember = (list: BlockedRequest[], url: string, reason: string) => {
    list.push({ url, reason, at: Date.now() });
    if (list.length > MAX_RECORDED) list.splice(0, list.length - MAX_RECORDED);
  };
  const sockets = new Set<Duplex>();
  let closed = false;
  const track = (s: Duplex): Duplex => {
    if (closed) s.destroy();
    if (sockets.has(s)) return s; // keep-alive sockets come back for every request
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {}); // errors are handled where they matter; never crash the process
    return s;
  };
  // Direct plain-http requests reuse connections per checked address (the pool key is the address).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

  /** Checks the target: literal addresses directly, names resolved once; throws URL_BLOCKED. */
  async function check(host: string, port: number): Promise<Target> {
    const bare = unbracket(host);
    if (isIpLiteral(bare)) return { host: bare, port, addresses: [guard.checkAddress(bare)] };
    return { host: bare, port, addresses: await guard.resolve(bare) };
  }

  function refuse(what: string, err: unknown): { status: number; text: string; blocked: boolean } {
    if (isGleanerError(err) && err.code === 'URL_BLOCKED') {
      remember(blocked, what, err.message);
      logger?.debug({ target: what, reason: err.message }, 'filter proxy: blocked');
      return { status: 403, text: err.message, blocked: true };
    }
    if (isGleanerError(err) && err.code === 'URL_INVALID') return { status: 400, text: err.message, blocked: false };
    const code = (err as { code?: string })?.code;
    const timedOut = code === 'ETIMEDOUT';
    const text = timedOut ? `connecting to ${what} timed out` : `cannot reach ${what}: ${err instanceof Error ? err.message : String(err)}`;
    remember(failures, what, text);
    return { status: timedOut ? 504 : 502, text, blocked: false };
  }

  function rawRefusal(socket: Duplex, r: { status: number; text: string; blocked: boolean }): void {
    if (socket.destroyed) return;
    const reason = r.status === 403 ? 'Forbidden' : r.status === 400 ? 'Bad Request' : r.status === 504 ? 'Gateway Timeout' : 'Bad Gateway';
    const body = Buffer.from(`${r.text}\n`);
    const lines = [`HTTP/1.1 ${r.status} ${reason}`, 'content-type: text/plain; charset=utf-8', `content-length: ${body.length}`, 'connection: close'];
    lines.push(`${r.blocked ? FILTER_PROXY_BLOCKED_HEADER : FILTER_PROXY_ERROR_HEADER}: 1`);
    socket.end(Buffer.concat([Buffer.from(rawHead(lines)), body]));
  }

  /**
   * A TCP (or TLS, for an https upstream) connection, with a connect timeout. With `addresses`, only
   * those (already checked) are tried, in order.
   */
  function dial(host: string, port: number, secure = false, addresses?: ResolvedAddress[]): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const where = addresses ? { host: isIpLiteral(host) ? addresses[0].address : host, lookup: checkedLookup(addresses), autoSelectFamily: true } : { host };
      const sock = secure ? tls.connect({ ...where, port, servername: isIpLiteral(host) ? undefined : host }) : net.connect({ ...where, port });
      track(sock);
      const timer = setTimeout(() => {
        sock.destroy();
        reject(Object.assign(new Error(`connect to ${host}:${port} timed out`), { code: 'ETIMEDOUT' }));
      }, connectTimeoutMs);
      const ready = () => {
        clearTimeout(timer);
        sock.removeListener('error', fail);
        sock.setNoDelay(true);
        resolve(sock);
      };
      const fail = (err: Error) => {
        clearTimeout(timer);
        reject(err);
      };
      sock.once(secure ? 'secureConnect' : 'connect', ready);
      sock.once('error', fail);
    });
  }

  function dialUpstream(): Promise<net.Socket> {
    const u = upstream as URL;
    return dial(unbracket(u.hostname), Number(u.port) || (u.protocol === 'https:' ? 443 : 80), u.protocol === 'https:');
  }

  /** Sends a head to an upstream connection and reads its response head (CONNECT through a proxy). */
  function readHead(sock: net.Socket): Promise<{ status: number; head: Buffer; rest: Buffer }> {
    return new Promise((resolve, reject) => {
      let buf = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        buf = Buffer.concat([buf, chunk]);
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (buf.length > 65536) fail(new Error('the upstream proxy sent an oversized response head'));
          return;
        }
        cleanup();
        const head = buf.subarray(0, end + 4);
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1'))?.[1] ?? 0);
        resolve({ status, head, rest: buf.subarray(end + 4) });
      };
      const fail = (err: Error) => {
        cleanup();
        reject(err);
      };
      const onClose = () => fail(new Error('the upstream proxy closed the connection'));
      const cleanup = () => {
        sock.removeListener('data', onData);
        sock.removeListener('error', fail);
        sock.removeListener('close', onClose);
      };
      sock.on('data', onData);
      sock.once('error', fail);
      sock.once('close', onClose);
    });
  }

  function splice(a: Duplex, b: Duplex, head?: Buffer): void {
    if (head?.length) b.write(head);
    a.pipe(b);
    b.pipe(a);
    const destroyBoth = () => {
      a.destroy();
      b.destroy();
    };
    a.once('close', destroyBoth);
    b.once('close', destroyBoth);
  }

  async function onConnect(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    track(client);
    const authority = req.url ?? '';
    const parsed = parseAuthority(authority);
    if (!parsed) return rawRefusal(client, { status: 400, text: `not a host:port: ${authority.slice(0, 200)}`, blocked: false });
    let target: Target;
    try {
      target = await check(parsed.host, parsed.port);
    } catch (err) {
      return rawRefusal(client, refuse(authority, err));
    }
    if (client.destroyed) return;
    try {
      if (!upstream) {
        const sock = await dial(target.host, target.port, false, target.addresses);
        if (client.destroyed) return void sock.destroy();
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        splice(client, sock, head);
        return;
      }
      const sock = await dialUpstream();
      const lines = [`CONNECT ${authority} HTTP/1.1`, `host: ${authority}`];
      if (upstreamAuth) lines.push(`proxy-authorization: ${upstreamAuth}`);
      sock.write(rawHead(lines));
      const answer = await readHead(sock);
      if (client.destroyed) return void sock.destroy();
      if (answer.status < 200 || answer.status > 299) {
        sock.destroy();
        const text = `the upstream proxy refused CONNECT ${authority} (status ${answer.status})`;
        remember(failures, authority, text);
        return rawRefusal(client, { status: 502, text, blocked: false });
      }
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (answer.rest.length) client.write(answer.rest);
      splice(client, sock, head);
    } catch (err) {
      rawRefusal(client, refuse(authority, err));
    }
  }

  /** The absolute http:// URL of a forwarded request and its checked target. */
  async function checkAbsolute(raw: string | undefined): Promise<{ url: URL; target: Target }> {
    const url = guard.checkUrl(raw ?? '');
    if (url.protocol !== 'http:')
      throw new GleanerError('URL_INVALID', `this proxy forwards absolute http:// requests only (https goes through CONNECT): ${url.href.slice(0, 200)}`);
    return { url, target: await check(url.hostname, Number(url.port) || 80) };
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (r: { status: number; text: string; blocked: boolean }) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(r.status, { 'content-type': 'text/plain; charset=utf-8', [r.blocked ? FILTER_PROXY_BLOCKED_HEADER : FILTER_PROXY_ERROR_HEADER]: '1' });
      res.end(`${r.text}\n`);
    };
    let url: URL;
    let target: Target;
    try {
      ({ url, target } = await checkAbsolute(req.url));
    } catch (err) {
      req.resume();
      return reply(refuse(req.url ?? '', err));
    }
    const headers = hopless(req.headers);
    headers.host = url.host;
    let options: http.RequestOptions;
    if (upstream) {
      if (upstreamAuth) headers['proxy-authorization'] = upstreamAuth;
      const u = upstream;
      options = {
        host: unbracket(u.hostname),
        port: Number(u.port) || (u.protocol === 'https:' ? 443 : 80),
        path: url.href,
        method: req.method,
        headers,
        agent: false,
        ...(u.protocol === 'https:'
          ? { createConnection: () => tls.connect({ host: unbracket(u.hostname), port: Number(u.port) || 443, servername: u.hostname }) }
          : {}),
      };
    } else {
      // The agent pools sockets per host name; each was connected to a checked address.
      const host = isIpLiteral(target.host) ? target.addresses[0].address : target.host;
      options = {
        host,
        port: target.port,
        lookup: checkedLookup(target.addresses),
        ...({ autoSelectFamily: true } as object),
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers,
        agent,
        setHost: false,
      };
    }
    const out = http.request(options, (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, hopless(up.headers));
      up.pipe(res);
      up.on('error', () => res.destroy());
    });
    out.setTimeout(connectTimeoutMs, () => {
      if (!out.socket || out.socket.connecting) out.destroy(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' }));
    });
    out.on('socket', (s) => {
      track(s);
      s.setTimeout(0);
    });
    out.on('error', (err) => reply(refuse(url.href, err)));
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  }

  async function onUpgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    track(client);
    let url: URL;
    let target: Target;
    try {
      ({ url, target } = await checkAbsolute(req.url));
    } catch (err) {
      return rawRefusal(client, refuse(req.url ?? '', err));
    }
    try {
      const sock = upstream ? await dialUpstream() : await dial(target.host, target.port, false, target.addresses);
      if (client.destroyed) return void sock.destroy();
      const headers = hopless(req.headers, true);
      headers.host = url.host;
      if (upstream && upstreamAuth) headers['proxy-authorization'] = upstreamAuth;
      const line = `${req.method} ${upstream ? url.href : `${url.pathname}${url.search}`} HTTP/1.1`;
      sock.write(rawHead([line, ...headerLines(headers)]));
      splice(client, sock, head);
    } catch (err) {
      rawRefusal(client, refuse(url.href, err));
    }
  }

  // With credentials, a request without them gets 407 (the browser answers the challenge).
  const expected = opts.credentials
    ? Buffer.from(`Basic ${Buffer.from(`${opts.credentials.username}:${opts.credentials.password}`).toString('base64')}`)
    : null;
  const authorized = (req: IncomingMessage): boolean => {
    if (!expected) return true;
    const given = Buffer.from(String(req.headers['proxy-authorization'] ?? ''));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const challenge = 'Basic realm="gleaner", charset="UTF-8"';
  const denySocket = (sock: Duplex) => {
    remember(blocked, 'proxy', 'missing or wrong proxy credentials');
    sock.end(rawHead(['HTTP/1.1 407 Proxy Authentication Required', `proxy-authenticate: ${challenge}`, 'content-length: 0', 'connection: close']));
  };

  const server = http.createServer({ keepAliveTimeout: 30_000, requestTimeout: 0 });
  server.on('request', (req, res) => {
    if (!authorized(req)) {
      remember(blocked, req.url ?? 'proxy', 'missing or wrong proxy credentials');
      res.writeHead(407, { 'proxy-authenticate': challenge, 'content-length': '0' }).end();
      return;
    }
    void onRequest(req, res).catch((err: unknown) => logger?.warn({ err }, 'filter proxy: request failed'));
  });
  server.on('connect', (req, sock, head) => {
    if (!authorized(req)) return denySocket(track(sock));
    void onConnect(req, sock, head).catch((err: unknown) => logger?.warn({ err }, 'filter proxy: CONNECT failed'));
  });
  server.on('upgrade', (req, sock, head) => {
    if (!authorized(req)) return denySocket(track(sock));
    void onUpgrade(req, sock, head).catch((err: unknown) => logger?.warn({ err }, 'filter proxy: upgrade failed'));
  });
  server.on('connection', (s) => track(s));
  server.on('clientError', (_err, sock) => {
    if (sock.writable) sock.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else sock.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, opts.listen?.host || '127.0.0.1', () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => logger?.warn({ err }, 'filter proxy: server error'));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;

  const advertised = opts.listen?.advertiseHost || opts.listen?.host || '127.0.0.1';
  return {
    url: `http://${advertised.includes(':') ? `[${unbracket(advertised)}]` : advertised}:${port}`,
    port,
    blocked,
    failures,
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        agent.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}
