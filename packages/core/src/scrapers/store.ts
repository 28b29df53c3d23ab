/**
 * The scrapers' rows: reading (always with the current recipe), creating, versioning recipes,
 * flagging drift, listing and deleting. Every caller-facing read filters by owner.
 */
import { randomUUID } from 'node:crypto';
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import type { Recipe } from '../recipes/index.ts';
import type { Queryable } from '../store/db.ts';
import type { ParameterSpec, ScraperBuildRequest, ScraperKind, ScraperRecord, ScraperStatus } from './types.ts';

interface ScraperRow {
  id: string;
  owner_id: string;
  kind: ScraperKind;
  name: string;
  mode: string;
  url: string | null;
  status: ScraperRecord['status'];
  error: string | null;
  error_code: string | null;
  attributes: Attribute[];
  prompt: string;
  request: ScraperBuildRequest | null;
  build_id: string | null;
  recipe_version: number | null;
  sample_data: ExtractedRecord[] | null;
  sample_driver: string | null;
  script: unknown | null;
  parameters_schema: ParameterSpec[] | null;
  drift_detected_at: Date | null;
  drift_reason: string | null;
  credits_charged: string | number;
  created_at: Date;
  recipe: Recipe | null;
}

const SELECT = `SELECT s.*, r.recipe FROM scrapers s
  LEFT JOIN scraper_recipes r ON r.scraper_id = s.id AND r.version = s.recipe_version`;

function toRecord(row: ScraperRow): ScraperRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    kind: row.kind,
    name: row.name,
    mode: row.mode,
    url: row.url,
    status: row.status,
    error: row.error,
    attributes: row.attributes ?? [],
    prompt: row.prompt ?? '',
    recipeVersion: row.recipe_version,
    recipe: row.recipe ?? null,
    sampleData: row.sample_data,
    sampleDriver: row.sample_driver,
    script: row.script,
    parametersSchema: row.parameters_schema,
    driftReason: row.drift_reason,
    createdAt: row.created_at.toISOString(),
    errorCode: row.error_code,
    driftDetectedAt: row.drift_detected_at ? row.drift_detected_at.toISOString() : null,
    creditsCharged: Number(row.credits_charged),
    buildId: row.build_id,
    request: row.request,
  };
}

/** Owner-scoped read; null when absent or another owner's (callers answer 404). */
export async function loadScraper(db: Queryable, ownerId: string, id: string): Promise<ScraperRecord | null> {
  const { rows } = await db.query<ScraperRow>(`${SELECT} WHERE s.id = $1 AND s.owner_id = $2`, [id, ownerId]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Read by id alone, for jobs that carry only the id (never for answering a caller). */
export async function loadScraperById(db: Queryable, id: string, opts: { forUpdate?: boolean } = {}): Promise<ScraperRecord | null> {
  const lock = opts.forUpdate ? ' FOR UPDATE OF s' : '';
  const { rows } = await db.query<ScraperRow>(`${SELECT} WHERE s.id = $1${lock}`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** One stored version of a scraper's recipe, or null. */
export async function loadRecipeVersion(db: Queryable, scraperId: string, version: number): Promise<Recipe | null> {
  const { rows } = await db.query<{ recipe: Recipe }>('SELECT recipe FROM scraper_recipes WHERE scraper_id = $1 AND version = $2', [scraperId, version]);
  return rows[0]?.recipe ?? null;
}

export interface InsertScraperInput {
  ownerId: string;
  kind: ScraperKind;
  name?: string;
  url?: string | null;
  mode?: string;
  attributes?: Attribute[];
  prompt?: string;
  status?: ScraperRecord['status'];
  recipe?: Recipe | null;
  sampleData?: ExtractedRecord[] | null;
  sampleDriver?: string | null;
  script?: unknown;
  parametersSchema?: ParameterSpec[] | null;
  /** Why recipe version 1 exists (default 'generated'; e.g. 'cloned from <slug>'). */
  reason?: string;
  /** Extras: the id to use, the build request and the build in progress. */
  id?: string;
  request?: ScraperBuildRequest | null;
  buildId?: string | null;
}

export const UNTITLED = 'Untitled scraper';

/** A readable default name: the sample URL's host and path, else "Untitled scraper". */
export function defaultName(url: string | null | undefined): string {
  if (!url) return UNTITLED;
  try {
    const u = new URL(url);
    const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
    return `${u.host.replace(/^www\./, '')}${path}`.slice(0, 200);
  } catch {
    return UNTITLED;
  }
}

const json = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));

/** Creates a scraper row (and recipe version 1 when `recipe` is given) inside the caller's transaction. */
export async function insertScraper(tx: Queryable, input: InsertScraperInput): Promise<string> {
  const id = input.id ?? randomUUID();
  const hasRecipe = Boolean(input.recipe);
  // An agentic scraper's script is its version 1, as a recipe is a classic scraper's.
  const hasScript = input.kind === 'agentic' && Boolean(input.script);
  await tx.query(
    `INSERT INTO scrapers (id, owner_id, kind, name, mode, url, status, attributes, prompt, request, build_id,
       recipe_version, sample_data, sample_driver, script, parameters_schema)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      id,
      input.ownerId,
      input.kind,
      input.name?.trim() || defaultName(input.url),
      input.mode ?? (input.kind === 'agentic' ? 'agent' : 'code'),
      input.url ?? null,
      input.status ?? (hasRecipe || input.script ? 'ready' : null),
      JSON.stringify(input.attributes ?? []),
      input.prompt ?? '',
      json(input.request),
      input.buildId ?? null,
      hasRecipe || hasScript ? 1 : null,
      json(input.sampleData),
      input.sampleDriver ?? null,
      json(input.script),
      json(input.parametersSchema),
    ],
  );
  if (hasRecipe) {
    await tx.query(`INSERT INTO scraper_recipes (scraper_id, version, recipe, sample_url, sample_data, reason) VALUES ($1, 1, $2, $3, $4, $5)`, [
      id,
      JSON.stringify(input.recipe),
      input.url ?? null,
      json(input.sampleData),
      input.reason ?? 'generated',
    ]);
  }
  if (hasScript) {
    await tx.query(
      `INSERT INTO scraper_scripts (scraper_id, version, script, parameters_schema, sample_url, sample_data, reason) VALUES ($1, 1, $2, $3, $4, $5, $6)`,
      [id, JSON.stringify(input.script), json(input.parametersSchema), input.url ?? null, json(input.sampleData), input.reason ?? 'generated'],
    );
  }
  return id;
}

/**
 * Stores an agentic scraper's script as its next version and makes it current (script, parameters,
 * sample data and driver; drift cleared; credits added), like saveRecipeVersion. A heal during a
 * rebuild (`markReady` false) leaves the rebuild's status alone. Null when the scraper is gone.
 */
export async function saveScriptVersion(
  tx: Queryable,
  input: {
    scraperId: string;
    script: unknown;
    parametersSchema: ParameterSpec[];
    reason: string;
    sampleUrl: string | null;
    sampleData: ExtractedRecord[];
    sampleDriver: string;
    modelCalls: number;
    credits: number;
    markReady: boolean;
  },
): Promise<number | null> {
  if (!(await lockScraper(tx, input.scraperId))) return null;
  const { rows } = await tx.query<{ version: number }>(
    `INSERT INTO scraper_scripts (scraper_id, version, script, parameters_schema, sample_url, sample_data, reason, model_calls)
     SELECT $1, coalesce(max(version), 0) + 1, $2, $3, $4, $5, $6, $7 FROM scraper_scripts WHERE scraper_id = $1
     RETURNING version`,
    [
      input.scraperId,
      JSON.stringify(input.script),
      JSON.stringify(input.parametersSchema),
      input.sampleUrl,
      JSON.stringify(input.sampleData),
      input.reason,
      input.modelCalls,
    ],
  );
  const version = rows[0].version;
  await makeVersionCurrent(tx, input, version, { script: JSON.stringify(input.script), parameters_schema: JSON.stringify(input.parametersSchema) });
  return version;
}

/** Locks the scraper row (concurrent saves number their versions one after the other); false when it is gone. */
async function lockScraper(tx: Queryable, scraperId: string): Promise<boolean> {
  return Boolean((await tx.query('SELECT 1 FROM scrapers WHERE id = $1 FOR UPDATE', [scraperId])).rowCount);
}

/**
 * Makes `version` the scraper's current one: its sample data and driver (and `columns`, e.g. an
 * agentic scraper's script), drift cleared, credits added, the status as statusAfterSave says.
 */
async function makeVersionCurrent(
  tx: Queryable,
  input: { scraperId: string; sampleData: ExtractedRecord[]; sampleDriver: string; credits: number; markReady: boolean },
  version: number,
  columns: Record<string, string> = {},
): Promise<void> {
  const extra = Object.keys(columns).map((c, i) => `${c} = $${i + 6}, `);
  await tx.query(
    `UPDATE scrapers SET recipe_version = $2, sample_data = $3, sample_driver = $4, ${extra.join('')}drift_detected_at = NULL, drift_reason = NULL,
       credits_charged = credits_charged + $5, ${statusAfterSave(input.markReady)}, updated_at = now()
     WHERE id = $1`,
    [input.scraperId, version, JSON.stringify(input.sampleData), input.sampleDriver, input.credits, ...Object.values(columns)],
  );
}

/**
 * The status columns once a new version is current: ready, error cleared — except that a heal
 * during a regeneration (`markReady` false) leaves the regeneration's status and error alone.
 */
function statusAfterSave(markReady: boolean): string {
  const keep = (column: string, otherwise: string): string => (markReady ? otherwise : `CASE WHEN status = 'generating' THEN ${column} ELSE ${otherwise} END`);
  return `status = ${keep('status', `'ready'`)}, error = ${keep('error', 'NULL')}, error_code = ${keep('error_code', 'NULL')}`;
}

/**
 * Stores `recipe` as the scraper's next version and makes it current (sample data and driver,
 * drift cleared, credits added). The scraper row is locked first, so concurrent builds number
 * their versions one after the other. Returns the new version, or null when the scraper is gone.
 */
export async function saveRecipeVersion(
  tx: Queryable,
  input: {
    scraperId: string;
    recipe: Recipe;
    reason: string;
    sampleUrl: string | null;
    sampleData: ExtractedRecord[];
    sampleDriver: string;
    modelCalls: number;
    credits: number;
    markReady: boolean;
  },
): Promise<number | null> {
  if (!(await lockScraper(tx, input.scraperId))) return null;
  const { rows } = await tx.query<{ version: number }>(
    `INSERT INTO scraper_recipes (scraper_id, version, recipe, sample_url, sample_data, reason, model_calls)
     SELECT $1, coalesce(max(version), 0) + 1, $2, $3, $4, $5, $6 FROM scraper_recipes WHERE scraper_id = $1
     RETURNING version`,
    [input.scraperId, JSON.stringify(input.recipe), input.sampleUrl, JSON.stringify(input.sampleData), input.reason, input.modelCalls],
  );
  const version = rows[0].version;
  await makeVersionCurrent(tx, input, version);
  return version;
}

/** Flags layout drift seen by a run (GET shows it; cleared by a successful heal or regeneration). */
export async function markDrift(db: Queryable, scraperId: string, reason: string): Promise<void> {
  await db.query('UPDATE scrapers SET drift_detected_at = now(), drift_reason = $2, updated_at = now() WHERE id = $1', [scraperId, reason.slice(0, 2000)]);
}

export interface ScraperListItem {
  id: string;
  name: string;
  type: ScraperKind;
  status: ScraperStatus | null;
  url: string | null;
  created_at: string | null;
  /** Gleaner's addition: layout drift a run found and no heal or regeneration has fixed yet. */
  drift: { detected_at: string; reason: string | null } | null;
}

/** Spec 2.5 items of one owner, both kinds, newest first. */
export async function listScrapers(db: Queryable, ownerId: string): Promise<ScraperListItem[]> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    kind: ScraperKind;
    status: ScraperStatus | null;
    url: string | null;
    created_at: Date;
    drift_detected_at: Date | null;
    drift_reason: string | null;
  }>('SELECT id, name, kind, status, url, created_at, drift_detected_at, drift_reason FROM scrapers WHERE owner_id = $1 ORDER BY created_at DESC, id DESC', [
    ownerId,
  ]);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    type: r.kind,
    status: r.status,
    url: r.url,
    created_at: r.created_at.toISOString(),
    drift: r.drift_detected_at ? { detected_at: r.drift_detected_at.toISOString(), reason: r.drift_reason } : null,
  }));
}

/**
 * Deletes one scraper of the owner and kind (its recipes and scripts go with it); null when there is
 * none, else the job of the build that was in progress (null when none was).
 */
export async function deleteScraper(db: Queryable, ownerId: string, id: string, kind: ScraperKind): Promise<{ buildJobId: string | null } | null> {
  const { rows } = await db.query<{ build_job_id: string | null; status: string | null }>(
    'DELETE FROM scrapers WHERE id = $1 AND owner_id = $2 AND kind = $3 RETURNING build_job_id, status',
    [id, ownerId, kind],
  );
  if (!rows[0]) return null;
  return { buildJobId: rows[0].status === 'generating' ? rows[0].build_job_id : null };
}
