import { extractionDetails, type ExtractionDetails, type ExtractionMode, type ReadPage } from './extract-details.ts';
import type { ExtractionResult, ExtractTarget } from '../extract/pipeline.ts';
import type { Owner } from '../auth/owners.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { checkHttpUrl, normalizeExtractOptions } from '../schemas/normalize.ts';
import { validationFailed, type ValidationIssue } from '../errors.ts';
import { runExtraction } from '../extract/pipeline.ts';
import { checkProfile, profileField } from '../profiles/index.ts';
import { extractSignedIn } from '../profiles/refresh.ts';
import { refuseBlockedUrls } from '../net/ssrf.ts';
import { recordUsage } from '../usage.ts';
import type { ExtractedRecord } from '../records/attributes.ts';
import type { ExtractOptions } from '../schemas/normalize.ts';
import { withProvenance, type GroundingWarning } from '../trust/provenance.ts';
import { getOwnerSettings } from '../cost/settings.ts';
import { estimateExtraction, type Estimate } from '../cost/estimate.ts';
import { extractionGuard } from '../cost/guard.ts';
import { archiveSourcePages, archiveStore, keepsSnapshots, type SnapshotRef, type SnapshotSource } from '../snapshots/archive.ts';

/** The body of /v1/extract and /v1/parse (docs/api.md). */
export interface ExtractResponse {
  data: ExtractedRecord[];
  message?: string;
  /** Only when asked for (`details: true`): driver, page sizes, what the model saw, tokens, credits. */
  details?: ExtractionDetails;
  /** Grounding policy flag or drop: the values the page does not support. */
  warnings?: GroundingWarning[];
  /** `dry_run: true`: what the extraction would cost; nothing was extracted or charged. */
  dry_run?: true;
  estimate?: Estimate;
  /** `snapshots: true` (or the owner's default): the pages read, kept in the snapshot archive. */
  snapshots?: SnapshotRef[];
}

/** Per-call choices beside the request body. */
export interface ExtractCallOptions {
  /** Add `details` to the response (the `?details=true` Gleaner extension). */
  details?: boolean;
}

function respond(ctx: OperationContext, options: ExtractOptions, pages: PageLog, result: ExtractionResult): ExtractResponse {
  const data = options.provenance ? withProvenance(result.records, result.trust) : result.records;
  const body: ExtractResponse = result.message ? { data, message: result.message } : { data };
  if (pages.details) {
    body.details = extractionDetails(ctx.model, options.mode, pages.read, result);
    pages.kept?.forEach((k, i) => body.details!.pages[i] && (body.details!.pages[i].snapshot = k.hash));
  }
  if (pages.kept) body.snapshots = pages.kept;
  if (result.trust.policy !== 'keep') body.warnings = result.trust.warnings(result.records);
  return body;
}

/** The owner's grounding default, the dry run, the budget guard: what extract and parse do around the pipeline. */
async function prepare(ctx: OperationContext, owner: Owner, options: ExtractOptions, target: ExtractTarget, dryRun: boolean, signal?: AbortSignal) {
  const settings = await getOwnerSettings(ctx.db, owner.id);
  options.grounding ??= settings.grounding_policy ?? 'keep';
  if (dryRun) {
    const estimate = await estimateExtraction(ctx, target, options, signal);
    return { dry: { data: [], dry_run: true, estimate, message: 'Dry run: nothing was extracted, queued or charged.' } as ExtractResponse };
  }
  return { guard: await extractionGuard(ctx, owner.id, options, settings) };
}

/** The grounding outcomes of a finished extraction, counted for /metrics; the count of unsupported values for usage. */
function countGrounding(ctx: OperationContext, operation: string, result: ExtractionResult): number {
  for (const [outcome, n] of Object.entries(result.trust.outcomes(result.records))) ctx.metrics?.groundedValues.inc({ operation, outcome }, n);
  return result.trust.unsupported(result.records);
}

/** /v1/extract and /v1/parse: a body already checked against its schema, the caller's signal, per-call choices. */
type ExtractOperation = (
  ctx: OperationContext,
  owner: Owner,
  body: Record<string, any>,
  signal?: AbortSignal,
  call?: ExtractCallOptions,
) => Promise<ExtractResponse>;

interface PageLog {
  details: boolean;
  read: ReadPage[];
  onPage?: (page: ReadPage) => void;
  /** Whether the pages go to the snapshot archive, and once they went, their documents. */
  keep: boolean;
  kept?: SnapshotRef[];
}

/** The pages an extraction reads, kept (with their HTML) only when details or snapshots are asked for. */
async function pageLog(ctx: OperationContext, owner: Owner, body: Record<string, any>, call: ExtractCallOptions): Promise<PageLog> {
  const keep = await keepsSnapshots(ctx.db, owner.id, body.snapshots, 'extractions');
  const log: PageLog = { details: call.details === true, keep, read: [] };
  if (log.details || keep) log.onPage = (page) => log.read.push(page);
  return log;
}

/** Archives the pages read when the request keeps them (before the call is charged: a failure fails the call). */
async function keepPages(ctx: OperationContext, owner: Owner, source: SnapshotSource, log: PageLog): Promise<void> {
  if (log.keep) log.kept = await archiveSourcePages(archiveStore(ctx), owner.id, source, null, log.read);
}

/** POST /v1/extract: fetch the URL (following pagination when asked) and extract records. */
export const extract: ExtractOperation = async (ctx, owner, body, signal, call = {}) => {
  const issues: ValidationIssue[] = [];
  const url = checkHttpUrl(body.url, ['body', 'url'], issues);
  const options = normalizeExtractOptions(body, ctx.config, url, issues);
  const profile = profileField(body.profile, ['body', 'profile'], issues);
  if (issues.length) throw validationFailed(issues);
  await refuseBlockedUrls(ctx.config.network.allowNetworks, [url!]);
  await checkProfile(ctx, owner.id, profile);
  const target = { url: url! };
  const prep = await prepare(ctx, owner, options, target, body.dry_run === true, signal);
  if (prep.dry) return prep.dry;
  requireModel(ctx); // every extraction reads its first page with the model: refuse before fetching
  const pages = await pageLog(ctx, owner, body, call);
  // A profile refresh reads the pages again: the log keeps the last read's.
  const read = (o: ExtractOptions) => ((pages.read.length = 0), runExtraction(ctx, target, o, signal, pages.onPage, prep.guard));
  const result = await extractSignedIn(ctx, owner.id, profile, url!, options, read, signal);
  await keepPages(ctx, owner, 'extract', pages);
  await recordUsage(ctx.db, {
    ownerId: owner.id,
    operation: 'extract',
    subject: url,
    pages: result.pages.length,
    usage: result.usage,
    credits: result.credits,
    unsupported: countGrounding(ctx, 'extract', result),
  });
  ctx.logger.info(
    { owner: owner.name, url, mode: options.mode, pages: result.pages.length, records: result.records.length, driver: result.driver, ...result.usage },
    'extract done',
  );
  return respond(ctx, options, pages, result);
};

/** POST /v1/parse: extract from HTML or text the caller supplies (no fetching, one page). */
export const parse: ExtractOperation = async (ctx, owner, body, signal, call = {}) => {
  const issues: ValidationIssue[] = [];
  if (typeof body.content !== 'string' || !body.content.trim()) issues.push({ loc: ['body', 'content'], msg: 'Field required', type: 'missing' });
  // An optional base URL makes relative links and images absolute.
  const base = typeof body.url === 'string' && body.url ? checkHttpUrl(body.url, ['body', 'url'], issues) : null;
  const options = normalizeExtractOptions(body, ctx.config, base, issues);
  if (issues.length) throw validationFailed(issues);
  const target = { content: body.content as string, url: base ?? undefined };
  const prep = await prepare(ctx, owner, options, target, body.dry_run === true, signal);
  if (prep.dry) return prep.dry;
  requireModel(ctx);
  const pages = await pageLog(ctx, owner, body, call);
  const result = await runExtraction(ctx, target, options, signal, pages.onPage, prep.guard);
  await keepPages(ctx, owner, 'parse', pages);
  const unsupported = countGrounding(ctx, 'parse', result);
  await recordUsage(ctx.db, { ownerId: owner.id, operation: 'parse', pages: 1, usage: result.usage, credits: result.credits, unsupported });
  return respond(ctx, options, pages, result);
};
