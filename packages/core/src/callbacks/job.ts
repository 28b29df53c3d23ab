/**
 * The `callback.deliver` job kind: at-least-once delivery of a recorded callback, retried by the
 * job queue with exponential backoff, every attempt written to its `callback_deliveries` row.
 */
import { randomUUID } from 'node:crypto';
import { getSigningSecretById } from '../auth/owners.ts';
import type { GleanerConfig } from '../config/types.ts';
import { GleanerError } from '../errors.ts';
import { defineJob, type JobKind } from '../jobs/job-kind.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { Logger } from '../log.ts';
import { createSsrfGuard, type SsrfGuard } from '../net/ssrf.ts';
import type { Queryable } from '../store/db.ts';
import { deliverCallback } from './deliver.ts';
import type { Metrics } from '../metrics/registry.ts';

export const CALLBACK_JOB = 'callback.deliver';

export interface CallbackPayload {
  deliveryId: string;
}

export interface CallbackJobDeps {
  db: Queryable;
  config: Readonly<Pick<GleanerConfig, 'callbacks' | 'network'>>;
  logger: Logger;
  /** Defaults to a guard over `network.allowNetworks` (the same rules as page fetches). */
  guard?: SsrfGuard;
  metrics?: Metrics;
}

export type CallbackStatus = 'pending' | 'delivered' | 'failed';

export interface CallbackDelivery {
  id: string;
  ownerId: string;
  subject: string;
  url: string;
  body: string;
  status: CallbackStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastErrorCode: string | null;
  createdAt: Date;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  nextAttemptAt: Date | null;
}

/**
 * The job queue's retry policy for callbacks. pg-boss waits, before retry k (k = 1, 2, ...),
 * min(retryDelayMax, retryDelay * 2^(k-1) * (1 + random())): with the defaults (10 s, 7200 s cap,
 * 20 attempts) the 19 retries span about a day.
 */
export function callbackPolicy(c: GleanerConfig['callbacks']) {
  return {
    retryLimit: c.maxAttempts - 1,
    retryDelaySeconds: c.retryDelaySeconds,
    retryDelayMaxSeconds: c.retryDelayMaxSeconds,
    // An attempt is bounded by timeoutMs; the margin covers the database work around it.
    expireInSeconds: Math.ceil(c.timeoutMs / 1000) + 30,
  };
}

/** Earliest start of the retry after `attempt` (0-based) under the policy above (jitter not counted). */
function earliestRetrySeconds(c: GleanerConfig['callbacks'], attempt: number): number {
  return Math.min(c.retryDelayMaxSeconds, Math.max(c.retryDelaySeconds, 1) * 2 ** Math.min(15, attempt));
}

/** Builds the `callback.deliver` job kind; register it on the engine's JobQueue. */
export function callbackJobKind(deps: CallbackJobDeps): JobKind<CallbackPayload> {
  const { db, config } = deps;
  const guard = deps.guard ?? createSsrfGuard({ allowNetworks: config.network.allowNetworks });
  const policy = callbackPolicy(config.callbacks);
  return defineJob<CallbackPayload>({
    name: CALLBACK_JOB,
    payloadSchema: {
      type: 'object',
      required: ['deliveryId'],
      additionalProperties: false,
      properties: { deliveryId: { type: 'string', minLength: 1 } },
    },
    policy,
    async handler({ deliveryId }, ctx) {
      const { rows } = await db.query<{ owner_id: string; url: string; body: string; status: CallbackStatus }>(
        'SELECT owner_id, url, body, status FROM callback_deliveries WHERE id = $1',
        [deliveryId],
      );
      const row = rows[0];
      // Gone (owner deleted) or settled by an earlier run of this job: nothing to do (idempotent).
      if (!row || row.status !== 'pending') {
        ctx.logger.debug({ deliveryId, status: row?.status ?? 'missing' }, 'callback already settled');
        return;
      }
      const secret = await getSigningSecretById(db, row.owner_id);
      const attempt = await deliverCallback({
        url: row.url,
        id: deliveryId,
        body: row.body,
        secret,
        timeoutMs: config.callbacks.timeoutMs,
        guard,
        signal: ctx.signal,
      });
      const error = attempt.error;
      const retrying = !!error && error.retryable && !ctx.lastAttempt;
      deps.metrics?.callbacks.inc({ outcome: error ? 'failed' : 'delivered' });
      await db.query(
        `UPDATE callback_deliveries SET
           attempts = attempts + 1, last_status = $2, last_error = $3, last_error_code = $4, last_attempt_at = now(),
           status = CASE WHEN $5 THEN 'delivered' ELSE status END,
           delivered_at = CASE WHEN $5 THEN now() ELSE delivered_at END,
           next_attempt_at = CASE WHEN $6::int IS NULL THEN NULL ELSE now() + make_interval(secs => $6::int) END
         WHERE id = $1`,
        [
          deliveryId,
          attempt.status,
          error?.message ?? null,
          error?.code ?? null,
          attempt.ok,
          retrying ? earliestRetrySeconds(config.callbacks, ctx.attempt) : null,
        ],
      );
      if (!error) {
        ctx.logger.info({ deliveryId, status: attempt.status, attempt: ctx.attempt + 1, ms: attempt.ms }, 'callback delivered');
        return;
      }
      ctx.logger.info({ deliveryId, status: attempt.status, code: error.code, attempt: ctx.attempt + 1, retrying }, 'callback attempt failed');
      throw error;
    },
    async onFailure({ deliveryId }, error) {
      // Also reached when a worker died with the retries spent (JOB_ABORTED from the dead-letter queue).
      await db.query(
        `UPDATE callback_deliveries SET status = 'failed', next_attempt_at = NULL,
           last_error = $2, last_error_code = $3
         WHERE id = $1 AND status = 'pending'`,
        [deliveryId, error.message, error.code],
      );
      deps.metrics?.callbacks.inc({ outcome: 'abandoned' });
      deps.logger.warn({ deliveryId, code: error.code, err: error.message }, 'callback given up');
    },
  });
}

export interface EnqueueCallbackInput {
  ownerId: string;
  url: string;
  /** What it reports on: `task:<id>` or `run:<id>`. */
  subject: string;
  /** The status body, as the subject's GET returns it; serialized once, sent byte-identical. */
  body: unknown;
}

/**
 * Records a callback and enqueues its delivery in the caller's transaction (e.g. the one that
 * finishes the task), so a finished task always has its callback and vice versa.
 * Returns the delivery id, which is also the `webhook-id`.
 */
export async function enqueueCallback(tx: Queryable, jobs: JobQueue, input: EnqueueCallbackInput): Promise<string> {
  const body = JSON.stringify(input.body);
  if (body === undefined) throw new GleanerError('BAD_REQUEST', 'callback body is not JSON-serializable');
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  await tx.query('INSERT INTO callback_deliveries (id, owner_id, subject, url, body) VALUES ($1, $2, $3, $4, $5)', [
    id,
    input.ownerId,
    input.subject,
    input.url,
    body,
  ]);
  await jobs.send<CallbackPayload>(CALLBACK_JOB, { deliveryId: id }, { db: tx });
  return id;
}

/** The owner's deliveries for one subject, oldest first. */
export async function listDeliveries(db: Queryable, ownerId: string, subject: string): Promise<CallbackDelivery[]> {
  const { rows } = await db.query(
    `SELECT id, owner_id, subject, url, body, status, attempts, last_status, last_error, last_error_code,
            created_at, last_attempt_at, delivered_at, next_attempt_at
       FROM callback_deliveries WHERE owner_id = $1 AND subject = $2 ORDER BY created_at, id`,
    [ownerId, subject],
  );
  return rows.map((r) => ({
    id: r.id,
    ownerId: r.owner_id,
    subject: r.subject,
    url: r.url,
    body: r.body,
    status: r.status,
    attempts: r.attempts,
    lastStatus: r.last_status,
    lastError: r.last_error,
    lastErrorCode: r.last_error_code,
    createdAt: r.created_at,
    lastAttemptAt: r.last_attempt_at,
    deliveredAt: r.delivered_at,
    nextAttemptAt: r.next_attempt_at,
  }));
}
