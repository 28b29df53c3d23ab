/**
 * POST /v1/scraper-apis/{slug}/clone: the published snapshot becomes a new, ready scraper of the
 * caller. The clone is a copy: later re-publishing or unpublishing does not touch it.
 */
import type { Owner } from '../auth/owners.ts';
import type { OperationContext } from '../context.ts';
import { insertScraper } from '../scrapers/index.ts';
import { loadEntry, notPublished } from './entries.ts';

export interface CloneResult {
  template_id: string;
  type: 'extractor' | 'agentic';
  name: string;
}

export async function cloneEntry(ctx: OperationContext, owner: Owner, slug: string): Promise<CloneResult> {
  const entry = await loadEntry(ctx.db, slug);
  if (!entry) throw notPublished(slug);
  const s = entry.snapshot;
  const id = await ctx.db.tx((tx) =>
    insertScraper(tx, {
      ownerId: owner.id,
      kind: s.kind,
      name: s.name,
      url: s.url,
      mode: s.mode,
      attributes: s.attributes,
      prompt: s.prompt,
      status: 'ready',
      recipe: s.recipe,
      sampleData: s.sample_data,
      sampleDriver: s.sample_driver,
      script: s.script,
      parametersSchema: s.parameters_schema,
      reason: `cloned from public scraper API ${slug}`,
    }),
  );
  ctx.logger.info({ slug, scraperId: id, ownerId: owner.id }, 'catalog entry cloned');
  return { template_id: id, type: s.kind, name: s.name };
}
