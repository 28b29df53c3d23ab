import type { Logger } from '../log.ts';
import type { GleanerError } from '../errors.ts';

/** What a handler gets besides its payload. */
export interface JobContext {
  jobId: string;
  /** 0 on the first attempt, then 1, 2, ... on retries. */
  attempt: number;
  /** True when this attempt is the last one the policy allows. */
  lastAttempt: boolean;
  /** Aborted on shutdown past the grace period and on job expiry: handlers must obey it. */
  signal: AbortSignal;
  logger: Logger;
}

export interface JobPolicy {
  /** Retries after the first attempt (default 2). */
  retryLimit?: number;
  /** First retry delay in seconds; doubled per retry with jitter (default 1). */
  retryDelaySeconds?: number;
  retryDelayMaxSeconds?: number;
  /** An attempt running longer than this is aborted and retried (default 900). */
  expireInSeconds?: number;
  /** Completed jobs are deleted after this long (default 1 day). */
  deleteAfterSeconds?: number;
}

/**
 * A job kind: a name, a JSON Schema for its payload (checked when the job is sent), an
 * idempotent handler (jobs are delivered at least once), and its retry/expiry policy.
 */
export interface JobKind<P = unknown> {
  name: string;
  payloadSchema: Record<string, unknown>;
  handler: (payload: P, ctx: JobContext) => Promise<void>;
  /**
   * Called once the job has failed for good: a non-retryable error, the last attempt failing, or
   * the job being lost with its retries spent (its worker died). Must be idempotent.
   */
  onFailure?: (payload: P, error: GleanerError, ctx: Omit<JobContext, 'signal' | 'lastAttempt'>) => Promise<void>;
  policy?: JobPolicy;
  /** Override the worker's per-queue concurrency for this kind (e.g. browser jobs). */
  concurrency?: number;
  batchSize?: number;
  /**
   * Jobs of one group (sent with `group`, e.g. an owner) active at once across every worker, read
   * when workers start; 0 or absent: no cap. A group at its cap is skipped when workers fetch, so
   * other groups' jobs run meanwhile (pg-boss group concurrency).
   */
  groupConcurrency?: () => number;
}

export function defineJob<P>(kind: JobKind<P>): JobKind<P> {
  if (!/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/.test(kind.name)) {
    throw new Error(`job kind name "${kind.name}" must be lowercase words separated by '-' or '.'`);
  }
  return kind;
}
