import type { Owner } from '../auth/owners.ts';
import type { OperationContext } from '../context.ts';
import { checkHttpUrl, normalizeExtractOptions } from '../schemas/normalize.ts';
import { validationFailed, type ValidationIssue } from '../errors.ts';
import { runExtraction } from '../extract/pipeline.ts';
import { recordUsage } from '../usage.ts';
import type { ExtractedRecord } from '../records/attributes.ts';

/** The body of /v1/extract and /v1/parse (docs/api.md). */
export interface ExtractResponse {
  data: ExtractedRecord[];
  message?: string;
}

/** POST /v1/extract: fetch the URL (following pagination when asked) and extract records. */
export async function extract(ctx: OperationContext, owner: Owner, body: Record<string, any>, signal?: AbortSignal): Promise<ExtractResponse> {
  const issues: ValidationIssue[] = [];
  const url = checkHttpUrl(body.url, ['body', 'url'], issues);
  const options = normalizeExtractOptions(body, ctx.config, url, issues);
  if (issues.length) throw validationFailed(issues);
  const result = await runExtraction(ctx, { url: url! }, options, signal);
  await recordUsage(ctx.db, {
    ownerId: owner.id,
    operation: 'extract',
    subject: url,
    pages: result.pages.length,
    usage: result.usage,
    credits: result.credits,
  });
  ctx.logger.info(
    { owner: owner.name, url, mode: options.mode, pages: result.pages.length, records: result.records.length, driver: result.driver, ...result.usage },
    'extract done',
  );
  return result.message ? { data: result.records, message: result.message } : { data: result.records };
}

/** POST /v1/parse: extract from HTML or text the caller supplies (no fetching, one page). */
export async function parse(ctx: OperationContext, owner: Owner, body: Record<string, any>, signal?: AbortSignal): Promise<ExtractResponse> {
  const issues: ValidationIssue[] = [];
  if (typeof body.content !== 'string' || !body.content.trim()) issues.push({ loc: ['body', 'content'], msg: 'Field required', type: 'missing' });
  // An optional base URL makes relative links and images absolute.
  const base = typeof body.url === 'string' && body.url ? checkHttpUrl(body.url, ['body', 'url'], issues) : null;
  const options = normalizeExtractOptions(body, ctx.config, base, issues);
  if (issues.length) throw validationFailed(issues);
  const result = await runExtraction(ctx, { content: body.content, url: base ?? undefined }, options, signal);
  await recordUsage(ctx.db, { ownerId: owner.id, operation: 'parse', pages: 1, usage: result.usage, credits: result.credits });
  return result.message ? { data: result.records, message: result.message } : { data: result.records };
}
