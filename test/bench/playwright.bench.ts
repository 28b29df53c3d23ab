// driver-playwright against a bare playwright-core loop (launch once; per page: newContext, newPage,
// goto, content, close) on the same loopback fixture pages, at concurrency 1 and 2. The driver adds
// the pool, a filtering proxy per session, the route check, cookies and the snapshot; the target is
// >= 0.9x the bare loop's pages/s. Rounds alternate bare/driver so a busy machine hurts both alike.
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { createPlaywrightDriver, CHROMIUM_ARGS } from '@gleaner/driver-playwright';
import type { PlaywrightDriverOptions } from '@gleaner/driver-playwright';
import { CONFIG_FIELDS } from '@gleaner/core';
import { startFixtureSite } from '../support/fixture-site.ts';
import type { FixtureSite } from '../support/fixture-site.ts';

const PAGES = 40;
const ROUNDS = 3;
const CHROMIUM = String(CONFIG_FIELDS['browser.chromiumPath'].default);

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

/** Runs `n` pages over `concurrency` workers; returns pages/s. */
async function timed(n: number, concurrency: number, onePage: (url: string) => Promise<void>, urls: string[]): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) await onePage(urls[i % urls.length]);
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<void> {
  const site = await startFixtureSite();
  const urls = fixturePages(site);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
  const variants: Array<[string, PlaywrightDriverOptions]> = [
    ['driver', {}],
    ['driver, no route check', { routeCheck: false }],
  ];
  const drivers = variants.map(([label, o]) => ({
    label,
    driver: createPlaywrightDriver({ allowNetworks: ['127.0.0.0/8'], maxPages: 4, retireAfterPages: 100_000, timeoutMs: 30_000, ...o }),
  }));
  try {
    for (const concurrency of [1, 2]) {
      const bare: number[] = [];
      const measured = new Map<string, number[]>(drivers.map((d) => [d.label, []]));
      // Warm-up: the driver's lazy launch and first pages are not measured.
      await timed(4, concurrency, (u) => barePage(browser, u), urls);
      for (const { driver } of drivers) {
        await timed(4, concurrency, async (u) => {
          const s = await driver.openSession();
          try {
            await s.goto(u);
          } finally {
            await s.close();
          }
        }, urls);
      }
      for (let round = 0; round < ROUNDS; round++) {
        bare.push(await timed(PAGES, concurrency, (u) => barePage(browser, u), urls));
        for (const { label, driver } of drivers) {
          measured.get(label)!.push(await timed(PAGES, concurrency, async (u) => {
            const s = await driver.openSession();
            try {
              const page = await s.goto(u);
              if (!page.html.includes('id="js"')) throw new Error('driver: the page did not render');
            } finally {
              await s.close();
            }
          }, urls));
        }
      }
      const b = median(bare);
      console.log(`concurrency ${concurrency}: bare playwright-core ${b.toFixed(2)} pages/s (rounds ${bare.map((x) => x.toFixed(2)).join(', ')})`);
      for (const [label, xs] of measured) {
        const m = median(xs);
        console.log(`concurrency ${concurrency}: ${label.padEnd(22)} ${m.toFixed(2)} pages/s = ${(m / b).toFixed(2)}x bare (rounds ${xs.map((x) => x.toFixed(2)).join(', ')})`);
      }
    }
    console.log(`(${PAGES} pages per round, ${ROUNDS} rounds alternating, medians; each page: a 60-paragraph HTML document, a stylesheet, an image and an inline script, served on loopback)`);
  } finally {
    await Promise.all(drivers.map((d) => d.driver.close()));
    await browser.close();
    await site.close();
  }
}
