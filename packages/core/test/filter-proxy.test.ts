import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { expect } from 'chai';
import { createSsrfGuard, startFilterProxy } from '@gleaner/core/internal';
import type { FilterProxy, Resolver } from '@gleaner/core/internal';
import { FIXTURE_CA, startFixtureSite, type FixtureSite, startForwardProxy, type ForwardProxy } from '@gleaner/testing';

const LOOPBACK = ['127.0.0.0/8'];
// Names the test resolver answers; everything else is unknown.
const resolver: Resolver = async (name) => {
  if (name === 'fixture.test') return [{ address: '127.0.0.1', family: 4 }];
  if (name === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
  if (name === 'dual.test')
    return [
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ];
  if (name === 'mixed.test')
    return [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
  return [];
};

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An absolute-form request through the proxy (what a browser sends for http:// URLs). */
function viaProxy(proxy: FilterProxy, url: string, agent: http.Agent | false = false): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxy.port, path: url, method: 'GET', agent, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a CONNECT tunnel; resolves with the proxy's answer and the socket (open on 200). */
function connect(proxy: FilterProxy, authority: string): Promise<{ status: number; body: string; socket: Duplex }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: authority, agent: false });
    req.on('connect', (res, socket, head) => {
      if (res.statusCode === 200) return resolve({ status: 200, body: '', socket });
      let body = head.toString();
      socket.on('data', (c: Buffer) => (body += c.toString()));
      socket.on('close', () => resolve({ status: res.statusCode ?? 0, body, socket }));
      socket.on('error', () => {});
    });
    req.on('error', reject);
    req.end();
  });
}

/** GET over TLS inside a tunnel, trusting the fixture certificate. */
function httpsOver(socket: Duplex, host: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const secure = tls.connect({ socket, ca: FIXTURE_CA, servername: 'localhost' }, () => {
      secure.write(`GET ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`);
    });
    let text = '';
    secure.on('data', (c: Buffer) => (text += c.toString()));
    secure.on('end', () => resolve(text));
    secure.on('error', reject);
  });
}

describe('filter proxy', () => {
  let site: FixtureSite;
  let tlsSite: FixtureSite;
  let canary: FixtureSite;
  const proxies: FilterProxy[] = [];
  const start = async (allowNetworks: string[], upstream?: string) => {
    const p = await startFilterProxy({ guard: createSsrfGuard({ allowNetworks, resolver }), upstream, connectTimeoutMs: 3000 });
    proxies.push(p);
    return p;
  };

  before(async () => {
    site = await startFixtureSite();
    tlsSite = await startFixtureSite({ tls: true });
    canary = await startFixtureSite();
  });
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.close()));
  });
  after(async () => {
    await Promise.all([site.close(), tlsSite.close(), canary.close()]);
  });

  it('listens on 127.0.0.1 and forwards plain http to an allowed address, keeping the connection alive', async () => {
    const proxy = await start(LOOPBACK);
    expect(proxy.url).to.equal(`http://127.0.0.1:${proxy.port}`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await viaProxy(proxy, `${site.url}/page`, agent);
      const second = await viaProxy(proxy, `${site.url}/cookies`, agent);
      expect(first.status).to.equal(200);
      expect(first.body).to.contain('<h1>A page</h1>');
      expect(second.status).to.equal(200);
      expect(site.requests.at(-1)?.headers.host).to.equal(site.url.replace('http://', ''));
      expect(site.requests.at(-1)?.headers).to.not.have.property('proxy-connection');
      expect(proxy.blocked).to.deep.equal([]);
    } finally {
      agent.destroy();
    }
  });

  it('passes error statuses and redirects through untouched (the browser follows them, each hop checked)', async () => {
    const proxy = await start(LOOPBACK);
    const err = await viaProxy(proxy, `${site.url}/error`);
    expect(err.status).to.equal(500);
    const hop = await viaProxy(proxy, `${site.url}/redirect?to=/page`);
    expect(hop.status).to.equal(302);
    expect(hop.headers.location).to.equal('/page');
  });

  it('refuses a loopback literal with 403, records it, and never connects', async () => {
    const proxy = await start([]);
    const before = canary.connections;
    const reply = await viaProxy(proxy, `${canary.url}/page`);
    expect(reply.status).to.equal(403);
    expect(reply.headers['x-gleaner-blocked']).to.equal('1');
    expect(reply.body).to.contain('blocked: 127.0.0.1 is a loopback address');
    expect(proxy.blocked).to.have.length(1);
    expect(proxy.blocked[0]).to.include({
      url: `${canary.url}/page`,
      reason:
        'blocked: 127.0.0.1 is a loopback address; to allow it, add 127.0.0.1/32 (or a network holding it) to GLEANER_ALLOW_NETWORKS (network.allowNetworks) and restart Gleaner',
    });
    expect(canary.connections).to.equal(before);
  });

  it('resolves names once and refuses when any address is blocked', async () => {
    const proxy = await start([]);
    const before = canary.connections;
    const meta = await viaProxy(proxy, `http://metadata.test:${canary.port}/latest`);
    expect(meta.status).to.equal(403);
    expect(meta.body).to.contain('blocked: metadata.test resolves to 169.254.169.254, a link-local address');
    const mixed = await viaProxy(proxy, `http://mixed.test:${canary.port}/`);
    expect(mixed.status).to.equal(403);
    expect(mixed.body).to.contain('resolves to 127.0.0.1');
    const other = await viaProxy(proxy, `http://[::ffff:127.0.0.1]:${canary.port}/`);
    expect(other.status).to.equal(403);
    expect(proxy.blocked.map((b) => b.url)).to.deep.equal([
      `http://metadata.test:${canary.port}/latest`,
      `http://mixed.test:${canary.port}/`,
      `http://[::ffff:127.0.0.1]:${canary.port}/`,
    ]);
    expect(canary.connections).to.equal(before);
  });

  it('connects a resolved name to the address it checked', async () => {
    const proxy = await start(LOOPBACK);
    const reply = await viaProxy(proxy, `http://fixture.test:${site.port}/page`);
    expect(reply.status).to.equal(200);
    expect(site.requests.at(-1)?.headers.host).to.equal(`fixture.test:${site.port}`);
  });

  it('tries each checked address of a name in turn (::1 refused, 127.0.0.1 listening)', async () => {
    const proxy = await start(['127.0.0.0/8', '::1/128']);
    const reply = await viaProxy(proxy, `http://dual.test:${site.port}/page`);
    expect(reply.status).to.equal(200);
    const tunnel = await connect(proxy, `dual.test:${tlsSite.port}`);
    expect(tunnel.status).to.equal(200);
    expect(await httpsOver(tunnel.socket, `dual.test:${tlsSite.port}`, '/page')).to.contain('<h1>A page</h1>');
  });

  it('answers 502 for an unknown name and 400 for a non-http target, and keeps serving', async () => {
    const proxy = await start(LOOPBACK);
    const unknown = await viaProxy(proxy, 'http://nowhere.test/');
    expect(unknown.status).to.equal(502);
    expect(unknown.headers['x-gleaner-proxy-error']).to.equal('1');
    expect(unknown.headers).to.not.have.property('x-gleaner-blocked');
    const bad = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: proxy.port, path: '/relative', agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(bad).to.equal(400);
    const garbage = await new Promise<string>((resolve) => {
      const s = net.connect(proxy.port, '127.0.0.1', () => s.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      s.on('data', (c: Buffer) => (text += c.toString()));
      s.on('close', () => resolve(text));
      s.on('error', () => {});
    });
    expect(garbage).to.match(/^HTTP\/1\.1 400/);
    expect((await viaProxy(proxy, `${site.url}/page`)).status).to.equal(200);
  });

  it('tunnels CONNECT to an allowed https site', async () => {
    const proxy = await start(LOOPBACK);
    const tunnel = await connect(proxy, `fixture.test:${tlsSite.port}`);
    expect(tunnel.status).to.equal(200);
    const text = await httpsOver(tunnel.socket, `fixture.test:${tlsSite.port}`, '/page');
    expect(text).to.match(/^HTTP\/1\.1 200/);
    expect(text).to.contain('<h1>A page</h1>');
  });

  it('refuses CONNECT to a blocked address with 403 and never connects', async () => {
    const proxy = await start([]);
    const before = canary.connections;
    const literal = await connect(proxy, `127.0.0.1:${canary.port}`);
    expect(literal.status).to.equal(403);
    expect(literal.body).to.contain('blocked: 127.0.0.1 is a loopback address');
    const v6 = await connect(proxy, `[::1]:${canary.port}`);
    expect(v6.status).to.equal(403);
    const named = await connect(proxy, `metadata.test:443`);
    expect(named.status).to.equal(403);
    expect(proxy.blocked.map((b) => b.url)).to.deep.equal([`127.0.0.1:${canary.port}`, `[::1]:${canary.port}`, 'metadata.test:443']);
    expect(canary.connections).to.equal(before);
  });

  it('answers 502 when the target refuses the connection', async () => {
    const proxy = await start(LOOPBACK);
    const free = net.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', () => r()));
    const port = (free.address() as AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    expect((await connect(proxy, `127.0.0.1:${port}`)).status).to.equal(502);
    expect((await viaProxy(proxy, `http://127.0.0.1:${port}/`)).status).to.equal(502);
  });

  it('forwards websocket upgrades (absolute form) to an allowed address', async () => {
    const ws = http.createServer();
    const upgraded = new Set<Duplex>();
    ws.on('upgrade', (req, socket) => {
      upgraded.add(socket);
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nx-path: ${req.url}\r\n\r\n`);
      socket.on('data', (c: Buffer) => socket.write(c)); // echo
    });
    await new Promise<void>((r) => ws.listen(0, '127.0.0.1', () => r()));
    const port = (ws.address() as AddressInfo).port;
    try {
      const proxy = await start(LOOPBACK);
      const echoed = await new Promise<{ status: number; path: string; echo: string }>((resolve, reject) => {
        const req = http.request({
          host: '127.0.0.1',
          port: proxy.port,
          path: `http://127.0.0.1:${port}/chat?x=1`,
          agent: false,
          headers: { connection: 'Upgrade', upgrade: 'websocket' },
        });
        req.on('upgrade', (res, socket) => {
          socket.once('data', (c: Buffer) => {
            socket.destroy();
            resolve({ status: res.statusCode ?? 0, path: String(res.headers['x-path']), echo: c.toString() });
          });
          socket.write('ping');
        });
        req.on('error', reject);
        req.end();
      });
      expect(echoed).to.deep.equal({ status: 101, path: '/chat?x=1', echo: 'ping' });
      const blocked = await start([]);
      const refused = await new Promise<number>((resolve, reject) => {
        const req = http.request({
          host: '127.0.0.1',
          port: blocked.port,
          path: `http://127.0.0.1:${port}/chat`,
          agent: false,
          headers: { connection: 'Upgrade', upgrade: 'websocket' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(refused).to.equal(403);
    } finally {
      for (const s of upgraded) s.destroy(); // upgraded sockets leave the server's bookkeeping
      ws.closeAllConnections();
      await new Promise<void>((r) => ws.close(() => r()));
    }
  });

  describe('chained to an upstream proxy', () => {
    let upstream: ForwardProxy;
    before(async () => {
      upstream = await startForwardProxy();
    });
    after(async () => {
      await upstream.close();
    });

    it('sends allowed plain-http requests and CONNECT tunnels through the upstream', async () => {
      const proxy = await start(LOOPBACK, upstream.url);
      const reply = await viaProxy(proxy, `${site.url}/page`);
      expect(reply.status).to.equal(200);
      expect(reply.body).to.contain('<h1>A page</h1>');
      const tunnel = await connect(proxy, `127.0.0.1:${tlsSite.port}`);
      expect(tunnel.status).to.equal(200);
      expect(await httpsOver(tunnel.socket, `127.0.0.1:${tlsSite.port}`, '/page')).to.contain('<h1>A page</h1>');
      expect(upstream.requests.map((r) => `${r.method} ${r.target}`)).to.include.members([`GET ${site.url}/page`, `CONNECT 127.0.0.1:${tlsSite.port}`]);
    });

    it('checks the target before the upstream sees it', async () => {
      const proxy = await start([], upstream.url);
      const seen = upstream.requests.length;
      const before = canary.connections;
      expect((await viaProxy(proxy, `${canary.url}/page`)).status).to.equal(403);
      expect((await connect(proxy, `127.0.0.1:${canary.port}`)).status).to.equal(403);
      expect((await viaProxy(proxy, `http://metadata.test/`)).status).to.equal(403);
      expect(upstream.requests.length).to.equal(seen);
      expect(canary.connections).to.equal(before);
      expect(proxy.blocked).to.have.length(3);
    });

    it('rejects an upstream that is not an http(s) proxy URL', async () => {
      const err = await startFilterProxy({ guard: createSsrfGuard(), upstream: 'socks5://127.0.0.1:1080' }).catch((e: unknown) => e);
      expect(err).to.have.property('code', 'CONFIG_INVALID');
    });
  });

  it('close() destroys open tunnels and stops listening', async () => {
    const proxy = await start(LOOPBACK);
    const tunnel = await connect(proxy, `127.0.0.1:${site.port}`);
    expect(tunnel.status).to.equal(200);
    const closedTunnel = new Promise<void>((r) => tunnel.socket.once('close', () => r()));
    tunnel.socket.on('error', () => {});
    await proxy.close();
    await closedTunnel;
    const refused = await new Promise<string>((resolve) => {
      const s = net.connect(proxy.port, '127.0.0.1');
      s.on('connect', () => resolve('connected'));
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(refused).to.equal('ECONNREFUSED');
    await proxy.close(); // twice is fine
  });
});
