// driver-selenium on loopback fixture pages, against bare selenium-webdriver loops, at concurrency 1
// and 2: a long-lived session per worker (get + page source, no isolation at all), and a new
// session (a new Chromium) per page — the price of isolation without browser contexts. The driver
// gives each page a fresh DevTools browser context on a pooled Chromium, a filtering proxy, the
// route check, cookies and the snapshot. Rounds alternate so a busy machine hurts all alike.
import { Builder } from 'selenium-webdriver';
import type { WebDriver } from 'selenium-webdriver';
import { Options, ServiceBuilder } from 'selenium-webdriver/chrome.js';
import { CONFIG_FIELDS } from '@gleaner/core';
import { CHROMIUM_FLAGS, createSeleniumDriver } from '@gleaner/driver-selenium';
import type { SeleniumDriverOptions } from '@gleaner/driver-selenium';
import { startFixtureSite } from '@gleaner/testing';
import { browserBenchPages, timedPages } from './browser-pages.ts';

const PAGES = 20;
const ROUNDS = 3;
const CHROMIUM = String(CONFIG_FIELDS['browser.chromiumPath'].default);
const CHROMEDRIVER = String(CONFIG_FIELDS['browser.chromedriverPath'].default);

function bareSession(): Promise<WebDriver> {
  const o = new Options();
  o.setChromeBinaryPath(CHROMIUM);
  o.addArguments(...CHROMIUM_FLAGS);
  return new Builder().disableEnvironmentOverrides().forBrowser('chrome').setChromeOptions(o).setChromeService(new ServiceBuilder(CHROMEDRIVER)).build();
}

async function barePage(wd: WebDriver, url: string): Promise<void> {
  await wd.get(url);
  if (!(await wd.getPageSource()).includes('id="js"')) throw new Error('bare loop: the page did not render');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<void> {
  const site = await startFixtureSite();
  const urls = browserBenchPages(site);
  const variants: Array<[string, SeleniumDriverOptions]> = [
    ['driver', {}],
    ['driver, no request check', { routeCheck: false }],
  ];
  const drivers = variants.map(([label, o]) => ({
    label,
    driver: createSeleniumDriver({ allowNetworks: ['127.0.0.0/8'], maxPages: 4, retireAfterPages: 100_000, timeoutMs: 30_000, ...o }),
  }));
  const bare: WebDriver[] = [];
  try {
    // What a browser costs: a new WebDriver session is a new chromedriver-launched Chromium.
    const launches: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const wd = await bareSession();
      await wd.get('about:blank');
      launches.push(performance.now() - t0);
      await wd.quit();
    }
    console.log(`new session (chromedriver + Chromium launch): median ${median(launches).toFixed(0)} ms (${launches.map((x) => x.toFixed(0)).join(', ')})`);

    for (const concurrency of [1, 2]) {
      while (bare.length < concurrency) bare.push(await bareSession());
      const rates = new Map<string, number[]>([
        ['bare, one session per worker', []],
        ['bare, new session per page', []],
        ...drivers.map((d): [string, number[]] => [d.label, []]),
      ]);
      const driverPage = (d: (typeof drivers)[number]) => async (u: string) => {
        const s = await d.driver.openSession();
        try {
          const page = await s.goto(u);
          if (!page.html.includes('id="js"')) throw new Error('driver: the page did not render');
        } finally {
          await s.close();
        }
      };
      // Warm-up: launches and first pages are not measured.
      await timedPages(4, concurrency, (u, w) => barePage(bare[w], u), urls);
      for (const d of drivers) await timedPages(4, concurrency, driverPage(d), urls);
      for (let round = 0; round < ROUNDS; round++) {
        rates.get('bare, one session per worker')!.push(await timedPages(PAGES, concurrency, (u, w) => barePage(bare[w], u), urls));
        rates.get('bare, new session per page')!.push(
          await timedPages(
            Math.max(4, PAGES / 4),
            concurrency,
            async (u) => {
              const wd = await bareSession();
              try {
                await barePage(wd, u);
              } finally {
                await wd.quit();
              }
            },
            urls,
          ),
        );
        for (const d of drivers) rates.get(d.label)!.push(await timedPages(PAGES, concurrency, driverPage(d), urls));
      }
      const base = median(rates.get('bare, one session per worker')!);
      for (const [label, xs] of rates) {
        const m = median(xs);
        console.log(
          `concurrency ${concurrency}: ${label.padEnd(30)} ${m.toFixed(2)} pages/s = ${(m / base).toFixed(2)}x one-session bare (rounds ${xs.map((x) => x.toFixed(2)).join(', ')})`,
        );
      }
    }
    for (const d of drivers) console.log(`${d.label}: pool ${JSON.stringify(d.driver.stats())}`);
    console.log(
      `(${PAGES} pages per round (a quarter for new-session-per-page), ${ROUNDS} rounds alternating, medians; each page: a 60-paragraph HTML document, a stylesheet, an image and an inline script, served on loopback)`,
    );
  } finally {
    await Promise.all(drivers.map((d) => d.driver.close()));
    await Promise.all(bare.map((wd) => wd.quit().catch(() => undefined)));
    await site.close();
  }
}
