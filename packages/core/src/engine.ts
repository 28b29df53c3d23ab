import type { GleanerConfig } from './config/types.ts';
import { createLogger, type Logger } from './log.ts';
import { createDatabase, type Database } from './store/db.ts';
import { migrate } from './store/migrate.ts';
import { JobQueue } from './jobs/job-queue.ts';
import type { JobKind } from './jobs/job-kind.ts';
import * as auth from './auth/index.ts';
import type { Owner } from './auth/owners.ts';
import { listProxyCountries } from './net/proxies.ts';

export interface EngineOptions {
  config: Readonly<GleanerConfig>;
  logger?: Logger;
  /**
   * Connection string to use instead of config.database.url (the server passes the embedded
   * Postgres' URL here).
   */
  databaseUrl?: string;
  /** Extra job kinds (tests, embedders). */
  jobKinds?: JobKind<any>[];
  /** Model specs for GET /v1/llm-specs; the server wires the configured provider here. */
  llmSpecs?: () => Promise<unknown[]>;
}

/** The engine: the interface's operations over one Postgres (tables + pg-boss queues). */
export interface Engine {
  readonly config: Readonly<GleanerConfig>;
  readonly logger: Logger;
  readonly db: Database;
  readonly jobs: JobQueue;
  /** Applies the engine's migrations (no job queue). */
  migrate(): Promise<string[]>;
  /** Applies migrations and starts the job queue (so operations can enqueue). */
  start(): Promise<void>;
  /** Starts workers for every job kind in this process. */
  startWorker(): Promise<void>;
  /** Stops workers (graceful, config.jobs.shutdownGraceSeconds) and closes connections. */
  stop(): Promise<void>;

  ready(): Promise<void>;
  authenticateApiKey(key: string): Promise<Owner | null>;
  authenticateAccessToken(token: string): Promise<Owner | null>;
  createApiKey(ownerName: string): Promise<auth.CreatedApiKey>;
  revokeApiKey(prefix: string): Promise<boolean>;
  createAccessToken(ownerName: string, ttlSeconds?: number): Promise<auth.CreatedAccessToken>;
  signingSecret(ownerName: string): Promise<string>;
  proxyCountries(): Record<string, string>;
  llmSpecs(): Promise<unknown[]>;
}

export function createEngine(opts: EngineOptions): Engine {
  const { config } = opts;
  const logger = opts.logger ?? createLogger({ level: config.log.level });
  const url = opts.databaseUrl ?? config.database.url;
  if (!url) throw new Error('createEngine: no database URL (set DATABASE_URL, or let the server start the embedded Postgres)');
  const db = createDatabase({ url, schema: config.database.schema, poolMax: config.database.poolMax, connectTimeoutMs: config.database.connectTimeoutMs, logger });
  const jobs = new JobQueue({
    url,
    schema: config.jobs.schema,
    poolMax: config.database.poolMax,
    logger,
    pollingSeconds: config.jobs.pollingSeconds,
    batchSize: config.jobs.batchSize,
    concurrency: config.jobs.concurrency,
    heartbeatSeconds: config.jobs.heartbeatSeconds,
    superviseSeconds: config.jobs.superviseSeconds,
  });
  jobs.register(...(opts.jobKinds ?? []));
  let started = false;

  return {
    config,
    logger,
    db,
    jobs,
    migrate: () => migrate({ url, schema: config.database.schema, logger }),
    async start() {
      if (started) return;
      await migrate({ url, schema: config.database.schema, logger });
      await jobs.start();
      started = true;
    },
    async startWorker() {
      await this.start();
      await jobs.work();
      logger.info({ concurrency: config.jobs.concurrency, batchSize: config.jobs.batchSize }, 'worker started');
    },
    async stop() {
      await jobs.stop(config.jobs.shutdownGraceSeconds * 1000);
      await db.close();
      started = false;
    },
    ready: () => db.ping(),
    authenticateApiKey: (key) => auth.authenticateApiKey(db, key),
    authenticateAccessToken: (token) => auth.authenticateAccessToken(db, token),
    createApiKey: (ownerName) => auth.createApiKey(db, ownerName),
    revokeApiKey: (prefix) => auth.revokeApiKey(db, prefix),
    createAccessToken: (ownerName, ttl) => auth.createAccessToken(db, ownerName, ttl ?? config.auth.tokenTtlSeconds),
    signingSecret: (ownerName) => auth.getSigningSecret(db, ownerName),
    proxyCountries: () => listProxyCountries(config),
    llmSpecs: async () => (opts.llmSpecs ? opts.llmSpecs() : []),
  };
}
