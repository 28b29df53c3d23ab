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

export function mountConsole(app: Express, logger: Logger, dist = CONSOLE_DIST): void {
  const index = join(dist, 'index.html');
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
