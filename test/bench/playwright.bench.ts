// driver-playwright against a bare playwright-core loop (launch once; per page: newContext, newPage,
// goto, content, close) on the same loopback fixture pages, at concurrency 1 and 2. The driver adds
// the pool, a filtering proxy per session, the request check (route-check.ts), cookies and the
// snapshot (headers, cookies, charset); the target is >= 0.9x the bare loop's pages/s. It reads the
// page with one main-world evaluation (core's documentCall) where the bare loop calls page.content(),
// which compiles Playwright's injected script into every new page: that difference alone is worth
// about 9% of the machine's CPU per page here, and is what pays for the rest. Rounds rotate
// bare/driver so a busy machine hurts both alike.
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { createPlaywrightDriver, CHROMIUM_ARGS } from '@gleaner/driver-playwright';
import type { PlaywrightDriverOptions } from '@gleaner/driver-playwright';
import { CONFIG_FIELDS } from '@gleaner/core';
import { startFixtureSite } from '@gleaner/testing';
import { browserBenchPages, timedPages } from './browser-pages.ts';

// Short rounds, many of them, in rotating order: on a shared, busy machine the load changes by the
// minute, and both sides of the ratio must see the same load.
const PAGES = 8;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const CHROMIUM = String(CONFIG_FIELDS['browser.chromiumPath'].default);

async function barePage(browser: Browser, url: string): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    const html = await page.content();
    if (!html.includes('id="js"')) throw new Error('bare loop: the page did not render');
  } finally {
    await context.close();
  }
}

/**
 * One table per host: `localhost` (a name, as real sites are: the proxy resolves and checks it, and
 * the request check never pauses a request) and `127.0.0.1` (a literal address the check covers:
 * every request is paused in the browser and judged by the handler before it goes on, the worst case).
 * BENCH_HOSTS=localhost picks one.
 */
export async function run(): Promise<void> {
  for (const host of (process.env.BENCH_HOSTS ?? 'localhost,127.0.0.1').split(',')) await runHost(host.trim());
}

async function runHost(host: string): Promise<void> {
  console.log(`-- pages on http://${host}:<port>/`);
  const site = await startFixtureSite({ host: '::' }); // dual-stack: localhost may resolve to ::1 or 127.0.0.1
  const urls = browserBenchPages(site, host);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
  const variants: Array<[string, PlaywrightDriverOptions]> = [
    ['driver', {}],
    ['driver, no request check', { routeCheck: false }],
  ];
  const drivers = variants.map(([label, o]) => ({
    label,
    driver: createPlaywrightDriver({ allowNetworks: ['127.0.0.1/32', '::1/128'], maxPages: 4, retireAfterPages: 100_000, timeoutMs: 30_000, ...o }),
  }));
  try {
    for (const concurrency of (process.env.BENCH_CONCURRENCY ?? '1,2').split(',').map(Number)) {
      const sides: Array<{ label: string; onePage: (url: string) => Promise<void> }> = [
        { label: 'bare playwright-core', onePage: (u) => barePage(browser, u) },
        ...drivers.map(({ label, driver }) => ({
          label,
          onePage: async (u: string) => {
            const s = await driver.openSession();
            try {
              const page = await s.goto(u);
              if (!page.html.includes('id="js"')) throw new Error('driver: the page did not render');
            } finally {
              await s.close();
            }
          },
        })),
      ];
      // Warm-up: the driver's lazy launch and first pages are not measured.
      for (const side of sides) await timedPages(4, concurrency, side.onePage, urls);
      const seconds = new Map<string, number>(sides.map((x) => [x.label, 0]));
      for (let round = 0; round < ROUNDS; round++) {
        for (let k = 0; k < sides.length; k++) {
          const side = sides[(round + k) % sides.length];
          const rate = await timedPages(PAGES, concurrency, side.onePage, urls);
          seconds.set(side.label, (seconds.get(side.label) ?? 0) + PAGES / rate);
        }
      }
      const total = PAGES * ROUNDS;
      const bare = total / (seconds.get('bare playwright-core') ?? 1);
      for (const [label, secs] of seconds) {
        const rate = total / secs;
        console.log(
          `concurrency ${concurrency}: ${label.padEnd(25)} ${rate.toFixed(2)} pages/s${label.startsWith('bare') ? '' : ` = ${(rate / bare).toFixed(2)}x bare`}`,
        );
      }
    }
  } finally {
    await Promise.all(drivers.map((d) => d.driver.close()));
    await browser.close();
    await site.close();
  }
  console.log(
    `(${PAGES * ROUNDS} pages per side in ${ROUNDS} rounds of ${PAGES}, sides rotating; each page: a 60-paragraph HTML document, a stylesheet, an image and an inline script, served on loopback)`,
  );
}
