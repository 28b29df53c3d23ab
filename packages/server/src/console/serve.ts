/**
 * Serves the built console: `/` is its page (revalidated on every load, so a new build shows at
 * once) and `/console/assets/*` its hashed files (cached for a year: a new build has new names).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import { GleanerError, type Logger } from '@gleaner/core';
import { sendError } from '../http/app.ts';
import { CONSOLE_DIST } from './build-paths.ts';

/** The console's icon: a sheaf of grain (a gleaner's), drawn in a few lines rather than shipped as a binary. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2f6f4e"/><g stroke="#f4d35e" stroke-width="2.4" stroke-linecap="round" fill="none"><path d="M16 29V11"/><path d="M16 20c-4-1-6-4-6-8 4 1 6 4 6 8z"/><path d="M16 20c4-1 6-4 6-8-4 1-6 4-6 8z"/><path d="M16 13c-3-1-4-4-3-8 3 1 4 4 3 8z"/><path d="M16 13c3-1 4-4 3-8-3 1-4 4-3 8z"/></g></svg>`;

export function mountConsole(app: Express, logger: Logger, dist = CONSOLE_DIST): void {
  const index = join(dist, 'index.html');
  const icon = (_req: Request, res: Response) => void res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=86400').send(FAVICON_SVG);
  // Browsers ask for /favicon.ico on their own; the page names /favicon.svg.
  app.get('/favicon.svg', icon);
  app.get('/favicon.ico', icon);
  app.use('/console/assets', express.static(join(dist, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: true }));
  app.get('/', (_req: Request, res: Response) => {
    if (!existsSync(index)) {
      sendError(
        res,
        new GleanerError(
          'CONSOLE_NOT_BUILT',
          'the web console is not built: run `make setup` (or `node scripts/build-console.ts`); the API works meanwhile (see /docs)',
        ),
        logger,
      );
      return;
    }
    // No frames from elsewhere, scripts and styles from this origin only.
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: https: http:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(readFileSync(index));
  });
}
