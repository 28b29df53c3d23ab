// Processes a test started, read from /proc: which are browsers, and how much memory they hold.
import { readFileSync, readdirSync } from 'node:fs';

export interface Proc {
  pid: number;
  ppid: number;
  state: string;
  comm: string;
  /** Field 22 of /proc/PID/stat: tells a process from a later one reusing its pid. */
  start: string;
}

export function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const rest = stat.slice(close + 2).split(' ');
    return { pid, comm: stat.slice(stat.indexOf('(') + 1, close), state: rest[0], ppid: Number(rest[1]), start: rest[19] };
  } catch {
    return undefined; // gone between readdir and read
  }
}

export function allProcs(): Proc[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => p !== undefined);
}

/** Every process descended from `root` (ppid chains). */
export function descendants(root = process.pid): Proc[] {
  const procs = allProcs();
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: Proc[] = [];
  const queue = [root];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c.pid);
    }
  }
  return out;
}

export const isBrowser = (p: Proc) => /chrom/i.test(p.comm);

/** Proportional set size (falls back to RSS), in MB. */
export function memoryMb(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const pss = /^Pss:\s+(\d+) kB/m.exec(rollup);
    if (pss) return Number(pss[1]) / 1024;
  } catch {
    /* not readable: RSS below */
  }
  try {
    return (Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096) / 2 ** 20;
  } catch {
    return 0;
  }
}
