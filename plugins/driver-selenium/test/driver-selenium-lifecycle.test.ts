// The Selenium driver's browser lifecycle: retirement after N pages, a hung browser killed by its
// process group with nothing left behind, and Grid mode (a remote WebDriver endpoint, here a
// chromedriver the test starts itself), where each job gets a browser of its own.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
});

describe('driver-selenium: Grid mode (remote WebDriver endpoint)', function () {
  this.timeout(120_000);
  let site: FixtureSite;
  let grid: ChildProcess | undefined;
  let driver: SeleniumDriver | undefined;

  before(async () => {
    site = await startFixtureSite();
    // A chromedriver speaks the same W3C protocol as a Grid; it launches one Chromium per session.
    grid = spawn('/usr/bin/chromedriver', ['--port=0'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      grid!.stdout!.on('data', (d: Buffer) => {
        out += d;
        const m = /started successfully on port (\d+)/.exec(out);
        if (m) resolve(`http://127.0.0.1:${m[1]}`);
      });
      grid!.once('exit', () => reject(new Error(`chromedriver exited: ${out}`)));
    });
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
