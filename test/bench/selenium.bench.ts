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
import { startFixtureSite } from '../support/fixture-site.ts';
import type { FixtureSite } from '../support/fixture-site.ts';

const PAGES = 20;
const ROUNDS = 3;
const CHROMIUM = String(CONFIG_FIELDS['browser.chromiumPath'].default);
const CHROMEDRIVER = String(CONFIG_FIELDS['browser.chromedriverPath'].default);

function fixturePages(site: FixtureSite): string[] {
  const paragraphs = Array.from({ length: 60 }, (_, i) => `<p>Paragraph ${i}: some ordinary article text, a <a href="/a/${i}">link</a> and <em>emphasis</em>.</p>`).join('\n');
  site.route('/bench/style.css', (_q, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end('body { font-family: sans-serif } p { margin: 4px }'));
  site.route('/bench/pixel.gif', (_q, res) =>
    void res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')),
  );
  const urls: string[] = [];
  for (let i = 0; i < 10; i++) {
    site.page(`/bench/${i}`, `<!doctype html><html><head><title>Bench ${i}</title><link rel="stylesheet" href="/bench/style.css"></head><body>
      <h1>Bench page ${i}</h1><img src="/bench/pixel.gif" alt="">${paragraphs}
      <script>document.body.insertAdjacentHTML('beforeend', '<p id="js">rendered ' + ${i} + '</p>');</script></body></html>`);
    urls.push(`${site.url}/bench/${i}`);
  }
  return urls;
}

/** Runs `n` pages over `concurrency` workers (worker index given); returns pages/s. */
async function timed(n: number, concurrency: number, onePage: (url: string, worker: number) => Promise<void>, urls: string[]): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = next++; i < n; i = next++) await onePage(urls[i % urls.length], w);
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

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
  const urls = fixturePages(site);
  const variants: Array<[string, SeleniumDriverOptions]> = [
    ['driver', {}],
    ['driver, no route check', { routeCheck: false }],
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
      const rates = new Map<string, number[]>([['bare, one session per worker', []], ['bare, new session per page', []], ...drivers.map((d): [string, number[]] => [d.label, []])]);
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
      await timed(4, concurrency, (u, w) => barePage(bare[w], u), urls);
      for (const d of drivers) await timed(4, concurrency, driverPage(d), urls);
      for (let round = 0; round < ROUNDS; round++) {
        rates.get('bare, one session per worker')!.push(await timed(PAGES, concurrency, (u, w) => barePage(bare[w], u), urls));
        rates.get('bare, new session per page')!.push(await timed(Math.max(4, PAGES / 4), concurrency, async (u) => {
          const wd = await bareSession();
          try {
            await barePage(wd, u);
          } finally {
            await wd.quit();
          }
        }, urls));
        for (const d of drivers) rates.get(d.label)!.push(await timed(PAGES, concurrency, driverPage(d), urls));
      }
      const base = median(rates.get('bare, one session per worker')!);
      for (const [label, xs] of rates) {
        const m = median(xs);
        console.log(`concurrency ${concurrency}: ${label.padEnd(30)} ${m.toFixed(2)} pages/s = ${(m / base).toFixed(2)}x one-session bare (rounds ${xs.map((x) => x.toFixed(2)).join(', ')})`);
      }
    }
    for (const d of drivers) console.log(`${d.label}: pool ${JSON.stringify(d.driver.stats())}`);
    console.log(`(${PAGES} pages per round (a quarter for new-session-per-page), ${ROUNDS} rounds alternating, medians; each page: a 60-paragraph HTML document, a stylesheet, an image and an inline script, served on loopback)`);
  } finally {
    await Promise.all(drivers.map((d) => d.driver.close()));
    await Promise.all(bare.map((wd) => wd.quit().catch(() => undefined)));
    await site.close();
  }
}
