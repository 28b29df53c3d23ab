// The legacy agents app: the same request handling as the API (validation, 422 bodies, API keys,
// errors) over the legacy routes, with every response marked deprecated (RFC 9745 / RFC 8594 links).
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Engine, Logger } from '@gleaner/core';
import { createApp } from '../http/app.ts';
import { legacyRoutes } from './routes.ts';

/** When the legacy interface was deprecated (RFC 9745 `Deprecation: @<epoch seconds>`). */
export const DEPRECATED_SINCE = new Date('2025-01-01T00:00:00Z');

/** The current endpoint replacing each legacy one (docs/migration.md has the whole mapping). */
const SUCCESSORS: Record<string, string> = {
  'POST /v1/generate': '/v1/extractor/generate',
  'POST /v1/scrape': '/v1/scrapers/run',
  'GET /v1/list': '/v1/scrapers',
};

export interface LegacyAppOptions {
  engine: Engine;
  logger: Logger;
  bodyLimitBytes: number;
  /** Base URL of the current API, for the Link headers; default: the request's host on `apiPort`. */
  apiUrl?: string;
  /** The current API's port; default server.port. */
  apiPort?: number;
}

export function createLegacyApp(opts: LegacyAppOptions): express.Express {
  const outer = express();
  outer.disable('x-powered-by');
  outer.set('etag', false);
  const deprecation = `@${Math.floor(DEPRECATED_SINCE.getTime() / 1000)}`;
  outer.use((req: Request, res: Response, next: NextFunction) => {
    const base = (opts.apiUrl ?? `${req.protocol}://${req.hostname}:${opts.apiPort ?? opts.engine.config.server.port}`).replace(/\/+$/, '');
    const successor = SUCCESSORS[`${req.method} ${req.path}`];
    const links = [`<${base}/docs>; rel="deprecation"; type="text/html"`];
    if (successor) links.unshift(`<${base}${successor}>; rel="successor-version"`);
    res.setHeader('Deprecation', deprecation);
    res.setHeader('Link', links.join(', '));
    next();
  });
  outer.use(createApp({ engine: opts.engine, logger: opts.logger, routes: legacyRoutes(), bodyLimitBytes: opts.bodyLimitBytes }));
  return outer;
}
