// Gleaner's HTTP interface as routers a host Express app mounts (`app.use('/scrape', router)`): the
// same validation, 422 bodies, error mapping, OpenAPI document and docs page as `gleaner serve`.
import express, { type Request, type Router } from 'express';
import { GleanerError, type Engine, type Logger, type Owner } from '@gleaner/core';
import { createApp } from './http/app.ts';
import { apiRoutes } from './routes/index.ts';
import { createLegacyApp } from './legacy/app.ts';

export interface ApiRouterOptions {
  /** Request logs; default the engine's logger. */
  logger?: Logger;
  /**
   * The host app's own authentication: return the name of the Gleaner owner the request acts for
   * (created on first use; rows of one owner are invisible to others), or null to refuse it with
   * 401. Without it, requests authenticate with Gleaner's API keys (X-API-KEY) and bearer tokens.
   */
  authenticate?: (req: Request) => string | null | Promise<string | null>;
  /** Largest JSON body; default server.bodyLimitBytes. */
  bodyLimitBytes?: number;
}

function hostAuth(engine: Engine, resolve: NonNullable<ApiRouterOptions['authenticate']>): (req: Request) => Promise<Owner> {
  return async (req) => {
    const name = await resolve(req);
    if (!name) throw new GleanerError('UNAUTHORIZED', 'this request is not signed in to the application that serves Gleaner');
    return engine.ensureOwner(name);
  };
}

function mounted(app: express.Express): Router {
  const router = express.Router();
  router.use(app);
  return router;
}

/**
 * The API (extract, tasks, scrapers, runs, catalog, utilities), `/openapi.json` and `/docs`, for an
 * engine the caller created, started and stops. Paths are relative to where the router is mounted.
 */
export function createApiRouter(engine: Engine, opts: ApiRouterOptions = {}): Router {
  return mounted(
    createApp({
      engine,
      logger: opts.logger ?? engine.logger,
      routes: apiRoutes(),
      bodyLimitBytes: opts.bodyLimitBytes ?? engine.config.server.bodyLimitBytes,
      authenticate: opts.authenticate ? hostAuth(engine, opts.authenticate) : undefined,
    }),
  );
}

export interface LegacyRouterOptions {
  logger?: Logger;
  bodyLimitBytes?: number;
  /** Where the current API is served (its deprecation links point there), e.g. `https://example.com/scrape`. */
  apiUrl: string;
}

/** The deprecated legacy agents interface (docs/migration.md) for the same engine; API keys only. */
export function createLegacyAgentsRouter(engine: Engine, opts: LegacyRouterOptions): Router {
  return mounted(
    createLegacyApp({
      engine,
      logger: opts.logger ?? engine.logger,
      bodyLimitBytes: opts.bodyLimitBytes ?? engine.config.server.bodyLimitBytes,
      apiUrl: opts.apiUrl,
    }),
  );
}
