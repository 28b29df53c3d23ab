// A browser server in its own process (Playwright's `run-server`, as on a browser host) reaching each
// session's filtering proxy on a configured address (browser.proxyListenHost), with the session's
// own credentials: pages load through it, and loopback, private and metadata addresses stay refused.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { CHROMIUM_ARGS, createPlaywrightDriver } from '../src/index.ts';
import { startFixtureSite, type FixtureSite, rejection } from '@gleaner/testing';
import { freePort } from '../../../test/support/process.ts';
import { waitFor } from '../../../test/support/wait.ts';

// The package's own CLI (its `bin`), next to its package.json (cli.js is not in its exports).
const PLAYWRIGHT_CLI = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js');

describe('driver-playwright: a browser server process behind the filtering proxy on a configured address', function () {
  let site: FixtureSite;
  let server: ChildProcess;
  let endpoint: string;
  let output = '';

  before(async function () {
    this.timeout(60_000);
    site = await startFixtureSite();
    const port = await freePort();
    // --unsafe lets the client choose the executable (the system Chromium) and its flags.
    server = spawn(process.execPath, [PLAYWRIGHT_CLI, 'run-server', '--port', String(port), '--host', '127.0.0.1', '--unsafe'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d) => (output += d));
    server.stderr!.on('data', (d) => (output += d));
    await waitFor(() => output.includes('Listening') || server.exitCode !== null, 30_000, 'playwright run-server');
    expect(server.exitCode, output).to.equal(null);
    const launch = { executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS] };
    endpoint = `ws://127.0.0.1:${port}/?launch-options=${encodeURIComponent(JSON.stringify(launch))}`;
  });
  after(async () => {
    // The driver closed its browser; the server does not stop on SIGTERM, so it is killed.
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGKILL');
      await exited;
    }
    await site?.close();
  });

  it('loads pages through the proxy and refuses loopback, private and metadata addresses', async function () {
    this.timeout(90_000);
    const d = createPlaywrightDriver({
      allowNetworks: ['127.0.0.1/32'],
      wsEndpoint: endpoint,
      // Not the browser's own loopback address: the browser must use the configured one.
      proxyListenHost: '127.0.0.3',
      timeoutMs: 20_000,
    });
    const s = await d.openSession();
    try {
      const page = await s.goto(`${site.url}/page`);
      expect(page.html).to.contain('<h1>A page</h1>');
      for (const target of ['http://127.0.0.2:80/', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', `http://[::1]:${site.port}/`]) {
        const r = await s.goto(target).then(
          (p) => ({ code: 'none', status: p.status, html: p.html.slice(0, 200) }),
          (e) => e,
        );
        expect(r.code, `${target}: ${JSON.stringify(r)}`).to.equal('URL_BLOCKED');
      }
      const hop = await rejection(s.goto(`${site.url}/redirect?to=${encodeURIComponent('http://169.254.169.254/')}`));
      expect(hop.code).to.equal('URL_BLOCKED');
      expect(d.stats().launchLog[0]).to.deep.include({ mode: 'connect' });
      expect(d.stats().browserPid).to.equal(null); // the browser lives in the server's process
    } finally {
      await s.close();
      await d.close();
    }
  });
});
