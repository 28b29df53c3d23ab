/**
 * The background build of an agentic scraper (job kind `scraper.agent-build`): parameters named by
 * the prompt -> the agent browses the sample URL -> a script -> one replay without the model that
 * must reproduce the agent's records -> a new script version and status `ready`, or `failed` with
 * an `error` saying what differed. Like the classic build, the job carries its build id and changes
 * nothing once the scraper is deleted or rebuilt; a deletion also aborts it at once (the agent's
 * model call and browser session included), through the scraper's build watch.
 */
import { isGleanerError } from '../errors.ts';
import { identifyParameters } from '../agent/script-parameters.ts';
import type { OperationContext } from '../context.ts';
import { addUsage, creditsFor, emptyUsage, recordUsage, type ModelUsage } from '../usage.ts';
import type { ScraperBuildRequest } from './types.ts';
import { defineJob } from '../jobs/job-kind.ts';
import type { Queryable } from '../store/db.ts';
import { recordScript, type RecordResult } from './agentic-record.ts';
import { watchBuild } from './build-watch.ts';
import { BUILD_PAYLOAD_SCHEMA, failBuild, type GeneratePayload } from './generate-job.ts';
import { loadScraperById, saveScriptVersion } from './store.ts';
import { loadProfile, saveProfile } from '../profiles/index.ts';
import { storedSecrets, withSecretParameters } from './secret-parameters.ts';

export const AGENTIC_BUILD_JOB = 'scraper.agent-build';

async function stillCurrent(tx: Queryable, p: GeneratePayload): Promise<boolean> {
  const s = await loadScraperById(tx, p.scraperId, { forUpdate: true });
  return Boolean(s && s.buildId === p.buildId && s.status === 'generating');
}

/**
 * The agent's token budget in a build with `max_tokens` / `max_credits`: what is left of them after
 * the parameter call (credits count when credits.per1kModelTokens prices tokens, after the build
 * price), cut to agent.maxTokens; undefined without a request budget.
 */
function agentTokens(c: OperationContext, req: ScraperBuildRequest | null, spent: ModelUsage): { maxTokens: number; by: string } | undefined {
  if (!req || (req.maxTokens === undefined && req.maxCredits === undefined)) return undefined;
  const used = spent.inputTokens + spent.outputTokens;
  const bounds: Array<[number, string]> = [[c.config.agent.maxTokens, 'agent.maxTokens']];
  if (req.maxTokens !== undefined) bounds.push([req.maxTokens - used, `the request's max_tokens, ${req.maxTokens}, less ${used} spent naming the parameters`]);
  const per1k = c.config.credits.per1kModelTokens;
  if (req.maxCredits !== undefined && per1k > 0)
    bounds.push([
      Math.floor(((req.maxCredits - c.config.credits.scraperBuild) / per1k) * 1000) - used,
      `what the request's max_credits, ${req.maxCredits}, leaves after the build price`,
    ]);
  const [maxTokens, by] = bounds.reduce((a, b) => (b[0] < a[0] ? b : a));
  return { maxTokens: Math.max(0, maxTokens), by };
}

export function agenticBuildJob(ctx: () => OperationContext) {
  return defineJob<GeneratePayload>({
    name: AGENTIC_BUILD_JOB,
    payloadSchema: BUILD_PAYLOAD_SCHEMA,
    // An agent run takes minutes (agent.timeoutMs) and is not worth repeating more than once.
    policy: { retryLimit: 1, retryDelaySeconds: 5, expireInSeconds: 1800 },
    handler: async (payload, job) => {
      const c = ctx();
      const scraper = await loadScraperById(c.db, payload.scraperId);
      if (!scraper || scraper.kind !== 'agentic' || scraper.buildId !== payload.buildId || scraper.status !== 'generating' || !scraper.url) {
        job.logger.info({ scraperId: payload.scraperId }, 'stale agentic scraper build skipped');
        return;
      }
      const url = scraper.url;
      const watch = await watchBuild(c, payload, job.signal);
      const usage = emptyUsage();
      let recorded: RecordResult | null = null;
      let parameters: Awaited<ReturnType<typeof identifyParameters>> | null = null;
      try {
        parameters = await identifyParameters(c, { prompt: scraper.prompt, url, signal: watch.signal });
        addUsage(usage, parameters.usage);
        // Secret parameters: given with the build (sealed in its request), typed through placeholders only.
        const secrets = storedSecrets(c, scraper.request);
        parameters = withSecretParameters(parameters, secrets);
        const profile = scraper.request?.profile ? await loadProfile(c, scraper.ownerId, scraper.request.profile) : null;
        const tokenBudget = agentTokens(c, scraper.request, usage);
        recorded = await recordScript(c, {
          ...(tokenBudget ? { tokenBudget } : {}),
          url,
          prompt: scraper.prompt,
          attributes: scraper.attributes,
          values: parameters.values,
          signal: watch.signal,
          allowedDomains: scraper.request?.allowedDomains,
          cookies: profile?.cookies,
          localStorage: profile?.localStorage,
          keepState: Boolean(scraper.request?.saveProfile),
        });
        addUsage(usage, recorded.usage);
      } catch (err) {
        if (!watch.cancelled()) throw err;
      } finally {
        watch.release();
      }
      if (watch.cancelled() || !recorded || !parameters) {
        // Deleted or superseded mid-build: the agent stopped, nothing is saved; the tokens spent are still recorded.
        await recordUsage(c.db, {
          ownerId: scraper.ownerId,
          operation: 'scraper_build',
          subject: `scraper:${scraper.id}`,
          pages: 0,
          usage,
          credits: creditsFor(c.config, { usage }),
        });
        job.logger.info({ scraperId: scraper.id, ...usage }, 'agentic scraper build stopped: the scraper was deleted or rebuilt');
        return;
      }
      const accepted = recorded.accepted;
      const credits = creditsFor(c.config, { builds: accepted ? 1 : 0, usage });
      let outcome = 'stale';
      await c.db.tx(async (tx) => {
        await recordUsage(tx, { ownerId: scraper.ownerId, operation: 'scraper_build', subject: `scraper:${scraper.id}`, pages: 1, usage, credits });
        if (!(await stillCurrent(tx, payload))) return;
        if (!recorded.accepted && recorded.budget) {
          await failBuild(tx, payload, `Agentic scraper build stopped at its budget: ${recorded.reason}`, 'BUDGET_EXCEEDED', credits);
          outcome = 'budget';
          return;
        }
        if (!recorded.accepted) {
          await failBuild(tx, payload, `Agentic scraper build failed: ${recorded.reason}`, 'SCRAPER_BUILD_FAILED', credits);
          outcome = 'rejected';
          return;
        }
        await saveScriptVersion(tx, {
          scraperId: scraper.id,
          script: recorded.script,
          parametersSchema: parameters.schema,
          reason: 'generated',
          sampleUrl: url,
          sampleData: recorded.records,
          sampleDriver: recorded.driver,
          modelCalls: usage.modelCalls,
          credits,
          markReady: true,
        });
        // The replay's browser state becomes the profile; a run that finds it expired replays this scraper.
        if (scraper.request?.saveProfile && recorded.cookies)
          await saveProfile(
            c,
            tx,
            scraper.ownerId,
            scraper.request.saveProfile,
            { cookies: recorded.cookies, localStorage: recorded.localStorage ?? {} },
            {
              source: 'agentic_scraper',
              scraperId: scraper.id,
            },
          );
        outcome = 'ready';
      });
      job.logger.info(
        {
          scraperId: scraper.id,
          url,
          outcome,
          parameters: parameters.schema.length,
          steps: recorded.accepted ? recorded.script.steps.length : undefined,
          credits,
          ...usage,
        },
        'agentic scraper build finished',
      );
    },
    onFailure: async (payload, error) => {
      const c = ctx();
      const message =
        isGleanerError(error) && error.code === 'JOB_ABORTED' ? 'the build was interrupted (the worker stopped); generate it again' : error.message;
      await c.db.tx((tx) => failBuild(tx, payload, `Agentic scraper build failed: ${message}`, error.code));
    },
  });
}
