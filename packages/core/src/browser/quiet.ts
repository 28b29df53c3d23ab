/**
 * The Node half of `waitFor({ quietMs, afterChange })` for browser drivers: the in-page half is
 * `PAGE_SCRIPTS.quiet` (page-scripts.ts), which the driver runs through `run`. Quiet means the
 * document unchanged for `quietMs` and none of the page's requests that matter (`busy`, e.g. those
 * started since the last action) in flight; a request still running is waited for, then the
 * document again (plainly: the change `afterChange` asks for has happened by then).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { GleanerError } from '../errors.ts';
import type { QuietArgs, QuietResult } from './page-scripts.ts';

export interface QuietWait {
  quietMs: number;
  timeoutMs: number;
  afterChange: boolean;
  /** Runs `PAGE_SCRIPTS.quiet` with `arg` in the top document. */
  run(arg: QuietArgs): Promise<QuietResult>;
  /** The page's requests in flight that hold the wait. */
  busy(): number;
  /** The longest single in-page wait (e.g. under WebDriver's script timeout); default: all that is left. */
  callMaxMs?: number;
  /** The error for a wait that ran out of time. */
  timedOut(): GleanerError;
  signal?: AbortSignal;
}

/** How often `busy()` is looked at while requests run. */
const BUSY_POLL_MS = 20;

export async function waitUntilQuiet(w: QuietWait): Promise<void> {
  const end = Date.now() + w.timeoutMs;
  let afterChange = w.afterChange;
  for (;;) {
    const left = end - Date.now();
    if (left <= 0) throw w.timedOut();
    const r = await w.run({ quietMs: w.quietMs, maxMs: Math.min(left, w.callMaxMs ?? left), afterChange });
    if (!r.quiet) continue;
    if (w.busy() === 0) return;
    afterChange = false;
    while (w.busy() > 0 && Date.now() < end) {
      w.signal?.throwIfAborted();
      await sleep(BUSY_POLL_MS);
    }
  }
}
