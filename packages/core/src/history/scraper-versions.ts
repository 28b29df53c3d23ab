/**
 * GET /v1/scrapers/{id}/versions (a Gleaner extension): every recipe (classic scraper) or script
 * (agentic scraper) version the scraper has had, newest first, and its self-heal attempts — when,
 * what drift started them, whether they produced a version or why not. Owner-scoped: another
 * owner's scraper answers 404 like an unknown id.
 */
import { GleanerError } from '../errors.ts';
import type { AgentScript } from '../agent/script.ts';
import type { Recipe } from '../recipes/index.ts';
import type { ParameterSpec, ScraperKind } from '../scrapers/types.ts';
import type { Queryable } from '../store/db.ts';

export interface ScraperVersion {
  version: number;
  /** The version runs use now. */
  current: boolean;
  /** 'generated', 'healed: <drift reason>' or 'cloned from <slug>'. */
  reason: string;
  created_at: string;
  sample_url: string | null;
  sample_data: Array<Record<string, unknown>> | null;
  model_calls: number;
  /** Classic scrapers: the recipe. */
  recipe?: Recipe;
  /** Agentic scrapers: the script and its parameters. */
  script?: AgentScript;
  parameters_schema?: ParameterSpec[] | null;
}

export interface HealRecord {
  at: string;
  /** What the run saw (the drift reason). */
  trigger: string;
  outcome: 'healed' | 'failed';
  /** Why a failed heal failed. */
  detail: string | null;
  from_version: number | null;
  to_version: number | null;
  url: string | null;
  model_calls: number;
  credits: number;
}

export interface ScraperHistory {
  scraper_id: string;
  type: ScraperKind;
  current_version: number | null;
  versions: ScraperVersion[];
  heals: HealRecord[];
}

export async function scraperHistory(db: Queryable, ownerId: string, scraperId: string, opts: { limit: number }): Promise<ScraperHistory> {
  const { rows: found } = await db.query<{ kind: ScraperKind; recipe_version: number | null }>(
    'SELECT kind, recipe_version FROM scrapers WHERE id = $1 AND owner_id = $2',
    [scraperId, ownerId],
  );
  if (!found[0]) throw new GleanerError('NOT_FOUND', `scraper ${scraperId} not found`);
  const { kind, recipe_version: current } = found[0];
  // The two version tables have the same columns but the body (recipe vs script + parameters).
  const versions = await db.query<{
    version: number;
    reason: string;
    created_at: Date;
    sample_url: string | null;
    sample_data: Array<Record<string, unknown>> | null;
    model_calls: number;
    /** The recipe (classic) or the script (agentic). */
    body: unknown;
    parameters_schema: ParameterSpec[] | null;
  }>(
    kind === 'agentic'
      ? `SELECT version, reason, created_at, sample_url, sample_data, model_calls, script AS body, parameters_schema FROM scraper_scripts WHERE scraper_id = $1 ORDER BY version DESC LIMIT $2`
      : `SELECT version, reason, created_at, sample_url, sample_data, model_calls, recipe AS body, NULL AS parameters_schema FROM scraper_recipes WHERE scraper_id = $1 ORDER BY version DESC LIMIT $2`,
    [scraperId, opts.limit],
  );
  const heals = await db.query<Omit<HealRecord, 'at' | 'credits'> & { created_at: Date; credits: string }>(
    `SELECT created_at, trigger, outcome, detail, from_version, to_version, url, model_calls, credits
       FROM scraper_heals WHERE scraper_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [scraperId, opts.limit],
  );
  return {
    scraper_id: scraperId,
    type: kind,
    current_version: current,
    versions: versions.rows.map((v) => ({
      version: v.version,
      current: v.version === current,
      reason: v.reason,
      created_at: v.created_at.toISOString(),
      sample_url: v.sample_url,
      sample_data: v.sample_data,
      model_calls: v.model_calls,
      ...(kind === 'agentic' ? { script: v.body as AgentScript, parameters_schema: v.parameters_schema } : { recipe: v.body as Recipe }),
    })),
    heals: heals.rows.map((h) => ({
      at: h.created_at.toISOString(),
      trigger: h.trigger,
      outcome: h.outcome,
      detail: h.detail,
      from_version: h.from_version,
      to_version: h.to_version,
      url: h.url,
      model_calls: h.model_calls,
      credits: Number(h.credits),
    })),
  };
}
