/**
 * Catalog entries: the public scraper APIs of spec 2.8 and the snapshot each one carries.
 * Reads here need no owner: the catalog is public.
 */
import { GleanerError } from '../errors.ts';
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import type { Recipe } from '../recipes/index.ts';
import type { Queryable } from '../store/db.ts';

/** A copy of the published scraper, taken at publish time; clones and public scrapes use only this. */
export interface CatalogSnapshot {
  kind: 'extractor' | 'agentic';
  name: string;
  url: string | null;
  mode: string;
  attributes: Attribute[];
  prompt: string;
  recipe: Recipe | null;
  sample_data: ExtractedRecord[] | null;
  sample_driver: string | null;
  script: unknown | null;
  parameters_schema: Array<{ name: string; type: string; description?: string; default?: unknown }> | null;
}

export interface Faq {
  question: string;
  answer: string;
}

export interface ArticleLink {
  url: string;
  title: string;
}

/** GET /v1/scraper-apis item (spec 2.8). */
export interface CatalogListItem {
  slug: string;
  title: string;
  description: string;
  source_domain: string | null;
}

/** GET /v1/scraper-apis/{slug} (spec 2.8). */
export interface CatalogDetail extends CatalogListItem {
  niche: string | null;
  use_case: string | null;
  long_description: string | null;
  value_proposition: string | null;
  sample_url: string | null;
  sample_input: Record<string, unknown> | null;
  sample_output: unknown;
  faqs: Faq[];
  article_links: ArticleLink[];
  input_schema: Array<Record<string, unknown>> | null;
  output_schema: Attribute[] | null;
}

/** A stored entry: the public detail plus what only the service sees. */
export interface CatalogEntry extends CatalogDetail {
  ownerId: string;
  scraperId: string | null;
  snapshot: CatalogSnapshot;
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 100;

/** Throws BAD_REQUEST unless `slug` is URL-safe: lower-case letters, digits and single hyphens. */
export function assertSlug(slug: string): void {
  if (!SLUG.test(slug) || slug.length > SLUG_MAX_LENGTH) {
    throw new GleanerError(
      'BAD_REQUEST',
      `invalid slug "${slug}": use 1-${SLUG_MAX_LENGTH} lower-case letters, digits and single hyphens, starting and ending with a letter or digit (e.g. "hacker-news-front-page")`,
    );
  }
}

const DETAIL_COLUMNS = `slug, title, description, source_domain, niche, use_case, long_description, value_proposition,
  sample_url, sample_input, sample_output, faqs, article_links, input_schema, output_schema`;

interface EntryRow extends CatalogDetail {
  owner_id: string;
  scraper_id: string | null;
  snapshot: CatalogSnapshot;
}

function toDetail(r: CatalogDetail): CatalogDetail {
  return {
    slug: r.slug,
    title: r.title,
    description: r.description,
    source_domain: r.source_domain,
    niche: r.niche,
    use_case: r.use_case,
    long_description: r.long_description,
    value_proposition: r.value_proposition,
    sample_url: r.sample_url,
    sample_input: r.sample_input,
    sample_output: r.sample_output,
    faqs: r.faqs ?? [],
    article_links: r.article_links ?? [],
    input_schema: r.input_schema,
    output_schema: r.output_schema,
  };
}

/** Every entry, by title. */
export async function listEntries(db: Queryable): Promise<CatalogListItem[]> {
  const { rows } = await db.query<CatalogListItem>('SELECT slug, title, description, source_domain FROM catalog_entries ORDER BY title, slug');
  return rows;
}

/** The entry with its snapshot, or null; `forUpdate` locks the row inside the caller's transaction. */
export async function loadEntry(db: Queryable, slug: string, forUpdate = false): Promise<CatalogEntry | null> {
  const { rows } = await db.query<EntryRow>(
    `SELECT ${DETAIL_COLUMNS}, owner_id, scraper_id, snapshot FROM catalog_entries WHERE slug = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [slug],
  );
  const r = rows[0];
  if (!r) return null;
  return { ...toDetail(r), ownerId: r.owner_id, scraperId: r.scraper_id, snapshot: r.snapshot };
}

/** The public detail; NOT_FOUND when no entry has that slug. */
export async function entryDetail(db: Queryable, slug: string): Promise<CatalogDetail> {
  const entry = await loadEntry(db, slug);
  if (!entry) throw notPublished(slug);
  return toDetail(entry);
}

export function notPublished(slug: string): GleanerError {
  return new GleanerError('NOT_FOUND', `no public scraper API with slug "${slug}"; GET /v1/scraper-apis lists them`);
}
