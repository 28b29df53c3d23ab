/**
 * Stopping work that runs in another process: POST /v1/agent/extract/{id}/stop and DELETE of a
 * scraper mid-build answer in the API process while the job runs in some worker. The API side
 * marks the row and sends a NOTIFY (`notifyCancel`, in the same transaction); every worker process
 * holds one LISTEN connection while it runs cancellable work and aborts the matching local signal at
 * once. A backstop poll (`isCancelled`) covers a lost connection or notification.
 */
import { createHash } from 'node:crypto';
import { Listener } from '../store/listen.ts';
import type { Logger } from '../log.ts';
import type { Queryable } from '../store/db.ts';
import { GleanerError } from '../errors.ts';

const BACKSTOP_MS = 2000;

/** The NOTIFY channel of cancellations in this schema (names stay under Postgres' 63 bytes). */
export function cancelChannel(schema: string): string {
  return `gleaner_cancel_${createHash('sha1').update(schema).digest('hex').slice(0, 16)}`;
}

/** Sends the cancellation of `subject` (e.g. `task:<id>`); call it in the transaction that marks the row. */
export async function notifyCancel(db: Queryable, schema: string, subject: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [cancelChannel(schema), subject]);
}

export interface CancelWatchOptions {
  url: string;
  schema: string;
  logger: Logger;
}

interface Watched {
  controller: AbortController;
  /** Polled by the backstop: true once the subject is cancelled. */
  isCancelled: () => Promise<boolean>;
  reason: () => unknown;
}

export class CancelWatch {
  readonly #opts: CancelWatchOptions;
  readonly #watched = new Map<string, Set<Watched>>();
  readonly #listener: Listener;

  constructor(opts: CancelWatchOptions) {
    this.#opts = opts;
    this.#listener = new Listener({
      url: opts.url,
      channel: cancelChannel(opts.schema),
      applicationName: 'gleaner-cancel-watch',
      what: 'cancellation listener',
      logger: opts.logger,
      onPayload: (subject) => this.#cancel(subject),
      backstopMs: BACKSTOP_MS,
      onBackstop: () => this.#poll(),
    });
  }

  /**
   * A signal that aborts when `subject` is cancelled (NOTIFY or the backstop's `isCancelled`) or
   * when `parent` aborts. Call `release()` when the work ends.
   */
  async watch(
    subject: string,
    opts: { parent?: AbortSignal; isCancelled: () => Promise<boolean>; reason?: () => unknown },
  ): Promise<{ signal: AbortSignal; release: () => void }> {
    const controller = new AbortController();
    const reason = opts.reason ?? (() => new GleanerError('AGENT_STOPPED', `${subject} was stopped`));
    const entry: Watched = { controller, isCancelled: opts.isCancelled, reason };
    let set = this.#watched.get(subject);
    if (!set) this.#watched.set(subject, (set = new Set()));
    set.add(entry);
    const signal = opts.parent ? AbortSignal.any([opts.parent, controller.signal]) : controller.signal;
    const release = () => {
      set.delete(entry);
      if (!set.size) this.#watched.delete(subject);
      if (!this.#watched.size) this.#listener.stop();
    };
    await this.#listener.start();
    // It may have been cancelled before the LISTEN took effect.
    if (await this.#safeCheck(entry)) controller.abort(reason());
    return { signal, release };
  }

  async #safeCheck(entry: Watched): Promise<boolean> {
    try {
      return await entry.isCancelled();
    } catch (err) {
      this.#opts.logger.warn({ err: (err as Error).message }, 'could not read cancellation state');
      return false;
    }
  }

  #cancel(subject: string): void {
    for (const w of this.#watched.get(subject) ?? []) if (!w.controller.signal.aborted) w.controller.abort(w.reason());
  }

  #poll(): void {
    for (const [subject, set] of this.#watched) {
      for (const w of set) {
        void this.#safeCheck(w).then((cancelled) => {
          if (cancelled) this.#cancel(subject);
        });
      }
    }
  }

  /** Closes the connection (work still watched keeps its signals; nothing aborts them any more). */
  close(): void {
    this.#watched.clear();
    this.#listener.stop();
  }
}
