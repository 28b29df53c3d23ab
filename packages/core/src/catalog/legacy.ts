/**
 * The deprecated legacy agents interface (spec 2.10, 4.5): an agent is a classic scraper of its owner
 * addressed by name (table legacy_agents); `public/<slug>` addresses a catalog entry, run from its
 * snapshot without creating anything for the caller. Generation and runs go through the same scraper
 * and run operations as the current interface, so a legacy agent is also visible (and runnable) by
 * its template_id.
 */
import { ERROR_CODES, GleanerError, isGleanerError, validationFailed, type ErrorCode, type ValidationIssue } from '../errors.ts';
import type { Owner } from '../auth/owners.ts';
import type { OperationContext } from '../context.ts';
import { checkHttpUrl, normalizeCookieInput, normalizeProxyCountry } from '../schemas/normalize.ts';
import { creditsFor, emptyUsage, recordUsage } from '../usage.ts';
import { scrapeWithRecipe } from '../runs/index.ts';
import type { RunOutcome } from '../runs/operations.ts';
import type { ExtractedRecord } from '../records/attributes.ts';
import type { Queryable } from '../store/db.ts';
import { loadEntry } from './entries.ts';
import { checkRequest } from '../schemas/validate.ts';
import type { GenerateScraperRequest, RunScraperRequest } from '../schemas/run-requests.ts';
import {
  LEGACY_GENERATE_BODY,
  LEGACY_REMOVE_BODY,
  LEGACY_SCRAPE_BODY,
  type LegacyGenerateRequest,
  type LegacyRemoveRequest,
  type LegacyScrapeRequest,
} from '../schemas/legacy-requests.ts';

/** The scraper operations the legacy agents use (engine.scrapers). */
export interface LegacyScraperOps {
  generate(owner: Owner, body: GenerateScraperRequest): Promise<{ template_id: string; status: 'generating' }>;
  remove(owner: Owner, id: string, kind: 'extractor' | 'agentic'): Promise<{ message: string }>;
}

/** The run operation the legacy agents use (engine.runs). */
export interface LegacyRunOps {
  run(owner: Owner, body: RunScraperRequest, opts?: { waitSeconds?: number; signal?: AbortSignal }): Promise<RunOutcome>;
}

/** POST /v1/scrape's answer: the records, or a run still going (polled on the current interface). */
export type LegacyScrapeOutcome = { finished: true; body: { data: ExtractedRecord[] } } | { finished: false; body: { run_id: string; status: 'running' } };

export interface LegacyAgentItem {
  id: string;
  name: string;
  status: string | null;
}

export interface LegacyListResponse {
  agents: { user: LegacyAgentItem[]; public: Array<{ id: string; name: string; title: string }> };
}

export const PUBLIC_PREFIX = 'public/';
const NAME_MAX = 200;

/** The agent name of a request body, or a 422 issue. */
function agentName(body: { name?: unknown }, issues: ValidationIssue[]): string {
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (!name) issues.push({ loc: ['body', 'name'], msg: 'Field required', type: 'missing' });
  else if (name.length > NAME_MAX) issues.push({ loc: ['body', 'name'], msg: `String should have at most ${NAME_MAX} characters`, type: 'string_too_long' });
  return name;
}

function noAgent(name: string): GleanerError {
  return new GleanerError('NOT_FOUND', `no agent named "${name}"; create it with POST /v1/generate (GET /v1/list shows your agents)`);
}

/** Serialises generate/remove of one name of one owner (a re-generate must not create a second scraper). */
async function findAgent(db: Queryable, owner: Owner, name: string): Promise<{ scraperId: string; kind: 'extractor' | 'agentic' } | null> {
  const { rows } = await db.query<{ scraper_id: string; kind: 'extractor' | 'agentic' }>(
    'SELECT a.scraper_id, s.kind FROM legacy_agents a JOIN scrapers s ON s.id = a.scraper_id WHERE a.owner_id = $1 AND a.name = $2',
    [owner.id, name],
  );
  return rows[0] ? { scraperId: rows[0].scraper_id, kind: rows[0].kind } : null;
}

/**
 * The legacy answer has no room for a run's per-URL errors: the one URL's failure becomes the
 * error response, with the code the run recorded (e.g. FETCH_FAILED for a page answering 404).
 */
async function runFailure(db: Queryable, runId: string): Promise<GleanerError> {
  const { rows } = await db.query<{ error: string | null; error_code: string | null }>(
    `SELECT error, error_code FROM run_items WHERE run_id = $1 AND status = 'failed' ORDER BY position LIMIT 1`,
    [runId],
  );
  const code = rows[0]?.error_code;
  const message = rows[0]?.error ?? `run ${runId} failed`;
  return new GleanerError(code && code in ERROR_CODES ? (code as ErrorCode) : 'INTERNAL', message, { details: { run_id: runId } });
}

/** The legacy operations, over the engine's scraper and run operations. */
export function legacyAgents(ctx: OperationContext, deps: { scrapers: LegacyScraperOps; runs: LegacyRunOps }) {
  /** POST /v1/generate: builds (or rebuilds) the classic scraper bound to `name`. */
  async function generate(owner: Owner, input: LegacyGenerateRequest): Promise<{ name: string; status: 'generating' }> {
    const body = checkRequest<LegacyGenerateRequest>(LEGACY_GENERATE_BODY, input); // as the legacy listener checks it
    const issues: ValidationIssue[] = [];
    const name = agentName(body, issues);
    if (name.startsWith(PUBLIC_PREFIX))
      issues.push({ loc: ['body', 'name'], msg: `names starting with "${PUBLIC_PREFIX}" are reserved for public agents`, type: 'value_error' });
    if (issues.length) throw validationFailed(issues);
    const { scrapers } = deps;
    // Only the fields of spec 4.5 go on: the legacy body's own `name` is not a scraper field there.
    const request = { url: body.url, prompt: body.prompt ?? '', attributes: body.attributes, proxy_country: body.proxy_country, cookies: body.cookies };
    // No transaction is held across the scraper operations (they take their own connections): a
    // new scraper is built first and the name bound after; a name bound meanwhile by a concurrent
    // generate wins, and this request rebuilds that scraper instead.
    const existing = await findAgent(ctx.db, owner, name);
    if (existing) {
      await scrapers.generate(owner, { ...request, template_id: existing.scraperId });
      return { name, status: 'generating' };
    }
    // generate validates (422) before it creates anything; the new scraper carries the agent's name.
    const id = (await scrapers.generate(owner, { ...request, name })).template_id;
    const bound = await ctx.db.query('INSERT INTO legacy_agents (owner_id, name, scraper_id) VALUES ($1, $2, $3) ON CONFLICT (owner_id, name) DO NOTHING', [
      owner.id,
      name,
      id,
    ]);
    if (bound.rowCount === 0) {
      await scrapers.remove(owner, id, 'extractor').catch(() => undefined);
      const winner = await findAgent(ctx.db, owner, name);
      if (winner) await scrapers.generate(owner, { ...request, template_id: winner.scraperId });
    }
    return { name, status: 'generating' };
  }

  /** POST /v1/scrape: runs the agent (or a public one) on `url`; `{data: [...]}`. */
  async function scrape(owner: Owner, input: LegacyScrapeRequest, signal?: AbortSignal): Promise<LegacyScrapeOutcome> {
    const body = checkRequest<LegacyScrapeRequest>(LEGACY_SCRAPE_BODY, input);
    const issues: ValidationIssue[] = [];
    const name = agentName(body, issues);
    if (!name.startsWith(PUBLIC_PREFIX)) {
      if (issues.length) throw validationFailed(issues);
      const agent = await findAgent(ctx.db, owner, name);
      if (!agent) throw noAgent(name);
      const run = await deps.runs.run(
        owner,
        { template_id: agent.scraperId, url: body.url, proxy_country: body.proxy_country, cookies: body.cookies },
        { signal },
      );
      if (!run.finished) return run; // still running: {run_id, status}, polled on the current interface
      const result = run.body;
      if ('dry_run' in result) throw new GleanerError('INTERNAL', 'a legacy scrape asked for no estimate but got one');
      if (result.status === 'failed') throw await runFailure(ctx.db, result.run_id);
      // One URL: its records (a list of URLs, which this interface never sends, would give the map's records).
      return { finished: true, body: { data: Array.isArray(result.data) ? result.data : Object.values(result.data ?? {}).flat() } };
    }
    const slug = name.slice(PUBLIC_PREFIX.length);
    const entry = slug ? await loadEntry(ctx.db, slug) : null;
    const url = body.url === undefined || body.url === null ? (entry?.sample_url ?? entry?.snapshot.url) : checkHttpUrl(body.url, ['body', 'url'], issues);
    const proxyCountry = normalizeProxyCountry(body.proxy_country, ctx.config, issues);
    const cookies = normalizeCookieInput(body.cookies, url ?? null, issues);
    if (issues.length) throw validationFailed(issues);
    if (!entry) throw new GleanerError('NOT_FOUND', `no public agent "${name}"; GET /v1/list shows the public agents`);
    const recipe = entry.snapshot.recipe;
    if (!recipe) {
      throw new GleanerError(
        'BAD_REQUEST',
        `public agent "${name}" is an agentic scraper, which the legacy interface cannot run: clone it (POST /v1/scraper-apis/${slug}/clone) and run it with POST /v1/scrapers/run_async`,
      );
    }
    if (!url) throw validationFailed([{ loc: ['body', 'url'], msg: 'Field required', type: 'missing' }]);
    const result = await scrapeWithRecipe(ctx, {
      recipe,
      attributes: entry.snapshot.attributes,
      url,
      preferBrowser: !!entry.snapshot.sample_driver && entry.snapshot.sample_driver !== 'http',
      proxyCountry,
      cookies,
      signal,
    });
    const pages = result.pages.length;
    await recordUsage(ctx.db, {
      ownerId: owner.id,
      operation: 'legacy_scrape',
      subject: name,
      pages,
      usage: emptyUsage(),
      credits: creditsFor(ctx.config, { recipePages: pages }),
    });
    return { finished: true, body: { data: result.records } };
  }

  /** GET /v1/list: the caller's agents and the public ones (catalog entries with a recipe). */
  async function list(owner: Owner): Promise<LegacyListResponse> {
    const user = await ctx.db.query<LegacyAgentItem>(
      `SELECT s.id, a.name, s.status FROM legacy_agents a JOIN scrapers s ON s.id = a.scraper_id
        WHERE a.owner_id = $1 ORDER BY a.created_at, a.name`,
      [owner.id],
    );
    const pub = await ctx.db.query<{ slug: string; title: string }>(
      `SELECT slug, title FROM catalog_entries WHERE jsonb_typeof(snapshot->'recipe') = 'object' ORDER BY title, slug`,
    );
    return { agents: { user: user.rows, public: pub.rows.map((r) => ({ id: r.slug, name: `${PUBLIC_PREFIX}${r.slug}`, title: r.title })) } };
  }

  /** POST /v1/remove: deletes the agent's scraper (which drops the name). */
  async function remove(owner: Owner, input: LegacyRemoveRequest): Promise<{ message: string }> {
    const body = checkRequest<LegacyRemoveRequest>(LEGACY_REMOVE_BODY, input);
    const issues: ValidationIssue[] = [];
    const name = agentName(body, issues);
    if (issues.length) throw validationFailed(issues);
    if (name.startsWith(PUBLIC_PREFIX)) throw new GleanerError('BAD_REQUEST', `public agent "${name}" cannot be removed; it belongs to the public catalog`);
    const agent = await findAgent(ctx.db, owner, name);
    if (!agent) throw noAgent(name);
    // Deleting the scraper drops the name (ON DELETE CASCADE); a concurrent remove makes this one a 404.
    await deps.scrapers.remove(owner, agent.scraperId, agent.kind).catch((err: unknown) => {
      throw isGleanerError(err) && err.code === 'NOT_FOUND' ? noAgent(name) : err;
    });
    return { message: `Agent ${name} removed` };
  }

  return { generate, scrape, list, remove };
}

export type LegacyAgentOperations = ReturnType<typeof legacyAgents>;
