// driver-playwright against a browser it did not launch (browser.wsEndpoint): a Playwright server
// (ws://) and a Chromium DevTools endpoint (http:// CDP URL). Both run on this host, so the browser
// can reach the per-session filtering proxy on 127.0.0.1.
import { expect } from 'chai';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, createPlaywrightDriver } from '../src/index.ts';
import type { PlaywrightDriver } from '../src/index.ts';
import { startFixtureSite, type FixtureSite, rejection } from '@gleaner/testing';
import { freePort } from '../../../test/support/process.ts';

describe('driver-playwright: remote browser (wsEndpoint)', function () {
  let site: FixtureSite;
  before(async () => {
    site = await startFixtureSite();
  });
  after(async () => {
    await site.close();
  });

  async function exercise(d: PlaywrightDriver): Promise<void> {
    const s = await d.openSession();
    try {
      const page = await s.goto(`${site.url}/page`);
      expect(page.html).to.contain('<h1>A page</h1>');
      // The SSRF path is the same: the session's filtering proxy refuses what the guard refuses.
      expect((await rejection(s.goto(`http://localhost:${site.port}/`))).code).to.equal('URL_BLOCKED');
      // So is the request check inside the browser, browser-wide on the remote browser as well.
      const hop = await rejection(s.goto(`${site.url}/redirect?to=${encodeURIComponent(`http://127.0.0.2:${site.port}/`)}`));
      expect(hop).to.include({
        code: 'URL_BLOCKED',
        message:
          'blocked: 127.0.0.2 is a loopback address; to allow it, add 127.0.0.2/32 (or a network holding it) to GLEANER_ALLOW_NETWORKS (network.allowNetworks) and restart Gleaner',
      });
      expect(d.stats().requestCheck).to.equal('browser');
    } finally {
      await s.close();
    }
    expect(d.stats().browserPid).to.equal(null); // nothing local to kill
  }

  it('connects to a Playwright browser server by its ws:// endpoint', async () => {
    const server = await chromium.launchServer({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS] });
    const d = createPlaywrightDriver({
      allowNetworks: ['127.0.0.1/32'],
      resolver: async () => [{ address: '::1', family: 6 }],
      wsEndpoint: server.wsEndpoint(),
      timeoutMs: 15_000,
    });
    try {
      await exercise(d);
      expect(d.stats().launchLog).to.deep.equal([{ mode: 'connect', endpoint: server.wsEndpoint() }]);
    } finally {
      await d.close();
      await server.close();
    }
  });

  it('connects over CDP to an http:// DevTools URL', async () => {
    const port = await freePort();
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`] });
    const endpoint = `http://127.0.0.1:${port}`;
    const d = createPlaywrightDriver({
      allowNetworks: ['127.0.0.1/32'],
      resolver: async () => [{ address: '::1', family: 6 }],
      wsEndpoint: endpoint,
      timeoutMs: 15_000,
    });
    try {
      await exercise(d);
      expect(d.stats().launchLog).to.deep.equal([{ mode: 'connectOverCDP', endpoint }]);
    } finally {
      await d.close();
      await browser.close();
    }
  });
});
