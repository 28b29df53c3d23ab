import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import express, { type NextFunction, type Request, type Response } from 'express';
import { pinoHttp } from 'pino-http';
import {
  GleanerError,
  compileSchema,
  toGleanerError,
  toIssues,
  validationFailed,
  type Engine,
  type Logger,
  type Owner,
  type ResultFile,
  type ValidationIssue,
} from '@gleaner/core';
import { STATUS_BY_CODE } from './errors.ts';
import { authenticate } from './auth.ts';
import { inputIssues } from './input-guard.ts';
import type { RouteDef } from './route.ts';
import { httpMetrics, metricsEndpoint } from './metrics.ts';
import { mcpEndpoint } from '../mcp/http.ts';
import { mountConsole } from '../console/serve.ts';

export interface AppOptions {
  engine: Engine;
  logger: Logger;
  routes: RouteDef[];
  bodyLimitBytes: number;
  /** Resolves the caller instead of Gleaner's API keys and tokens (a host app's own auth); throw UNAUTHORIZED to refuse. */
  authenticate?: (req: Request) => Promise<Owner>;
  /** Serve GET /metrics (the API app; not the legacy one, whose port may face other networks). */
  metrics?: boolean;
  /** Serve the MCP streamable HTTP transport at /mcp (the API app; not the legacy one). */
  mcp?: boolean;
  /** Serve the web console at / (the API app). */
  console?: boolean;
}

/** "body.url: Field required; ..." — a 422's issues as one line, for `message`. */
export function issuesText(issues: ValidationIssue[]): string {
  return issues.map((i) => `${Array.isArray(i.loc) ? i.loc.join('.') : 'body'}: ${i.msg}`).join('; ');
}

/**
 * An error body of docs/errors.md: {detail, code} (422: {detail: [...]}), plus `message` — the same
 * text as `detail` (a 422's issues as one line) for clients that read `message` (a Gleaner extension).
 */
export function errorBody(detail: string | ValidationIssue[], code?: string): Record<string, unknown> {
  const message = typeof detail === 'string' ? detail : issuesText(detail);
  return code ? { detail, code, message } : { detail, message };
}

/** Sends the error body of docs/errors.md: 422 {detail: [...]}, else {detail, code}; both with `message`. */
export function sendError(res: Response, err: unknown, logger: Logger): void {
  const e = toGleanerError(err);
  if (e.code === 'VALIDATION_FAILED') {
    // Schema failures and core's cross-field checks alike: a list of {loc, msg, type}.
    const issues: ValidationIssue[] = Array.isArray(e.details) ? e.details : [{ loc: ['body'], msg: e.message, type: 'value_error' }];
    res.status(422).json(errorBody(issues));
    return;
  }
  const status = STATUS_BY_CODE[e.code] ?? 500;
  res.locals.errorCode = e.code; // the request log names it (no stack trace for an expected failure)
  if (status >= 500 && e.code === 'INTERNAL') logger.error({ err }, 'unhandled error');
  else if (status >= 500) logger.warn({ code: e.code, err: e.message }, 'request failed');
  if (e.code === 'UNAUTHORIZED') {
    const bearer = (e.details as { scheme?: string } | undefined)?.scheme === 'bearer';
    res.setHeader('WWW-Authenticate', bearer ? 'Bearer realm="gleaner"' : 'ApiKey realm="gleaner", header="X-API-KEY"');
  }
  if (e.code === 'RATE_LIMITED' || e.code === 'DATABASE_UNAVAILABLE') {
    const seconds = (e.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    res.setHeader('Retry-After', String(typeof seconds === 'number' ? seconds : 5));
  }
  // Never a stack trace: INTERNAL keeps a generic message, the log has the rest.
  const detail = e.code === 'INTERNAL' ? `internal error; quote request id ${res.getHeader('X-Request-Id')} when reporting it` : e.message;
  // A budget refusal says which budget, its limit, what is spent and what the work would cost.
  res.status(status).json(e.code === 'BUDGET_EXCEEDED' && e.details ? { ...errorBody(detail, e.code), budget: e.details } : errorBody(detail, e.code));
}

/**
 * Streams a file as it is produced, waiting for the client to read (backpressure) and stopping
 * when it goes away. An error after the first chunk can only cut the response short.
 */
async function sendFile(res: Response, file: ResultFile): Promise<void> {
  res.status(200).type(file.contentType).setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
  const iterator = file.chunks[Symbol.asyncIterator]();
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (res.destroyed) return;
      if (!res.write(next.value)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
    res.end();
  } catch (err) {
    if (!res.headersSent) throw err;
    res.destroy(err as Error);
  } finally {
    await iterator.return?.();
  }
}

function mount(app: express.Express, route: RouteDef, opts: AppOptions): void {
  const validators = {
    body: route.body ? compileSchema(route.body, 'body') : null,
    params: route.params ? compileSchema(route.params, 'path') : null,
    query: route.query ? compileSchema(route.query, 'query') : null,
  };
  const handler = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const owner = route.auth === 'none' ? null : opts.authenticate ? await opts.authenticate(req) : await authenticate(opts.engine, req, route.auth);
      if (owner) await opts.engine.limits.countRequest(owner);
      const issues: ValidationIssue[] = [];
      const params = { ...req.params };
      const query = { ...(req.query as Record<string, unknown>) };
      let body = req.body;
      // Before the schemas: a NUL, a lone surrogate or a 5,000-level document is refused as such.
      const guarded = [...inputIssues(params, 'path'), ...inputIssues(query, 'query'), ...inputIssues(body, 'body')];
      if (guarded.length) throw validationFailed(guarded);
      if (validators.params && !validators.params(params)) issues.push(...toIssues(validators.params.errors, 'path'));
      if (validators.query && !validators.query(query)) issues.push(...toIssues(validators.query.errors, 'query'));
      if (validators.body) {
        if (body === undefined) body = {}; // no body at all: report the missing fields
        if (!validators.body(body)) issues.push(...toIssues(validators.body.errors, 'body'));
      }
      if (issues.length) throw validationFailed(issues);
      if (route.startsJob && owner) await opts.engine.limits.checkJobs(owner);
      const result = await route.handler({ engine: opts.engine, owner, req, res }, { body, params, query });
      for (const [k, v] of Object.entries(result.headers ?? {})) res.setHeader(k, v);
      if (result.file) {
        await sendFile(res, result.file);
      } else if (result.bytes) {
        res
          .status(result.status ?? 200)
          .type(result.bytes.contentType)
          .send(result.bytes.data);
      } else if (result.html !== undefined) {
        res
          .status(result.status ?? 200)
          .type('html')
          .send(result.html);
      } else if (result.text !== undefined) {
        res
          .status(result.status ?? 200)
          .type(result.text.contentType)
          .send(result.text.body);
      } else if (result.body === undefined) {
        res.status(result.status ?? 204).end();
      } else {
        res.status(result.status ?? 200).json(result.body);
      }
    } catch (err) {
      next(err);
    }
  };
  for (const path of [route.path, ...(route.aliases ?? [])]) app[route.method](path, handler);
}

/**
 * The 4xx status of an error raised before a route ran (body-parser, the router's parameter
 * decoding), or 0. Such errors carry `status` and, from http-errors, `expose`; a zlib error
 * wrapped by body-parser has no `type`, which is why `type` alone is not the test.
 */
function clientErrorStatus(err: unknown): number {
  if (err instanceof GleanerError || !err || typeof err !== 'object') return 0;
  const status = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 0;
}

function clientErrorMessage(err: unknown, req: Request): string {
  const e = err as { message?: string; type?: string; code?: string };
  const message = e.message ?? 'bad request';
  if (/^Failed to decode param/.test(message)) {
    return `${message.replace(/^Failed/, 'failed')}: the path holds malformed percent-encoding (a "%" must be followed by two hex digits of valid UTF-8)`;
  }
  const encoding = req.get('Content-Encoding');
  if (encoding && !e.type) return `the request body could not be decompressed (Content-Encoding: ${encoding}): ${message}`;
  return message;
}

export function createApp(opts: AppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.locals.routes = opts.routes;
  app.use((req, res, next) => {
    const incoming = req.get('X-Request-Id');
    const id = incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    (req as Request & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
    next();
  });
  app.use(httpMetrics(opts.engine));
  app.use(
    pinoHttp({
      logger: opts.logger,
      genReqId: (req) => (req as unknown as { id: string }).id,
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'warn' : 'info'),
      // An answered error is logged by its code instead of pino-http's made-up Error and stack: a 503
      // when the model is unreachable is an outcome, not a crash; a bug (INTERNAL) has its real stack
      // on its own 'unhandled error' line (sendError).
      customErrorObject: (_req, res, err, fields) => {
        const code = (res as Response).locals?.errorCode as string | undefined;
        if (!code || !/^failed with status code/.test(err.message)) return fields;
        const { err: _dropped, ...rest } = fields as Record<string, unknown>;
        return { ...rest, code };
      },
      customErrorMessage: (_req, res) => {
        const code = (res as Response).locals?.errorCode as string | undefined;
        return code ? `request failed: ${code}` : 'request errored';
      },
      serializers: {
        req: (req) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  // Any content type is read as JSON: some clients omit or mislabel it.
  app.use(express.json({ limit: opts.bodyLimitBytes, type: () => true, strict: false }));
  if (opts.metrics) app.get('/metrics', metricsEndpoint(opts.engine, opts.logger));
  if (opts.mcp) app.all('/mcp', mcpEndpoint(opts.engine, opts.logger));
  if (opts.console) mountConsole(app, opts.logger);
  for (const route of opts.routes) mount(app, route, opts);

  app.use((req: Request, res: Response) => {
    res.status(404).json(errorBody(`no endpoint ${req.method} ${req.path}`, 'NOT_FOUND'));
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as { type?: string; status?: number; message?: string; body?: unknown };
    if (e?.type === 'entity.too.large') {
      sendError(
        res,
        new GleanerError(
          'PAYLOAD_TOO_LARGE',
          `request body is larger than the limit of ${opts.bodyLimitBytes} bytes (server.bodyLimitBytes / GLEANER_BODY_LIMIT_BYTES)`,
        ),
        opts.logger,
      );
      return;
    }
    if (e?.type === 'entity.parse.failed') {
      sendError(res, validationFailed([{ loc: ['body'], msg: `JSON decode error: ${e.message}`, type: 'json_invalid' }]), opts.logger);
      return;
    }
    const status = clientErrorStatus(err);
    if (status) {
      res.status(status).json(errorBody(clientErrorMessage(err, _req), 'BAD_REQUEST'));
      return;
    }
    sendError(res, err, opts.logger);
  });
  return app;
}
