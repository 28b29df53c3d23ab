// Driver throughput on loopback fixture pages: pages/s (and node CPU per page) of driver-http at
// concurrency 1 and 4, and of the two browser drivers at concurrency 1 and 2 (the comparison with a
// bare playwright-core loop is in playwright.bench.ts). Every page is a fresh session, as a job would use it.
import { loadavg } from 'node:os';
import type { Driver } from '@gleaner/core';
import { createHttpDriver } from '@gleaner/driver-http';
import { createPlaywrightDriver } from '@gleaner/driver-playwright';
import { createSeleniumDriver } from '@gleaner/driver-selenium';
import { startFixtureSite } from '../support/fixture-site.ts';

const PAGE = (n: number) => `<!doctype html><html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1><ul>${
  Array.from({ length: 60 }, (_, i) => `<li class="item"><a href="/p?n=${n}&i=${i}">Item ${n}.${i}</a> <span>$${(i * 3.5).toFixed(2)}</span></li>`).join('')
}</ul><script>document.title += ' (rendered)';</script></body></html>`; // ~6 KB

/** Fetches `pages` pages with `concurrency` workers, one session per page; returns pages/s and CPU ms per page. */
async function measure(driver: Driver, base: string, pages: number, concurrency: number): Promise<{ rate: number; cpuMs: number }> {
  let next = 0;
  const worker = async () => {
    while (next < pages) {
      const n = next++;
      const session = await driver.openSession();
      try {
        const page = await session.goto(`${base}/p?n=${n}`);
        if (!page.html.includes(`Page ${n}`)) throw new Error(`page ${n} came back wrong`);
      } finally {
        await session.close();
      }
    }
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { rate: pages / seconds, cpuMs: (cpu.user + cpu.system) / 1000 / pages };
}

async function bench(label: string, driver: Driver, base: string, pages: number, concurrencies: number[], warmup: number): Promise<void> {
  try {
    await measure(driver, base, warmup, 1); // launches the browser, warms connections and JIT
    for (const c of concurrencies) {
      const r = await measure(driver, base, pages, c);
      console.log(`${label.padEnd(11)} concurrency ${c}: ${r.rate.toFixed(1).padStart(7)} pages/s over ${pages} pages (node CPU ${r.cpuMs.toFixed(2)} ms/page)`);
    }
  } finally {
    await driver.close();
  }
}

export async function run(): Promise<void> {
  const site = await startFixtureSite();
  site.route('/p', (_q, res, url) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE(Number(url.searchParams.get('n') ?? 0)));
  });
  const opts = { allowNetworks: ['127.0.0.0/8'], timeoutMs: 20_000 };
  // The machine may be shared: the load average says how far to trust the figures.
  console.log(`load average at start: ${loadavg()[0].toFixed(1)}`);
  try {
    await bench('http', createHttpDriver(opts), site.url, 500, [1, 4], 50);
    await bench('playwright', createPlaywrightDriver({ ...opts, maxPages: 2 }), site.url, 40, [1, 2], 3);
    await bench('selenium', createSeleniumDriver({ ...opts, maxPages: 2 }), site.url, 40, [1, 2], 3);
  } finally {
    await site.close();
    console.log(`load average at end: ${loadavg()[0].toFixed(1)}`);
  }
}
