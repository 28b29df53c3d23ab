// The console's Schedules page in Chromium: a schedule created with the form, fired twice with a
// price changing between firings, its runs with their change counts, and the diff of the second run
// with the changed field highlighted. Screenshots go to docs/console/.
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_BASE_FLAGS } from '@gleaner/core/internal';
import { startStack, type Stack } from './support/stack.ts';
import { insertShopScraper, monitorShop } from './support/monitor-site.ts';
import { buildConsole, CONSOLE_DIST } from '../packages/server/src/console/build.ts';

const SHOTS = new URL('../docs/console/', import.meta.url).pathname;

describe('console: the Schedules page', function () {
  this.timeout(180_000);
  let s: Stack;
  let browser: Browser;
  let page: Page;

  before(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) await buildConsole();
    mkdirSync(SHOTS, { recursive: true });
    s = await startStack();
    browser = await chromium.launch({ executablePath: s.engine.config.browser.chromiumPath || '/usr/bin/chromium', args: [...CHROMIUM_BASE_FLAGS] });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  });
  after(async () => {
    await browser?.close();
    await s?.close();
  });

  it('creates a schedule, runs it twice and shows what changed, the new price highlighted', async () => {
    const shop = monitorShop(s.site, ['/shop']);
    shop.pages.set('/shop', [
      { name: 'Widget 1', price: 10 },
      { name: 'Widget 2', price: 20 },
    ]);
    const alice = (await s.engine.authenticateApiKey(s.key))!;
    await insertShopScraper(s.engine, alice, shop.url('/shop'), shop.pages.get('/shop')!);

    await page.goto(s.url);
    await page.getByLabel('API key').fill(s.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Schedules' }).click();
    await page.getByText('No schedules yet').waitFor();
    await page.getByLabel('Cron').fill('0 6 * * *');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByLabel('Name').fill('Widget prices');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByRole('heading', { name: /Widget prices/ }).waitFor();

    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByText('(the first run: every record is new)').waitFor({ timeout: 60_000 });
    shop.pages.set('/shop', [
      { name: 'Widget 1', price: 12 },
      { name: 'Widget 2', price: 20 },
    ]);
    await page.getByRole('link', { name: '← the schedule' }).click();
    await page.getByRole('button', { name: 'Run now' }).click();
    const table = page.getByTestId('changes');
    await table.waitFor({ timeout: 60_000 });
    await page.getByText(/against run/).waitFor({ timeout: 60_000 });
    expect(await table.locator('tbody tr').count()).to.equal(1);
    expect(await table.locator('mark.changed-field').textContent()).to.equal('12');
    expect(await table.locator('del').textContent()).to.equal('10');
    await page.screenshot({ path: join(SHOTS, 'schedule-diff.png'), fullPage: true });

    await page.getByRole('link', { name: '← the schedule' }).click();
    const runs = page.getByRole('table', { name: 'Runs of this schedule, newest first' });
    await runs.getByText('1 changed').waitFor({ timeout: 30_000 });
    expect(await runs.locator('tbody tr').count()).to.equal(2);
    await page.getByRole('link', { name: 'Schedules' }).click();
    const list = page.getByRole('table', { name: 'Your schedules, newest first' });
    await list.getByText('Widget prices').waitFor();
    expect(await list.locator('tbody tr').first().textContent()).to.contain('1 changed');
    await page.screenshot({ path: join(SHOTS, 'schedules.png'), fullPage: true });
  });
});
