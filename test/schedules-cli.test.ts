// `gleaner schedules ...` against a running server, as a user runs it from another machine.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { CLI, type CliResult } from './support/process.ts';
import { insertShopScraper, monitorShop } from './support/monitor-site.ts';

const nodeOptions = process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {};

function gleaner(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...nodeOptions, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('cli: gleaner schedules', function () {
  // Each command is a fresh Node process: generous on a loaded machine.
  this.timeout(240_000);
  let s: Stack;

  before(async () => {
    s = await startStack();
  });
  after(() => s?.close());

  it('creates and lists schedules, and prints what changed in a run', async () => {
    const shop = monitorShop(s.site, ['/shop']);
    shop.pages.set('/shop', [{ name: 'Widget 1', price: 10 }]);
    const alice = (await s.engine.authenticateApiKey(s.key))!;
    const scraperId = await insertShopScraper(s.engine, alice, shop.url('/shop'), shop.pages.get('/shop')!);
    const env = { GLEANER_API_KEY: s.key, GLEANER_SERVER: s.url };

    const created = await gleaner(
      ['schedules', 'create', '--scraper', scraperId, '--cron', '0 6 * * *', '--timezone', 'Europe/Paris', '--name', 'prices', '--json'],
      env,
    );
    expect(created.code, created.stderr).to.equal(0);
    const schedule = JSON.parse(created.stdout);
    expect(schedule).to.include({ cron: '0 6 * * *', timezone: 'Europe/Paris', name: 'prices', status: 'active' });

    const bad = await gleaner(['schedules', 'create', '--scraper', scraperId, '--cron', 'soon'], env);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/VALIDATION_FAILED: body\.cron: /);

    const run = await s.api('POST', `/v1/schedules/${schedule.schedule_id}/trigger`);
    await waitFor(async () => (await s.api('GET', `/v1/scrapers/run_async/${run.body.run_id}`)).body.changes, 60_000, 'the run compared');
    const [list, changes] = await Promise.all([gleaner(['schedules', 'list'], env), gleaner(['schedules', 'changes', run.body.run_id], env)]);
    expect(list.code, list.stderr).to.equal(0);
    expect(list.stdout).to.match(
      new RegExp(`^${schedule.schedule_id}  active  ok  "0 6 \\* \\* \\*" Europe/Paris  next \\S+  last completed: 1 new  prices$`, 'm'),
    );
    expect(changes.code, changes.stderr).to.equal(0);
    expect(JSON.parse(changes.stdout.trim())).to.deep.include({ state: 'new', record: { name: 'Widget 1', price: 10 } });
    expect(changes.stderr.trim()).to.equal('1 new');
  });
});
