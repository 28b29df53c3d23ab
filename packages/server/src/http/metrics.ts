import { timingSafeEqual, createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { GleanerError, type Engine, type Logger } from '@gleaner/core';
import { sendError } from './app.ts';

/**
 * Counts every answered request by method, route pattern and status, and times it. The pattern
 * (`/v1/scrapers/:id`), never the path, labels it: ids would make one series per resource.
 * Requests no route matched are labelled `unmatched`.
 */
export function httpMetrics(engine: Engine) {
  const { httpRequests, httpDuration } = engine.metrics;
  return (req: Request, res: Response, next: NextFunction) => {
    const end = httpDuration.startTimer();
    res.once('finish', () => {
      const route = (req.route?.path as string | undefined) ?? (req.baseUrl || 'unmatched');
      const labels = { method: req.method, route, status: String(res.statusCode) };
      httpRequests.inc(labels);
      end(labels);
    });
    next();
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * GET /metrics in the Prometheus text format, as config metrics.mode says: `disabled` leaves it to
 * the 404 handler, `open` serves anyone, `bearer` wants `Authorization: Bearer <metrics.token>`.
 */
export function metricsEndpoint(engine: Engine, logger: Logger) {
  const { mode, token } = engine.config.metrics;
  const expected = digest(token);
  return async (req: Request, res: Response, next: NextFunction) => {
    if (mode === 'disabled') return next();
    if (mode === 'bearer') {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(req.get('Authorization') ?? '');
      // Hashing first gives equal lengths, so the comparison's time says nothing about the token.
      if (!m || !timingSafeEqual(digest(m[1]), expected)) {
        const msg = 'Missing or invalid metrics token: send "Authorization: Bearer <token>" with the value of GLEANER_METRICS_TOKEN.';
        return sendError(res, new GleanerError('UNAUTHORIZED', msg, { details: { scheme: 'bearer' } }), logger);
      }
    }
    try {
      const { contentType, body } = await engine.metrics.scrape();
      res.status(200).setHeader('Content-Type', contentType).setHeader('Cache-Control', 'no-store').send(body);
    } catch (err) {
      next(err);
    }
  };
}
