// Who owns a running embedded Postgres (embedded-postgres.ts): the owner stops it; the other live
// processes sharing it are recorded, and an owner that leaves while they run hands it over to one of
// them. A handle's stop() and abort() act under the start lock, with the shutdown signal steps.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Logger } from '@gleaner/core';
import {
  acquireLock,
  escalate,
  isSameProcessAlive,
  processStartTime,
  readStamp,
  signal,
  waitGone,
  type ProcessStamp,
  type Step,
} from './embedded-postgres-support.ts';
import type { Paths } from './embedded-postgres-location.ts';
import { urlFor } from './embedded-postgres-cluster.ts';

export interface Settings {
  port: number;
  startTimeoutMs: number;
  stopTimeoutMs: number;
  unresponsiveAfterMs: number;
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

/** This handle's stamp as a user of the postmaster `postmasterPid`. */
export async function stampOf(postmasterPid: number): Promise<ProcessStamp> {
  return { pid: process.pid, startTime: await processStartTime(process.pid), token: randomBytes(8).toString('hex'), postmasterPid };
}

export async function liveUsers(paths: Paths): Promise<ProcessStamp[]> {
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

export async function writeUsers(paths: Paths, users: ProcessStamp[]): Promise<void> {
  if (users.length) await fs.writeFile(paths.users, JSON.stringify(users));
  else await fs.rm(paths.users, { force: true });
}

/**
 * A handle on the postmaster `pid` for the user `me`. stop() and abort() act under the start lock
 * and read who owns the postmaster then, so ownership handed over while this handle was open counts.
 */
export function handle(
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

export function shutdownSteps(s: Settings): Step[] {
  // SIGINT = fast shutdown (ends sessions, checkpoints); SIGQUIT = immediate (crash recovery next start).
  return [
    ['SIGINT', s.stopTimeoutMs],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ];
}
