// Proof from outside the workspace: the packages are built and packed (`npm pack`), the tarballs are
// installed into a project under the system temp directory, and that project type-checks and runs
// both examples — an Express service embedding the engine (examples/embed-express) and an
// out-of-tree driver passing @gleaner/testing's contract suite (examples/driver-fetch-plugin).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PACKAGES, build, isStale } from '../scripts/build.ts';
import { TEST_DATABASE_URL, dropSchemas } from './support/db.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startStack } from './support/stack.ts';
import { openBookshop } from './support/books.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
/** Without the workspace's `gleaner-source` condition: the project sees what an installed package offers. */
const env = { ...process.env, NODE_OPTIONS: '' };

describe('packages, installed from their tarballs outside the workspace', function () {
  this.timeout(240_000);
  let dir: string;
  const id = randomBytes(4).toString('hex');
  const schemas = [`t_embed_${id}`, `t_embed_${id}_jobs`];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gleaner-outside-'));
    const tarballs = join(dir, 'tarballs');
    mkdirSync(tarballs);
    // What is packed is what the sources say: a package whose dist/ is older than them is rebuilt.
    for (const pkg of PACKAGES) if (isStale(pkg)) build(pkg);
    await run('npm', ['pack', '--silent', '--pack-destination', tarballs, ...PACKAGES.map((p) => `./${p}`)], { cwd: root, env });
    // The examples' own third-party dependencies (express, undici), as their package.json files say.
    const deps: Record<string, string> = {};
    for (const example of ['embed-express', 'driver-fetch-plugin']) {
      const manifest = JSON.parse(readFileSync(join(root, 'examples', example, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      for (const [name, range] of Object.entries(manifest.dependencies ?? {})) if (!name.startsWith('@gleaner/')) deps[name] = range;
    }
    for (const file of readdirSync(tarballs)) deps[`@gleaner/${file.replace(/^gleaner-/, '').replace(/-\d+\.\d+\.\d+\.tgz$/, '')}`] = `file:tarballs/${file}`;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'outside', private: true, type: 'module', dependencies: deps }, null, 2));
    cpSync(join(root, 'examples'), dir, { recursive: true });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2023',
          module: 'nodenext',
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          types: ['node', 'mocha'],
          typeRoots: ['./node_modules/@types', join(root, 'node_modules/@types')],
        },
        include: ['embed-express', 'driver-fetch-plugin'],
      }),
    );
    // The npm cache that `make setup` filled serves the third-party packages (the registry only for what it lacks); no install scripts run.
    await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: dir, env });
  });
  after(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await dropSchemas(TEST_DATABASE_URL, ...schemas);
  });

  it('installs dist/ only: no TypeScript sources under node_modules, the config schema and migrations inside @gleaner/core', () => {
    const core = join(dir, 'node_modules/@gleaner/core');
    expect(readdirSync(core).sort()).to.deep.equal(['dist', 'package.json']);
    expect(readdirSync(join(core, 'dist/config'))).to.include('schema.json');
    expect(readdirSync(join(core, 'dist/store/migrations')).filter((f) => f.endsWith('.sql')).length).to.be.greaterThan(0);
    // The web console's bundle ships inside the server package, where its serving code looks for it.
    const consoleDist = join(dir, 'node_modules/@gleaner/server/dist/console/dist');
    expect(readdirSync(consoleDist)).to.include('index.html');
    expect(readdirSync(join(consoleDist, 'assets')).some((f) => f.endsWith('.js'))).to.equal(true);
  });

  it("runs the installed gleaner CLI (the server package's bin, on dist/): --help, --version", async () => {
    const { stdout } = await run(join(dir, 'node_modules/.bin/gleaner'), ['--help'], { cwd: dir, env });
    expect(stdout).to.contain('serve').and.contain('keys');
    const version = await run(join(dir, 'node_modules/.bin/gleaner'), ['--version'], { cwd: dir, env });
    expect(version.stdout.trim()).to.match(/^gleaner 0\.1\.0 \(Node \d+\.\d+\.\d+\)$/);
  });

  it('type-checks both examples against the installed .d.ts', async () => {
    const result = await run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir, env }).catch((err) => err);
    expect(result.stdout ?? '', 'tsc errors').to.equal('');
  });

  it('runs the embedding example: engine called directly, Gleaner mounted under /scrape behind the host sign-in, its own job kind', async () => {
    const { stdout } = await run(process.execPath, ['service.ts'], {
      cwd: join(dir, 'embed-express'),
      env: { ...env, DATABASE_URL: TEST_DATABASE_URL, GLEANER_DB_SCHEMA: schemas[0], GLEANER_JOBS_SCHEMA: schemas[1] },
      timeout: 90_000,
    });
    const steps = Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((s) => [s.step, s]),
    );
    expect(steps['direct markdown'].data).to.contain('Blue kettle').and.contain('24.50 EUR');
    expect(steps['mounted markdown']).to.include({ status: 200 });
    expect(steps['mounted markdown'].body.data).to.contain('Blue kettle');
    expect(steps['not signed in'].status).to.equal(401);
    expect(steps['invalid body'].status).to.equal(422);
    expect(steps['invalid body'].body.detail[0].loc).to.deep.equal(['body', 'url']);
    expect(steps.openapi.openapi).to.match(/^3\.1/);
    expect(steps.openapi.paths).to.be.greaterThan(10);
    expect(steps['own job'].who).to.equal('the embedding team');
    expect(steps.stopped.jobsSeen).to.equal(1);
  });

  it('runs the installed `gleaner mcp` from another directory as a client of a running server (no database of its own)', async () => {
    const s = await startStack();
    const elsewhere = mkdtempSync(join(tmpdir(), 'gleaner-mcp-installed-'));
    const client = new Client({ name: 'packages-test', version: '1.0.0' });
    try {
      const shelfUrl = openBookshop(s);
      const transport = new StdioClientTransport({
        command: join(dir, 'node_modules/.bin/gleaner'),
        args: ['mcp'],
        cwd: elsewhere,
        env: { PATH: process.env.PATH!, HOME: elsewhere, GLEANER_SERVER: s.url, GLEANER_API_KEY: s.key },
        stderr: 'pipe',
      });
      await client.connect(transport, { timeout: 180_000 }); // the first request waits for the process to start
      expect((await client.listTools()).tools.map((t) => t.name)).to.include('markdown');
      const page = await client.callTool({ name: 'markdown', arguments: { url: shelfUrl(1) } });
      expect((page.content as Array<{ text: string }>)[0].text).to.contain('Book 1.1');
      expect(readdirSync(elsewhere)).to.deep.equal([]);
    } finally {
      await client.close();
      await s.close();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("runs the out-of-tree driver through @gleaner/testing's contract suite", async () => {
    const mocha = join(root, 'node_modules/mocha/bin/mocha.js');
    const { stdout } = await run(process.execPath, [mocha, '--extension', 'ts', '--timeout', '60000', '--exit', 'test/contract.test.ts'], {
      cwd: join(dir, 'driver-fetch-plugin'),
      env,
      timeout: 120_000,
    });
    expect(stdout).to.match(/\b3\d passing\b/);
    expect(stdout).to.not.match(/failing/);
  });
});
