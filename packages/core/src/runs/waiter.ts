/**
 * Waiting for runs to finish (POST /v1/scrapers/run): one LISTEN connection per process while
 * anyone waits, woken by the NOTIFY that the finishing transaction sends; a slow backstop poll
 * covers a lost connection or notification. The connection is closed when nobody waits.
 */
import { Listener } from '../store/listen.ts';
import type { Logger } from '../log.ts';

/** How often waiting runs are checked without a notification. */
const BACKSTOP_MS = 2000;

export interface RunWaiterOptions {
  url: string;
  channel: string;
  logger: Logger;
  /** Which of these runs are finished. */
  finished(runIds: string[]): Promise<Set<string>>;
}

export class RunWaiter {
  readonly #opts: RunWaiterOptions;
  readonly #waiting = new Map<string, Set<() => void>>();
  readonly #listener: Listener;

  constructor(opts: RunWaiterOptions) {
    this.#opts = opts;
    this.#listener = new Listener({
      url: opts.url,
      channel: opts.channel,
      applicationName: 'gleaner-run-waiter',
      what: 'run waiter',
      logger: opts.logger,
      onPayload: (runId) => this.#wake(runId),
      backstopMs: BACKSTOP_MS,
      onBackstop: () => this.#poll(),
    });
  }

  /** Resolves true once the run is finished, false after `ms` or when `signal` aborts. */
  async wait(runId: string, ms: number, signal?: AbortSignal): Promise<boolean> {
    if (ms <= 0 || signal?.aborted) return (await this.#check([runId])).has(runId);
    let wake!: () => void;
    const woken = new Promise<void>((r) => (wake = r));
    let set = this.#waiting.get(runId);
    if (!set) this.#waiting.set(runId, (set = new Set()));
    set.add(wake);
    const timer = setTimeout(wake, ms);
    signal?.addEventListener('abort', wake, { once: true });
    try {
      await this.#listener.start();
      // It may have finished before the LISTEN took effect.
      if ((await this.#check([runId])).has(runId)) return true;
      await woken;
      return (await this.#check([runId])).has(runId);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', wake);
      set.delete(wake);
      if (!set.size) this.#waiting.delete(runId);
      if (!this.#waiting.size) this.#listener.stop();
    }
  }

  async #check(runIds: string[]): Promise<Set<string>> {
    try {
      return await this.#opts.finished(runIds);
    } catch (err) {
      this.#opts.logger.warn({ err: (err as Error).message }, 'could not read run status while waiting');
      return new Set();
    }
  }

  #wake(runId: string): void {
    for (const w of this.#waiting.get(runId) ?? []) w();
  }

  async #poll(): Promise<void> {
    const ids = [...this.#waiting.keys()];
    if (!ids.length) return;
    for (const id of await this.#check(ids)) this.#wake(id);
  }

  /** Closes the connection; waits in progress end at their timeout or backstop. */
  close(): void {
    this.#listener.stop();
  }
}
