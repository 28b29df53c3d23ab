/**
 * Self-healing: when a run finds a scraper's recipe no longer fits a page (layout drift), the
 * recipe is rebuilt from that page exactly like a normal build (standard extraction of the page,
 * then a recipe that must reproduce it) and saved as a new version with reason `healed: <why>`.
 * One regeneration per scraper at a time: concurrent runs that drift on the same scraper wait for
 * the first heal and reuse its version instead of paying for another.
 */
import type { ExtractedRecord } from '../records/attributes.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { addUsage, creditsFor, emptyUsage, recordUsage, type ModelUsage } from '../usage.ts';
import { executeRecipe, type Recipe } from '../recipes/index.ts';
import { buildRecipe, nothingFound, standardRecords } from './build.ts';
import { withScraperLock } from './lock.ts';
import { loadScraperById, saveRecipeVersion } from './store.ts';
import type { ScraperRecord } from './types.ts';
import type { Queryable } from '../store/db.ts';
import { recordHealAttempt } from '../history/heals.ts';

/** How long a failed heal of a recipe version stands before a drifting page may try again. */
export const HEAL_RETRY_MINUTES = 10;

/** The reason of a heal of this version that failed recently, if any. */
export async function recentHealFailure(ctx: OperationContext, scraperId: string, version: number | null): Promise<string | null> {
  const { rows } = await ctx.db.query<{ heal_failed_reason: string }>(
    `SELECT heal_failed_reason FROM scrapers WHERE id = $1 AND heal_failed_version IS NOT DISTINCT FROM $2 AND heal_failed_at > now() - make_interval(mins => $3)`,
    [scraperId, version, HEAL_RETRY_MINUTES],
  );
  return rows[0]?.heal_failed_reason ?? null;
}

/** Remembers a failed heal of this version (and charges its credits), so later drifts wait. */
export async function rememberHealFailure(tx: Queryable, scraperId: string, version: number | null, reason: string, credits: number): Promise<void> {
  await tx.query(
    'UPDATE scrapers SET credits_charged = credits_charged + $2, heal_failed_version = $3, heal_failed_reason = $4, heal_failed_at = now() WHERE id = $1',
    [scraperId, credits, version, reason.slice(0, 2000)],
  );
}

export type HealResult =
  | {
      healed: true;
      version: number;
      recipe: Recipe;
      /** The recipe's records on the page given. */
      records: ExtractedRecord[];
      /** Model calls this heal made (0 when another heal had already produced a newer version). */
      modelCalls: number;
      /** Credits this heal cost (already recorded in the owner's usage; add, do not record again). */
      credits: number;
      usage: ModelUsage;
    }
  | { healed: false; reason: string; credits?: number };

/**
 * Regenerates the scraper's recipe from a page where it drifted, validated like a normal build
 * (compared with standard extraction of that page); saves a new version with reason 'healed: ...'.
 * At most one regeneration per scraper at a time (advisory lock): if the current version is already
 * newer than `scraper.recipeVersion` once the lock is held, that version is returned without a model call.
 *
 * Returns `healed: false` when the page cannot be healed from (standard extraction finds nothing
 * there, or no recipe reproduces it); throws the model's and database's errors (MODEL_UNAVAILABLE,
 * MODEL_NOT_CONFIGURED, ...) so a job can retry. No transaction is open during model calls.
 */
export async function healScraper(
  ctx: OperationContext,
  scraper: ScraperRecord,
  page: { html: string; url: string; driver: string },
  reason: string,
  signal?: AbortSignal,
): Promise<HealResult> {
  if (scraper.kind !== 'extractor') return { healed: false, reason: 'only classic (extractor) scrapers are healed automatically; regenerate this scraper' };
  requireModel(ctx);
  return withScraperLock(
    ctx.db,
    scraper.id,
    async () => {
      const current = await loadScraperById(ctx.db, scraper.id);
      if (!current) return { healed: false, reason: 'the scraper was deleted' };
      const attributes = current.attributes.length ? current.attributes : undefined;
      if (current.recipe && current.recipeVersion !== null && current.recipeVersion > (scraper.recipeVersion ?? 0)) {
        const records = executeRecipe(current.recipe, page.html, { url: page.url, attributes });
        ctx.logger.info({ scraperId: scraper.id, version: current.recipeVersion }, 'scraper already healed by another run; reusing its version');
        return { healed: true, version: current.recipeVersion, recipe: current.recipe, records, modelCalls: 0, credits: 0, usage: emptyUsage() };
      }

      const failed = await recentHealFailure(ctx, scraper.id, current.recipeVersion);
      if (failed)
        return { healed: false, reason: `${failed} (an earlier regeneration of this version failed; the next try is after ${HEAL_RETRY_MINUTES} minutes)` };

      const usage = emptyUsage();
      const std = await standardRecords(ctx, page, current.attributes, current.prompt, signal);
      addUsage(usage, std.usage);
      const build = std.records.length
        ? await buildRecipe(ctx, { page, expected: std.records, attributes: current.attributes, prompt: current.prompt, signal })
        : null;
      if (build) addUsage(usage, build.usage);
      const accepted = build?.accepted === true;
      const credits = creditsFor(ctx.config, { builds: accepted ? 1 : 0, usage });
      const label = `healed: ${reason}`.slice(0, 500);
      const version = await ctx.db.tx(async (tx) => {
        await recordUsage(tx, { ownerId: current.ownerId, operation: 'scraper_heal', subject: `scraper:${scraper.id}`, pages: 1, usage, credits });
        const attempt = { scraperId: scraper.id, trigger: reason, fromVersion: current.recipeVersion, url: page.url, modelCalls: usage.modelCalls, credits };
        if (!build?.accepted) {
          const why = build ? build.reason : nothingFound(page);
          await rememberHealFailure(tx, scraper.id, current.recipeVersion, why, credits);
          await recordHealAttempt(tx, { ...attempt, toVersion: null, detail: why });
          return null;
        }
        const saved = await saveRecipeVersion(tx, {
          scraperId: scraper.id,
          recipe: build.recipe,
          reason: label,
          sampleUrl: page.url,
          sampleData: build.records,
          sampleDriver: page.driver,
          modelCalls: usage.modelCalls,
          credits,
          markReady: false,
        });
        await recordHealAttempt(tx, { ...attempt, toVersion: saved });
        return saved;
      });
      ctx.logger.info(
        { scraperId: scraper.id, url: page.url, driver: page.driver, reason, healed: version !== null, version, credits, ...usage },
        'scraper heal finished',
      );
      if (!build) return { healed: false, reason: nothingFound(page), credits };
      if (!build.accepted) return { healed: false, reason: build.reason, credits };
      if (version === null) return { healed: false, reason: 'the scraper was deleted', credits };
      return { healed: true, version, recipe: build.recipe, records: build.records, modelCalls: usage.modelCalls, credits, usage };
    },
    { signal },
  );
}
