// The Selenium driver's browser lifecycle: retirement after N pages, a hung browser killed by its
// process group with nothing left behind, and Grid mode (a remote WebDriver endpoint, here a
// chromedriver the test starts itself), where each job gets a browser of its own.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { killProcessGroup, normalizeCookies } from '@gleaner/core/plugin';
import { createSeleniumDriver } from '../src/index.ts';
import type { SeleniumDriver } from '../src/index.ts';
import { processGroupMembers } from '../src/launcher.ts';
import { startFixtureSite, type FixtureSite, visit } from '@gleaner/testing';
import { waitFor } from '../../../test/support/wait.ts';

const cmdline = (pid: number): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
};

/** The Chromium browser process (not a zygote, renderer or utility) of a chromedriver's group. */
function browserProcess(pgid: number): number | undefined {
  return processGroupMembers(pgid).find((pid) => {
    const args = cmdline(pid);
    return args.some((a) => a.startsWith('--remote-debugging-port')) && !args.some((a) => a.startsWith('--type='));
  });
}

describe('driver-selenium: browser lifecycle', function () {
  this.timeout(120_000);
  let site: FixtureSite;
  const drivers: SeleniumDriver[] = [];
  const make = (o: Parameters<typeof createSeleniumDriver>[0]) => {
    const d = createSeleniumDriver({ allowNetworks: ['127.0.0.1/32'], maxPages: 1, timeoutMs: 15_000, ...o });
    drivers.push(d);
    return d;
  };
  before(async () => {
    site = await startFixtureSite();
  });
  after(async () => {
    await Promise.all(drivers.map((d) => d.close()));
    await site?.close();
  });

  it('retires the browser after retireAfterPages jobs and relaunches it; the old group is gone', async () => {
    const d = make({ retireAfterPages: 2 });
    expect((await visit(d, `${site.url}/page`)).status).to.equal(200);
    const [first] = d.stats().pids;
    expect((await visit(d, `${site.url}/page`)).status).to.equal(200);
    expect(d.stats()).to.include({ launches: 1, retired: 1 });
    expect((await visit(d, `${site.url}/page`)).status).to.equal(200);
    expect(d.stats()).to.include({ launches: 2, retired: 1, killed: 0, browsers: 1 });
    expect(d.stats().pids).to.not.include(first);
    expect(processGroupMembers(first), 'processes left in the retired group').to.deep.equal([]);
  });

  it('kills a hung browser by its process group (chromedriver and Chromium), leaves nothing behind, and relaunches', async () => {
    const d = make({ closeTimeoutMs: 1000 });
    const session = await d.openSession();
    expect((await session.goto(`${site.url}/page`)).status).to.equal(200);
    const [pgid] = d.stats().pids;
    const chromium = browserProcess(pgid);
    expect(chromium, 'the Chromium browser process').to.be.a('number');
    process.kill(chromium!, 'SIGSTOP'); // hung: alive, answering nothing
    await session.close(); // the context will not close: the page is released as broken
    expect(d.stats().killed).to.equal(1);
    // Killed processes whose parent died too are reaped by init, a moment later.
    await waitFor(() => processGroupMembers(pgid).length === 0, 15_000, 'the killed process group to be gone');
    expect((await visit(d, `${site.url}/page`)).status).to.equal(200);
    expect(d.stats()).to.include({ launches: 2, killed: 1 });
  });

  it('starts chromedriver again when it cannot bind the port it picked, and only then', async () => {
    // A chromedriver that gives up on its first start as the real one does when 127.0.0.1 holds the
    // port it chose, then runs the real one; the second one fails every time with another message.
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-chromedriver-'));
    try {
      const flaky = join(dir, 'flaky-chromedriver');
      writeFileSync(
        flaky,
        `#!/bin/sh\nif [ ! -e "${dir}/tried" ]; then touch "${dir}/tried"; echo 'Starting ChromeDriver on port 0'; ` +
          `echo '[1.0][SEVERE]: bind() failed: Address already in use (98)'; echo 'IPv4 port not available. Exiting...'; exit 1; fi\n` +
          `exec /usr/bin/chromedriver "$@"\n`,
      );
      chmodSync(flaky, 0o755);
      const d = make({ chromedriverPath: flaky });
      expect((await visit(d, `${site.url}/page`)).status).to.equal(200);
      expect(existsSync(join(dir, 'tried')), 'the first start failed').to.equal(true);
      expect(d.stats().launches).to.equal(1);

      const broken = join(dir, 'broken-chromedriver');
      writeFileSync(broken, `#!/bin/sh\necho "started $$" >> "${dir}/starts"; echo 'cannot open display'; exit 1\n`);
      chmodSync(broken, 0o755);
      const e = await visit(make({ chromedriverPath: broken }), `${site.url}/page`).catch((err: Error) => err);
      expect(e).to.be.instanceOf(Error);
      expect((e as Error).message).to.match(/cannot open display/);
      expect(readFileSync(join(dir, 'starts'), 'utf8').trim().split('\n'), 'started once, not retried').to.have.length(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('driver-selenium: Grid mode (remote WebDriver endpoint)', function () {
  this.timeout(120_000);
  let site: FixtureSite;
  let grid: ChildProcess | undefined;
  let driver: SeleniumDriver | undefined;

  before(async () => {
    site = await startFixtureSite();
    // A chromedriver speaks the same W3C protocol as a Grid; it launches one Chromium per session.
    // Started again when it cannot bind the port it picked (the launcher's own retry, for the same race).
    let url: string | undefined;
    for (let attempt = 1; !url; attempt++) {
      grid = spawn('/usr/bin/chromedriver', ['--port=0'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const onData = (d: Buffer) => {
          out += d;
          const m = /started successfully on port (\d+)/.exec(out);
          if (m) resolve(`http://127.0.0.1:${m[1]}`);
        };
        grid!.stdout!.on('data', onData);
        grid!.stderr!.on('data', onData);
        grid!.once('exit', () => reject(new Error(`chromedriver exited: ${out}`)));
      }).catch((err: Error) => {
        if (attempt >= 3 || !/port not available/.test(err.message)) throw err;
        return undefined;
      });
    }
    driver = createSeleniumDriver({ allowNetworks: ['127.0.0.1/32'], seleniumUrl: url, maxPages: 2, timeoutMs: 15_000 });
  });
  after(async () => {
    await driver?.close();
    if (grid?.pid) killProcessGroup(grid.pid);
    await site?.close();
  });

  it('gives each job a remote session of its own, with its cookies and its filtering proxy', async () => {
    const first = await visit(driver!, `${site.url}/cookies`, { cookies: normalizeCookies({ sid: 'grid' }) });
    expect(first).to.include({ status: 200, driver: 'selenium' });
    expect(first.html).to.contain('<pre id="cookie">sid=grid</pre>');
    const second = await visit(driver!, `${site.url}/cookies`);
    expect(second.html).to.contain('<pre id="cookie"></pre>');
    const blocked = await visit(driver!, `${site.url}/redirect?to=${encodeURIComponent('http://10.0.0.1/')}`).catch((e: Error & { code?: string }) => e.code);
    expect(blocked).to.equal('URL_BLOCKED');
    expect(driver!.stats().pids).to.deep.equal([]);
  });
});
