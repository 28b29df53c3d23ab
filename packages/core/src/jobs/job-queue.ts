import { PgBoss } from 'pg-boss';
import type { Job, JobResult, Db } from 'pg-boss';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { GleanerError, toGleanerError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Queryable } from '../store/db.ts';
import type { JobKind } from './job-kind.ts';
import { secondsSince, type Metrics } from '../metrics/registry.ts';

export interface JobQueueOptions {
  url: string;
  schema: string;
  poolMax: number;
  logger: Logger;
  pollingSeconds: number;
  batchSize: number;
  concurrency: number;
  heartbeatSeconds: number;
  superviseSeconds: number;
  /** How often a worker's scheduler looks for due schedules (pg-boss cronMonitorIntervalSeconds, 1-45). */
  cronSeconds?: number;
  metrics?: Metrics;
}

export interface SendOptions {
  /** Send inside this transaction: the job exists only if the transaction commits. */
  db?: Queryable;
  /** Job id (uuid), for idempotent sends. */
  id?: string;
  startAfterSeconds?: number;
  singletonKey?: string;
}

const DEAD_SUFFIX = '__dead';
const ajv = new Ajv({ allErrors: true, strict: false });

/**
 * The job layer over pg-boss 12: registered kinds get a queue (LISTEN/NOTIFY on, heartbeats on,
 * a dead-letter queue when they have onFailure), payloads are validated when sent, and workers
 * fetch in batches with burst fetching so a backlog drains without waiting for polls.
 */
export class JobQueue {
  readonly boss: PgBoss;
  readonly #opts: JobQueueOptions;
  /** pg-boss's scheduler (its cron pass), run by workers only: see work(). */
  #scheduler: PgBoss | null = null;
  readonly #kinds = new Map<string, { kind: JobKind<any>; validate: ValidateFunction }>();
  #started = false;
  #working = false;
  readonly #active = new Map<string, AbortController>();

  constructor(opts: JobQueueOptions) {
    this.#opts = opts;
    this.boss = new PgBoss({
      connectionString: opts.url,
      schema: opts.schema,
      max: opts.poolMax,
      application_name: 'gleaner-jobs',
      useListenNotify: true,
      superviseIntervalSeconds: opts.superviseSeconds,
      monitorIntervalSeconds: opts.superviseSeconds,
      openTelemetry: { enabled: false },
      // Schedules fire from workers (work() starts the scheduler): a process that only serves the API
      // sends nothing, so a firing due while every worker is down is caught up by the first worker
      // back (the schedules' `missed: 'once'`), never by a process that cannot run it.
      schedule: false,
    } as ConstructorParameters<typeof PgBoss>[0]);
    this.boss.on('error', (err: Error) => opts.logger.warn({ err: err.message }, 'job queue error'));
    this.boss.on('warning', (w: unknown) => opts.logger.debug({ warning: w }, 'job queue warning'));
  }

  register(...kinds: JobKind<any>[]): this {
    for (const kind of kinds) {
      if (this.#kinds.has(kind.name)) throw new Error(`job kind ${kind.name} registered twice`);
      this.#kinds.set(kind.name, { kind, validate: ajv.compile(kind.payloadSchema) });
    }
    return this;
  }

  async start(): Promise<void> {
    if (this.#started) return;
    try {
      await this.boss.start();
      for (const { kind } of this.#kinds.values()) await this.#createQueue(kind);
    } catch (err) {
      throw new GleanerError('DATABASE_UNAVAILABLE', `job queue could not start: ${(err as Error).message}`, { cause: err });
    }
    this.#started = true;
  }

  async #createQueue(kind: JobKind<any>): Promise<void> {
    const p = kind.policy ?? {};
    const common = { notify: true, deleteAfterSeconds: p.deleteAfterSeconds ?? 86_400 };
    if (kind.onFailure) await this.boss.createQueue(kind.name + DEAD_SUFFIX, { ...common, retryLimit: 5, retryDelay: 5, retryBackoff: true });
    const options = {
      ...common,
      retryLimit: p.retryLimit ?? 2,
      retryDelay: p.retryDelaySeconds ?? 1,
      retryBackoff: true,
      ...(p.retryDelayMaxSeconds ? { retryDelayMax: p.retryDelayMaxSeconds } : {}),
      expireInSeconds: p.expireInSeconds ?? 900,
      heartbeatSeconds: this.#opts.heartbeatSeconds,
      ...(kind.onFailure ? { deadLetter: kind.name + DEAD_SUFFIX } : {}),
    };
    const existing = await this.boss.getQueue(kind.name);
    if (existing) await this.boss.updateQueue(kind.name, options);
    else await this.boss.createQueue(kind.name, options);
  }

  /** Validates the payload against its kind and enqueues it. Returns the job id. */
  async send<P>(kindName: string, payload: P, opts: SendOptions = {}): Promise<string> {
    const entry = this.#kinds.get(kindName);
    if (!entry) throw new Error(`unknown job kind ${kindName}`);
    if (!entry.validate(payload)) {
      const why = ajv.errorsText(entry.validate.errors, { dataVar: 'payload' });
      throw new GleanerError('JOB_PAYLOAD_INVALID', `job ${kindName}: ${why}`);
    }
    const options: Record<string, unknown> = {};
    if (opts.id) options.id = opts.id;
    if (opts.startAfterSeconds) options.startAfter = opts.startAfterSeconds;
    if (opts.singletonKey) options.singletonKey = opts.singletonKey;
    if (opts.db) {
      const tx = opts.db;
      options.db = { executeSql: (text: string, values?: unknown[]) => tx.query(text, values) } satisfies Db;
    }
    try {
      const id = await this.boss.send(kindName, payload as object, options);
      if (!id && !opts.id) throw new Error('job was not created');
      return id ?? opts.id!;
    } catch (err) {
      if (err instanceof GleanerError) throw err;
      throw new GleanerError('DATABASE_UNAVAILABLE', `could not enqueue ${kindName}: ${(err as Error).message}`, { cause: err });
    }
  }

  /**
   * Validates every payload and enqueues them all in one statement (one round trip however many;
   * e.g. the jobs of a 100-URL run inside the transaction that creates it). `group` tags every job
   * (see JobKind.groupConcurrency); `priority(i)` orders the i-th among waiting jobs (higher first,
   * then older first).
   */
  async sendMany<P>(
    kindName: string,
    payloads: P[],
    opts: Pick<SendOptions, 'db'> & { group?: string; priority?: (index: number) => number } = {},
  ): Promise<void> {
    const entry = this.#kinds.get(kindName);
    if (!entry) throw new Error(`unknown job kind ${kindName}`);
    for (const payload of payloads) {
      if (!entry.validate(payload)) {
        throw new GleanerError('JOB_PAYLOAD_INVALID', `job ${kindName}: ${ajv.errorsText(entry.validate.errors, { dataVar: 'payload' })}`);
      }
    }
    if (!payloads.length) return;
    const tx = opts.db;
    const options = tx ? { db: { executeSql: (text: string, values?: unknown[]) => tx.query(text, values) } satisfies Db } : {};
    try {
      await this.boss.insert(
        kindName,
        payloads.map((data, i) => ({
          data: data as object,
          ...(opts.group ? { group: { id: opts.group } } : {}),
          ...(opts.priority ? { priority: opts.priority(i) } : {}),
        })),
        options,
      );
    } catch (err) {
      throw new GleanerError('DATABASE_UNAVAILABLE', `could not enqueue ${payloads.length} ${kindName} jobs: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Starts workers for every registered kind (and their dead-letter queues). */
  async work(): Promise<void> {
    if (this.#working) return;
    await this.start();
    this.#working = true;
    const o = this.#opts;
    for (const { kind } of this.#kinds.values()) {
      const batchSize = kind.batchSize ?? o.batchSize;
      const perGroup = kind.groupConcurrency?.() ?? 0;
      const common = {
        pollingIntervalSeconds: o.pollingSeconds,
        notifyPollingIntervalSeconds: Math.max(o.pollingSeconds, 2),
        burstWhenBatchFull: batchSize > 1,
        localConcurrency: kind.concurrency ?? o.concurrency,
        perJobResults: true as const,
      };
      const groups = perGroup > 0 ? { groupConcurrency: perGroup } : {};
      await this.boss.work(kind.name, { ...common, ...groups, batchSize }, (jobs: Job<any>[]) => this.#runBatch(kind, jobs));
      if (kind.onFailure) {
        await this.boss.work(kind.name + DEAD_SUFFIX, { ...common, batchSize: 1, localConcurrency: 1 }, (jobs: Job<any>[]) => this.#runDead(kind, jobs));
      }
    }
    await this.#startScheduler();
  }

  /**
   * pg-boss's timekeeper on a second, small instance (schedule on, no maintenance): every
   * cronSeconds one worker in the deployment wins the cron claim and sends each due occurrence as
   * a job filed under a one-minute singleton slot, so several workers never send one occurrence twice.
   */
  async #startScheduler(): Promise<void> {
    const o = this.#opts;
    const scheduler = new PgBoss({
      connectionString: o.url,
      schema: o.schema,
      max: 2,
      application_name: 'gleaner-scheduler',
      schedule: true,
      supervise: false,
      migrate: false,
      cronMonitorIntervalSeconds: o.cronSeconds ?? 30,
      cronWorkerIntervalSeconds: Math.min(5, o.cronSeconds ?? 5),
      openTelemetry: { enabled: false },
    } as ConstructorParameters<typeof PgBoss>[0]);
    scheduler.on('error', (err: Error) => o.logger.warn({ err: err.message }, 'scheduler error'));
    await scheduler.start();
    this.#scheduler = scheduler;
  }

  /**
   * Creates or replaces the recurring schedule `key` of a job kind (a cron expression or an RRULE in
   * a time zone); each occurrence sends one job with `payload`. Missed occurrences (no worker ran
   * when they came due) are sent once when a worker is back.
   */
  async schedule<P>(kindName: string, key: string, cron: string, timezone: string, payload: P, opts: Pick<SendOptions, 'db'> = {}): Promise<void> {
    const options: Record<string, unknown> = { tz: timezone, key, missed: 'once' };
    if (opts.db) {
      const tx = opts.db;
      options.db = { executeSql: (text: string, values?: unknown[]) => tx.query(text, values) } satisfies Db;
    }
    await this.boss.schedule(kindName, cron, payload as object, options);
  }

  async unschedule(kindName: string, key: string, opts: Pick<SendOptions, 'db'> = {}): Promise<void> {
    const tx = opts.db;
    await this.boss.unschedule(kindName, key, tx ? { db: { executeSql: (text: string, values?: unknown[]) => tx.query(text, values) } } : {});
  }

  /** The next occurrences of a cron expression (or RRULE) in a time zone; throws pg-boss's reason when it is not valid. */
  preview(cron: string, timezone: string, count = 1): Date[] {
    return this.boss.previewSchedule(cron, { tz: timezone, count });
  }

  async #runBatch(kind: JobKind<any>, jobs: Job<any>[]): Promise<JobResult[]> {
    const retryLimit = kind.policy?.retryLimit ?? 2;
    return Promise.all(
      jobs.map(async (job): Promise<JobResult> => {
        const logger = this.#opts.logger.child({ job: kind.name, jobId: job.id, attempt: job.retryCount });
        // Our controller follows pg-boss's signal (expiry) and lets stop() abort after the grace period.
        const controller = new AbortController();
        const onAbort = () => controller.abort(job.signal.reason);
        job.signal.addEventListener('abort', onAbort, { once: true });
        this.#active.set(job.id, controller);
        const lastAttempt = job.retryCount >= retryLimit;
        const ctx = { jobId: job.id, attempt: job.retryCount, lastAttempt, signal: controller.signal, logger };
        const started = Date.now();
        try {
          await kind.handler(job.data, ctx);
          logger.debug({ ms: Date.now() - started }, 'job completed');
          this.#count(kind.name, 'completed', started);
          return { id: job.id, status: 'completed' };
        } catch (err) {
          const error = toGleanerError(err);
          const final = !error.retryable || lastAttempt;
          logger.warn({ code: error.code, err: error.message, final }, 'job attempt failed');
          this.#count(kind.name, final ? 'failed' : 'retried', started);
          if (!final) return { id: job.id, status: 'failed', output: error.toJSON() };
          if (!kind.onFailure) return { id: job.id, status: 'deadletter', output: error.toJSON() };
          try {
            await kind.onFailure(job.data, error, ctx);
          } catch (e) {
            // Could not record the failure (database down?): let pg-boss retry, or dead-letter it.
            logger.error({ err: (e as Error).message }, 'job onFailure failed');
            return { id: job.id, status: lastAttempt ? 'deadletter' : 'failed', output: error.toJSON() };
          }
          // The failure is recorded by the kind itself; settling the job as done (with the error as
          // its output) keeps it out of the dead-letter queue, which is only for jobs whose worker died.
          return { id: job.id, status: 'completed', output: { failed: error.toJSON() } };
        } finally {
          job.signal.removeEventListener('abort', onAbort);
          this.#active.delete(job.id);
        }
      }),
    );
  }

  #count(kind: string, state: 'completed' | 'retried' | 'failed', started: number): void {
    this.#opts.metrics?.jobs.inc({ kind, state });
    this.#opts.metrics?.jobDuration.observe({ kind }, secondsSince(started));
  }

  async #runDead(kind: JobKind<any>, jobs: Job<any>[]): Promise<JobResult[]> {
    const results: JobResult[] = [];
    for (const job of jobs) {
      const logger = this.#opts.logger.child({ job: kind.name + DEAD_SUFFIX, jobId: job.id });
      const error = new GleanerError('JOB_ABORTED', 'the work was interrupted (worker stopped or crashed) and its retries ran out', { retryable: false });
      await kind.onFailure!(job.data, error, { jobId: job.id, attempt: job.retryCount, logger });
      results.push({ id: job.id, status: 'completed' });
    }
    return results;
  }

  /**
   * Stops fetching, lets running jobs finish for up to graceMs, then aborts their signals; jobs
   * still running at the end are failed and retried by another worker.
   */
  async stop(graceMs = 30_000): Promise<void> {
    if (!this.#started) return;
    const abortTimer = setTimeout(() => {
      for (const c of this.#active.values()) c.abort(new GleanerError('JOB_ABORTED', 'worker is shutting down'));
    }, graceMs);
    try {
      const scheduler = this.#scheduler;
      this.#scheduler = null;
      await scheduler?.stop({ graceful: true, timeout: 5000, close: true }).catch(() => undefined);
      await this.boss.stop({ graceful: true, timeout: graceMs + 2000, close: true });
    } finally {
      clearTimeout(abortTimer);
      this.#started = false;
      this.#working = false;
    }
  }

  get activeCount(): number {
    return this.#active.size;
  }
}
