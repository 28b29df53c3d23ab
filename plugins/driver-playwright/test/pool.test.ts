// driver-playwright's browser lifecycle on the real system Chromium: launch flags (never a download),
// the page cap, retirement after N pages, a hung browser killed by process group, job signals.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { GleanerError } from '@gleaner/core/plugin';
import type { DriverSession } from '@gleaner/core/plugin';
import { CHROMIUM_ARGS, createPlaywrightDriver } from '../src/index.ts';
import type { PlaywrightDriver, PlaywrightDriverOptions } from '../src/index.ts';
import { startFixtureSite, type FixtureSite, rejection } from '@gleaner/testing';
import { waitFor } from '../../../test/support/wait.ts';

/** 'gone', 'zombie' or 'running' for a pid (a zombie would mean nobody reaped the browser). */
function processState(pid: number): 'gone' | 'zombie' | 'stopped' | 'running' {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 'gone';
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' ? 'zombie' : state === 'T' ? 'stopped' : 'running';
}

function cmdline(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

describe('driver-playwright: browser pool', function () {
  let site: FixtureSite;
  const drivers: PlaywrightDriver[] = [];
  const make = (o: PlaywrightDriverOptions = {}) => {
    const d = createPlaywrightDriver({ allowNetworks: ['127.0.0.0/8'], timeoutMs: 15_000, closeTimeoutMs: 2000, ...o });
    drivers.push(d);
    return d;
  };
  const visit = async (d: PlaywrightDriver, path = '/page') => {
    const s = await d.openSession();
    try {
      return await s.goto(`${site.url}${path}`);
    } finally {
      await s.close();
    }
  };

  before(async () => {
    site = await startFixtureSite();
  });
  afterEach(async () => {
    await Promise.all(drivers.splice(0).map((d) => d.close()));
  });
  after(async () => {
    await site.close();
  });

  it('launches the system Chromium lazily, headless, with the container flags, and reports its pid', async () => {
    const d = make({ chromiumPath: '/usr/bin/chromium' });
    expect(d.stats()).to.include({ launches: 0, browserPid: null });
    expect((await visit(d)).html).to.contain('<h1>A page</h1>');
    const stats = d.stats();
    expect(stats.launches).to.equal(1);
    expect(stats.launchLog).to.deep.equal([{ mode: 'launch', executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS }]);
    const pid = stats.browserPid as number;
    expect(processState(pid)).to.equal('running');
    const argv = cmdline(pid);
    expect(argv[0]).to.match(/chromium/);
    for (const flag of [...CHROMIUM_ARGS, '--headless'])
      expect(
        argv.some((a) => a === flag || a.startsWith(`${flag}=`)),
        flag,
      ).to.equal(true);
    // The browser leads its own process group, which is what the pool kills.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    expect(pgid).to.equal(pid);
    await d.close();
    await waitFor(() => processState(pid) === 'gone', 5000, 'the browser to exit and be reaped');
  });

  it('never downloads a browser: a missing executable fails with DRIVER_UNAVAILABLE', async () => {
    const d = make({ chromiumPath: '/nonexistent/chromium', launchTimeoutMs: 5000 });
    const err = await rejection(d.openSession());
    expect(err.code).to.equal('DRIVER_UNAVAILABLE');
    expect(err.message).to.contain('browser.chromiumPath');
    expect(d.stats().launches).to.equal(0);
  });

  it('retires the browser after retireAfterPages sessions and relaunches; the old one exits', async () => {
    const d = make({ retireAfterPages: 2 });
    const pids: number[] = [];
    for (let i = 0; i < 5; i++) {
      await visit(d);
      pids.push(d.stats().browserPid ?? 0);
    }
    const stats = d.stats();
    expect(stats.launches).to.equal(3);
    expect(stats.retired).to.be.at.least(2);
    expect(stats.killed).to.equal(0);
    const distinct = [...new Set(pids.filter(Boolean))];
    expect(distinct.length).to.be.at.least(2);
    for (const pid of distinct.slice(0, -1)) await waitFor(() => processState(pid) === 'gone', 5000, `retired browser ${pid} to exit`);
  });

  it('kills a hung browser by process group when its context will not close, and relaunches', async () => {
    const d = make({ closeTimeoutMs: 500 });
    const session = await d.openSession();
    await session.goto(`${site.url}/page`);
    const pid = d.stats().browserPid as number;
    process.kill(pid, 'SIGSTOP'); // the browser process stops answering; its renderers keep running
    try {
      await session.close(); // context.close() times out -> released as broken -> retired -> close hangs -> killed
    } finally {
      if (processState(pid) === 'stopped') process.kill(pid, 'SIGCONT');
    }
    expect(d.stats().killed).to.equal(1);
    await waitFor(() => processState(pid) === 'gone', 5000, 'the killed browser to be reaped');
    expect((await visit(d)).status).to.equal(200);
    expect(d.stats().launches).to.equal(2);
    expect(d.stats().browserPid).to.not.equal(pid);
  });

  it('relaunches after the browser died under it', async () => {
    const d = make();
    await visit(d);
    const pid = d.stats().browserPid as number;
    process.kill(-pid, 'SIGKILL');
    await waitFor(() => processState(pid) === 'gone', 5000, 'the browser to die');
    const page = await visit(d);
    expect(page.status).to.equal(200);
    expect(d.stats().browserPid).to.not.equal(pid);
  });

  it('caps open pages at maxPages; a waiting openSession honours its signal', async () => {
    const d = make({ maxPages: 1 });
    const first = await d.openSession();
    try {
      const controller = new AbortController();
      const waiting = d.openSession({ signal: controller.signal });
      await new Promise((r) => setTimeout(r, 200));
      expect(d.stats()).to.include({ activePages: 1, waiting: 1 });
      controller.abort(new GleanerError('JOB_ABORTED', 'the job was cancelled'));
      expect(await rejection(waiting)).to.include({ code: 'JOB_ABORTED', message: 'the job was cancelled' });
      let second: DriverSession | undefined;
      const queued = d.openSession().then((s) => (second = s));
      await new Promise((r) => setTimeout(r, 200));
      expect(second).to.equal(undefined);
      await first.close();
      await queued;
      await second?.close();
    } finally {
      await first.close();
    }
  });

  it("closes the page when the job's signal aborts mid-navigation", async () => {
    const d = make();
    const controller = new AbortController();
    const session = await d.openSession({ signal: controller.signal });
    setTimeout(() => controller.abort(new GleanerError('JOB_ABORTED', 'the worker is shutting down')), 300);
    const err = await rejection(session.goto(`${site.url}/slow?ms=8000`));
    expect(err).to.include({ code: 'JOB_ABORTED' });
    await waitFor(() => d.stats().activePages === 0, 5000, 'the page slot to be released');
    expect((await rejection(session.goto(`${site.url}/page`))).code).to.equal('JOB_ABORTED');
    await session.close();
  });

  it('runs pages through retiring browsers two at a time and leaves no browser process behind after close', async () => {
    const d = make({ retireAfterPages: 4, maxPages: 2 });
    const seen = new Set<number>();
    await Promise.all(
      [0, 1].map(async () => {
        for (let i = 0; i < 6; i++) {
          await visit(d);
          const pid = d.stats().browserPid;
          if (pid) seen.add(pid);
        }
      }),
    );
    expect(d.stats().launches).to.be.at.least(3);
    await d.close();
    for (const pid of seen) await waitFor(() => processState(pid) === 'gone', 5000, `browser ${pid} to exit`);
    expect(d.stats()).to.include({ activePages: 0, browsers: 0 });
  });
});
