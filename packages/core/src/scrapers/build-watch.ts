/**
 * DELETE of an agentic scraper mid-build answers in an API process while its build runs in some
 * worker: the deleting transaction sends the cancellation of `scraper:<id>` (jobs/cancel.ts) and the
 * build, which watches that subject, aborts its signal at once — the agent's model call in flight,
 * its browser session and the replay stop. The backstop poll also catches a rebuild that replaced
 * this build (another build id).
 */
import { GleanerError } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import { notifyCancel } from '../jobs/cancel.ts';
import type { Queryable } from '../store/db.ts';

export interface BuildWatch {
  signal: AbortSignal;
  /** True once the scraper was deleted or rebuilt (the abort came from the watch). */
  cancelled(): boolean;
  release(): void;
}

const subject = (scraperId: string) => `scraper:${scraperId}`;

/** Tells a running build of the scraper to stop; call it in the transaction that deletes the scraper. */
export function cancelBuild(ctx: OperationContext, tx: Queryable, scraperId: string): Promise<void> {
  return notifyCancel(tx, ctx.config.database.schema, subject(scraperId));
}

export async function watchBuild(ctx: OperationContext, build: { scraperId: string; buildId: string }, parent: AbortSignal): Promise<BuildWatch> {
  let cancelled = false;
  const isCancelled = async () => {
    const { rows } = await ctx.db.query<{ build_id: string | null }>('SELECT build_id FROM scrapers WHERE id = $1', [build.scraperId]);
    return rows[0]?.build_id !== build.buildId;
  };
  const watch = await ctx.cancels.watch(subject(build.scraperId), {
    parent,
    isCancelled,
    reason: () => {
      cancelled = true;
      return new GleanerError('AGENT_STOPPED', `the build of scraper ${build.scraperId} was stopped: the scraper was deleted or rebuilt`);
    },
  });
  return { signal: watch.signal, cancelled: () => cancelled, release: watch.release };
}
