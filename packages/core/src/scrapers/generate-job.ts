/**
 * The background build of a classic scraper (job kind `scraper.generate`): sample page -> standard
 * extraction -> recipe that reproduces it -> a new recipe version and status `ready`, or status
 * `failed` with an `error` saying why. The job carries the build id it was sent for: a job whose
 * scraper was deleted or has a newer build since (or that was delivered again after finishing)
 * changes nothing.
 */
import { GleanerError } from '../errors.ts';
import { defineJob } from '../jobs/job-kind.ts';
import type { ExtractedRecord } from '../records/attributes.ts';
import type { OperationContext } from '../context.ts';
import { addUsage, creditsFor, emptyUsage, recordUsage, type ModelUsage } from '../usage.ts';
import { estimateRecipeRound } from '../cost/estimate.ts';
import type { Cookie } from '../net/cookies.ts';
import type { Queryable } from '../store/db.ts';
import { buildRecipe, contentPage, nothingFound, sampleFromUrl, standardRecords, type SamplePage } from './build.ts';
import { loadScraperById, saveRecipeVersion } from './store.ts';
import type { ScraperBuildRequest, ScraperRecord } from './types.ts';

export const SCRAPER_GENERATE_JOB = 'scraper.generate';

export interface GeneratePayload {
  scraperId: string;
  buildId: string;
}

/** Locks the scraper row when this build is still the current one; null for a stale job. */
async function currentBuild(tx: Queryable, p: GeneratePayload): Promise<ScraperRecord | null> {
  const s = await loadScraperById(tx, p.scraperId, { forUpdate: true });
  return s && s.buildId === p.buildId && s.status === 'generating' ? s : null;
}

/** Marks the build failed, when it is still the scraper's current one (shared by both kinds' builds). */
export async function failBuild(tx: Queryable, p: GeneratePayload, message: string, code: string, credits = 0): Promise<boolean> {
  const { rowCount } = await tx.query(
    `UPDATE scrapers SET status = 'failed', error = $3, error_code = $4, credits_charged = credits_charged + $5, updated_at = now()
     WHERE id = $1 AND build_id = $2 AND status = 'generating'`,
    [p.scraperId, p.buildId, message, code, credits],
  );
  return (rowCount ?? 0) > 0;
}

/** The payload of both kinds' build jobs. */
export const BUILD_PAYLOAD_SCHEMA = {
  type: 'object',
  required: ['scraperId', 'buildId'],
  properties: { scraperId: { type: 'string' }, buildId: { type: 'string' } },
};

/**
 * The recipe rounds a build with `max_credits` / `max_tokens` can still pay for, each estimated as
 * estimateRecipeRound on the sample page, with the build price if accepted: scrapers.generateRounds
 * when it has no budget or enough; fewer (and `why`) when the budget allows fewer; 0 stops the build.
 */
function affordableRounds(
  c: OperationContext,
  req: ScraperBuildRequest,
  page: SamplePage,
  scraper: ScraperRecord,
  spent: ModelUsage,
): { rounds: number; why?: string } {
  const configured = c.config.scrapers.generateRounds;
  if (req.maxCredits === undefined && req.maxTokens === undefined) return { rounds: configured };
  const round = estimateRecipeRound(page.html, { attributes: scraper.attributes, prompt: scraper.prompt });
  const after = (n: number) => ({
    modelCalls: spent.modelCalls + n * round.modelCalls,
    inputTokens: spent.inputTokens + n * round.inputTokens,
    outputTokens: spent.outputTokens + n * round.outputTokens,
  });
  const fits = (n: number) => {
    const u = after(n);
    const tokens = u.inputTokens + u.outputTokens;
    return (
      (req.maxTokens === undefined || tokens <= req.maxTokens) &&
      (req.maxCredits === undefined || creditsFor(c.config, { builds: 1, usage: u }) <= req.maxCredits)
    );
  };
  let n = 0;
  while (n < configured && fits(n + 1)) n++;
  if (n === configured) return { rounds: n };
  const used = spent.inputTokens + spent.outputTokens;
  const limit =
    req.maxTokens !== undefined && used + (n + 1) * (round.inputTokens + round.outputTokens) > req.maxTokens
      ? `the request's max_tokens (${req.maxTokens})`
      : `the request's max_credits (${req.maxCredits})`;
  const perRound = round.inputTokens + round.outputTokens;
  return n === 0
    ? {
        rounds: 0,
        why: `reading the sample page used ${used} model tokens (${creditsFor(c.config, { usage: spent })} credits); a recipe round would take about ${perRound} more and the build price, more than ${limit}. No recipe was written; the tokens spent are charged.`,
      }
    : { rounds: n, why: `the build's budget, ${limit}, paid for ${n} recipe round${n === 1 ? '' : 's'} of about ${perRound} tokens` };
}

export function scraperGenerateJob(ctx: () => OperationContext) {
  return defineJob<GeneratePayload>({
    name: SCRAPER_GENERATE_JOB,
    payloadSchema: BUILD_PAYLOAD_SCHEMA,
    policy: { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 900 },
    handler: async (payload, job) => {
      const c = ctx();
      const scraper = await loadScraperById(c.db, payload.scraperId);
      if (!scraper || scraper.buildId !== payload.buildId || scraper.status !== 'generating' || !scraper.request) {
        job.logger.info({ scraperId: payload.scraperId }, 'stale scraper build skipped');
        return;
      }
      const req = scraper.request;
      const usage = emptyUsage();
      let page: SamplePage;
      let expected: ExtractedRecord[];
      if (req.content !== null) {
        page = contentPage(req.content, req.url);
        const std = await standardRecords(c, page, scraper.attributes, scraper.prompt, job.signal);
        addUsage(usage, std.usage);
        expected = std.records;
      } else {
        if (!req.url) throw new GleanerError('INTERNAL', `scraper ${scraper.id} has neither a url nor content to build from`);
        const sample = await sampleFromUrl(c, {
          url: req.url,
          proxyCountry: req.proxyCountry,
          cookies: req.cookies as Cookie[],
          attributes: scraper.attributes,
          prompt: scraper.prompt,
          signal: job.signal,
        });
        addUsage(usage, sample.usage);
        page = sample.page;
        expected = sample.expected;
      }

      // The build's own budget: the recipe rounds it still pays for after the sample's read.
      const rounds = expected.length ? affordableRounds(c, req, page, scraper, usage) : { rounds: c.config.scrapers.generateRounds };
      if (rounds.rounds === 0) {
        const credits = creditsFor(c.config, { usage });
        await c.db.tx(async (tx) => {
          await recordUsage(tx, { ownerId: scraper.ownerId, operation: 'scraper_build', subject: `scraper:${scraper.id}`, pages: 1, usage, credits });
          if (await currentBuild(tx, payload)) await failBuild(tx, payload, `Scraper build stopped at its budget: ${rounds.why}`, 'BUDGET_EXCEEDED', credits);
        });
        job.logger.info({ scraperId: scraper.id, credits, ...usage }, 'scraper build stopped at its budget');
        return;
      }
      // Deleted or superseded while the page was read: no recipe model calls for nothing.
      const still = await loadScraperById(c.db, payload.scraperId);
      const build =
        expected.length && still?.buildId === payload.buildId
          ? await buildRecipe(c, { page, expected, attributes: scraper.attributes, prompt: scraper.prompt, signal: job.signal, maxRounds: rounds.rounds })
          : null;
      if (build && !build.accepted && rounds.why) build.reason += ` (${rounds.why})`;
      if (build) addUsage(usage, build.usage);
      const accepted = build?.accepted === true;
      // The build fee is charged for an accepted recipe only; model tokens are charged either way.
      const credits = creditsFor(c.config, { builds: accepted ? 1 : 0, usage });
      const sampleUrl = page.driver === 'content' ? req.url : page.url;

      let outcome = 'stale';
      await c.db.tx(async (tx) => {
        await recordUsage(tx, { ownerId: scraper.ownerId, operation: 'scraper_build', subject: `scraper:${scraper.id}`, pages: 1, usage, credits });
        if (!(await currentBuild(tx, payload))) return;
        if (!expected.length) {
          await failBuild(tx, payload, `Scraper build failed: ${nothingFound(page)}.`, 'SCRAPER_BUILD_FAILED', credits);
          outcome = 'nothing found';
        } else if (build && !build.accepted) {
          await failBuild(tx, payload, `Scraper build failed: ${build.reason}`, 'SCRAPER_BUILD_FAILED', credits);
          outcome = 'rejected';
        } else if (build && build.accepted) {
          await saveRecipeVersion(tx, {
            scraperId: scraper.id,
            recipe: build.recipe,
            reason: 'generated',
            sampleUrl,
            sampleData: build.records,
            sampleDriver: page.driver,
            modelCalls: usage.modelCalls,
            credits,
            markReady: true,
          });
          outcome = 'ready';
        }
      });
      job.logger.info(
        {
          scraperId: scraper.id,
          url: page.url,
          driver: page.driver,
          expected: expected.length,
          rounds: build?.rounds ?? 0,
          brittle: build?.accepted ? build.brittle : undefined,
          outcome,
          credits,
          ...usage,
        },
        'scraper build finished',
      );
    },
    onFailure: async (payload, error) => {
      const c = ctx();
      await c.db.tx((tx) => failBuild(tx, payload, `Scraper build failed: ${error.message}`, error.code));
    },
  });
}
