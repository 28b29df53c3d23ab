// Turns whatever undici, zlib, DNS or an abort threw into the GleanerError a caller can act on.
import { GleanerError, isGleanerError } from '@gleaner/core/plugin';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME']);

/** The first GleanerError in an error's cause chain (undici and stream pipelines wrap errors). */
function findGleanerError(err: unknown): GleanerError | undefined {
  for (let e = err, depth = 0; e && depth < 8; depth++) {
    if (isGleanerError(e)) return e;
    if (e instanceof AggregateError) {
      const inner = e.errors.map(findGleanerError).find(Boolean);
      if (inner) return inner;
    }
    e = typeof e === 'object' && 'cause' in e ? (e as { cause: unknown }).cause : undefined;
  }
  return undefined;
}

function codeOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 8; depth++) {
    const code = typeof e === 'object' ? (e as { code?: unknown }).code : undefined;
    if (typeof code === 'string') return code;
    e = typeof e === 'object' && 'cause' in e ? (e as { cause: unknown }).cause : undefined;
  }
  return undefined;
}

export interface FetchErrorContext {
  /** The URL being fetched when the error happened. */
  url: string;
  totalMs: number;
  deadline: AbortSignal;
  /** The caller's signals (session, goto). */
  callerSignals: Array<AbortSignal | undefined>;
  viaProxy: boolean;
}

export function toFetchError(err: unknown, ctx: FetchErrorContext): GleanerError {
  const found = findGleanerError(err);
  if (found) return found;
  const aborted = ctx.callerSignals.find((s) => s?.aborted);
  if (aborted) {
    if (isGleanerError(aborted.reason)) return aborted.reason;
    return new GleanerError('FETCH_TIMEOUT', `the fetch of ${ctx.url} was aborted`, { cause: err });
  }
  if (ctx.deadline.aborted) {
    return new GleanerError('FETCH_TIMEOUT', `${ctx.url} did not load within ${ctx.totalMs} ms (fetch.timeoutMs)`, { cause: err });
  }
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code && TIMEOUT_CODES.has(code)) {
    return new GleanerError('FETCH_TIMEOUT', `${ctx.url} timed out (${message})`, { cause: err });
  }
  if (code && DNS_CODES.has(code)) {
    return new GleanerError('FETCH_FAILED', `could not resolve the host of ${ctx.url}`, { cause: err });
  }
  const via = ctx.viaProxy ? ' through the proxy' : '';
  return new GleanerError('FETCH_FAILED', `could not fetch ${ctx.url}${via}: ${message}${code && !message.includes(code) ? ` (${code})` : ''}`, { cause: err });
}
