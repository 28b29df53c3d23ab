import { extractionDetails, type ExtractionDetails, type ExtractionMode, type ReadPage } from './extract-details.ts';
import type { ExtractionResult } from '../extract/pipeline.ts';
import type { Owner } from '../auth/owners.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { checkHttpUrl, normalizeExtractOptions } from '../schemas/normalize.ts';
import { validationFailed, type ValidationIssue } from '../errors.ts';
import { runExtraction } from '../extract/pipeline.ts';
import { refuseBlockedUrls } from '../net/ssrf.ts';
import { recordUsage } from '../usage.ts';
import type { ExtractedRecord } from '../records/attributes.ts';

/** The body of /v1/extract and /v1/parse (docs/api.md). */
export interface ExtractResponse {
  data: ExtractedRecord[];
  message?: string;
  /** Only when asked for (`details: true`): driver, page sizes, what the model saw, tokens, credits. */
  details?: ExtractionDetails;
}

/** Per-call choices beside the request body. */
export interface ExtractCallOptions {
  /** Add `details` to the response (the `?details=true` Gleaner extension). */
  details?: boolean;
}

function respond(ctx: OperationContext, mode: ExtractionMode, read: ReadPage[] | null, result: ExtractionResult): ExtractResponse {
  const body: ExtractResponse = result.message ? { data: result.records, message: result.message } : { data: result.records };
  if (read) body.details = extractionDetails(ctx.model, mode, read, result);
  return body;
}

/** /v1/extract and /v1/parse: a body already checked against its schema, the caller's signal, per-call choices. */
type ExtractOperation = (
  ctx: OperationContext,
  owner: Owner,
  body: Record<string, any>,
  signal?: AbortSignal,
  call?: ExtractCallOptions,
) => Promise<ExtractResponse>;

/** The pages an extraction reads, kept (with their HTML) only when details are asked for. */
function pageLog(call: ExtractCallOptions): { read: ReadPage[] | null; onPage?: (page: ReadPage) => void } {
  if (!call.details) return { read: null };
  const read: ReadPage[] = [];
  return { read, onPage: (page) => read.push(page) };
}

/** POST /v1/extract: fetch the URL (following pagination when asked) and extract records. */
export const extract: ExtractOperation = async (ctx, owner, body, signal, call = {}) => {
  const issues: ValidationIssue[] = [];
  const url = checkHttpUrl(body.url, ['body', 'url'], issues);
  const options = normalizeExtractOptions(body, ctx.config, url, issues);
  if (issues.length) throw validationFailed(issues);
  await refuseBlockedUrls(ctx.config.network.allowNetworks, [url!]);
  requireModel(ctx); // every extraction reads its first page with the model: refuse before fetching
  const pages = pageLog(call);
  const result = await runExtraction(ctx, { url: url! }, options, signal, pages.onPage);
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
  return respond(ctx, options.mode, pages.read, result);
};

/** POST /v1/parse: extract from HTML or text the caller supplies (no fetching, one page). */
export const parse: ExtractOperation = async (ctx, owner, body, signal, call = {}) => {
  const issues: ValidationIssue[] = [];
  if (typeof body.content !== 'string' || !body.content.trim()) issues.push({ loc: ['body', 'content'], msg: 'Field required', type: 'missing' });
  // An optional base URL makes relative links and images absolute.
  const base = typeof body.url === 'string' && body.url ? checkHttpUrl(body.url, ['body', 'url'], issues) : null;
  const options = normalizeExtractOptions(body, ctx.config, base, issues);
  if (issues.length) throw validationFailed(issues);
  requireModel(ctx);
  const pages = pageLog(call);
  const result = await runExtraction(ctx, { content: body.content, url: base ?? undefined }, options, signal, pages.onPage);
  await recordUsage(ctx.db, { ownerId: owner.id, operation: 'parse', pages: 1, usage: result.usage, credits: result.credits });
  return respond(ctx, options.mode, pages.read, result);
};
