import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createBrowserPool } from '../src/browser/pool.ts';
import type { BrowserPool, BrowserPoolOptions, LaunchedBrowser, PageLease } from '../src/browser/pool.ts';
import { GleanerError } from '../src/errors.ts';
import { waitFor } from '../../../test/support/wait.ts';
import { rejection } from '@gleaner/testing';

// The pool is generic over the browser, so most tests launch plain objects; the process-group kill
// is proven against real processes. The drivers' own tests run the pool with real Chromium.

interface Fake {
  id: number;
  closed: boolean;
  alive: boolean;
}

function fakeLauncher() {
  const made: Fake[] = [];
  const signals: AbortSignal[] = [];
  const state = { calls: 0, failNext: null as Error | null, delayMs: 0 };
  const launch = async (signal?: AbortSignal): Promise<LaunchedBrowser<Fake>> => {
    state.calls++;
    if (signal) signals.push(signal);
    if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
    if (state.failNext) {
      const err = state.failNext;
      state.failNext = null;
      throw err;
    }
    const b: Fake = { id: made.length + 1, closed: false, alive: true };
    made.push(b);
    return {
      browser: b,
      close: async () => {
        b.closed = true;
      },
      isAlive: () => b.alive,
    };
  };
  return { made, signals, state, launch };
}

function pool(launch: BrowserPoolOptions<Fake>['launch'], over: Partial<BrowserPoolOptions<Fake>> = {}): BrowserPool<Fake> {
  return createBrowserPool<Fake>({ name: 'fake', launch, maxPages: 2, retireAfterPages: 100, launchTimeoutMs: 2000, closeTimeoutMs: 2000, ...over });
}

const tick = () => new Promise((r) => setImmediate(r));

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return !existsSync(`/proc/${pid}`); // a zombie still has its /proc entry
  }
}

describe('browser pool', () => {
  it('launches lazily, once, for concurrent acquirers', async () => {
    const f = fakeLauncher();
    f.state.delayMs = 30;
    const p = pool(f.launch);
    try {
      expect(p.stats().launches).to.equal(0);
      const [a, b] = await Promise.all([p.acquire(), p.acquire()]);
      expect(f.state.calls).to.equal(1);
      expect(a.browser).to.equal(b.browser);
      expect(p.stats()).to.include({ browsers: 1, launches: 1, activePages: 2, waiting: 0 });
      await a.release();
      await a.release(); // twice is harmless
      expect(p.stats().activePages).to.equal(1);
      await b.release();
    } finally {
      await p.close();
    }
  });

  it('caps leases at maxPages and serves waiters first in, first out', async () => {
    const f = fakeLauncher();
    const p = pool(f.launch, { maxPages: 2 });
    try {
      const a = await p.acquire();
      const b = await p.acquire();
      const order: string[] = [];
      const c = p.acquire().then((l) => {
        order.push('c');
        return l;
      });
      const d = p.acquire().then((l) => {
        order.push('d');
        return l;
      });
      await tick();
      expect(p.stats()).to.include({ activePages: 2, waiting: 2 });
      expect(order).to.deep.equal([]);
      await b.release();
      const lc = await c;
      expect(order).to.deep.equal(['c']);
      expect(p.stats()).to.include({ activePages: 2, waiting: 1 });
      await a.release();
      const ld = await d;
      expect(order).to.deep.equal(['c', 'd']);
      await lc.release();
      await ld.release();
      expect(p.stats()).to.include({ activePages: 0, waiting: 0, launches: 1 });
    } finally {
      await p.close();
    }
  });

  it('retires a browser after retireAfterPages, relaunches, and closes the old one after its last lease', async () => {
    const f = fakeLauncher();
    const p = pool(f.launch, { maxPages: 5, retireAfterPages: 2 });
    try {
      const a = await p.acquire();
      const b = await p.acquire();
      expect(a.browser.id).to.equal(1);
      expect(b.browser.id).to.equal(1);
      expect(p.stats().retired).to.equal(1);
      const c = await p.acquire();
      expect(c.browser.id).to.equal(2);
      expect(p.stats()).to.include({ browsers: 2, launches: 2 });
      await a.release();
      expect(f.made[0].closed).to.equal(false); // b still uses it
      await b.release();
      expect(f.made[0].closed).to.equal(true);
      expect(f.made[1].closed).to.equal(false);
      expect(p.stats()).to.include({ browsers: 1, killed: 0 });
      await c.release();
    } finally {
      await p.close();
    }
    expect(f.made[1].closed).to.equal(true);
  });

  it('rejects every waiting acquirer when the launch fails, and the next acquire launches again', async () => {
    const f = fakeLauncher();
    f.state.delayMs = 20;
    f.state.failNext = new Error('spawn /usr/bin/nochromium ENOENT');
    const p = pool(f.launch);
    try {
      const [e1, e2] = await Promise.all([rejection(p.acquire()), rejection(p.acquire())]);
      for (const e of [e1, e2]) {
        expect(e.code).to.equal('DRIVER_UNAVAILABLE');
        expect(e.retryable).to.equal(true);
        expect(e.message).to.contain('could not be started').and.contain('ENOENT');
      }
      expect(f.state.calls).to.equal(1);
      expect(p.stats()).to.include({ activePages: 0, launches: 0 });
      const l = await p.acquire();
      expect(l.browser.id).to.equal(1);
      expect(f.state.calls).to.equal(2);
      await l.release();
    } finally {
      await p.close();
    }
  });

  it('gives up on a launch after launchTimeoutMs and closes the browser that starts late', async () => {
    const f = fakeLauncher();
    f.state.delayMs = 300;
    const p = pool(f.launch, { launchTimeoutMs: 50 });
    try {
      const e = await rejection(p.acquire());
      expect(e.code).to.equal('DRIVER_UNAVAILABLE');
      expect(e.message).to.contain('did not start within 50 ms');
      expect(f.signals[0].aborted).to.equal(true);
      await waitFor(() => f.made[0]?.closed, 3000, 'the late browser to be closed');
      expect(p.stats()).to.include({ launches: 0, activePages: 0 });
    } finally {
      await p.close();
    }
  });

  it('drops a browser found dead and relaunches', async () => {
    const f = fakeLauncher();
    const p = pool(f.launch);
    try {
      const a = await p.acquire();
      await a.release();
      f.made[0].alive = false;
      const b = await p.acquire();
      expect(b.browser.id).to.equal(2);
      expect(p.stats()).to.include({ launches: 2, browsers: 1 });
      expect(f.made[0].closed).to.equal(true);
      await b.release();
    } finally {
      await p.close();
    }
  });

  it('retires a browser whose page was released as broken', async () => {
    const f = fakeLauncher();
    const p = pool(f.launch);
    try {
      const a = await p.acquire();
      await a.release({ broken: true });
      expect(f.made[0].closed).to.equal(true);
      expect(p.stats().retired).to.equal(1);
      const b = await p.acquire();
      expect(b.browser.id).to.equal(2);
      await b.release();
    } finally {
      await p.close();
    }
  });

  it('rejects a waiting acquire with its signal reason and takes it off the queue', async () => {
    const f = fakeLauncher();
    const p = pool(f.launch, { maxPages: 1 });
    try {
      const a = await p.acquire();
      const ac = new AbortController();
      const waiting = p.acquire(ac.signal);
      const later = p.acquire();
      await tick();
      expect(p.stats().waiting).to.equal(2);
      const reason = new GleanerError('JOB_ABORTED', 'job cancelled');
      ac.abort(reason);
      expect(await rejection(waiting)).to.equal(reason);
      expect(p.stats().waiting).to.equal(1);
      await a.release();
      const l = await later; // the aborted waiter did not swallow the slot
      expect(p.stats()).to.include({ activePages: 1, waiting: 0 });
      await l.release();
      const pre = new AbortController();
      pre.abort(reason);
      expect(await rejection(p.acquire(pre.signal))).to.equal(reason);
    } finally {
      await p.close();
    }
  });

  it('rejects an acquire whose signal aborts while the browser launches, freeing its slot', async () => {
    const f = fakeLauncher();
    f.state.delayMs = 100;
    const p = pool(f.launch, { maxPages: 1 });
    try {
      const ac = new AbortController();
      const first = p.acquire(ac.signal);
      await tick();
      ac.abort(new GleanerError('JOB_ABORTED', 'gone'));
      expect((await rejection(first)).code).to.equal('JOB_ABORTED');
      expect(p.stats().activePages).to.equal(0);
      const l = await p.acquire(); // shares the launch still running
      expect(f.state.calls).to.equal(1);
      await l.release();
    } finally {
      await p.close();
    }
  });

  it('close() rejects waiters, closes every browser, and is idempotent', async () => {
    const f = fakeLauncher();
    const p = pool(f.launch, { maxPages: 1 });
    const a = await p.acquire();
    const waiting = p.acquire();
    await tick();
    const c1 = p.close();
    const c2 = p.close();
    expect((await rejection(waiting)).code).to.equal('DRIVER_UNAVAILABLE');
    await Promise.all([c1, c2]);
    expect(f.made[0].closed).to.equal(true);
    expect(p.stats()).to.include({ browsers: 0, waiting: 0 });
    await a.release(); // a lease outliving the pool is still safe to release
    await p.close();
    expect((await rejection(p.acquire())).message).to.contain('closed');
  });

  describe('with real processes', () => {
    // A stand-in browser: ignores SIGTERM, has a child of its own (like Chromium's renderers), and
    // its close() never finishes — the pool must kill the whole process group.
    const STUBBORN = `
      process.on('SIGTERM', () => {});
      const c = require('node:child_process').spawn('sleep', ['1000'], { stdio: 'ignore' });
      process.stdout.write(String(c.pid) + '\\n');
      setInterval(() => {}, 1000);
    `;
    const started: number[] = [];

    async function launchStubborn(): Promise<LaunchedBrowser<{ child: number }>> {
      const proc = spawn(process.execPath, ['-e', STUBBORN], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
      const childPid = await new Promise<number>((resolve, reject) => {
        proc.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
        proc.once('error', reject);
      });
      proc.stdout.destroy();
      proc.unref();
      started.push(proc.pid!, childPid);
      return { browser: { child: childPid }, pid: proc.pid!, close: () => new Promise<void>(() => {}) };
    }

    after(() => {
      for (const pid of started)
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
    });

    it('kills the process group of a browser whose close hangs, leaving no process and no zombie', async () => {
      const p = createBrowserPool({ name: 'stub', launch: launchStubborn, maxPages: 1, retireAfterPages: 1, launchTimeoutMs: 5000, closeTimeoutMs: 200 });
      let lease: PageLease<{ child: number }> | undefined;
      try {
        lease = await p.acquire();
        const pid = p.stats().pids[0];
        const child = lease.browser.child;
        expect(gone(pid)).to.equal(false);
        expect(gone(child)).to.equal(false);
        await lease.release(); // retired after 1 page: close hangs, so the group is killed
        expect(p.stats()).to.include({ killed: 1, browsers: 0 });
        await waitFor(() => gone(pid) && gone(child), 5000, 'the browser and its child to be gone');
      } finally {
        await p.close();
      }
    });

    it('close() kills a hung browser that still has a lease', async () => {
      const p = createBrowserPool({ name: 'stub', launch: launchStubborn, maxPages: 1, retireAfterPages: 100, launchTimeoutMs: 5000, closeTimeoutMs: 200 });
      const lease = await p.acquire();
      const pid = p.stats().pids[0];
      await p.close();
      expect(p.stats().killed).to.equal(1);
      await waitFor(() => gone(pid) && gone(lease.browser.child), 5000, 'the browser and its child to be gone');
      await lease.release();
    });
  });
});
