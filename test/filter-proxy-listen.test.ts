// The filtering proxy on a configured address with per-session credentials (browser.proxyListenHost):
// without them every request, CONNECT and upgrade is answered 407; with them it filters as ever.
import net from 'node:net';
import { expect } from 'chai';
import { createSsrfGuard, startFilterProxy } from '@gleaner/core/internal';
import { startFixtureSite, type FixtureSite } from '@gleaner/testing';

function raw(port: number, host: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, host, () => sock.write(text));
    let out = '';
    sock.on('data', (d) => {
      out += d;
      if (out.includes('\r\n\r\n')) sock.destroy();
    });
    sock.on('close', () => resolve(out));
    sock.on('error', reject);
  });
}

describe('filter proxy: listen address and credentials', () => {
  let site: FixtureSite;
  before(async () => (site = await startFixtureSite()));
  after(() => site.close());

  it('listens where configured, advertises that address, and wants the session’s credentials', async () => {
    const proxy = await startFilterProxy({
      guard: createSsrfGuard({ allowNetworks: ['127.0.0.1/32'] }),
      listen: { host: '127.0.0.3', advertiseHost: '127.0.0.3' },
      credentials: { username: 'gleaner', password: 's3cret' },
    });
    try {
      expect(proxy.url).to.equal(`http://127.0.0.3:${proxy.port}`);
      const good = `Proxy-Authorization: Basic ${Buffer.from('gleaner:s3cret').toString('base64')}\r\n`;
      const bad = `Proxy-Authorization: Basic ${Buffer.from('gleaner:guess').toString('base64')}\r\n`;
      const get = (auth: string) =>
        raw(proxy.port, '127.0.0.3', `GET ${site.url}/page HTTP/1.1\r\nHost: ${site.url.slice(7)}\r\n${auth}Connection: close\r\n\r\n`);
      const connect = (auth: string, target: string) => raw(proxy.port, '127.0.0.3', `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
      expect(await get('')).to.match(/^HTTP\/1\.1 407 .*\r\n(.*\r\n)*proxy-authenticate: Basic realm="gleaner"/i);
      expect(await get(bad)).to.match(/^HTTP\/1\.1 407/);
      expect(await connect('', `127.0.0.1:${site.port}`)).to.match(/^HTTP\/1\.1 407/);
      expect(await get(good)).to.match(/^HTTP\/1\.1 200/);
      expect(await connect(good, `127.0.0.1:${site.port}`)).to.match(/^HTTP\/1\.1 200/);
      // With credentials, the guard still refuses loopback, private and metadata addresses.
      for (const target of ['127.0.0.2:80', '10.0.0.1:443', '169.254.169.254:80']) expect(await connect(good, target)).to.match(/^HTTP\/1\.1 403/);
      // Not on 127.0.0.1: it listens on the configured address only.
      await new Promise<void>((resolve, reject) => {
        const s = net.connect(proxy.port, '127.0.0.1');
        s.on('connect', () => reject(new Error('the proxy answered on 127.0.0.1')));
        s.on('error', () => resolve());
      });
    } finally {
      await proxy.close();
    }
  });
});
