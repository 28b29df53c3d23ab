// Scraper runs: the operations behind /v1/scrapers/run, run_async and its status, and their job kind.
import type { OperationContext } from '../context.ts';
import type { JobKind } from '../jobs/job-kind.ts';
import { runItemJob } from './item-job.ts';

export { runOperations } from './operations.ts';
export type { RunOperations } from './operations.ts';
export { scrapeWithRecipe } from './scrape.ts';
export type { ScrapeInput, ScrapeResult, ScrapedPage } from './scrape.ts';
export { detectDrift, requiredFields } from './drift.ts';
export { applyParameterRules, MAX_RUN_URLS } from './request.ts';
export type { RunOptions } from './request.ts';
export type { RunStatus, RunStatusBody } from './status.ts';
export { RUN_ITEM_JOB, runChannel } from './store.ts';
export { RUN_ITEM_BATCH_SIZE, RUN_ITEM_CONCURRENCY, RUN_ITEM_POLICY } from './item-job.ts';

/** The job kinds of runs: `run.item` (one URL of a run). */
export function runJobKinds(ctx: () => OperationContext): JobKind<any>[] {
  return [runItemJob(ctx)];
}
