import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { GleanerError, silentLogger } from '@gleaner/core';
import { startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import type { EmbeddedPostgresHandle, EmbeddedPostgresOptions } from '../src/embedded-postgres.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const modulePath = path.resolve(here, '../src/embedded-postgres.ts');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Alive and not a zombie (an orphan's zombie lingers until init reaps it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

async function waitDead(pid: number, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still alive after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function rows(url: string, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded Postgres', function () {
  this.timeout(30_000);

  let dataDir: string;
  let port: number;
  let current: EmbeddedPostgresHandle;
  const handles: EmbeddedPostgresHandle[] = [];
  const seenPids = new Set<number>();
  const pidFile = () => path.join(dataDir, 'postgres', 'postmaster.pid');

  async function start(extra: Partial<EmbeddedPostgresOptions> = {}): Promise<EmbeddedPostgresHandle> {
    const handle = await startEmbeddedPostgres({ dataDir, port, osUser: 'gleaner-pg', logger: silentLogger(), ...extra });
    handles.push(handle);
    seenPids.add(handle.pid);
    return handle;
  }

  async function notes(url: string): Promise<string[]> {
    return (await rows(url, 'SELECT body FROM notes ORDER BY id')).map((r) => String(r.body));
  }

  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gleaner-embedded-pg-'));
    port = await freePort();
  });

  after(async () => {
    for (const handle of handles.reverse()) await handle.stop().catch(() => undefined);
    for (const pid of seenPids) {
      if (!alive(pid)) continue;
      process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGKILL');
      await waitDead(pid).catch(() => undefined);
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('initialises a cluster on first start and serves database gleaner on 127.0.0.1', async () => {
    current = await start();
    expect(current.owned).to.equal(true);
    const password = (await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
    expect(current.url).to.equal(`postgres://postgres:${password}@127.0.0.1:${port}/gleaner`);
    expect((await fs.stat(path.join(dataDir, 'postgres.password'))).mode & 0o777, 'password file 0600').to.equal(0o600);
    // Loopback is not trusted: without the password (or with another) no local user gets in.
    const noPassword = await rows(`postgres://postgres@127.0.0.1:${port}/gleaner`, 'SELECT 1').then(
      () => null,
      (err: Error) => err,
    );
    expect(noPassword?.message).to.match(/password/);
    const wrong = await rows(`postgres://postgres:guess@127.0.0.1:${port}/gleaner`, 'SELECT 1').then(
      () => null,
      (err: { code?: string }) => err,
    );
    expect(wrong?.code, 'password authentication failed').to.equal('28P01');
    expect(await rows(current.url, 'SELECT current_database() AS db')).to.deep.equal([{ db: 'gleaner' }]);
    await rows(current.url, 'CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
    await rows(current.url, 'INSERT INTO notes (body) VALUES ($1)', ['first run']);
    if (process.getuid?.() === 0) {
      const st = await fs.stat(path.join(dataDir, 'postgres'));
      expect(st.uid, 'cluster owned by the system user, not root').to.not.equal(0);
    }
    // Postgres's own log is a weekly ring inside the cluster (logging_collector).
    const logDir = path.join(dataDir, 'postgres', 'log');
    const ring = await fs.readdir(logDir);
    expect(ring).to.have.length(1);
    expect(ring[0]).to.match(/^postgresql-(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\.log$/);
    expect(await fs.readFile(path.join(logDir, ring[0]), 'utf8')).to.match(/ready to accept connections/);
  });

  it('lets a second start share the running instance without owning it', async () => {
    const second = await start();
    expect(second.owned).to.equal(false);
    expect(second.url).to.equal(current.url);
    expect(second.pid).to.equal(current.pid);
    await second.stop(); // not the owner: Postgres keeps running
    expect(await notes(current.url)).to.deep.equal(['first run']);
  });

  it('stops on stop() (idempotent) and keeps the data for the next start', async () => {
    await Promise.all([current.stop(), current.stop()]);
    await current.stop();
    await waitDead(current.pid);
    await fs.access(pidFile()).then(
      () => expect.fail('postmaster.pid left behind by a clean stop'),
      () => undefined,
    );
    let refused = false;
    await rows(current.url, 'SELECT 1').catch(() => (refused = true));
    expect(refused).to.equal(true);

    current = await start();
    expect(current.owned).to.equal(true);
    expect(await notes(current.url)).to.deep.equal(['first run']);
  });

  it('starts again after the postmaster was killed (postmaster.pid left behind)', async () => {
    await rows(current.url, 'INSERT INTO notes (body) VALUES ($1)', ['before crash']);
    const crashed = current.pid;
    process.kill(crashed, 'SIGKILL');
    await waitDead(crashed);
    await fs.access(pidFile());

    current = await start();
    expect(current.owned).to.equal(true);
    expect(current.pid).to.not.equal(crashed);
    expect(await notes(current.url)).to.deep.equal(['first run', 'before crash']);
  });

  it('starts when postmaster.pid names a dead PID or a PID reused by another program', async () => {
    const lockText = await fs.readFile(pidFile(), 'utf8');
    const withPid = (pid: number) => [String(pid), ...lockText.split('\n').slice(1)].join('\n');
    await current.stop();

    const gone = spawn('true');
    await new Promise((resolve) => gone.once('exit', resolve));
    await fs.writeFile(pidFile(), withPid(gone.pid!));
    current = await start();
    expect(await notes(current.url)).to.have.length(2);
    await current.stop();

    const unrelated = spawn('sleep', ['30']);
    try {
      await fs.writeFile(pidFile(), withPid(unrelated.pid!));
      current = await start();
      expect(current.owned).to.equal(true);
      expect(await notes(current.url)).to.have.length(2);
      expect(alive(unrelated.pid!), 'the unrelated program is left alone').to.equal(true);
    } finally {
      unrelated.kill('SIGKILL');
    }
  });

  it('kills a postmaster of this data directory that no longer answers, then starts', async () => {
    const hung = current.pid;
    process.kill(hung, 'SIGSTOP');
    current = await start({ unresponsiveAfterMs: 1_000 });
    expect(current.owned).to.equal(true);
    expect(current.pid).to.not.equal(hung);
    expect(alive(hung)).to.equal(false);
    expect(await notes(current.url)).to.have.length(2);
  });

  it('takes over a Postgres orphaned by a Gleaner process that crashed', async () => {
    await current.stop();
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(pathToFileURL(modulePath).href)};
      import { silentLogger } from '@gleaner/core';
      const opts = ${JSON.stringify({ dataDir, port, osUser: 'gleaner-pg' })};
      const h = await startEmbeddedPostgres({ ...opts, logger: silentLogger() });
      process.stdout.write(JSON.stringify({ pid: h.pid, owned: h.owned }) + '\\n');
      setInterval(() => {}, 1000);
    `;
    const server = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    const started = await new Promise<{ pid: number; owned: boolean }>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) resolve(JSON.parse(out));
      });
      server.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    seenPids.add(started.pid);
    expect(started.owned).to.equal(true);
    server.kill('SIGKILL');
    await waitDead(server.pid!);
    expect(alive(started.pid), 'Postgres outlives the crashed process').to.equal(true);

    current = await start();
    expect(current.owned).to.equal(true);
    expect(current.pid).to.not.equal(started.pid);
    expect(alive(started.pid)).to.equal(false);
    expect(await notes(current.url)).to.have.length(2);
  });

  it('names the port and GLEANER_EMBEDDED_PG_PORT when another program holds the port', async () => {
    await current.stop();
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const err = await start().then(
        () => expect.fail('started despite the port being taken'),
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(GleanerError);
      expect((err as GleanerError).code).to.equal('DATABASE_UNAVAILABLE');
      expect((err as GleanerError).message)
        .to.include(String(port))
        .and.include('GLEANER_EMBEDDED_PG_PORT');
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
