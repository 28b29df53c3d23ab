/**
 * A small client of Gleaner's HTTP API for the scripting commands: they run on any machine and talk
 * to a server over HTTP, so they need neither the database nor the browsers. Errors come back as
 * GleanerErrors carrying the server's code and message, so the CLI prints what the user can act on.
 */
import { ERROR_CODES, GleanerError, type ErrorCode } from '@gleaner/core';

export interface ApiClientOptions {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  server: string;
  apiKey: string;
  /** Per-request timeout; a synchronous extraction can take minutes. */
  timeoutMs?: number;
}

export interface ApiClient {
  readonly server: string;
  call<T = any>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

/** One line for a 422 body's issues: "body.url: must match format ...; body.attributes: ...". */
function describeIssues(detail: unknown): string {
  if (!Array.isArray(detail)) return String(detail);
  return detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')}: ${d.msg}`).join('; ');
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
  let base: URL;
  try {
    base = new URL(opts.server);
  } catch {
    throw new GleanerError('CONFIG_INVALID', `--server ${JSON.stringify(opts.server)} is not a URL (e.g. http://127.0.0.1:8080)`);
  }
  if (!opts.apiKey) {
    throw new GleanerError('UNAUTHORIZED', 'no API key: set GLEANER_API_KEY (create one on the server with `gleaner keys create --owner NAME`)');
  }
  const timeoutMs = opts.timeoutMs ?? 600_000;
  return {
    server: base.origin,
    async call(method, path, body) {
      let res: Response;
      try {
        res = await fetch(new URL(path, base), {
          method,
          headers: { 'X-API-KEY': opts.apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const why = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
        throw new GleanerError('SERVER_UNREACHABLE', `cannot reach the Gleaner server at ${base.origin} (${why}); is it running? (--server / GLEANER_SERVER)`, {
          retryable: true,
        });
      }
      const text = await res.text();
      let parsed: any;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = text;
      }
      if (res.ok) return parsed as never;
      if (res.status === 422) throw new GleanerError('VALIDATION_FAILED', describeIssues(parsed?.detail), { details: parsed?.detail });
      // A newer server may answer a code this client does not know: keep it in the message.
      const known = typeof parsed?.code === 'string' && parsed.code in ERROR_CODES;
      const code: ErrorCode = known ? parsed.code : 'INTERNAL';
      const said = typeof parsed?.detail === 'string' ? parsed.detail : `HTTP ${res.status} from ${method} ${path}`;
      const detail = known || typeof parsed?.code !== 'string' ? said : `${parsed.code}: ${said}`;
      throw new GleanerError(code, detail, { details: { status: res.status } });
    },
  };
}
