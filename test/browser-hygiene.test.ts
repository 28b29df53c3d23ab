// Browser pool hygiene: many pages through each browser driver's pool (with relaunches forced by a
// small retireAfterPages), then the browser processes this node process started are all gone, none
// is left a zombie, and memory did not grow with the page count. The figures are printed for the
// closing note; the bounds are generous (a leak test, not a timing test).
import { expect } from 'chai';
import type { BrowserPoolStats, Driver } from '@gleaner/core/internal';
import { createPlaywrightDriver } from '@gleaner/driver-playwright';
import { createSeleniumDriver } from '@gleaner/driver-selenium';
import { startFixtureSite, type FixtureSite } from '@gleaner/testing';
import { waitFor } from './support/wait.ts';
import { descendants, isBrowser, memoryMb, readProc, type Proc } from './support/procs.ts';

interface Sample {
  page: number;
  nodeRssMb: number;
  browserMb: number;
  browserProcs: number;
}

function sample(page: number): Sample {
  const browsers = descendants().filter(isBrowser);
  return { page, nodeRssMb: process.memoryUsage().rss / 2 ** 20, browserMb: browsers.reduce((a, p) => a + memoryMb(p.pid), 0), browserProcs: browsers.length };
}

type PooledDriver = Driver & { stats(): BrowserPoolStats };
type Factory = (opts: { allowNetworks: string[]; timeoutMs: number; maxPages: number; retireAfterPages: number }) => PooledDriver;

const PAGE = (n: number) =>
  `<!doctype html><html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1><ul>${Array.from(
    { length: 40 },
    (_, i) => `<li class="item">Item ${n}.${i} <a href="/h?n=${n + 1}">next</a></li>`,
  ).join('')}</ul><p id="js"></p><script>document.getElementById('js').textContent = 'rendered ' + ${n};</script></body></html>`;

// retireAfterPages is chosen so the last sample falls mid-way through a browser's life, as the
// first one does (a browser retired exactly at the last page would make the late sample look small).
const RUNS: Array<{ name: string; create: Factory; pages: number; retireAfterPages: number; samples: number[] }> = [
  { name: 'playwright', create: createPlaywrightDriver, pages: 300, retireAfterPages: 120, samples: [50, 150, 300] },
  { name: 'selenium', create: createSeleniumDriver, pages: 60, retireAfterPages: 25, samples: [10, 60] },
];

for (const run of RUNS) {
  describe(`browser pool hygiene: ${run.name}`, function () {
    // A leak test, not a timing test: on a loaded 2-core machine 300 Playwright pages have taken
    // over 300 s (about 0.7 s a page unloaded, each session a fresh context and renderer).
    this.timeout(900_000);
    let site: FixtureSite;
    let driver: PooledDriver | undefined;

    before(async () => {
      site = await startFixtureSite();
      site.route('/h', (_q, res, url) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(PAGE(Number(url.searchParams.get('n') ?? 0)));
      });
    });
    after(async () => {
      await driver?.close();
      await site?.close();
    });

    it(`serves ${run.pages} pages at concurrency 2 with relaunches, then leaves no browser process, no zombie, and flat memory`, async () => {
      const baseline = descendants().filter(isBrowser).length;
      const seen = new Map<number, Proc>(); // every browser process observed, to check each one is gone
      const note = () => {
        for (const p of descendants().filter(isBrowser)) seen.set(p.pid, p);
      };
      driver = run.create({ allowNetworks: ['127.0.0.0/8'], timeoutMs: 20_000, maxPages: 2, retireAfterPages: run.retireAfterPages });
      const samples: Sample[] = [];
      let done = 0;
      let next = 0;
      let peak = 0;
      const started = Date.now();
      const worker = async () => {
        while (next < run.pages) {
          const n = next++;
          const session = await driver!.openSession();
          try {
            const page = await session.goto(`${site.url}/h?n=${n}`);
            expect(page.html).to.contain(`rendered ${n}`);
          } finally {
            await session.close();
          }
          done++;
          if (done % 10 === 0) {
            note();
            peak = Math.max(peak, descendants().filter(isBrowser).length);
          }
          if (run.samples.includes(done)) {
            samples.push(sample(done));
            console.log(`      ${run.name}: ${done} pages after ${((Date.now() - started) / 1000).toFixed(0)} s`);
          }
        }
      };
      await Promise.all([worker(), worker()]);
      const stats = driver.stats();
      await driver.close();

      const closedAt = Date.now();
      await waitFor(() => descendants().filter(isBrowser).length === baseline, 15_000, 'the browser processes to exit');
      // Renderers whose browser exited first are reparented to init: they leave our tree but must
      // still exit, so every pid seen during the run is followed until it is gone.
      const alive = () => [...seen.values()].filter((p) => readProc(p.pid)?.start === p.start);
      await waitFor(() => alive().length === 0, 20_000, 'every browser process seen during the run to exit').catch(() => undefined);
      const goneAfterMs = Date.now() - closedAt;
      const zombies = descendants().filter((p) => p.state === 'Z');
      const survivors = alive();
      const first = samples[0];
      const last = samples.at(-1)!;
      console.log(
        `      ${run.name}: ${done} pages; browser processes baseline ${baseline}, peak ${peak}, after close ${descendants().filter(isBrowser).length}; ` +
          `${survivors.length} of the ${seen.size} browser pids seen still alive ${goneAfterMs} ms after close; zombies ${zombies.length}; ` +
          `pool: ${stats.launches} launches, ${stats.retired} retired, ${stats.killed} killed`,
      );
      for (const s of samples) {
        console.log(
          `      ${run.name} at page ${s.page}: node RSS ${s.nodeRssMb.toFixed(0)} MB, browser PSS ${s.browserMb.toFixed(0)} MB in ${s.browserProcs} processes, ` +
            `total ${(s.nodeRssMb + s.browserMb).toFixed(0)} MB`,
        );
      }

      expect(done).to.equal(run.pages);
      expect(site.requests.filter((r) => r.path.startsWith('/h?'))).to.have.length.of.at.least(run.pages);
      expect(survivors.map((p) => `${p.pid} ${p.comm} ${p.state}`)).to.deep.equal([]);
      expect(zombies.map((p) => `${p.pid} ${p.comm}`)).to.deep.equal([]);
      // retireAfterPages forced relaunches: the pool really recycled browsers, and killed none.
      expect(stats.launches).to.equal(Math.ceil(run.pages / run.retireAfterPages));
      expect(stats.retired).to.be.at.least(Math.floor(run.pages / run.retireAfterPages));
      expect(stats.killed).to.equal(0);
      // Flat memory: the late sample may not exceed the early one by more than half plus 100 MB.
      const early = first.nodeRssMb + first.browserMb;
      const late = last.nodeRssMb + last.browserMb;
      expect(late, `memory at page ${last.page} vs page ${first.page} (MB)`).to.be.below(early * 1.5 + 100);
      expect(last.nodeRssMb, 'node RSS (MB)').to.be.below(first.nodeRssMb * 1.5 + 50);
    });
  });
}
