// The console's Usage section in Chromium: the usage report grouped by kind with its totals row and
// the unsupported values the grounding check counted, and the grounding policy and budgets saved
// through PUT /v1/settings. Screenshot: docs/console/usage.png.
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_BASE_FLAGS } from '@gleaner/core/internal';
import { startStack, userContent, type Stack } from './support/stack.ts';
import { BOOK_ATTRS, openBookshop } from './support/books.ts';
import { buildConsole, CONSOLE_DIST } from '../packages/server/src/console/build.ts';

const SHOTS = new URL('../docs/console/', import.meta.url).pathname;

describe('console: usage and settings in Chromium', function () {
  this.timeout(180_000);
  let s: Stack;
  let browser: Browser;
  before(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) await buildConsole();
    mkdirSync(SHOTS, { recursive: true });
    s = await startStack({ worker: false, config: { llm: { pricing: { 'test-model': { input: 0.15, output: 0.6 } } } } });
    const shelfUrl = openBookshop(s);
    s.model.script((req) => {
      const records: Array<Record<string, unknown>> = [...userContent(req).matchAll(/Book (\d+)\.(\d)/g)].map((m) => ({
        title: `Book ${m[1]}.${m[2]}`,
        pages: `${m[1]}0${m[2]}`,
      }));
      records[2].pages = '999';
      return { json: { records }, usage: { inputTokens: 200, outputTokens: 40 } };
    });
    for (const n of [1, 2]) await s.api('POST', '/v1/extract', { url: shelfUrl(n), attributes: BOOK_ATTRS });
    browser = await chromium.launch({ executablePath: s.engine.config.browser.chromiumPath || '/usr/bin/chromium', args: [...CHROMIUM_BASE_FLAGS] });
  });
  after(async () => {
    await browser?.close();
    await s?.close();
  });

  it('shows the report with its totals and unsupported values, and saves the grounding policy and a budget', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(s.url);
    await page.getByLabel('API key').fill(s.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Playground' }).waitFor();
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    await page.getByLabel('Group by').selectOption('kind');
    await page.getByRole('columnheader', { name: 'Kind' }).waitFor();
    const row = page.getByRole('row', { name: /^extract / });
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    // events, pages, model calls, tokens in, tokens out, credits, unsupported values, money
    expect(cells).to.deep.equal(['2', '2', '2', '400', '80', '2', '2', '$0.0001']);
    expect(
      await page
        .getByRole('row', { name: /^Total / })
        .locator('th')
        .allTextContents(),
    ).to.deep.equal(['Total', '2', '2', '2', '400', '80', '2', '2', '$0.0001']);

    await page.getByLabel('Grounding policy').selectOption('flag');
    await page.getByLabel('Credits per day').fill('50');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').waitFor();
    await page.screenshot({ path: join(SHOTS, 'usage.png'), fullPage: true });
    expect((await s.api('GET', '/v1/settings')).body).to.include({ grounding_policy: 'flag', daily_credits: 50, monthly_credits: null });
  });
});
