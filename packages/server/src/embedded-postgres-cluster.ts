// The cluster itself (embedded-postgres.ts): its generated password, initdb into a scratch directory,
// the database Gleaner uses, and the log that initdb and start-up write to.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { GleanerError } from '@gleaner/core';
import type { Logger } from '@gleaner/core';
import { CHILD_ENV, pgRoundTrip, SUPERUSER, type PgReply } from './embedded-postgres-support.ts';
import { fixClusterOwnership, exists, type Paths, type RunAs, type Binaries } from './embedded-postgres-location.ts';

const DATABASE = 'gleaner';

// Only loopback TCP: the server listens on 127.0.0.1 only and has no Unix socket. A password, not
// trust: any local user can reach 127.0.0.1.
const PG_HBA = '# Written by Gleaner: the embedded Postgres listens on 127.0.0.1 only.\nhost all all 127.0.0.1/32 scram-sha-256\n';

const LOG_ROTATE_BYTES = 10 * 1024 * 1024;

export const urlFor = (port: number, password: string) => `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;

/** The generated superuser password, created (mode 0600) on first use. */
export async function ensurePassword(paths: Paths): Promise<string> {
  const existing = (await fs.readFile(paths.password, 'utf8').catch(() => '')).trim();
  if (existing) {
    await fs.chmod(paths.password, 0o600).catch(() => undefined);
    return existing;
  }
  const password = randomBytes(24).toString('base64url');
  await fs.writeFile(paths.password, `${password}\n`, { mode: 0o600, flag: 'w' });
  return password;
}

export async function rotateLog(file: string): Promise<void> {
  if ((await fileSize(file)) > LOG_ROTATE_BYTES) await fs.rename(file, `${file}.1`).catch(() => undefined);
}

/** Makes sure a cluster exists and Postgres may use it; true when it was just created. */
export async function prepareCluster(paths: Paths, bins: Binaries, runAs: RunAs | undefined, password: string, log: Logger): Promise<boolean> {
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

/** A cluster made when loopback was trusted: give the superuser the password and require it from now on. */
export async function requirePassword(paths: Paths, port: number, password: string, runAs: RunAs | undefined, log: Logger): Promise<void> {
  const hba = path.join(paths.cluster, 'pg_hba.conf');
  if (!/\btrust\b/.test(await fs.readFile(hba, 'utf8').catch(() => ''))) return;
  const set = await pgRoundTrip(port, SUPERUSER, `ALTER ROLE ${SUPERUSER} PASSWORD '${password}'`, 10_000);
  if (!set.ok) throw new GleanerError('DATABASE_UNAVAILABLE', `Could not set the embedded Postgres password: ${set.message}`);
  await fs.writeFile(hba, PG_HBA, { mode: 0o600 });
  if (runAs) await fs.chown(hba, runAs.uid, runAs.gid);
  await pgRoundTrip(port, SUPERUSER, 'SELECT pg_reload_conf()', 10_000, password);
  log.info({ file: paths.password }, 'the embedded Postgres now requires its generated password (it trusted loopback before)');
}

export async function ensureDatabase(port: number, password: string, log: Logger, fresh = false): Promise<void> {
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

export function spawnIdentity(paths: Paths, runAs: RunAs | undefined) {
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

export async function fileSize(p: string): Promise<number> {
  return (await fs.stat(p).catch(() => undefined))?.size ?? 0;
}

export async function logTail(file: string, from: number): Promise<string> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const tail = text.slice(from).trim();
  return (tail.length > 2_000 ? `...${tail.slice(-2_000)}` : tail) || `(nothing in ${file})`;
}
