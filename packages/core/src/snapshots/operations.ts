/**
 * The archive's operations (Gleaner extensions): one archived page of a run item, the owner's size
 * report, and a replay — a scraper version run on a run's archived pages, fetching nothing.
 */
import type { Owner } from '../auth/owners.ts';
import type { OperationContext } from '../context.ts';
import { GleanerError } from '../errors.ts';
import { defineJob } from '../jobs/job-kind.ts';
import { mergeRecords, type ExtractedRecord } from '../records/attributes.ts';
import { runRecipe } from '../recipes/index.ts';
import { compareRuns, reportedChanges, type ChangeCounts, type ReportedChange } from '../schedules/changes.ts';
import { checkRequest } from '../schemas/validate.ts';
import { REPLAY_BODY, SNAPSHOT_SETTINGS_BODY, type ReplayRequest, type SnapshotSettingsRequest } from '../schemas/schedule-requests.ts';
import { loadRecipeVersion, loadScraper } from '../scrapers/index.ts';
import { archiveUsage, ownerKeepsSnapshots, pruneArchive, readSnapshot, runDocuments, setOwnerSnapshots, type ArchiveUsage, type Snapshot } from './archive.ts';

export const SNAPSHOT_PRUNE_JOB = 'snapshots.prune';

export interface ReplayResult {
  scraper_id: string;
  version: number;
  run_id: string;
  /** URL -> records the version finds on the archived pages. */
  data: Record<string, ExtractedRecord[]>;
  /** URL -> why it was not replayed (no archived page). */
  errors: Record<string, string>;
  pages: number;
  /** Against the run's own records: counts, and every record that is not unchanged. */
  changes: { counts: ChangeCounts; records: ReportedChange[] };
}

export interface SnapshotOperations {
  get(owner: Owner, runId: string, item: number, page?: number): Promise<Snapshot>;
  usage(owner: Owner): Promise<ArchiveUsage>;
  replay(owner: Owner, scraperId: string, body: ReplayRequest): Promise<ReplayResult>;
  /** The owner's default for runs that do not say: keep their pages or not. */
  settings(owner: Owner): Promise<{ runs: boolean }>;
  updateSettings(owner: Owner, body: SnapshotSettingsRequest): Promise<{ runs: boolean }>;
}

export function snapshotOperations(ctx: OperationContext): SnapshotOperations {
  return {
    settings: async (owner) => ({ runs: await ownerKeepsSnapshots(ctx.db, owner.id) }),
    async updateSettings(owner, input) {
      const body = checkRequest<SnapshotSettingsRequest>(SNAPSHOT_SETTINGS_BODY, input);
      await setOwnerSnapshots(ctx.db, owner.id, body.runs);
      return { runs: body.runs };
    },
    get: (owner, runId, item, page) => readSnapshot(ctx.db, owner.id, runId, item, page),
    usage: (owner) => archiveUsage(ctx.db, owner.id, ctx.config.snapshots.retentionDays),
    async replay(owner, scraperId, input) {
      const body = checkRequest<ReplayRequest>(REPLAY_BODY, input);
      const scraper = await loadScraper(ctx.db, owner.id, scraperId);
      if (!scraper) throw new GleanerError('NOT_FOUND', `Scraper ${scraperId} not found`);
      if (scraper.kind === 'agentic') {
        throw new GleanerError(
          'BAD_REQUEST',
          `Scraper ${scraperId} is agentic: replay runs a classic scraper's recipe on archived pages, and agentic runs archive none`,
        );
      }
      const version = body.version ?? scraper.recipeVersion;
      const recipe = body.version ? await loadRecipeVersion(ctx.db, scraper.id, body.version) : scraper.recipe;
      if (!recipe || !version)
        throw new GleanerError(
          body.version ? 'NOT_FOUND' : 'SCRAPER_NOT_READY',
          body.version ? `Scraper ${scraperId} has no version ${body.version}` : `Scraper ${scraperId} has no recipe yet`,
        );
      const { rows: items } = await ctx.db.query<{ position: number; url: string; status: string; records: ExtractedRecord[] | null }>(
        `SELECT i.position, i.url, i.status, i.records FROM run_items i JOIN runs r ON r.id = i.run_id WHERE r.id = $1 AND r.owner_id = $2 ORDER BY i.position`,
        [body.run_id, owner.id],
      );
      if (!items.length) throw new GleanerError('NOT_FOUND', `Run ${body.run_id} not found`);
      const documents = await runDocuments(ctx.db, body.run_id);
      if (!documents.size) {
        throw new GleanerError(
          'NOT_FOUND',
          `Run ${body.run_id} has no archived pages: start runs with "snapshots": true (scheduled runs keep them) to replay them`,
        );
      }
      const data: Record<string, ExtractedRecord[]> = {};
      const errors: Record<string, string> = {};
      let pages = 0;
      const compared: Array<{ url: string; current: ExtractedRecord[] | null; previous: ExtractedRecord[] | null }> = [];
      for (const item of items) {
        const docs = documents.get(item.position);
        if (!docs?.length) {
          data[item.url] = [];
          errors[item.url] = item.status === 'failed' ? 'the page failed in this run: nothing was archived' : 'no archived page for this URL';
          continue;
        }
        const perPage = docs.map((d) => runRecipe(recipe, d.html, { url: d.url, attributes: scraper.attributes }).records);
        pages += docs.length;
        data[item.url] = mergeRecords(perPage);
        compared.push({ url: item.url, current: data[item.url], previous: item.status === 'completed' ? (item.records ?? []) : null });
      }
      const diff = compareRuns(compared, null);
      ctx.logger.info({ scraperId, version, runId: body.run_id, pages, ...diff.counts }, 'scraper replayed on archived pages');
      return {
        scraper_id: scraper.id,
        version,
        run_id: body.run_id,
        data,
        errors,
        pages,
        changes: { counts: diff.counts, records: reportedChanges(diff.records) },
      };
    },
  };
}

/** The daily prune of the archive (snapshots.retentionDays), on pg-boss's scheduler. */
export function snapshotPruneJob(ctx: () => OperationContext) {
  return defineJob<Record<string, never>>({
    name: SNAPSHOT_PRUNE_JOB,
    payloadSchema: { type: 'object' },
    policy: { retryLimit: 2, expireInSeconds: 3600 },
    handler: async (_p, job) => {
      const c = ctx();
      const gone = await pruneArchive(c.db, c.config.snapshots.retentionDays);
      job.logger.info({ ...gone, retentionDays: c.config.snapshots.retentionDays }, 'snapshot archive pruned');
    },
  });
}
