// The web console in Debian's Chromium through playwright-core, against a real server, the fixture
// site and the scripted model server: sign-in (a bad key, then a good one), a playground extraction
// with its details panel, a scraper build followed to ready, a run's progress bar reaching 100%, the
// runs list, a scraper's versions and heal history, agent tasks. Screenshots go to
// docs/console/ (docs/console.md shows them).
import { expect } from 'chai';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_BASE_FLAGS, healScraper, loadScraper } from '@gleaner/core/internal';
import { startStack, userContent, type Stack } from './support/stack.ts';
import { openBookshop, shelf } from './support/books.ts';
import { request } from './support/http.ts';
import { addAgentPages, PRODUCTS } from './support/agent-site.ts';
import { agentScript, call, refOf } from './support/agent-script.ts';
import { scriptBuildModel } from './support/agentic-model.ts';
import { buildConsole, CONSOLE_DIST } from '../packages/server/src/console/build.ts';

const SHOTS = new URL('../docs/console/', import.meta.url).pathname;

describe('console: the web console in Chromium', function () {
  this.timeout(180_000);
  let s: Stack;
  let browser: Browser;
  let page: Page;
  let shelfUrl: (n: number) => string;

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  before(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) await buildConsole();
    mkdirSync(SHOTS, { recursive: true });
    s = await startStack();
    shelfUrl = openBookshop(s);
    browser = await chromium.launch({ executablePath: s.engine.config.browser.chromiumPath || '/usr/bin/chromium', args: [...CHROMIUM_BASE_FLAGS] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('pageerror', (e) => console.error('PAGEERROR', e.message));
  });
  after(async () => {
    await browser?.close();
    await s?.close();
  });

  it('serves the page revalidated and its hashed assets cached for a year', async () => {
    const index = await request(s.url, 'GET', '/');
    expect(index.status).to.equal(200);
    expect(index.headers.get('cache-control')).to.equal('no-cache');
    expect(index.headers.get('content-security-policy')).to.contain("default-src 'self'");
    const script = /src="(\/console\/assets\/main-[A-Z0-9]+\.js)"/.exec(index.text)![1];
    const asset = await fetch(new URL(script, s.url));
    expect(asset.status).to.equal(200);
    expect(asset.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).to.contain('javascript');
    expect(index.text).to.not.match(/https?:\/\//); // nothing from a CDN
    expect(index.text).to.contain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const icon = await request(s.url, 'GET', path);
      expect(icon.status, path).to.equal(200);
      expect(icon.headers.get('content-type')).to.contain('image/svg+xml');
      expect(icon.text).to.match(/^<svg /);
    }
  });

  it('shows an error for a bad key, and signs in with a good one', async () => {
    await page.goto(s.url);
    await page.getByLabel('API key').fill('glk_notakey_0000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.contain('This API key was not accepted');
    await shot('sign-in-error');
    // With the keyboard alone: the first Tab reaches the key field, Enter submits.
    await page.reload();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).to.equal('password');
    await page.keyboard.type(s.key);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Playground' }).waitFor();
    await page.keyboard.press('Tab'); // the skip link comes first once signed in
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => [document.activeElement?.id, location.hash])).to.deep.equal(['content', '']);
    expect(await page.evaluate(() => sessionStorage.getItem('gleaner.apiKey'))).to.equal(s.key);
    expect(await page.evaluate(() => localStorage.length)).to.equal(0);
  });

  it('extracts in the playground: records as a table and as JSON', async () => {
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill(shelfUrl(1));
    await page.getByLabel('Name').first().fill('title');
    await page.getByRole('button', { name: 'Add attribute' }).click();
    await page.getByLabel('Name').nth(1).fill('pages');
    await page.getByLabel('Type').nth(1).selectOption('number');
    await page.getByLabel('Description').nth(1).fill('page count');
    await page.getByRole('button', { name: 'Extract', exact: true }).click();
    const table = page.getByRole('table');
    await table.waitFor();
    const rows = await table.locator('tbody tr').allTextContents();
    expect(rows).to.deep.equal(shelf(1).map((b) => `${b.title}${b.pages}`));
    expect(await page.getByTestId('summary').textContent()).to.match(/^3 records in \d+\.\d s$/);
    // The details panel (?details=true): driver, model, raw size, tokens as the model server reported them.
    const facts = await page.getByTestId('details').textContent();
    const served = (await (await fetch(shelfUrl(1))).arrayBuffer()).byteLength;
    for (const fact of ['Driverhttp', 'Modeltest-model (openai)', `Raw page size${served} B over 1 page`, 'Tokens200 in, 40 out (1 model call)'])
      expect(facts).to.contain(fact);
    await page.getByText(/^What the model saw: [\d,]+ characters, [\d,]+ tokens$/).click();
    const seen = await page.getByLabel('What the model saw of page 1').textContent();
    expect(seen).to.contain('Book 1.1').and.not.contain('<li');
    expect(userContent(s.model.chatRequests().at(-1)!)).to.contain(seen);
    await shot('playground');
    await page.getByRole('tab', { name: 'JSON' }).click();
    expect(JSON.parse((await page.getByLabel('Result as JSON').textContent())!).data).to.deep.equal(shelf(1));
    const [records] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(records.suggestedFilename()).to.equal('records.csv');
    expect(
      readFileSync((await records.path())!, 'utf8')
        .trim()
        .split('\r\n'),
    ).to.deep.equal(['title,pages', ...shelf(1).map((b) => `${b.title},${b.pages}`)]);

    await page.getByRole('button', { name: 'Markdown' }).click();
    expect(await page.getByLabel('Markdown', { exact: true }).textContent()).to.match(/^# Shelf 1$/m);
  });

  it('builds a scraper and follows it to ready', async () => {
    await page.getByRole('link', { name: 'Scrapers' }).click();
    await page.getByLabel('Sample URL').fill(shelfUrl(2));
    await page.getByLabel('Name').first().fill('title');
    await page.getByRole('button', { name: 'Add attribute' }).click();
    await page.getByLabel('Name').nth(1).fill('pages');
    await page.getByLabel('Type').nth(1).selectOption('number');
    await page.getByRole('button', { name: 'Build scraper' }).click();
    await page.locator('h2 .badge', { hasText: 'ready' }).waitFor({ timeout: 60_000 });
    const tables = page.getByRole('table');
    expect(await tables.first().locator('tbody tr').allTextContents()).to.deep.equal(shelf(2).map((b) => `${b.title}${b.pages}`));
    expect(await page.getByRole('table', { name: 'Fields' }).locator('tbody tr').allTextContents()).to.deep.equal(['title.ttext', 'pages.ptextnumber']);
    const versions = page.getByRole('table', { name: '1 version, newest first' });
    expect(await versions.locator('tbody tr td:nth-child(3)').allTextContents()).to.deep.equal(['generated']);
    expect(await versions.locator('tbody tr td:first-child').textContent()).to.equal('1 current');
    await page.getByText('No heals: the scraper has not drifted since it was built.').waitFor();
    await shot('scraper');
  });

  it('runs it and shows the progress bar reaching 100%, then results to download', async () => {
    const urls = [3, 4, 5, 6].map(shelfUrl);
    await page.getByLabel('URLs, one a line').fill(urls.join('\n'));
    await page.getByRole('button', { name: 'Start run' }).click();
    const progress = page.getByTestId('progress-text');
    await progress.waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="progress-text"]')?.textContent === '4/4 URLs (100%)', undefined, {
      timeout: 60_000,
    });
    expect(await page.getByRole('progressbar', { name: 'Run progress' }).evaluate((p: HTMLProgressElement) => [p.value, p.max])).to.deep.equal([4, 4]);
    await page.locator('h2 .badge', { hasText: 'completed' }).waitFor();
    await shot('run');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const [header, ...lines] = csv.trim().split('\r\n');
    expect(header.split(',').slice(0, 2)).to.deep.equal(['source_url', 'status']); // the run's columns first, then the records'
    expect(header.split(',')).to.have.members(['source_url', 'status', 'title', 'pages']);
    const col = (line: string, name: string) => line.split(',')[header.split(',').indexOf(name)];
    expect(lines.map((l) => [col(l, 'source_url'), col(l, 'status'), col(l, 'title'), col(l, 'pages')])).to.deep.include([
      shelfUrl(3),
      'completed',
      'Book 3.1',
      '301',
    ]);
    expect(csv.trim().split('\r\n')).to.have.length(13);
    // The runs page lists the owner's runs (GET /v1/runs), this one with its full progress bar.
    const runId = /#\/runs\/(.+)$/.exec(page.url())![1];
    await page.getByRole('link', { name: 'Runs' }).click();
    const row = page.getByRole('table', { name: 'Your runs, newest first' }).locator('tbody tr');
    await row.first().waitFor();
    expect(await row.count()).to.equal(1);
    expect(await row.textContent())
      .to.contain('completed')
      .and.contain('4/4 URLs (100%)')
      .and.contain(`${new URL(shelfUrl(2)).host}/shelf`);
    expect(
      await page.getByRole('progressbar', { name: `Progress of run ${runId.slice(0, 8)}` }).evaluate((p: HTMLProgressElement) => [p.value, p.max]),
    ).to.deep.equal([4, 4]);
    await shot('runs');
    await page.getByRole('link', { name: runId.slice(0, 8) }).click();
    await page.getByRole('heading', { name: /^Run / }).waitFor();
    expect(page.url()).to.match(new RegExp(`#/runs/${runId}$`));
  });

  it("shows the scraper's versions and heal history after a drift was healed", async () => {
    // A heal as a run triggers it on a drifted page (here shelf 7 with the same layout, so it succeeds), then one that fails.
    const alice = await s.engine.ensureOwner('alice');
    const [{ id }] = await s.engine.scrapers.list(alice);
    const v1 = (await loadScraper(s.engine.db, alice.id, id))!;
    const html = await (await fetch(shelfUrl(7))).text();
    expect((await healScraper(s.engine.context, v1, { html, url: shelfUrl(7), driver: 'http' }, 'the recipe found no records')).healed).to.equal(true);
    const v2 = (await loadScraper(s.engine.db, alice.id, id))!;
    const closed = '<html><body><p>Closed for maintenance</p></body></html>';
    expect((await healScraper(s.engine.context, v2, { html: closed, url: `${s.site.url}/closed`, driver: 'http' }, 'layout changed')).healed).to.equal(false);
    await page.goto(`${s.url}/#/scrapers/${id}`);
    const versions = page.getByRole('table', { name: '2 versions, newest first' });
    await versions.waitFor();
    expect(await versions.locator('tbody tr td:nth-child(3)').allTextContents()).to.deep.equal(['healed: the recipe found no records', 'generated']);
    const heals = page.getByRole('table', { name: 'Heal history' }).locator('tbody tr');
    expect(await heals.count()).to.equal(2);
    expect(await heals.nth(0).textContent())
      .to.contain('layout changed')
      .and.contain('failed')
      .and.contain('standard extraction found no records');
    expect(await heals.nth(1).textContent())
      .to.contain('the recipe found no records')
      .and.contain('healed')
      .and.contain('1 → 2');
    // A version's recipe opens with the keyboard: focus its summary, Enter.
    await page.getByText('Recipe 1', { exact: true }).focus();
    await page.keyboard.press('Enter');
    expect(JSON.parse((await page.getByLabel('Recipe version 1').textContent())!).container).to.deep.equal({ selector: 'li.book' });
    await page.getByRole('heading', { name: 'Versions' }).scrollIntoViewIfNeeded();
    await shot('versions');
  });

  it('starts an agent task and shows its step timeline and records', async () => {
    addAgentPages(s.site);
    s.model.script(agentScript([(o) => [call.click(refOf(o, /tab "Teapots"/))], () => [call.extract()], () => [call.finish('all teapots')]]).script);
    await page.getByRole('link', { name: 'Agent' }).click();
    await page.getByLabel('Start URL').fill(`${s.site.url}/tabs`);
    await page.getByLabel('Goal').fill('Return the teapots');
    await page.getByLabel('Name').first().fill('name');
    await page.getByRole('button', { name: 'Start agent' }).click();
    await page.locator('h2 .badge', { hasText: 'completed' }).waitFor({ timeout: 90_000 });
    const steps = await page.getByRole('list', { name: 'Steps' }).getByRole('listitem').allTextContents();
    expect(steps.map((t) => t.split(' ')[0])).to.deep.equal(['click', 'extract', 'finish']);
    expect(steps[0]).to.contain('Teapots');
    const teapots = PRODUCTS.filter((p) => p.name.includes('Teapot'))
      .map((p) => p.name)
      .sort();
    expect((await page.getByRole('table').locator('tbody tr td:first-child').allTextContents()).sort()).to.deep.equal(teapots);
    await shot('agent');
    // The Agent page lists the owner's agent tasks (GET /v1/tasks?kind=agent).
    await page.getByRole('link', { name: 'Agent' }).click();
    const listed = page.getByRole('list', { name: 'Your agent tasks' }).getByRole('listitem');
    await listed.first().waitFor();
    expect(await listed.allTextContents()).to.have.length(1);
    expect(await listed.first().textContent())
      .to.contain('Return the teapots')
      .and.contain('completed')
      .and.contain('3 steps');
  });

  it('lists runs 20 at a time, following those still moving, with "Load more runs" for the rest', async () => {
    const alice = await s.engine.ensureOwner('alice');
    const [{ id }] = await s.engine.scrapers.list(alice);
    // The newest run reads a page that takes 3 s to arrive: the list shows it moving, then finished.
    const slowShelf = await (await fetch(shelfUrl(29))).text();
    s.site.route('/slow-shelf', (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(slowShelf), 3000);
    });
    const started: string[] = [];
    for (let n = 10; n < 29; n++) started.push((await s.api('POST', '/v1/scrapers/run_async', { template_id: id, url: shelfUrl(n) })).body.run_id);
    started.push((await s.api('POST', '/v1/scrapers/run_async', { template_id: id, url: `${s.site.url}/slow-shelf` })).body.run_id);
    await page.getByRole('link', { name: 'Runs' }).click();
    const rows = page.getByRole('table', { name: 'Your runs, newest first' }).locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).to.equal(20);
    expect(await rows.first().locator('a').first().textContent()).to.equal(started.at(-1)!.slice(0, 8));
    expect(await rows.first().textContent()).to.contain('0/1 URLs (0%)');
    // The page reads the list again until every run on it has finished.
    await page.waitForFunction(() => [...document.querySelectorAll('tbody tr')].every((tr) => tr.textContent!.includes('1/1 URLs (100%)')), undefined, {
      timeout: 60_000,
    });
    await page.getByRole('button', { name: 'Load more runs' }).click();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 21);
    expect(await rows.last().textContent()).to.contain('4/4 URLs (100%)'); // the first run, from the earlier test
    expect(await page.getByRole('button', { name: 'Load more runs' }).count()).to.equal(0);
  });
  it('rebuilds a scraper from its last build, deletes it after a confirmation, and builds an agentic one', async () => {
    const alice = await s.engine.ensureOwner('alice');
    const [{ id }] = await s.engine.scrapers.list(alice);
    await page.goto(`${s.url}/#/scrapers/${id}`);
    await page.getByRole('table', { name: '2 versions, newest first' }).waitFor();
    s.model.reset();
    openBookshop(s); // the model scripted to read the shelves again
    await page.getByRole('group', { name: 'Scraper actions' }).getByRole('button', { name: 'Rebuild' }).click();
    // The rebuild is a new version of the same scraper, from the same sample URL, attributes and prompt.
    const versions = page.getByRole('table', { name: '3 versions, newest first' });
    await versions.waitFor({ timeout: 60_000 });
    expect(await versions.locator('tbody tr td:nth-child(3)').first().textContent()).to.equal('generated');
    expect(s.model.chatRequests().length).to.be.greaterThan(0);
    const sent = JSON.stringify(s.model.chatRequests()[0].body);
    expect(sent).to.contain('pages');
    // Delete asks first; Cancel keeps it.
    const actions = page.getByRole('group', { name: 'Scraper actions' });
    await actions.getByRole('button', { name: 'Delete' }).click();
    await actions.getByRole('button', { name: 'Cancel' }).click();
    expect((await s.api('GET', `/v1/extractor/${id}`)).status).to.equal(200);
    await actions.getByRole('button', { name: 'Delete' }).click();
    await actions.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('heading', { name: 'Scrapers' }).waitFor();
    expect((await s.api('GET', `/v1/extractor/${id}`)).status).to.equal(404);
    expect(await page.locator(`a[href="#/scrapers/${id}"]`).count()).to.equal(0);

    // An agentic scraper from the same form: the agent's recorded extraction, replayed without the model.
    addAgentPages(s.site);
    scriptBuildModel(s, [() => [call.extract()], () => [call.finish('all products on the page')]], []);
    await page.getByLabel('Kind').selectOption('agentic');
    await page.getByLabel('Sample URL').fill(`${s.site.url}/list?page=1`);
    await page.getByLabel(/^Prompt/).fill('Return every product on the page');
    await page.getByRole('button', { name: 'Build scraper' }).click();
    await page.locator('h2 .badge', { hasText: 'ready' }).waitFor({ timeout: 90_000 });
    expect(await page.locator('p.muted').first().textContent()).to.contain('agentic scraper');
    const built = (await s.engine.scrapers.list(alice)).find((x) => x.type === 'agentic');
    expect(built, 'the agentic scraper is listed').to.not.equal(undefined);
    expect(await page.getByRole('table').first().locator('tbody tr').count()).to.be.greaterThan(0);
  });
});
