/**
 * Publishing a ready scraper as a public catalog entry (`gleaner catalog publish`), and removing it.
 *
 * Re-publishing a slug its owner already published updates the entry: the snapshot and the fields
 * derived from the scraper (source_domain, sample_output, input_schema, output_schema) are taken
 * again; descriptive fields given this time replace the stored ones, omitted ones are kept. A slug
 * published by another owner is a CONFLICT.
 */
import { isDeepStrictEqual } from 'node:util';
import { GleanerError } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import { loadScraper, type ScraperRecord } from '../scrapers/index.ts';
import type { Queryable } from '../store/db.ts';
import { assertSlug, loadEntry, notPublished, type ArticleLink, type CatalogEntry, type CatalogSnapshot, type Faq } from './entries.ts';

/** What `gleaner catalog publish` passes; undefined optional fields keep a re-published entry's values. */
export interface PublishInput {
  scraperId: string;
  slug: string;
  title: string;
  description: string;
  niche?: string | null;
  useCase?: string | null;
  longDescription?: string | null;
  valueProposition?: string | null;
  /** Default: the scraper's own URL (the page it was built on). */
  sampleUrl?: string | null;
  /** Default: `{url: sample_url}` (plus the parameter values the build ran with, or the defaults). */
  sampleInput?: Record<string, unknown> | null;
  faqs?: Faq[];
  articleLinks?: ArticleLink[];
}

export interface PublishResult {
  slug: string;
  /** false when an existing entry of the same owner was updated. */
  created: boolean;
  scraperId: string;
  title: string;
}

function text(value: string | null | undefined, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  const v = value.trim();
  if (v.length > max) throw new GleanerError('BAD_REQUEST', `${field} is longer than ${max} characters`);
  return v || null;
}

/** A descriptive field: omitted keeps the previous value, empty clears it. */
function optional(given: string | null | undefined, previous: string | null | undefined, field: string, max: number): string | null {
  return given === undefined ? (previous ?? null) : text(given, field, max);
}

function httpUrl(value: string, field: string): string {
  try {
    const u = new URL(value.trim());
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.href;
  } catch {
    /* reported below */
  }
  throw new GleanerError('BAD_REQUEST', `${field} "${value}" is not an absolute http(s) URL`);
}

function checkInput(input: PublishInput): void {
  assertSlug(input.slug);
  if (!text(input.title, 'title', 200)) throw new GleanerError('BAD_REQUEST', 'title must not be empty');
  if (!text(input.description, 'description', 2_000)) throw new GleanerError('BAD_REQUEST', 'description must not be empty');
  for (const f of input.faqs ?? []) {
    if (!f.question?.trim() || !f.answer?.trim()) throw new GleanerError('BAD_REQUEST', 'each FAQ needs a question and an answer ("Question|Answer")');
  }
  for (const a of input.articleLinks ?? []) {
    httpUrl(a.url, 'article link');
    if (!a.title?.trim()) throw new GleanerError('BAD_REQUEST', `article link ${a.url} needs a title ("URL|Title")`);
  }
}

export function snapshotOf(s: ScraperRecord): CatalogSnapshot {
  return {
    kind: s.kind,
    name: s.name,
    url: s.url,
    mode: s.mode,
    attributes: s.attributes,
    prompt: s.prompt,
    recipe: s.recipe,
    sample_data: s.sampleData,
    sample_driver: s.sampleDriver,
    script: s.script ?? null,
    parameters_schema: s.parametersSchema ?? null,
  };
}

function sourceDomain(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

/**
 * `{url: sample_url}`, plus for a scraper with parameters the values its build ran with (an agentic
 * script records them: defaults, the sample URL for the URL-typed one), else the defaults.
 */
function defaultSampleInput(snapshot: Pick<CatalogSnapshot, 'parameters_schema' | 'script'>, sampleUrl: string | null): Record<string, unknown> | null {
  const input: Record<string, unknown> = {};
  if (sampleUrl) input.url = sampleUrl;
  const parameters = snapshot.parameters_schema ?? [];
  const built = (snapshot.script as { parameters?: Record<string, unknown> } | null)?.parameters ?? {};
  const values = Object.fromEntries(
    parameters.flatMap((p) => (built[p.name] !== undefined ? [[p.name, built[p.name]]] : p.default !== undefined ? [[p.name, p.default]] : [])),
  );
  if (Object.keys(values).length) input.parameters = values;
  return Object.keys(input).length ? input : null;
}

/** Given: that; omitted: the previous entry's when it was given explicitly, else derived again. */
function sampleInput(
  given: Record<string, unknown> | null | undefined,
  prev: CatalogEntry | null,
  s: ScraperRecord,
  sampleUrl: string | null,
): Record<string, unknown> | null {
  if (given !== undefined) return given;
  if (prev && !isDeepStrictEqual(prev.sample_input, defaultSampleInput(prev.snapshot, prev.sample_url))) return prev.sample_input;
  return defaultSampleInput(snapshotOf(s), sampleUrl);
}

async function ownerOf(db: Queryable, scraperId: string): Promise<string | null> {
  const { rows } = await db.query<{ owner_id: string }>('SELECT owner_id FROM scrapers WHERE id = $1', [scraperId]);
  return rows[0]?.owner_id ?? null;
}

/** Publishes (or re-publishes) a ready scraper under `slug`. An operator action: any owner's scraper. */
export async function publishEntry(ctx: OperationContext, input: PublishInput): Promise<PublishResult> {
  checkInput(input);
  const ownerId = await ownerOf(ctx.db, input.scraperId);
  const scraper = ownerId ? await loadScraper(ctx.db, ownerId, input.scraperId) : null;
  if (!ownerId || !scraper) throw new GleanerError('NOT_FOUND', `no scraper with id ${input.scraperId}`);
  if (scraper.status !== 'ready' || (!scraper.recipe && !scraper.script)) {
    const state = scraper.status === null ? 'never generated' : scraper.status === 'failed' ? `failed: ${scraper.error ?? 'build failed'}` : scraper.status;
    throw new GleanerError('SCRAPER_NOT_READY', `scraper ${scraper.id} is not ready (${state}); only a ready scraper can be published`);
  }
  const snapshot = snapshotOf(scraper);
  try {
    return await ctx.db.tx(async (tx) => {
      const prev = await loadEntry(tx, input.slug, true);
      if (prev && prev.ownerId !== ownerId) {
        throw new GleanerError('CONFLICT', `slug "${input.slug}" is already published by another owner; choose another slug`);
      }
      const keep = <T>(given: T | undefined, previous: T): T => (given === undefined ? previous : given);
      const sampleUrl =
        input.sampleUrl === undefined ? (prev ? prev.sample_url : scraper.url) : input.sampleUrl ? httpUrl(input.sampleUrl, 'sample URL') : null;
      const values = [
        input.slug,
        ownerId,
        scraper.id,
        JSON.stringify(snapshot),
        text(input.title, 'title', 200),
        text(input.description, 'description', 2_000),
        sourceDomain(sampleUrl ?? scraper.url),
        optional(input.niche, prev?.niche, 'niche', 200),
        optional(input.useCase, prev?.use_case, 'use case', 500),
        optional(input.longDescription, prev?.long_description, 'long description', 20_000),
        optional(input.valueProposition, prev?.value_proposition, 'value proposition', 2_000),
        sampleUrl,
        JSON.stringify(sampleInput(input.sampleInput, prev, scraper, sampleUrl)),
        JSON.stringify(scraper.sampleData ?? null),
        JSON.stringify(
          keep(
            input.faqs?.map((f) => ({ question: f.question.trim(), answer: f.answer.trim() })),
            prev?.faqs ?? [],
          ),
        ),
        JSON.stringify(
          keep(
            input.articleLinks?.map((a) => ({ url: httpUrl(a.url, 'article link'), title: a.title.trim() })),
            prev?.article_links ?? [],
          ),
        ),
        JSON.stringify(scraper.parametersSchema?.length ? scraper.parametersSchema : null),
        JSON.stringify(scraper.attributes.length ? scraper.attributes : null),
      ];
      await tx.query(
        `INSERT INTO catalog_entries (slug, owner_id, scraper_id, snapshot, title, description, source_domain, niche, use_case,
           long_description, value_proposition, sample_url, sample_input, sample_output, faqs, article_links, input_schema, output_schema)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
         ON CONFLICT (slug) DO UPDATE SET scraper_id = EXCLUDED.scraper_id, snapshot = EXCLUDED.snapshot, title = EXCLUDED.title,
           description = EXCLUDED.description, source_domain = EXCLUDED.source_domain, niche = EXCLUDED.niche, use_case = EXCLUDED.use_case,
           long_description = EXCLUDED.long_description, value_proposition = EXCLUDED.value_proposition, sample_url = EXCLUDED.sample_url,
           sample_input = EXCLUDED.sample_input, sample_output = EXCLUDED.sample_output, faqs = EXCLUDED.faqs,
           article_links = EXCLUDED.article_links, input_schema = EXCLUDED.input_schema, output_schema = EXCLUDED.output_schema,
           updated_at = now()`,
        values,
      );
      return { slug: input.slug, created: !prev, scraperId: scraper.id, title: input.title.trim() };
    });
  } catch (err) {
    // Two first publications of one slug at once: the loser's insert hits the primary key.
    if ((err as { code?: string }).code === '23505') {
      throw new GleanerError('CONFLICT', `slug "${input.slug}" was just published by another request; try again`);
    }
    throw err;
  }
}

/** Removes the entry (existing clones stay: they are their owners' scrapers). */
export async function unpublishEntry(ctx: OperationContext, slug: string): Promise<{ slug: string }> {
  const { rowCount } = await ctx.db.query('DELETE FROM catalog_entries WHERE slug = $1', [slug]);
  if (!rowCount) throw notPublished(slug);
  return { slug };
}
