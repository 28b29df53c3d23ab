/**
 * Self-healing of an agentic scraper: when a replay finds a step's target gone, or an extract
 * empty where the build's page had records, the script is replayed up to that step and the agent
 * goes on from that live page with the same prompt and the run's parameters; the new script is the
 * kept steps plus the newly recorded ones, and must reproduce the kept steps' records and the
 * agent's in a replay (agentic-record.ts) before it is saved as a new version with reason
 * `healed: <why>`. A drift that names no step (records missing fields) is recorded from the start.
 * As for classic scrapers: one heal per scraper at a time (concurrent drifts wait and reuse its
 * version), and a failed heal of a version is remembered for a while.
 */
import type { Cookie } from '../net/cookies.ts';
import type { AgentScript } from '../agent/script.ts';
import { validateScript } from '../agent/script.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { creditsFor, recordUsage } from '../usage.ts';
import { recordScript } from './agentic-record.ts';
import { HEAL_RETRY_MINUTES, recentHealFailure, rememberHealFailure } from './heal.ts';
import { withScraperLock } from './lock.ts';
import { loadScraperById, saveScriptVersion } from './store.ts';
import type { ScraperRecord } from './types.ts';
import { recordHealAttempt } from '../history/heals.ts';

export type AgenticHealResult =
  { healed: true; version: number; script: AgentScript; modelCalls: number; credits: number } | { healed: false; reason: string; credits?: number };

/**
 * Re-records the scraper's script from `run.fromStep` (the step that drifted; null: from the
 * start) on `run.url` with the run's parameters. Returns `healed: false`
 * when the agent or its replay cannot reproduce the task there; throws model and driver errors so a
 * job can retry. No transaction is open during the agent's run.
 */
export async function healAgenticScraper(
  ctx: OperationContext,
  scraper: ScraperRecord,
  run: { url: string; parameters: Record<string, unknown> | null; fromStep: number | null; cookies?: Cookie[] },
  reason: string,
  signal?: AbortSignal,
): Promise<AgenticHealResult> {
  requireModel(ctx);
  return withScraperLock(
    ctx.db,
    scraper.id,
    async () => {
      const current = await loadScraperById(ctx.db, scraper.id);
      if (!current) return { healed: false, reason: 'the scraper was deleted' };
      if (current.script && current.recipeVersion !== null && current.recipeVersion > (scraper.recipeVersion ?? 0)) {
        ctx.logger.info({ scraperId: scraper.id, version: current.recipeVersion }, 'agentic scraper already healed by another run; reusing its script');
        return { healed: true, version: current.recipeVersion, script: validateScript(current.script), modelCalls: 0, credits: 0 };
      }
      const failed = await recentHealFailure(ctx, scraper.id, current.recipeVersion);
      if (failed)
        return { healed: false, reason: `${failed} (an earlier re-recording of this version failed; the next try is after ${HEAL_RETRY_MINUTES} minutes)` };

      const from = run.fromStep !== null && current.script ? { script: validateScript(current.script), step: run.fromStep } : undefined;
      const recorded = await recordScript(ctx, {
        url: run.url,
        prompt: current.prompt,
        attributes: current.attributes,
        values: run.parameters ?? {},
        signal,
        from,
        allowedDomains: current.request?.allowedDomains,
        // A run on a profile heals signed in too.
        cookies: run.cookies,
      });
      const usage = recorded.usage;
      const credits = creditsFor(ctx.config, { builds: recorded.accepted ? 1 : 0, usage });
      const version = await ctx.db.tx(async (tx) => {
        await recordUsage(tx, { ownerId: current.ownerId, operation: 'scraper_heal', subject: `scraper:${scraper.id}`, pages: 1, usage, credits });
        const attempt = { scraperId: scraper.id, trigger: reason, fromVersion: current.recipeVersion, url: run.url, modelCalls: usage.modelCalls, credits };
        if (!recorded.accepted) {
          await rememberHealFailure(tx, scraper.id, current.recipeVersion, recorded.reason, credits);
          await recordHealAttempt(tx, { ...attempt, toVersion: null, detail: recorded.reason });
          return null;
        }
        const saved = await saveScriptVersion(tx, {
          scraperId: scraper.id,
          script: recorded.script,
          parametersSchema: current.parametersSchema ?? [],
          reason: `healed: ${reason}`.slice(0, 500),
          sampleUrl: run.url,
          sampleData: recorded.records,
          sampleDriver: recorded.driver,
          modelCalls: usage.modelCalls,
          credits,
          markReady: false,
        });
        await recordHealAttempt(tx, { ...attempt, toVersion: saved });
        return saved;
      });
      ctx.logger.info({ scraperId: scraper.id, url: run.url, reason, healed: version !== null, version, credits, ...usage }, 'agentic scraper heal finished');
      if (!recorded.accepted) return { healed: false, reason: recorded.reason, credits };
      if (version === null) return { healed: false, reason: 'the scraper was deleted', credits };
      return { healed: true, version, script: recorded.script, modelCalls: usage.modelCalls, credits };
    },
    { signal },
  );
}
