// Driver throughput on loopback fixture pages: pages/s (and node CPU per page) of driver-http at
// concurrency 1 and 4, and of the two browser drivers at concurrency 1 and 2 (the comparison with a
// bare playwright-core loop is in playwright.bench.ts). Every page is a fresh session, as a job would use it.
// Then an agent's round of actions (outline, click a link, outline, type + Enter to submit a search
// form, read the result) on http (linkedom, no JavaScript) and on the browser drivers: ms per round
// and per action.
import { loadavg } from 'node:os';
import { isInteractive } from '@gleaner/core/internal';
import type { Driver } from '@gleaner/core/internal';
import { createHttpDriver } from '@gleaner/driver-http';
import { createPlaywrightDriver } from '@gleaner/driver-playwright';
import { createSeleniumDriver } from '@gleaner/driver-selenium';
import { startFixtureSite } from '@gleaner/testing';

const PAGE = (n: number) =>
  `<!doctype html><html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1><ul>${Array.from(
    { length: 60 },
    (_, i) => `<li class="item"><a href="/p?n=${n}&i=${i}">Item ${n}.${i}</a> <span>$${(i * 3.5).toFixed(2)}</span></li>`,
  ).join('')}</ul><script>document.title += ' (rendered)';</script></body></html>`; // ~6 KB

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
      console.log(
        `${label.padEnd(11)} concurrency ${c}: ${r.rate.toFixed(1).padStart(7)} pages/s over ${pages} pages (node CPU ${r.cpuMs.toFixed(2)} ms/page)`,
      );
    }
  } finally {
    await driver.close();
  }
}

const SHOP = `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1><form action="/results"><input id="q" name="q" aria-label="Search"><button>Search</button></form>
  <ul>${Array.from({ length: 60 }, (_, i) => `<li><a href="/shop?page=${i}">Category ${i}</a> <span>${i * 3} items</span></li>`).join('')}</ul><a id="next" href="/shop?page=2">Next page</a></body></html>`;

/** Actions in one round: goto, outline, click, outline, type + Enter (a form submission), snapshot. */
const ROUND_ACTIONS = 6;

/** `rounds` agent rounds, one session each, one at a time; returns ms per round. */
async function measureRounds(driver: Driver, base: string, rounds: number): Promise<number> {
  const t0 = performance.now();
  for (let n = 0; n < rounds; n++) {
    const session = await driver.openSession();
    try {
      if (!isInteractive(session)) throw new Error(`${driver.name} sessions are not interactive`);
      await session.goto(`${base}/shop`);
      const first = await session.outline();
      const next = first.elements.find((e) => e.name === 'Next page');
      if (!next) throw new Error('no "Next page" link in the outline');
      await session.click(next.ref);
      const second = await session.outline();
      const box = second.elements.find((e) => e.name === 'Search');
      if (!box) throw new Error('no search box in the outline');
      await session.type(box.ref, `tea ${n}`, { pressEnter: true });
      if (driver.capabilities.javascript) await session.waitFor({ selector: '#hits', timeoutMs: 10_000 });
      const page = await session.snapshot();
      if (!page.html.includes(`Results for tea ${n}`)) throw new Error(`round ${n} ended on the wrong page: ${page.finalUrl}`);
    } finally {
      await session.close();
    }
  }
  return (performance.now() - t0) / rounds;
}

async function benchRounds(label: string, driver: Driver, base: string, rounds: number, warmup: number): Promise<void> {
  try {
    await measureRounds(driver, base, warmup);
    const ms = await measureRounds(driver, base, rounds);
    console.log(
      `${label.padEnd(11)} agent round: ${ms.toFixed(1).padStart(7)} ms/round, ${(ms / ROUND_ACTIONS).toFixed(1)} ms/action over ${rounds} rounds (outline, click, outline, type + Enter submit)`,
    );
  } finally {
    await driver.close();
  }
}

/** The agent-round case alone (`run` includes it). */
export async function runRounds(): Promise<void> {
  const site = await startFixtureSite();
  site.route('/shop', (_q, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHOP));
  site.route('/results', (_q, res, url) => {
    const q = (url.searchParams.get('q') ?? '').replace(/[<&]/g, '');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html><head><title>Hits</title></head><body><p id="hits">Results for ${q}</p></body></html>`);
  });
  const opts = { allowNetworks: ['127.0.0.0/8'], timeoutMs: 20_000 };
  try {
    await benchRounds('http', createHttpDriver(opts), site.url, 200, 20);
    await benchRounds('playwright', createPlaywrightDriver({ ...opts, maxPages: 2 }), site.url, 20, 2);
    await benchRounds('selenium', createSeleniumDriver({ ...opts, maxPages: 2 }), site.url, 10, 2);
  } finally {
    await site.close();
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
  }
  await runRounds();
  console.log(`load average at end: ${loadavg()[0].toFixed(1)}`);
}
