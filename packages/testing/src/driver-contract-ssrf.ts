// The SSRF part of the shared driver contract (driver-contract.ts): every driver refuses blocked
// targets before any connection, and a browser's subresources, WebSockets and WebRTC never reach them.
import { setTimeout as sleep } from 'node:timers/promises';
import { createSocket } from 'node:dgram';
import { expect } from 'chai';
import type { Driver, DriverCapabilities } from '@gleaner/core/plugin';
import { isInteractive } from '@gleaner/core/plugin';
import { startFixtureSite } from './fixture-site.ts';
import type { FixtureSite } from './fixture-site.ts';
import { startForwardProxy } from './forward-proxy.ts';
import { rejection } from './assert.ts';
import { visit } from './driver-contract.ts';
import type { ContractDriverOptions, TestResolver } from './driver-contract.ts';

/** A refusal's reason without the advice core appends (how to allow the address: GLEANER_ALLOW_NETWORKS). */
const reason = (message: string) => message.replace(/; to allow it, .*$/s, '');
const refusal = (err: { code?: string; message: string }) => ({ code: err.code, message: reason(err.message) });

/** The SSRF table: literal forms, metadata, resolved names, redirect hops, proxies, and (browsers) subresources. */
export function ssrfContract(
  capabilities: DriverCapabilities,
  ctx: () => { site: FixtureSite; build: (o?: Partial<ContractDriverOptions>) => Driver; dns: TestResolver },
): void {
  const js = capabilities.javascript;
  describe('ssrf', () => {
    let canary: FixtureSite; // dual-stack on [::]: sees 127.0.0.x, ::1 and ::ffff:127.0.0.1
    let strict: Driver; // nothing allowed
    let narrow: Driver; // only 127.0.0.1 (the fixture site) allowed
    before(async () => {
      canary = await startFixtureSite({ host: '::' });
      strict = ctx().build({ allowNetworks: [] });
      narrow = ctx().build({ allowNetworks: ['127.0.0.1/32'] });
    });
    after(() => canary?.close());
    // Asserted inside each case (a failing afterEach hook would skip the rest of the table).
    const untouched = () => expect(canary.connections, 'connections the canary saw').to.equal(0);

    for (const host of ['127.1', '0x7f.1', '2130706433', '[::ffff:127.0.0.1]', '0.0.0.0', '[::1]', '127.0.0.1', 'localhost']) {
      it(`refuses http://${host}:<port>/ with URL_BLOCKED, and no connection is made`, async () => {
        const err = await rejection(visit(strict, `http://${host}:${canary.port}/`));
        expect(err.code).to.equal('URL_BLOCKED');
        expect(reason(err.message)).to.match(/^blocked: .*(a loopback address|an unspecified address)$/);
        untouched();
      });
    }

    it('refuses the cloud metadata address, private ranges and other schemes', async () => {
      const meta = await rejection(visit(strict, 'http://169.254.169.254/latest/meta-data/'));
      expect(refusal(meta)).to.include({ code: 'URL_BLOCKED', message: 'blocked: 169.254.169.254 is a link-local address' });
      for (const url of ['http://100.64.0.1/', 'http://[fd00::1]/', 'http://10.0.0.1/']) {
        expect((await rejection(visit(strict, url))).code, url).to.equal('URL_BLOCKED');
      }
      for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/', 'javascript:alert(1)']) {
        expect((await rejection(visit(strict, url))).code, url).to.equal('URL_INVALID');
      }
      untouched();
    });

    it('refuses a name resolving to [public, private] (the injected resolver)', async () => {
      ctx().dns.set('mixed.test', ['93.184.216.34', '127.0.0.1']);
      const err = await rejection(visit(strict, `http://mixed.test:${canary.port}/`));
      expect(refusal(err)).to.include({ code: 'URL_BLOCKED', message: 'blocked: mixed.test resolves to 127.0.0.1, a loopback address' });
      untouched();
    });

    it('re-checks every redirect hop: an allowed page redirecting to a blocked address', async () => {
      const { site, dns } = ctx();
      dns.set('hop.test', ['127.0.0.2']);
      const cases: Array<[string, string]> = [
        ['http://169.254.169.254/latest/meta-data/', 'blocked: 169.254.169.254 is a link-local address'],
        [`http://[::1]:${canary.port}/`, 'blocked: ::1 is a loopback address'],
        [`http://127.0.0.2:${canary.port}/`, 'blocked: 127.0.0.2 is a loopback address'],
        [`http://hop.test:${canary.port}/`, 'blocked: hop.test resolves to 127.0.0.2, a loopback address'],
      ];
      for (const [to, message] of cases) {
        const err = await rejection(visit(narrow, `${site.url}/redirect?to=${encodeURIComponent(to)}`));
        expect(refusal(err), to).to.include({ code: 'URL_BLOCKED', message });
      }
      untouched();
    });

    (capabilities.proxy ? it : it.skip)('checks the target before sending it to a proxy (literal and resolved names)', async () => {
      ctx().dns.set('intranet.test', ['10.0.0.5']);
      const proxy = await startForwardProxy();
      try {
        for (const url of [
          `http://127.0.0.1:${canary.port}/`,
          `https://[::1]:${canary.port}/`,
          `http://intranet.test:${canary.port}/`,
          'https://intranet.test/',
        ]) {
          const err = await rejection(visit(strict, url, { proxy: proxy.url }));
          expect(err.code, url).to.equal('URL_BLOCKED');
        }
        const named = await rejection(visit(strict, `http://intranet.test:${canary.port}/`, { proxy: proxy.url }));
        expect(reason(named.message)).to.equal('blocked: intranet.test resolves to 10.0.0.5, a private address');
        expect(proxy.requests).to.have.length(0);
        untouched();
      } finally {
        await proxy.close();
      }
    });

    if (js) {
      it('loads a page whose iframe, fetch(), images and a redirected image aim at blocked addresses; none reaches them', async () => {
        const { site, dns } = ctx();
        dns.set('canary.test', ['127.0.0.2']);
        const c = canary.port;
        site.page(
          '/ssrf-subresources',
          `<!doctype html><html><head><title>Subresources</title></head><body>
          <h1>Subresource page</h1>
          <iframe src="http://127.0.0.2:${c}/frame"></iframe>
          <iframe src="http://canary.test:${c}/named-frame"></iframe>
          <img src="http://[::1]:${c}/img.png">
          <img src="/redirect?to=${encodeURIComponent(`http://127.0.0.2:${c}/redirected.png`)}">
          <p id="fetch-result">pending</p>
          <script>
            Promise.allSettled([fetch('http://[::1]:${c}/fetch'), fetch('http://canary.test:${c}/named-fetch', { mode: 'no-cors' })])
              .then((r) => { const p = document.getElementById('fetch-result'); p.textContent = r.map((x) => x.status).join(','); p.className = 'done'; });
          </script>
        </body></html>`,
        );
        const session = await narrow.openSession();
        try {
          const page = await session.goto(`${site.url}/ssrf-subresources`);
          expect(page.status).to.equal(200);
          expect(page.html).to.contain('Subresource page');
          if (isInteractive(session)) await session.waitFor({ selector: '#fetch-result.done', state: 'attached', timeoutMs: 10_000 });
          else await sleep(1000);
          await sleep(300); // late stragglers would show up on the canary
        } finally {
          await session.close();
        }
        expect(site.requests.some((r) => r.path.startsWith('/redirect?to='))).to.equal(true);
        expect(canary.requests).to.deep.equal([]);
        untouched();
      });

      it('sends no WebRTC (STUN/TURN over UDP) or WebSocket traffic to blocked addresses', async () => {
        const { site } = ctx();
        // UDP never passes an HTTP proxy: only a browser policy keeps WebRTC from sending it.
        const udp = createSocket('udp4');
        let packets = 0;
        udp.on('message', () => packets++);
        await new Promise<void>((r) => udp.bind(0, '127.0.0.2', () => r()));
        const port = (udp.address() as { port: number }).port;
        site.page(
          '/ssrf-webrtc',
          `<!doctype html><html><body><p id="state">pending</p><script>
          const done = (v) => { const p = document.getElementById('state'); p.textContent = v; p.className = 'done'; };
          try {
            const ws = new WebSocket('ws://127.0.0.2:${canary.port}/ws');
            ws.onerror = () => {};
            const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.2:${port}' }, { urls: 'turn:127.0.0.2:${port}?transport=udp', username: 'u', credential: 'p' }] });
            pc.createDataChannel('x');
            pc.createOffer().then((o) => pc.setLocalDescription(o)).then(() => setTimeout(() => done('gathered'), 1500), (e) => done('error ' + e));
          } catch (e) { done('error ' + e); }
        </script></body></html>`,
        );
        const session = await narrow.openSession();
        try {
          await session.goto(`${site.url}/ssrf-webrtc`);
          if (isInteractive(session)) await session.waitFor({ selector: '#state.done', state: 'attached', timeoutMs: 10_000 });
          await sleep(500);
        } finally {
          await session.close();
          await new Promise<void>((r) => udp.close(() => r()));
        }
        expect(packets).to.equal(0);
        expect(canary.requests).to.deep.equal([]);
        untouched();
      });
    }
  });
}
