/**
 * DELETE of an agentic scraper mid-build answers in an API process while its build runs in some
 * worker: the build watches its scraper row and aborts its own signal (the agent's model call in
 * flight, its browser session, the replay) as soon as the row is gone or carries another build.
 * A poll of the primary key every few hundred milliseconds is cheap and needs no connection of its own.
 */
import { GleanerError } from '../errors.ts';
import type { OperationContext } from '../extract/context.ts';

const POLL_MS = 250;

export interface BuildWatch {
  signal: AbortSignal;
  /** True once the scraper was deleted or rebuilt (the abort came from the watch). */
  cancelled(): boolean;
  release(): void;
}

export function watchBuild(ctx: OperationContext, build: { scraperId: string; buildId: string }, parent: AbortSignal): BuildWatch {
  const controller = new AbortController();
  let cancelled = false;
  let checking = false;
  const timer = setInterval(() => {
    if (checking || controller.signal.aborted) return;
    checking = true;
    ctx.db
      .query<{ build_id: string | null }>('SELECT build_id FROM scrapers WHERE id = $1', [build.scraperId])
      .then(({ rows }) => {
        if (rows[0]?.build_id === build.buildId) return;
        cancelled = true;
        controller.abort(new GleanerError('AGENT_STOPPED', `the build of scraper ${build.scraperId} was stopped: the scraper was deleted or rebuilt`));
      })
      .catch(() => undefined) // a database hiccup: the next poll tries again
      .finally(() => {
        checking = false;
      });
  }, POLL_MS);
  timer.unref();
  return {
    signal: AbortSignal.any([parent, controller.signal]),
    cancelled: () => cancelled,
    release: () => clearInterval(timer),
  };
}
