/**
 * Per-host politeness shared by every worker: at most `concurrency` requests to one host at once
 * and `delayMs` between their starts, across all processes on the same Postgres, plus a backoff
 * after a 429/503 (Retry-After) that recovers one level per successful request.
 *
 * The shared state is two unlogged tables and two SQL functions (migration 040): one round trip to
 * acquire, one to release. Inside a process, callers for one host queue up and only the head of the
 * queue asks Postgres, so a worker with 100 items waiting on one host polls once, not 100 times;
 * a release anywhere wakes the heads waiting on that host at once (NOTIFY on a per-schema channel,
 * with a poll as backstop).
 * Leases are renewed while their process lives; a killed worker's lapse after `leaseMs`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { GleanerError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Queryable } from '../store/db.ts';
import { Listener } from '../store/listen.ts';

/** The pace one caller asks for (its owner's or run's settings, with the host's Crawl-delay). */
export interface HostLimits {
  concurrency: number;
  delayMs: number;
}

/** What the host answered: `ok` recovers a backoff level, `backoff` (429/503) starts one, `none` neither. */
export type ReleaseOutcome = { kind: 'ok' } | { kind: 'none' } | { kind: 'backoff'; waitMs: number };

export interface HostLease {
  readonly host: string;
  /** How long this acquire waited (delay, concurrency or backoff). */
  readonly waitedMs: number;
  release(outcome?: ReleaseOutcome): Promise<void>;
}

export interface PolitenessGateOptions {
  db: Queryable;
  logger: Logger;
  /** politeness.backoffBaseMs: the extra delay per backoff level. */
  backoffBaseMs: number;
  /** A lease not renewed for this long is free again (the holder died). Default 15 s. */
  leaseMs?: number;
  /** How often the head of a full host's queue asks again (backstop of the NOTIFY). Default 250 ms. */
  pollMs?: number;
  /** Where releases are announced (NOTIFY); absent: polling only. */
  listen?: { url: string; channel: string };
}

interface Waiter {
  limits: HostLimits;
  signal?: AbortSignal;
  since: number;
  resolve(lease: HostLease): void;
  reject(err: unknown): void;
}

interface HostState {
  queue: Waiter[];
  pumping: boolean;
  /** Wakes the pump early (a release, a new waiter, an abort). */
  wake: (() => void) | null;
  /** The head waits for a free slot (not for a delay): only a release helps. */
  full: boolean;
}

export class PolitenessGate {
  readonly holder = `${process.pid}-${randomUUID().slice(0, 8)}`;
  readonly #o: Required<PolitenessGateOptions>;
  readonly #hosts = new Map<string, HostState>();
  readonly #held = new Set<string>();
  #renewer: NodeJS.Timeout | null = null;
  #closed = false;
  #listener: Listener | null = null;

  constructor(opts: PolitenessGateOptions) {
    this.#o = { leaseMs: 15_000, pollMs: 250, listen: undefined as never, ...opts };
  }

  /** Starts listening for releases the first time a host is full (most runs never need it). */
  #listen(): void {
    const l = this.#o.listen;
    if (this.#listener || !l || this.#closed) return;
    this.#listener = new Listener({
      url: l.url,
      channel: l.channel,
      applicationName: 'gleaner-politeness',
      what: 'politeness gate',
      logger: this.#o.logger,
      backstopMs: 60_000,
      onBackstop: () => this.#listener?.start(),
      onPayload: (host) => {
        const h = this.#hosts.get(host);
        if (h?.full) h.wake?.();
      },
    });
    void this.#listener.start();
  }

  /** Waits for a turn at `host` (abortable); release the lease when the request is over. */
  acquire(host: string, limits: HostLimits, signal?: AbortSignal): Promise<HostLease> {
    if (this.#closed) return Promise.reject(new GleanerError('JOB_ABORTED', 'the politeness gate is closed'));
    signal?.throwIfAborted();
    const key = host.toLowerCase();
    let h = this.#hosts.get(key);
    if (!h) this.#hosts.set(key, (h = { queue: [], pumping: false, wake: null, full: false }));
    const state = h;
    return new Promise<HostLease>((resolve, reject) => {
      const w: Waiter = { limits, signal, since: Date.now(), resolve, reject };
      const onAbort = () => {
        const i = state.queue.indexOf(w);
        if (i >= 0) state.queue.splice(i, 1);
        reject(signal!.reason ?? new GleanerError('JOB_ABORTED', 'aborted while waiting for the host'));
        state.wake?.();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      w.resolve = (lease) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(lease);
      };
      w.reject = (err) => {
        signal?.removeEventListener('abort', onAbort);
        reject(err);
      };
      state.queue.push(w);
      if (state.pumping) state.wake?.();
      else void this.#pump(key, state);
    });
  }

  async #pump(host: string, h: HostState): Promise<void> {
    h.pumping = true;
    try {
      while (h.queue.length && !this.#closed) {
        const head = h.queue[0];
        let wait: number;
        try {
          const { rows } = await this.#o.db.query<{ lease_id: string | null; wait_ms: number }>(
            'SELECT lease_id, wait_ms FROM politeness_acquire($1, $2, $3, $4, $5, $6)',
            [host, head.limits.concurrency, head.limits.delayMs, this.#o.backoffBaseMs, this.holder, this.#o.leaseMs],
          );
          const r = rows[0];
          if (r?.lease_id != null) {
            if (h.queue[0] !== head) {
              // Aborted meanwhile: the lease goes back unused.
              await this.#release(r.lease_id, host, { kind: 'none' });
              continue;
            }
            h.queue.shift();
            head.resolve(this.#lease(r.lease_id, host, Date.now() - head.since));
            continue;
          }
          h.full = !r || r.wait_ms <= 0;
          if (h.full) this.#listen();
          wait = h.full ? this.#o.pollMs : r.wait_ms;
        } catch (err) {
          // Postgres is away: every waiter fails (the job retries) rather than going unpaced.
          for (const w of h.queue.splice(0)) w.reject(err);
          break;
        }
        // Small jitter so the heads of several processes do not ask in lockstep.
        await this.#sleep(h, Math.min(wait, 60_000) + Math.random() * 10);
        h.full = false;
      }
    } finally {
      h.pumping = false;
      if (!h.queue.length) this.#hosts.delete(host);
      else if (!this.#closed) void this.#pump(host, h);
    }
  }

  #sleep(h: HostState, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        h.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      h.wake = done;
    });
  }

  #lease(id: string, host: string, waitedMs: number): HostLease {
    this.#held.add(id);
    this.#renew();
    let released = false;
    return {
      host,
      waitedMs,
      release: async (outcome = { kind: 'ok' }) => {
        if (released) return;
        released = true;
        await this.#release(id, host, outcome);
      },
    };
  }

  async #release(id: string, host: string, outcome: ReleaseOutcome): Promise<void> {
    this.#held.delete(id);
    try {
      const wait = outcome.kind === 'backoff' ? Math.round(outcome.waitMs) : 0;
      if (this.#o.listen) {
        await this.#o.db.query('SELECT politeness_release($1, $2, $3, $4), pg_notify($5, $2)', [id, host, outcome.kind, wait, this.#o.listen.channel]);
      } else {
        await this.#o.db.query('SELECT politeness_release($1, $2, $3, $4)', [id, host, outcome.kind, wait]);
      }
    } catch (err) {
      // The lease lapses by itself (it is no longer renewed).
      this.#o.logger.warn({ host, err: (err as Error).message }, 'releasing a politeness lease failed');
    }
    // A local waiter may take the freed slot now (or sees the backoff) without waiting for its poll.
    this.#hosts.get(host)?.wake?.();
  }

  /** Keeps this process's leases alive (every third of leaseMs) while it holds any. */
  #renew(): void {
    if (this.#renewer || this.#closed) return;
    const every = Math.max(100, Math.floor(this.#o.leaseMs / 3));
    this.#renewer = setInterval(() => {
      if (!this.#held.size) {
        clearInterval(this.#renewer!);
        this.#renewer = null;
        return;
      }
      this.#o.db
        .query(`UPDATE politeness_leases SET expires_at = clock_timestamp() + make_interval(secs => $2 / 1000.0) WHERE holder = $1`, [
          this.holder,
          this.#o.leaseMs,
        ])
        .catch((err) => this.#o.logger.warn({ err: (err as Error).message }, 'renewing politeness leases failed'));
    }, every);
    this.#renewer.unref();
  }

  /** Fails the waiters and frees this process's leases (engine stop; a later start may use it again). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listener?.stop();
    this.#listener = null;
    if (this.#renewer) clearInterval(this.#renewer);
    this.#renewer = null;
    for (const h of this.#hosts.values()) {
      for (const w of h.queue.splice(0)) w.reject(new GleanerError('JOB_ABORTED', 'the worker is stopping'));
      h.wake?.();
    }
    if (this.#held.size) await this.#o.db.query('DELETE FROM politeness_leases WHERE holder = $1', [this.holder]).catch(() => {});
    this.#held.clear();
    this.#closed = false;
  }
}

/** The NOTIFY channel of politeness releases in this schema (names stay under Postgres' 63 bytes). */
export function politenessChannel(schema: string): string {
  return `gleaner_polite_${createHash('sha1').update(schema).digest('hex').slice(0, 16)}`;
}

/**
 * Seconds or an HTTP date (RFC 9110 10.2.3) as milliseconds from now; null when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}
