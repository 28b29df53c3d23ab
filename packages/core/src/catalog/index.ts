// The public catalog of scraper APIs (spec 2.8, 4.4 items 1-3) and the deprecated legacy agents (spec 2.10, 4.5).
import type { Owner } from '../auth/owners.ts';
import type { OperationContext } from '../context.ts';
import { entryDetail, listEntries, type CatalogDetail, type CatalogListItem } from './entries.ts';
import { publishEntry, unpublishEntry, type PublishInput, type PublishResult } from './publish.ts';
import { cloneEntry, type CloneResult } from './clone.ts';
import { legacyAgents, type LegacyListResponse, type LegacyRunOps, type LegacyScrapeOutcome, type LegacyScraperOps } from './legacy.ts';
import type { LegacyGenerateRequest, LegacyRemoveRequest, LegacyScrapeRequest } from '../schemas/legacy-requests.ts';

export type { CatalogDetail, CatalogListItem, CatalogSnapshot, Faq, ArticleLink } from './entries.ts';
export { assertSlug } from './entries.ts';
export type { PublishInput, PublishResult } from './publish.ts';
export type { CloneResult } from './clone.ts';
export type { LegacyListResponse, LegacyAgentItem, LegacyScraperOps, LegacyRunOps } from './legacy.ts';

export interface CatalogOperations {
  /** GET /v1/scraper-apis: every entry, by title. */
  list(): Promise<CatalogListItem[]>;
  /** GET /v1/scraper-apis/{slug}; NOT_FOUND for an unknown slug. */
  detail(slug: string): Promise<CatalogDetail>;
  /** POST /v1/scraper-apis/{slug}/clone: a new ready scraper of `owner` from the snapshot. */
  clone(owner: Owner, slug: string): Promise<CloneResult>;
  /** `gleaner catalog publish`: a ready scraper (any owner's) as a public entry; re-publishing updates it. */
  publish(input: PublishInput): Promise<PublishResult>;
  /** `gleaner catalog unpublish`: NOT_FOUND for an unknown slug. */
  unpublish(slug: string): Promise<{ slug: string }>;
  /** The legacy agents interface on {agents_url}. */
  legacy: {
    generate(owner: Owner, body: LegacyGenerateRequest): Promise<{ name: string; status: 'generating' }>;
    scrape(owner: Owner, body: LegacyScrapeRequest, signal?: AbortSignal): Promise<LegacyScrapeOutcome>;
    list(owner: Owner): Promise<LegacyListResponse>;
    remove(owner: Owner, body: LegacyRemoveRequest): Promise<{ message: string }>;
  };
}

/** The catalog operations; legacy agents go through the engine's scraper and run operations. */
export function catalogOperations(ctx: OperationContext, deps: { scrapers: LegacyScraperOps; runs: LegacyRunOps }): CatalogOperations {
  const legacy = legacyAgents(ctx, deps);
  return {
    list: () => listEntries(ctx.db),
    detail: (slug) => entryDetail(ctx.db, slug),
    clone: (owner, slug) => cloneEntry(ctx, owner, slug),
    publish: (input) => publishEntry(ctx, input),
    unpublish: (slug) => unpublishEntry(ctx, slug),
    legacy,
  };
}
