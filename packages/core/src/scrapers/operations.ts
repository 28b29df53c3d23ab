/**
 * The scraper operations of spec 4.1 items 6-9, 4.2 items 4-7 and 4.3 item 1: create an empty
 * scraper, start a classic or agentic scraper's build, read, delete (stopping a build) and list. Another owner's id and the other
 * kind's id answer 404 like an unknown id.
 */
import { checkStartDomain, normalizeAllowedDomains } from '../agent/domains.ts';
import { randomUUID } from 'node:crypto';
import type { Owner } from '../auth/owners.ts';
import { GleanerError, validationFailed, type ValidationIssue } from '../errors.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { refuseBlockedUrls } from '../net/ssrf.ts';
import { checkHttpUrl, normalizeExtractOptions } from '../schemas/normalize.ts';
import type { Cookie } from '../net/cookies.ts';
import { estimateAgentTask, estimateBuild, type DryRunBody, type Estimate } from '../cost/estimate.ts';
import { checkBudgets } from '../cost/budgets.ts';
import { checkRequest } from '../schemas/validate.ts';
import { AGENT_GENERATE_BODY, GENERATE_BODY, type GenerateAgenticScraperRequest, type GenerateScraperRequest } from '../schemas/run-requests.ts';
import { stopSchedules } from '../schedules/operations.ts';
import { normalizeSecretsInput } from '../secrets/values.ts';
import { seal, secretsKey } from '../secrets/vault.ts';
import { checkProfile, profileField } from '../profiles/index.ts';
import { AGENTIC_BUILD_JOB } from './agentic-build-job.ts';
import { cancelBuild } from './build-watch.ts';
import { SCRAPER_GENERATE_JOB } from './generate-job.ts';
import { UNTITLED, defaultName, deleteScraper, insertScraper, listScrapers, loadScraper, type ScraperListItem } from './store.ts';
import type { AgenticBody, ExtractorBody, ScraperBuildRequest, ScraperKind, ScraperRecord } from './types.ts';

export interface ScraperOperations {
  /** POST /v1/extractor/new, /v1/agent/new: an empty scraper (status null). */
  create(owner: Owner, input: { kind: ScraperKind; name?: string }): Promise<{ template_id: string }>;
  /**
   * POST /v1/extractor/generate (kind extractor, the default) and /v1/agent/generate (kind agentic):
   * validates (422), creates the scraper when template_id is absent, 404 for unknown/other owner's/wrong-kind template_id; 202 body.
   */
  generate(owner: Owner, body: GenerateScraperRequest, kind?: 'extractor'): Promise<{ template_id: string; status: 'generating' }>;
  generate(owner: Owner, body: GenerateAgenticScraperRequest, kind: 'agentic'): Promise<{ template_id: string; status: 'generating' }>;
  /** `dry_run: true` on generate (a Gleaner extension): what the build would cost; nothing is created or queued. */
  estimateGenerate(owner: Owner, body: GenerateScraperRequest | GenerateAgenticScraperRequest, kind?: ScraperKind): Promise<DryRunBody>;
  /** Spec 2.3 / 2.4 (+ error when failed); 404 for the wrong kind. */
  get(owner: Owner, id: string, kind: ScraperKind): Promise<ExtractorBody | AgenticBody>;
  /** {"message": "Scraper <id> deleted"}, after stopping a build in progress; 404 for the wrong kind. */
  remove(owner: Owner, id: string, kind: ScraperKind): Promise<{ message: string }>;
  /** Spec 2.5 items of both kinds, newest first. */
  list(owner: Owner): Promise<ScraperListItem[]>;
}

function notFound(id: string, kind: ScraperKind): GleanerError {
  return new GleanerError('NOT_FOUND', `${kind === 'agentic' ? 'agentic' : 'classic (extractor)'} scraper ${id} not found`);
}

async function loadKind(ctx: OperationContext, owner: Owner, id: string, kind: ScraperKind): Promise<ScraperRecord> {
  const s = await loadScraper(ctx.db, owner.id, id);
  if (!s || s.kind !== kind) throw notFound(id, kind);
  return s;
}

/** Spec 2.3 (classic) with the extra fields of docs/api.md ("Scrapers"). */
export function extractorBody(s: ScraperRecord): ExtractorBody {
  return {
    template_id: s.id,
    type: 'extractor',
    name: s.name,
    mode: s.mode,
    url: s.url,
    status: s.status,
    ...(s.status === 'failed' ? { error: s.error ?? 'the build failed' } : {}),
    attributes: s.attributes,
    prompt: s.prompt,
    recipe_version: s.recipeVersion,
    recipe: s.recipe,
    sample_data: s.sampleData,
    credits_charged: s.creditsCharged,
    drift: s.driftDetectedAt ? { detected_at: s.driftDetectedAt, reason: s.driftReason } : null,
    created_at: s.createdAt,
  };
}

/** Spec 2.4 (agentic): parameters_schema only when the scraper has one. */
export function agenticBody(s: ScraperRecord): AgenticBody {
  return {
    template_id: s.id,
    type: 'agentic',
    status: s.status,
    name: s.name,
    url: s.url,
    ...(s.status === 'failed' ? { error: s.error ?? 'the build failed' } : {}),
    sample_data: s.sampleData,
    ...(s.parametersSchema?.length ? { parameters_schema: s.parametersSchema } : {}),
    // Gleaner extension: what the last build was asked, so a client (the console) can rebuild it.
    prompt: s.prompt,
    attributes: s.attributes,
    credits_charged: s.creditsCharged,
    created_at: s.createdAt,
  };
}

interface GenerateInput {
  templateId: string | null;
  name: string | null;
  url: string | null;
  request: ScraperBuildRequest;
  attributes: ScraperRecord['attributes'];
  prompt: string;
}

/** `max_credits` / `max_tokens` of a generate body, kept with the build's request (absent when not given). */
function buildBudget(body: { max_credits?: number | null; max_tokens?: number | null }): Pick<ScraperBuildRequest, 'maxCredits' | 'maxTokens'> {
  return {
    ...(typeof body.max_credits === 'number' ? { maxCredits: body.max_credits } : {}),
    ...(typeof body.max_tokens === 'number' ? { maxTokens: body.max_tokens } : {}),
  };
}

/** What a build would cost at least (`figures`) and at most (`max`): the dry run's answer, and a budgeted build's check. */
async function estimateInput(ctx: OperationContext, input: GenerateInput, kind: ScraperKind, signal?: AbortSignal): Promise<Estimate> {
  const options = {
    attributes: input.attributes,
    prompt: input.prompt,
    mode: 'standard' as const,
    enablePagination: false,
    maxPages: 1,
    proxyCountry: input.request.proxyCountry,
    cookies: input.request.cookies as Cookie[],
    source: 'api',
  };
  if (kind !== 'agentic')
    return estimateBuild(ctx, input.request.content ? { content: input.request.content, url: input.url ?? undefined } : { url: input.url! }, options, signal);
  const maxTokens = Math.min(ctx.config.agent.maxTokens, input.request.maxTokens ?? Infinity);
  const estimate = await estimateAgentTask(ctx, { url: input.url!, prompt: input.prompt, attributes: input.attributes, maxTokens }, signal);
  // The recording is an agent run; the build adds its price and the replay costs no model call.
  const build = ctx.config.credits.scraperBuild;
  estimate.credits = Math.round((estimate.credits + build) * 10_000) / 10_000;
  if (estimate.max) estimate.max.credits = Math.round((estimate.max.credits + build) * 10_000) / 10_000;
  estimate.basis = `an agent recording (${estimate.basis}), plus the build price`;
  return estimate;
}

/** The body of POST /v1/agent/generate in normal form (url and prompt required), or 422. */
function normalizeAgentGenerate(ctx: OperationContext, body: GenerateAgenticScraperRequest): GenerateInput {
  const issues: ValidationIssue[] = [];
  let url: string | null = null;
  if (body.url === undefined || body.url === null || body.url === '')
    issues.push({ loc: ['body', 'url'], msg: 'Field required: the page the agent starts from', type: 'missing' });
  else url = checkHttpUrl(body.url, ['body', 'url'], issues);
  if (typeof body.prompt !== 'string' || !body.prompt.trim())
    issues.push({
      loc: ['body', 'prompt'],
      msg: 'Field required: what the agent should do and extract (inputs may be declared as parameters)',
      type: 'missing',
    });
  // Agentic scrapers take no proxy_country or cookies (spec 4.2 item 5).
  const options = normalizeExtractOptions({ attributes: body.attributes, prompt: body.prompt }, ctx.config, url, issues);
  const allowedDomains = normalizeAllowedDomains(body.allowed_domains, ['body', 'allowed_domains'], issues);
  checkStartDomain(url, allowedDomains, issues);
  const secrets = normalizeSecretsInput(body.secrets, ['body', 'secrets'], issues);
  const profile = profileField(body.profile, ['body', 'profile'], issues);
  const saveProfile = profileField(body.save_profile, ['body', 'save_profile'], issues);
  if (issues.length) throw validationFailed(issues);
  return {
    templateId: typeof body.template_id === 'string' && body.template_id.trim() ? body.template_id.trim() : null,
    name: typeof body.name === 'string' && body.name.trim() ? body.name.trim().slice(0, 200) : null,
    url,
    request: {
      url,
      content: null,
      proxyCountry: null,
      cookies: [],
      ...(allowedDomains ? { allowedDomains } : {}),
      // Encrypted before anything is stored: the value never reaches a column in plain text.
      ...(secrets.length ? { secrets: seal(ctx.config, secrets, 'secret parameters') } : {}),
      ...(profile ? { profile } : {}),
      ...(saveProfile ? { saveProfile } : {}),
      ...buildBudget(body),
    },
    attributes: options.attributes,
    prompt: options.prompt,
  };
}

/** The body of POST /v1/extractor/generate in normal form, or 422 with one issue per problem. */
function normalizeGenerate(ctx: OperationContext, body: GenerateScraperRequest): GenerateInput {
  const issues: ValidationIssue[] = [];
  const content = typeof body.content === 'string' && body.content.trim() ? body.content : null;
  const hasUrl = body.url !== undefined && body.url !== null && body.url !== '';
  let url: string | null = null;
  if (hasUrl) url = checkHttpUrl(body.url, ['body', 'url'], issues);
  else if (!content) issues.push({ loc: ['body', 'url'], msg: 'Give url (the sample page) or content (its HTML or text)', type: 'missing' });
  const options = normalizeExtractOptions(
    { attributes: body.attributes, prompt: body.prompt, proxy_country: body.proxy_country, cookies: body.cookies },
    ctx.config,
    url,
    issues,
  );
  const templateId = typeof body.template_id === 'string' && body.template_id.trim() ? body.template_id.trim() : null;
  if (issues.length) throw validationFailed(issues);
  return {
    templateId,
    name: typeof body.name === 'string' && body.name.trim() ? body.name.trim().slice(0, 200) : null,
    url,
    request: { url, content, proxyCountry: options.proxyCountry, cookies: options.cookies, ...buildBudget(body) },
    attributes: options.attributes,
    prompt: options.prompt,
  };
}

export function scraperOperations(ctx: OperationContext): ScraperOperations {
  return {
    async estimateGenerate(_owner, body, kind = 'extractor') {
      const input =
        kind === 'agentic'
          ? normalizeAgentGenerate(ctx, checkRequest<GenerateAgenticScraperRequest>(AGENT_GENERATE_BODY, body))
          : normalizeGenerate(ctx, checkRequest<GenerateScraperRequest>(GENERATE_BODY, body));
      requireModel(ctx);
      const estimate = await estimateInput(ctx, input, kind);
      return { dry_run: true, estimate, message: 'Dry run: nothing was created, queued or charged.' };
    },

    async create(owner, input) {
      const id = await insertScraper(ctx.db, { ownerId: owner.id, kind: input.kind, name: input.name });
      return { template_id: id };
    },

    async generate(owner: Owner, body: GenerateScraperRequest | GenerateAgenticScraperRequest, kind: ScraperKind = 'extractor') {
      // The body is checked as the HTTP API checks it (same 422 issues), then the cross-field rules.
      const input =
        kind === 'agentic'
          ? normalizeAgentGenerate(ctx, checkRequest<GenerateAgenticScraperRequest>(AGENT_GENERATE_BODY, body))
          : normalizeGenerate(ctx, checkRequest<GenerateScraperRequest>(GENERATE_BODY, body));
      // A blocked URL or no model: answered now rather than failed in the background.
      if (input.url && input.request.content === null) await refuseBlockedUrls(ctx.config.network.allowNetworks, [input.url]);
      requireModel(ctx);
      // An unknown profile (or no key to read it) is refused now.
      await checkProfile(ctx, owner.id, input.request.profile);
      if (input.request.saveProfile) secretsKey(ctx.config, 'profiles');
      // An owner budget already used up refuses the build before anything is created; with a
      // request budget, the build's least cost (the dry run's figures) must fit it and the owner's.
      const budget = { maxCredits: input.request.maxCredits, maxTokens: input.request.maxTokens };
      let need = { credits: 0, tokens: 0 };
      if (budget.maxCredits !== undefined || budget.maxTokens !== undefined) {
        const least = await estimateInput(ctx, input, kind);
        need = { credits: least.credits, tokens: least.input_tokens + least.output_tokens };
      }
      await checkBudgets(ctx, owner.id, budget, need, kind === 'agentic' ? 'this agentic scraper build' : 'this scraper build');
      const buildId = randomUUID();
      const id = await ctx.db.tx(async (tx) => {
        let scraperId: string;
        if (input.templateId) {
          // Regeneration: status goes back to generating; runs keep using the last accepted recipe (script) meanwhile.
          // A rebuild without `secrets` keeps the stored ones.
          const { rows } = await tx.query<{ id: string }>(
            `UPDATE scrapers SET status = 'generating', error = NULL, error_code = NULL, attributes = $4, prompt = $5,
               request = CASE WHEN $6::jsonb ? 'secrets' OR request->'secrets' IS NULL THEN $6::jsonb ELSE $6::jsonb || jsonb_build_object('secrets', request->'secrets') END,
               build_id = $7, url = coalesce($8, url), name = coalesce($9, CASE WHEN name = $10 AND $8::text IS NOT NULL THEN $11 ELSE name END),
               updated_at = now()
             WHERE id = $1 AND owner_id = $2 AND kind = $3 RETURNING id`,
            [
              input.templateId,
              owner.id,
              kind,
              JSON.stringify(input.attributes),
              input.prompt,
              JSON.stringify(input.request),
              buildId,
              input.url,
              input.name,
              UNTITLED,
              defaultName(input.url),
            ],
          );
          if (!rows[0]) throw notFound(input.templateId, kind);
          scraperId = rows[0].id;
        } else {
          scraperId = await insertScraper(tx, {
            ownerId: owner.id,
            kind,
            name: input.name ?? undefined,
            url: input.url,
            attributes: input.attributes,
            prompt: input.prompt,
            status: 'generating',
            request: input.request,
            buildId,
          });
        }
        const jobId = await ctx.jobs.send(kind === 'agentic' ? AGENTIC_BUILD_JOB : SCRAPER_GENERATE_JOB, { scraperId, buildId }, { db: tx });
        await tx.query('UPDATE scrapers SET build_job_id = $2 WHERE id = $1', [scraperId, jobId]);
        return scraperId;
      });
      ctx.logger.info(
        { owner: owner.name, scraperId: id, kind, regenerate: Boolean(input.templateId), url: input.url, content: input.request.content !== null },
        'scraper build queued',
      );
      return { template_id: id, status: 'generating' };
    },

    async get(owner, id, kind) {
      const s = await loadKind(ctx, owner, id, kind);
      return kind === 'extractor' ? extractorBody(s) : agenticBody(s);
    },

    async remove(owner, id, kind) {
      // A classic build still running finds the row gone and changes nothing; an agentic one is
      // stopped by its build watch (agent, browser, model call). A queued build never starts.
      const deleted = await ctx.db.tx(async (tx) => {
        const row = await deleteScraper(tx, owner.id, id, kind);
        if (row?.buildJobId) await cancelBuild(ctx, tx, id);
        if (row) await stopSchedules(ctx, tx, { scraperId: id }, `its scraper ${id} was deleted`);
        return row;
      });
      if (!deleted) throw notFound(id, kind);
      if (deleted.buildJobId) {
        await ctx.jobs.boss.cancel(kind === 'agentic' ? AGENTIC_BUILD_JOB : SCRAPER_GENERATE_JOB, deleted.buildJobId).catch((err: Error) => {
          ctx.logger.warn(
            { scraperId: id, jobId: deleted.buildJobId, err: err.message },
            'could not cancel the build job of a deleted scraper (it stops by itself)',
          );
        });
      }
      ctx.logger.info({ owner: owner.name, scraperId: id, kind, buildStopped: Boolean(deleted.buildJobId) }, 'scraper deleted');
      return { message: `Scraper ${id} deleted` };
    },

    list: (owner) => listScrapers(ctx.db, owner.id),
  };
}
