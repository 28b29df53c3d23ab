/**
 * Follows background work (a run, an agent task) by reading its status until it is done, the wait
 * is over or the caller cancels, reporting each change. Polling the status the HTTP API serves keeps
 * the tool's answer identical to what GET on that status would say.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface Follow<S> {
  read(): Promise<S>;
  done(status: S): boolean;
  /** Called when the status changed since the last report. */
  report(status: S): Promise<void>;
}

export async function followUntilDone<S>(follow: Follow<S>, opts: { waitMs: number; signal: AbortSignal; everyMs?: number }): Promise<S> {
  const deadline = Date.now() + opts.waitMs;
  let last = '';
  for (;;) {
    const status = await follow.read();
    const seen = JSON.stringify(status);
    if (seen !== last) await follow.report(status).catch(() => undefined); // a client gone mid-notification
    last = seen;
    if (follow.done(status) || Date.now() >= deadline || opts.signal.aborted) return status;
    await sleep(opts.everyMs ?? 300, undefined, { signal: opts.signal }).catch(() => undefined);
  }
}
