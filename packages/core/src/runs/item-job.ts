/**
 * The `run.item` job kind: one URL of a run. The handler is idempotent (a redelivered job finds its
 * item recorded and stops; recording is guarded by the item's status), and the item's failure is
 * recorded by onFailure once retries are spent — including when its worker died (dead letter).
 */
import { GleanerError, toGleanerError } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import { defineJob, type JobContext } from '../jobs/job-kind.ts';
import { healScraper, loadScraper, markDrift, type ScraperRecord } from '../scrapers/index.ts';
import { executeAgenticItem } from './agentic-item.ts';
import { looksSignedOut, withProfile } from '../profiles/refresh.ts';
import { detectDrift } from './drift.ts';
import { scrapeWithRecipe, type ScrapeResult } from './scrape.ts';
import { completedOutcome, itemStatements, trustFor, type ClaimedItem, type ItemOutcome } from './items.ts';
import { RUN_ITEM_JOB } from './store.ts';
import { archivePages, archiveStore } from '../snapshots/archive.ts';
import { reserveRunItem } from '../cost/budgets.ts';
import { getOwnerSettings, settingsChanges, type OwnerSettings } from '../cost/settings.ts';
import { creditsFor } from '../usage.ts';
import { defaultPolicy, politeScope, type PoliteScope } from '../politeness/policy.ts';
import { withProvenance, type TrustLog } from '../trust/provenance.ts';

export interface RunItemPayload {
  runId: string;
  position: number;
}

/**
 * Run items fetched per poll, and fetch loops per worker process (so up to 60 URLs in flight per
 * process). Items mostly wait on page fetches; larger batches mean fewer queue round trips and let
 * the items of a batch share their claim and record statements, while a batch settles only when
 * its slowest page does, so a few loops keep a slow page from idling the rest. Measured with
 * test/bench/runs.bench.ts: 10x4 gave 0.68-0.76x the bare loop's pages/s, 15x4 0.74-0.85x,
 * 25x2 0.80-0.90x (but 25 pages waiting on the slowest), 25x4 0.79-0.90x; on a quiet machine 15x4
 * gave a median of 0.70x and 25x4 0.81x, so 25x4 (a worker has up to 100 URLs in flight).
 */
export const RUN_ITEM_BATCH_SIZE = 25;
export const RUN_ITEM_CONCURRENCY = 4;

/** Job settings for run items: see docs/api.md, "Running scrapers" > "Workers and crashes". */
export const RUN_ITEM_POLICY = {
  retryLimit: 2,
  retryDelaySeconds: 1,
  retryDelayMaxSeconds: 10,
  // Bounds one URL: max_pages fetches (or a script's replay) plus, after drift, one regeneration —
  // for an agentic scraper the agent's recording, up to agent.timeoutMs (5 minutes by default). A
  // worker that dies is noticed sooner, by its missed heartbeats (jobs.heartbeatSeconds).
  expireInSeconds: 900,
};

function scrape(
  c: OperationContext,
  scraper: ScraperRecord,
  recipe: NonNullable<ScraperRecord['recipe']>,
  item: ClaimedItem,
  signal: AbortSignal,
  polite?: PoliteScope,
  trust?: TrustLog,
): Promise<ScrapeResult> {
  return scrapeWithRecipe(c, {
    recipe,
    attributes: scraper.attributes,
    url: new URL(item.url).href,
    preferBrowser: scraper.sampleDriver != null && scraper.sampleDriver !== 'http',
    maxPages: item.options.maxPages,
    proxyCountry: item.options.proxyCountry,
    cookies: item.options.cookies,
    localStorage: item.options.localStorage,
    signal,
    polite,
    trust,
  });
}

/** What a failed item still records (carried in the error's details to onFailure). */
interface FailureDetails {
  driver?: string | null;
  recipeVersion?: number | null;
  healed?: boolean;
  modelCalls?: number;
  healCredits?: number;
}

function layoutChanged(message: string, result: ScrapeResult, d: FailureDetails): GleanerError {
  return new GleanerError('LAYOUT_CHANGED', message, { details: { driver: result.driver, ...d } satisfies FailureDetails });
}

/** Runs one URL on the scraper's recipe; on drift, regenerates (when allowed) and tries once more. */
export async function executeItem(
  c: OperationContext,
  scraper: ScraperRecord,
  item: ClaimedItem,
  job: Pick<JobContext, 'signal' | 'lastAttempt' | 'logger'>,
  polite?: PoliteScope,
): Promise<ItemOutcome> {
  const recipe = scraper.recipe!;
  let trust = trustFor(item);
  // With a profile: its cookies beside the run's; a first page that looks signed out refreshes it (its sign-in replayed) once.
  let result = await withProfile(
    c,
    scraper.ownerId,
    item.options.profile,
    item.options.cookies,
    (cookies, localStorage) => {
      item = { ...item, options: { ...item.options, cookies, localStorage } };
      trust = trustFor(item);
      return scrape(c, scraper, recipe, item, job.signal, polite, trust);
    },
    (r) => looksSignedOut({ finalUrl: r.firstPage.url, html: r.firstRecords.length ? '' : r.firstPage.html }, item.url),
    job.signal,
  );
  let version = scraper.recipeVersion;
  const drift = detectDrift(result.firstRecords, scraper.sampleData, scraper.attributes, result.firstPage.url);
  let healed = false;
  let modelCalls = 0;
  let healCredits = 0;
  if (drift) {
    if (!c.config.scrapers.selfHeal) {
      await markDrift(c.db, scraper.id, drift);
      throw layoutChanged(
        `${drift}. Regenerate the scraper (POST /v1/extractor/generate with template_id ${scraper.id}), or turn on scrapers.selfHeal.`,
        result,
        { recipeVersion: version },
      );
    }
    // With self-healing, the scraper is flagged only when the heal fails: a successful heal clears
    // the flag, and flagging first would race with another URL's heal finishing meanwhile.
    job.logger.info({ scraperId: scraper.id, version, reason: drift }, 'layout drift: regenerating the scraper');
    let heal: Awaited<ReturnType<typeof healScraper>>;
    try {
      heal = await healScraper(c, scraper, result.firstPage, drift, job.signal);
    } catch (err) {
      const e = toGleanerError(err);
      // A model outage is worth the item's retry; the last attempt reports the drift with the cause.
      if ((e.retryable && !job.lastAttempt) || e.code === 'JOB_ABORTED') throw e;
      await markDrift(c.db, scraper.id, drift);
      throw layoutChanged(`${drift}; regenerating the scraper from this page failed: ${e.message}`, result, { recipeVersion: version });
    }
    if (!heal.healed) {
      await markDrift(c.db, scraper.id, drift);
      throw layoutChanged(`${drift}; regenerating the scraper from this page failed: ${heal.reason}`, result, {
        recipeVersion: version,
        healCredits: heal.credits ?? 0,
      });
    }
    modelCalls = heal.modelCalls;
    healCredits = heal.credits;
    healed = true;
    version = heal.version;
    trust = trustFor(item);
    result = await scrape(c, scraper, heal.recipe, item, job.signal, polite, trust);
    // The new version's records on this page are its sample here (a version another URL's heal made
    // may find nothing on this page: then the old sample judges).
    const again = detectDrift(result.firstRecords, heal.records.length ? heal.records : scraper.sampleData, scraper.attributes, result.firstPage.url);
    if (again) {
      await markDrift(c.db, scraper.id, again);
      throw layoutChanged(`${again} (even with the regenerated version ${heal.version})`, result, { recipeVersion: version, healed, modelCalls, healCredits });
    }
  }
  return {
    ...completedOutcome(
      c.config,
      { records: trust ? withProvenance(result.records, trust) : result.records, driver: result.driver, pages: result.pages.length, message: result.message },
      { version, healed, modelCalls, healCredits },
    ),
    documents: result.documents,
  };
}

/**
 * The scrapers a worker has read, kept while their row is unchanged (`updated_at`, returned by the
 * claim): the items of a run share one scraper, so it is read once per change, not once per URL.
 */
function scraperCache(max = 256) {
  const entries = new Map<string, { changedAt: string; scraper: ScraperRecord }>();
  return async (c: OperationContext, item: ClaimedItem): Promise<ScraperRecord | null> => {
    if (!item.scraperChangedAt) return null; // deleted
    const hit = entries.get(item.scraperId);
    if (hit && hit.changedAt === item.scraperChangedAt) return hit.scraper;
    const scraper = await loadScraper(c.db, item.ownerId, item.scraperId);
    entries.delete(item.scraperId);
    if (!scraper) return null;
    if (entries.size >= max) entries.delete(entries.keys().next().value!);
    entries.set(item.scraperId, { changedAt: item.scraperChangedAt, scraper });
    return scraper;
  };
}

/**
 * Owner settings for run items, re-read every few seconds (a budget set mid-run through another
 * process applies soon) and at once after this process changed any owner's settings.
 */
function settingsCache(ttlMs = 3000) {
  const entries = new Map<string, { at: number; settings: Promise<OwnerSettings> }>();
  let seen = settingsChanges();
  return (c: OperationContext, ownerId: string): Promise<OwnerSettings> => {
    if (seen !== settingsChanges()) {
      entries.clear();
      seen = settingsChanges();
    }
    const hit = entries.get(ownerId);
    if (hit && Date.now() - hit.at < ttlMs) return hit.settings;
    if (entries.size > 1000) entries.clear();
    const settings = getOwnerSettings(c.db, ownerId);
    entries.set(ownerId, { at: Date.now(), settings });
    settings.catch(() => entries.delete(ownerId));
    return settings;
  };
}

export function runItemJob(ctx: () => OperationContext) {
  const scraperFor = scraperCache();
  const settingsFor = settingsCache();
  const items = itemStatements(ctx);
  return defineJob<RunItemPayload>({
    name: RUN_ITEM_JOB,
    payloadSchema: {
      type: 'object',
      required: ['runId', 'position'],
      additionalProperties: false,
      properties: { runId: { type: 'string', minLength: 1 }, position: { type: 'integer', minimum: 0 } },
    },
    policy: RUN_ITEM_POLICY,
    batchSize: RUN_ITEM_BATCH_SIZE,
    concurrency: RUN_ITEM_CONCURRENCY,
    // One owner's URLs in progress at once, cluster-wide (createRun tags each job with its owner).
    groupConcurrency: () => ctx().config.limits.concurrentJobs,
    handler: async ({ runId, position }, job) => {
      const c = ctx();
      const item = await items.claim(runId, position);
      if (!item) return; // recorded already: a redelivered job
      const scraper = await scraperFor(c, item);
      if (!scraper) throw new GleanerError('NOT_FOUND', `Scraper ${item.scraperId} was deleted while the run was in progress`);
      if (scraper.kind === 'agentic' ? !scraper.script : !scraper.recipe) {
        throw new GleanerError(
          'SCRAPER_NOT_READY',
          `Scraper ${item.scraperId} has no ${scraper.kind === 'agentic' ? 'script' : 'recipe'} any more (it is being regenerated or its build failed)`,
        );
      }
      // Budgets (max_credits, the owner's day and month): the URL's first page is reserved or refused.
      await reserveRunItem(
        c,
        { runId, position, ownerId: item.ownerId, maxCredits: item.options.maxCredits },
        await settingsFor(c, item.ownerId),
        creditsFor(c.config, { recipePages: 1 }),
      );
      // A replay's browser session closes while its result is recorded; the job ends once both have.
      const closing: Promise<void>[] = [];
      try {
        const polite = politeScope(item.options.politeness ?? defaultPolicy(c));
        let outcome: ItemOutcome;
        try {
          outcome =
            scraper.kind === 'agentic'
              ? await executeAgenticItem(c, scraper, item, job, (p) => closing.push(p))
              : await executeItem(c, scraper, item, job, polite);
        } catch (err) {
          // A URL the site's robots.txt disallows is skipped, with the rule, not failed (nor retried).
          if (!(err instanceof GleanerError) || err.code !== 'ROBOTS_DISALLOWED') throw err;
          outcome = { status: 'skipped', error: err.message, code: err.code };
        }
        outcome.politeWaitMs = polite.stats.waitedMs;
        outcome.backoffs = polite.stats.backoffs;
        // Archived before the item is recorded: a finished run's snapshots are all there.
        if (item.options.snapshots && outcome.status === 'completed' && outcome.documents?.length)
          await archivePages(archiveStore(c), runId, position, outcome.documents);
        const recorded = await items.record(runId, { position, outcome, hasCallback: item.hasCallback });
        job.logger.debug({ runId, position, records: outcome.status === 'completed' ? outcome.records.length : 0, recorded }, 'run item done');
      } finally {
        for (const r of await Promise.allSettled(closing)) {
          if (r.status === 'rejected') job.logger.warn({ err: (r.reason as Error)?.message }, 'closing a replay session failed');
        }
      }
    },
    onFailure: async ({ runId, position }, error) => {
      const c = ctx();
      const { rows } = await c.db.query<{ has: boolean }>('SELECT (callback_url IS NOT NULL OR schedule_id IS NOT NULL) AS has FROM runs WHERE id = $1', [
        runId,
      ]);
      const d = (error.code === 'LAYOUT_CHANGED' && error.details && typeof error.details === 'object' ? error.details : {}) as FailureDetails;
      const outcome: ItemOutcome = {
        status: 'failed',
        error: error.message,
        code: error.code,
        driver: d.driver ?? null,
        recipeVersion: d.recipeVersion ?? null,
        healed: d.healed ?? false,
        modelCalls: d.modelCalls ?? 0,
        credits: d.healCredits ?? 0,
        healCredits: d.healCredits ?? 0,
      };
      await items.record(runId, { position, outcome, hasCallback: rows[0]?.has ?? false });
    },
  });
}
