/**
 * Process and protocol helpers of the embedded Postgres (embedded-postgres.ts): who a PID is, the
 * start lock, signalling with escalation, and a minimal wire-protocol client for health probes.
 * Linux reads /proc; elsewhere `ps` answers the one question that needs it.
 */
import { execFile } from 'node:child_process';
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GleanerError } from '@gleaner/core';

export const SUPERUSER = 'postgres';
// Built here rather than inherited: the children must not see PGDATA, PGPORT or the like.
export const CHILD_ENV = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C', LC_ALL: 'C' };

/**
 * Who started a postmaster, uses it, or holds the start lock; startTime guards against PID reuse,
 * `token` tells apart two handles of one process.
 */
export interface ProcessStamp {
  pid: number;
  startTime?: string;
  postmasterPid?: number;
  token?: string;
}
export type Step = [NodeJS.Signals, number];

export async function readPostmasterPid(file: string): Promise<{ pid: number; port: number; status: string } | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  // Lines: PID, data dir, start time, port, socket dir, listen address, shmem key, status.
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return { pid: 0, port: 0, status: '' }; // garbage: treated as dead
  return { pid, port: Number(lines[3]) || 0, status: (lines[7] ?? '').trim() };
}

/** Whether `pid` is a postmaster of `cluster`: 'ours', 'dead', 'other' (PID reused), or 'unverifiable'. */
export async function identify(pid: number, cluster: string): Promise<'ours' | 'dead' | 'other' | 'unverifiable'> {
  if (pid <= 0 || !(await isAlive(pid))) return 'dead';
  const real = await fs.realpath(cluster).catch(() => cluster);
  const isCluster = (p: string | undefined) => p !== undefined && (path.resolve(p) === cluster || path.resolve(p) === real);
  const stat = await procStat(pid);
  if (stat) {
    if (stat.comm !== 'postgres') return 'other';
    const args = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
    const d = args.indexOf('-D');
    if (d >= 0 && isCluster(args[d + 1])) return 'ours';
    try {
      return isCluster(await fs.readlink(`/proc/${pid}/cwd`)) ? 'ours' : 'other'; // a postmaster's cwd is its data directory
    } catch {
      return 'unverifiable';
    }
  }
  // No /proc (macOS): ask ps.
  const command = await execFileText('ps', ['-o', 'command=', '-p', String(pid)]).catch(() => '');
  if (!/(^|\/)postgres(\s|$)/.test(command)) return 'other';
  return command.includes(cluster) || command.includes(real) ? 'ours' : 'unverifiable';
}

export async function procStat(pid: number): Promise<{ comm: string; state: string; pgrp: number; startTime: string } | undefined> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' '); // from field 3 (state) on
  return { comm: text.slice(text.indexOf('(') + 1, close), state: fields[0], pgrp: Number(fields[2]), startTime: fields[19] };
}

export async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return (await procStat(pid))?.state !== 'Z';
}

export async function processStartTime(pid: number): Promise<string | undefined> {
  return (await procStat(pid))?.startTime;
}

export async function isSameProcessAlive(stamp: ProcessStamp): Promise<boolean> {
  if (!(await isAlive(stamp.pid))) return false;
  return stamp.startTime === undefined || (await processStartTime(stamp.pid)) === stamp.startTime;
}

export async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (await isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

export async function escalate(pid: number, send: (sig: NodeJS.Signals) => void, gone: (ms: number) => Promise<boolean>, steps: Step[]): Promise<void> {
  for (const [sig, ms] of steps) {
    send(sig);
    if (await gone(ms)) break;
  }
  await killRemnants(pid);
}

/** SIGKILLs postgres processes still in a dead postmaster's process group (they would hold its shared memory). */
export async function killRemnants(postmasterPid: number): Promise<void> {
  if (postmasterPid <= 1) return;
  const entries = await fs.readdir('/proc').catch(() => [] as string[]);
  const remnants: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const st = await procStat(Number(name));
    if (st && st.pgrp === postmasterPid && st.comm === 'postgres' && st.state !== 'Z') remnants.push(Number(name));
  }
  for (const pid of remnants) signal(pid, 'SIGKILL');
  for (const pid of remnants) await waitGone(pid, 5_000);
}

export async function readStamp(file: string): Promise<ProcessStamp | undefined> {
  try {
    const value = JSON.parse(await fs.readFile(file, 'utf8')) as ProcessStamp;
    return Number.isInteger(value.pid) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A lock file naming its holder; a holder that died is taken over. */
export async function acquireLock(file: string, timeoutMs: number): Promise<() => Promise<void>> {
  const me: ProcessStamp = { pid: process.pid, startTime: await processStartTime(process.pid) };
  const text = JSON.stringify({ ...me, token: Math.random() });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fs.writeFile(file, text, { flag: 'wx' });
      return async () => {
        if ((await fs.readFile(file, 'utf8').catch(() => '')) === text) await fs.rm(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await readStamp(file);
    const age = Date.now() - ((await fs.stat(file).catch(() => undefined))?.mtimeMs ?? 0);
    if (holder ? !(await isSameProcessAlive(holder)) : age > 2_000) {
      await fs.rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new GleanerError(
        'DATABASE_UNAVAILABLE',
        `Another process (PID ${holder?.pid ?? '?'}) has been starting the embedded Postgres for over ${timeoutMs} ms (lock ${file}).`,
      );
    }
    await sleep(100);
  }
}

export function execFileText(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => execFile(file, args, { env: CHILD_ENV }, (err, stdout) => (err ? reject(err) : resolve(stdout))));
}

// ---------------------------------------------------------------- a minimal wire-protocol client

export interface PgReply {
  ok: boolean;
  code?: string;
  message?: string;
}

/** One protocol message: type byte, int32 length, body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}

/** The client side of SCRAM-SHA-256 (RFC 5802 / 7677) as Postgres speaks it: no channel binding. */
function scramClient(password: string) {
  const nonce = randomBytes(18).toString('base64');
  const clientFirstBare = `n=,r=${nonce}`;
  let expectedServerSignature = '';
  return {
    first(): Buffer {
      const mechanism = Buffer.from('SCRAM-SHA-256\0');
      const data = Buffer.from(`n,,${clientFirstBare}`);
      const len = Buffer.alloc(4);
      len.writeInt32BE(data.length, 0);
      return message('p', Buffer.concat([mechanism, len, data]));
    },
    final(serverFirst: string): Buffer {
      const attrs = Object.fromEntries(serverFirst.split(',').map((kv) => [kv[0], kv.slice(2)]));
      if (!attrs.r?.startsWith(nonce)) throw new Error('SCRAM: the server nonce does not extend ours');
      const salted = pbkdf2Sync(password.normalize('NFKC'), Buffer.from(attrs.s, 'base64'), Number(attrs.i), 32, 'sha256');
      const clientKey = createHmac('sha256', salted).update('Client Key').digest();
      const storedKey = createHash('sha256').update(clientKey).digest();
      const withoutProof = `c=biws,r=${attrs.r}`;
      const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
      const signature = createHmac('sha256', storedKey).update(authMessage).digest();
      const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]));
      const serverKey = createHmac('sha256', salted).update('Server Key').digest();
      expectedServerSignature = createHmac('sha256', serverKey).update(authMessage).digest('base64');
      return message('p', Buffer.from(`${withoutProof},p=${proof.toString('base64')}`));
    },
    verify(serverFinal: string): boolean {
      return serverFinal === `v=${expectedServerSignature}`;
    },
  };
}

/**
 * Connects over TCP (protocol 3.0; trust, or SCRAM-SHA-256 with `password`), optionally runs one
 * simple query, and says how the server answered. The server package does not depend on `pg`; this
 * is all it needs. Rejects when nothing answers (refused, closed, timeout).
 */
export function pgRoundTrip(port: number, database: string, sql: string | undefined, timeoutMs: number, password?: string): Promise<PgReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let buffer = Buffer.alloc(0);
    let queried = false;
    let failure: PgReply | undefined;
    let settled = false;
    const scram = password === undefined ? null : scramClient(password);
    const settle = (fn: () => void, graceful = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (graceful)
        socket.end(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate
      else socket.destroy();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(new Error(`no answer on 127.0.0.1:${port} within ${timeoutMs} ms`))), timeoutMs);
    socket.on('connect', () => {
      const params = Buffer.from(`user\0${SUPERUSER}\0database\0${database}\0application_name\0gleaner-embedded\0\0`);
      const head = Buffer.alloc(8);
      head.writeInt32BE(8 + params.length, 0);
      head.writeInt32BE(196608, 4); // protocol 3.0
      socket.write(Buffer.concat([head, params]));
    });
    socket.on('error', (err) => settle(() => reject(err)));
    socket.on('close', () => settle(() => (failure ? resolve(failure) : reject(new Error('connection closed')))));
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 5) {
        const length = buffer.readInt32BE(1);
        if (buffer.length < 1 + length) return;
        const type = String.fromCharCode(buffer[0]);
        const body = buffer.subarray(5, 1 + length);
        buffer = buffer.subarray(1 + length);
        if (type === 'R') {
          const kind = body.readInt32BE(0);
          // 10 SASL (mechanisms), 11 SASL continue (server-first), 12 SASL final; 0 = authenticated.
          if (kind === 10 && scram) socket.write(scram.first());
          else if (kind === 11 && scram) socket.write(scram.final(body.subarray(4).toString('utf8')));
          else if (kind === 12 && scram) {
            if (!scram.verify(body.subarray(4).toString('utf8')))
              return settle(() => resolve({ ok: false, code: 'AUTH', message: 'the server did not prove it knows the password' }));
          } else if (kind !== 0) return settle(() => resolve({ ok: false, code: 'AUTH', message: 'the server asks for a password' }));
          continue;
        }
        if (type === 'E') {
          failure = { ok: false, ...errorFields(body) };
          if (!queried) return settle(() => resolve(failure!));
        }
        if (type === 'Z') {
          if (sql !== undefined && !queried) {
            queried = true;
            socket.write(message('Q', Buffer.from(`${sql}\0`)));
          } else {
            return settle(() => resolve(failure ?? { ok: true }), true);
          }
        }
      }
    });
  });
}

function errorFields(body: Buffer): { code?: string; message?: string } {
  const out: { code?: string; message?: string } = {};
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const end = body.indexOf(0, at + 1);
    const value = body.toString('utf8', at + 1, end);
    if (body[at] === 0x43) out.code = value; // 'C'
    if (body[at] === 0x4d) out.message = value; // 'M'
    at = end + 1;
  }
  return out;
}
