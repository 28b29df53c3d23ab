// PLACEHOLDER (replaced by the scrapers work): classic scraper operations and their job kinds.
import type { OperationContext } from '../extract/context.ts';
import type { JobKind } from '../jobs/job-kind.ts';
export interface ScraperOperations {}
export function scraperOperations(_ctx: OperationContext): ScraperOperations {
  return {};
}
export function scraperJobKinds(_ctx: () => OperationContext): JobKind<any>[] {
  return [];
}
