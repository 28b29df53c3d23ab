/**
 * One LISTEN connection on a NOTIFY channel, shared by the run waiter and the cancellation watch:
 * payloads go to `onPayload`; a lost connection or a failed LISTEN is logged and reported through
 * `onLost` (the caller's backstop poll carries on, and its next use listens again). `Listener` adds
 * the lifecycle both share: listen while someone waits, poll as a backstop, close when nobody does.
 */
import pg from 'pg';
import type { Logger } from '../log.ts';

export interface ListenOptions {
  url: string;
  channel: string;
  /** Shown in pg_stat_activity. */
  applicationName: string;
  /** What listens, for log messages (e.g. "run waiter"). */
  what: string;
  logger: Logger;
  onPayload(payload: string): void;
  /** The connection is gone (or never came up); forget it. */
  onLost(): void;
}

/** Connects and LISTENs; resolves the client, or null when that failed (the caller polls instead). */
export async function listen(opts: ListenOptions): Promise<pg.Client | null> {
  const client = new pg.Client({ connectionString: opts.url, application_name: opts.applicationName });
  client.on('notification', (msg) => {
    if (msg.channel === opts.channel && msg.payload) opts.onPayload(msg.payload);
  });
  client.on('error', (err) => {
    opts.logger.warn({ err: err.message }, `${opts.what} lost its connection; polling instead`);
    opts.onLost();
    client.end().catch(() => undefined);
  });
  try {
    await client.connect();
    await client.query(`LISTEN "${opts.channel}"`);
    return client;
  } catch (err) {
    opts.logger.warn({ err: (err as Error).message }, `${opts.what} could not LISTEN; polling instead`);
    opts.onLost();
    client.end().catch(() => undefined);
    return null;
  }
}

export interface ListenerOptions extends Omit<ListenOptions, 'onLost'> {
  /** How often `onBackstop` runs while started (covers a lost connection or notification). */
  backstopMs: number;
  onBackstop(): void | Promise<void>;
}

/** A LISTEN connection plus a backstop poll, started on demand and stopped when idle. */
export class Listener {
  readonly #opts: ListenerOptions;
  #client: Promise<pg.Client | null> | null = null;
  #backstop: NodeJS.Timeout | null = null;

  constructor(opts: ListenerOptions) {
    this.#opts = opts;
  }

  /** Listens (again, after a lost connection) and starts the backstop; resolves once LISTEN took effect or failed. */
  async start(): Promise<void> {
    this.#client ??= listen({ ...this.#opts, onLost: () => (this.#client = null) });
    if (!this.#backstop) {
      this.#backstop = setInterval(() => void this.#opts.onBackstop(), this.#opts.backstopMs);
      this.#backstop.unref();
    }
    await this.#client;
  }

  /** Stops the backstop and closes the connection. */
  stop(): void {
    if (this.#backstop) clearInterval(this.#backstop);
    this.#backstop = null;
    const client = this.#client;
    this.#client = null;
    client?.then((c) => c?.end()).catch(() => undefined);
  }
}
