// Run helpers shared by the run tests: a scraper row written straight to the store (ready, with a
// recipe or script the test gives) and polling a run's status until it has finished.
import { expect } from 'chai';
import { insertScraper, type Owner } from '@gleaner/core/internal';
import type { Stack } from './stack.ts';
import { waitFor } from './wait.ts';

/** The statuses a run ends in. */
export const RUN_FINISHED = ['completed', 'completed_partial', 'failed'];

/** GET /v1/scrapers/run_async/{id} until the run has finished; its status body. */
export function runFinished(s: Stack, runId: string, ms = 60_000): Promise<any> {
  return waitFor(
    async () => {
      const r = await s.api('GET', `/v1/scrapers/run_async/${runId}`);
      expect(r.status, r.text).to.equal(200);
      return RUN_FINISHED.includes(r.body.status) ? r.body : undefined;
    },
    ms,
    `run ${runId}`,
    100,
  );
}

/** A ready scraper of `owner`, inserted in the store (no build): an extractor unless `kind` says otherwise. */
export function insertReadyScraper(
  s: Stack,
  owner: Owner,
  scraper: Omit<Parameters<typeof insertScraper>[1], 'ownerId' | 'kind' | 'status'> & { kind?: 'extractor' | 'agentic' },
): Promise<string> {
  return s.engine.db.tx((tx) => insertScraper(tx, { kind: 'extractor', status: 'ready', ...scraper, ownerId: owner.id }));
}
