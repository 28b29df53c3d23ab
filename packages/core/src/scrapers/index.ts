// Scrapers: classic (extractor) scrapers built in the background into versioned recipes, agentic
// scrapers recorded by the agent into versioned scripts, listing, layout drift and self-healing. The runs and catalog modules build on the
// store functions exported here.
import type { OperationContext } from '../context.ts';
import type { JobKind } from '../jobs/job-kind.ts';
import { agenticBuildJob } from './agentic-build-job.ts';
import { scraperGenerateJob } from './generate-job.ts';

export type { ParameterSpec, ScraperBuildRequest, ScraperKind, ScraperRecord, ScraperStatus } from './types.ts';
export { insertScraper, loadRecipeVersion, loadScraper, loadScraperById, markDrift, saveRecipeVersion, saveScriptVersion } from './store.ts';
export type { InsertScraperInput, ScraperListItem } from './store.ts';
export { healScraper } from './heal.ts';
export type { HealResult } from './heal.ts';
export { scraperOperations, extractorBody, agenticBody } from './operations.ts';
export type { ScraperOperations } from './operations.ts';
export { SCRAPER_GENERATE_JOB } from './generate-job.ts';
export { AGENTIC_BUILD_JOB } from './agentic-build-job.ts';
export type { GeneratePayload } from './generate-job.ts';
export { withScraperLock } from './lock.ts';

/** The scrapers' job kinds (registered by the engine). */
export function scraperJobKinds(ctx: () => OperationContext): JobKind<any>[] {
  return [scraperGenerateJob(ctx), agenticBuildJob(ctx)];
}
