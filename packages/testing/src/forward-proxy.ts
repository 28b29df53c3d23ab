// A real, minimal forward HTTP proxy on 127.0.0.1:0: absolute-form requests (`GET http://host/path`)
// are forwarded, CONNECT opens a TCP tunnel. It records what it was asked, and close() destroys
// every socket (client side and upstream side).
import http from 'node:http';
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

export interface ProxiedRequest {
  method: string;
  /** Absolute URL for forwarded requests, `host:port` for CONNECT. */
  target: string;
  headers: IncomingMessage['headers'];
}

export interface ForwardProxy {
  /** e.g. `http://127.0.0.1:40123` */
  url: string;
  port: number;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

export async function startForwardProxy(): Promise<ForwardProxy> {
  const sockets = new Set<Duplex>();
  const track = (s: Duplex) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const requests: ProxiedRequest[] = [];

  const server = http.createServer((req, res) => {
    const target = req.url ?? '';
    requests.push({ method: req.method ?? 'GET', target, headers: req.headers });
    let url: URL;
    try {
      url = new URL(target);
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('this proxy wants absolute-form http:// requests');
      return;
    }
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    const upstream = http.request(
      { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || 80, path: `${url.pathname}${url.search}`, method: req.method, headers, agent: false },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('socket', track);
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const target = req.url ?? '';
    requests.push({ method: 'CONNECT', target, headers: req.headers });
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(m[2]), m[1], () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });

  server.on('connection', track);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
