import { GleanerError } from './errors.ts';
import type { GleanerConfig } from './config/types.ts';
import { createLogger, type Logger } from './log.ts';
import { createDatabase, type Database } from './store/db.ts';
import { migrate } from './store/migrate.ts';
import { JobQueue } from './jobs/job-queue.ts';
import type { JobKind } from './jobs/job-kind.ts';
import * as auth from './auth/index.ts';
import type { Owner } from './auth/owners.ts';
import { listProxyCountries } from './net/proxies.ts';
import type { Driver } from './plugins/driver.ts';
import { checkPluginApiVersion } from './plugins/version.ts';
import { loadConfiguredPlugins, type ConfiguredPlugins } from './plugins/registry.ts';
import { checkRequest } from './schemas/validate.ts';
import {
  EXTRACT_ASYNC_BODY,
  EXTRACT_BODY,
  MARKDOWN_BODY,
  PARSE_BODY,
  type ExtractAsyncRequest,
  type ExtractRequest,
  type MarkdownRequest,
  type ParseRequest,
} from './schemas/requests.ts';
import type { AgentTaskRequest } from './schemas/run-requests.ts';
import type { LlmProvider, ModelSpec } from './plugins/llm.ts';
import { createModelClient, type ModelClient } from './llm/call-model.ts';
import type { OperationContext } from './context.ts';
import { callbackJobKind } from './callbacks/index.ts';
import { extract, parse, type ExtractCallOptions, type ExtractResponse } from './operations/extract.ts';
import { historyOperations, type HistoryOperations } from './history/index.ts';
import { extractMarkdown } from './operations/markdown.ts';
import { extractTaskJob, getTask, submitExtractTask, type TaskStatusBody } from './tasks/extract-task.ts';
import { scraperJobKinds, scraperOperations, type ScraperOperations } from './scrapers/index.ts';
import { profileOperations, type ProfileOperations } from './profiles/index.ts';
import { runJobKinds, runOperations, type RunOperations } from './runs/index.ts';
import { catalogOperations, type CatalogOperations } from './catalog/index.ts';
import { createMetrics, observeEngine, type Metrics } from './metrics/index.ts';
import { CancelWatch } from './jobs/cancel.ts';
import { PolitenessGate, politenessChannel } from './politeness/gate.ts';
import { setOwnerPoliteness, type OwnerPoliteness } from './politeness/policy.ts';
import { MAP_BODY, mapSite, type MapRequest, type MapResult } from './crawl/map.ts';
import { crawlJob, crawlOperations, type CrawlOperations } from './crawl/crawls.ts';
import { RobotsCache } from './politeness/robots.ts';
import { agentTaskJob, getAgentTask, stopAgentTask, submitAgentTask, type AgentTaskStatusBody } from './tasks/agent-task.ts';
import { createLimits, type Limits } from './limits/index.ts';
import { scheduleJobKinds, scheduleOperations, type ScheduleOperations } from './schedules/index.ts';
import { SNAPSHOT_PRUNE_JOB, snapshotOperations, snapshotPruneJob, type SnapshotOperations } from './snapshots/operations.ts';
import { exportRun, exportTask, type ExportFormat, type ResultFile } from './exports/index.ts';
import type { DryRunBody } from './cost/estimate.ts';
import type { SnapshotRef } from './snapshots/archive.ts';
import { getOwnerSettings, putOwnerSettings, type OwnerSettings } from './cost/settings.ts';
import { usageReport, type UsageGroupBy, type UsageReport } from './cost/report.ts';

export interface EngineOptions {
  config: Readonly<GleanerConfig>;
  logger?: Logger;
  /**
   * Connection string to use instead of config.database.url (the server passes the embedded
   * Postgres' URL here).
   */
  databaseUrl?: string;
  /**
   * Page drivers, in order of preference: the first is tried first (plain HTTP). Borrowed: the
   * engine never closes them; whoever created them closes them after `engine.stop()`. Absent: the
   * engine builds the configured ones at start() from the known plugin packages that are installed
   * (KNOWN_PLUGINS: `@gleaner/driver-http`, and the `browser.driver` unless escalation is off), and
   * closes them at stop().
   */
  drivers?: Driver[];
  /**
   * The model provider, borrowed like the drivers; null: none (operations that need a model answer
   * MODEL_NOT_CONFIGURED). Absent: the engine builds the configured one at start() (`llm.provider`,
   * OPENAI_API_KEY / OPENAI_BASE_URL, OLLAMA_HOST) when its package is installed, and closes it at stop().
   */
  llm?: LlmProvider | null;
  /** Extra job kinds (tests, embedders). */
  jobKinds?: JobKind<any>[];
  /** Model specs for GET /v1/llm-specs (never throws); defaults to the provider's specs. */
  llmSpecs?: () => Promise<ModelSpec[]>;
  /** Prometheus instruments to record into; by default the engine makes its own registry. */
  metrics?: Metrics;
}

/** The engine: the interface's operations over one Postgres (tables + pg-boss queues). */
export interface Engine {
  readonly config: Readonly<GleanerConfig>;
  readonly logger: Logger;
  readonly db: Database;
  readonly jobs: JobQueue;
  readonly context: OperationContext;
  /** Prometheus instruments; the server exposes `metrics.scrape()` at /metrics. */
  readonly metrics: Metrics;
  /** Applies the engine's migrations (no job queue). */
  migrate(): Promise<string[]>;
  /**
   * Applies migrations, builds the configured plugins the engine was not handed, and starts the job
   * queue (so operations can enqueue).
   */
  start(): Promise<void>;
  /** Starts workers for every job kind in this process. */
  startWorker(): Promise<void>;
  /**
   * Stops workers (graceful, config.jobs.shutdownGraceSeconds) and closes what the engine created
   * (its connections and the plugins it built); the drivers and model provider it was handed stay
   * open for their owner to close.
   */
  stop(): Promise<void>;

  ready(): Promise<void>;
  authenticateApiKey(key: string): Promise<Owner | null>;
  authenticateAccessToken(token: string): Promise<Owner | null>;
  createApiKey(ownerName: string): Promise<auth.CreatedApiKey>;
  revokeApiKey(prefix: string): Promise<boolean>;
  createAccessToken(ownerName: string, ttlSeconds?: number): Promise<auth.CreatedAccessToken>;
  /** The owner's callback signing secret; NOT_FOUND for an unknown owner (a look-up creates none). */
  signingSecret(ownerName: string): Promise<string>;
  /** Finds or creates the owner: for a host app that authenticates its own users (see createApiRouter). */
  ensureOwner(ownerName: string): Promise<Owner>;
  proxyCountries(): Record<string, string>;
  llmSpecs(): Promise<ModelSpec[]>;

  // The extraction operations take the HTTP API's request bodies, typed from the same JSON Schemas,
  // and check them as the API does: a bad body throws VALIDATION_FAILED with the same 422 issues.
  // `call.details` adds the `details` object (driver, page sizes, what the model saw, tokens, credits).
  extract(owner: Owner, body: ExtractRequest, signal?: AbortSignal, call?: ExtractCallOptions): Promise<ExtractResponse>;
  parse(owner: Owner, body: ParseRequest, signal?: AbortSignal, call?: ExtractCallOptions): Promise<ExtractResponse>;
  extractMarkdown(owner: Owner, body: MarkdownRequest, signal?: AbortSignal): Promise<{ data: string; snapshots?: SnapshotRef[] }>;
  /** With `dry_run: true`, the estimate instead of a task (nothing queued). */
  submitExtractTask(owner: Owner, body: ExtractAsyncRequest): Promise<TaskStatusBody | DryRunBody>;
  getExtractTask(owner: Owner, taskId: string): Promise<TaskStatusBody>;

  /** Classic (and, later, agentic) scrapers: create, generate, read, delete, list. */
  readonly scrapers: ScraperOperations;
  /** Scraper runs: synchronous, asynchronous, status. */
  readonly runs: RunOperations;
  /** Browser profiles: import, list (names and domains only), delete (Gleaner extension). */
  readonly profiles: ProfileOperations;
  /** The public catalog and the legacy agents' names. */
  readonly catalog: CatalogOperations;
  /** One-shot agent tasks: submit, status, stop. */
  readonly agent: {
    /** With `dry_run: true`, the estimate (a range) instead of a task. */
    submit(owner: Owner, body: AgentTaskRequest): Promise<AgentTaskStatusBody | DryRunBody>;
    get(owner: Owner, taskId: string): Promise<AgentTaskStatusBody>;
    stop(owner: Owner, taskId: string): Promise<{ task_id: string; status: 'stopped' | 'not_running' }>;
  };
  /**
   * A run's or a task's results as a CSV or JSON Lines file, produced as it is sent: a row per
   * record with its item's source URL and status, a row for each item without records (Gleaner
   * extension). NOT_FOUND (before any row) for an unknown or another owner's id.
   */
  exportResults(owner: Owner, of: 'run' | 'agent' | 'extract', id: string, format: ExportFormat): Promise<ResultFile>;
  /** Per-owner request rate and concurrent-job limits (limits.*), shared through Postgres. */
  readonly limits: Limits;
  /** The owner's recent runs and tasks, a scraper's versions and heal attempts (Gleaner extensions). */
  readonly history: HistoryOperations;
  /** Schedules: runs fired by pg-boss's scheduler, compared with the schedule's earlier runs (Gleaner extension). */
  readonly schedules: ScheduleOperations;
  /** The snapshot archive: archived pages, its size, replays on them (Gleaner extension). */
  readonly snapshots: SnapshotOperations;
  /** Settings (grounding policy, budgets) and the usage report (Gleaner extensions). */
  readonly cost: {
    settings(owner: Owner): Promise<OwnerSettings>;
    putSettings(owner: Owner, patch: Partial<OwnerSettings>): Promise<OwnerSettings>;
    usage(owner: Owner, query: { from?: string; to?: string; group_by?: UsageGroupBy }): Promise<UsageReport>;
  };
  /** POST /v1/map: a site's URLs from its sitemaps and links (Gleaner extension). */
  map(owner: Owner, body: MapRequest, signal?: AbortSignal): Promise<MapResult>;
  /** Crawls: discover, then run a classic scraper over the pages (Gleaner extension). */
  readonly crawls: CrawlOperations;
  /** An owner's politeness settings (robots.txt, pace), set by the operator (`gleaner politeness set`). */
  setPoliteness(ownerName: string, settings: Partial<OwnerPoliteness>): Promise<OwnerPoliteness>;
}

export function createEngine(opts: EngineOptions): Engine {
  const { config } = opts;
  for (const d of opts.drivers ?? []) checkPluginApiVersion(d, 'driver');
  if (opts.llm) checkPluginApiVersion(opts.llm, 'model provider');
  const logger = opts.logger ?? createLogger({ level: config.log.level, format: config.log.format });
  const url = opts.databaseUrl ?? config.database.url;
  if (!url) throw new Error('createEngine: no database URL (set DATABASE_URL, or let the server start the embedded Postgres)');
  const metrics = opts.metrics ?? createMetrics();
  const db = createDatabase({
    url,
    schema: config.database.schema,
    poolMax: config.database.poolMax,
    connectTimeoutMs: config.database.connectTimeoutMs,
    logger,
  });
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
    cronSeconds: config.schedules.cronSeconds,
    metrics,
  });
  const modelClient = (provider: LlmProvider): ModelClient =>
    createModelClient(provider, { timeoutMs: config.llm.timeoutMs, maxRetries: config.llm.maxRetries, concurrency: config.llm.concurrency, logger, metrics });
  const drivers: Driver[] = [...(opts.drivers ?? [])];
  // What the caller did not hand over is built from configuration at start() (plugins/registry.ts).
  const fromConfig = { drivers: opts.drivers === undefined, llm: opts.llm === undefined };
  let built: ConfiguredPlugins | null = null;
  let spec: Promise<ModelSpec | null> | null = null;
  const cancels = new CancelWatch({ url, schema: config.database.schema, logger });
  const gate = new PolitenessGate({
    db,
    logger,
    backoffBaseMs: config.politeness.backoffBaseMs,
    listen: { url, channel: politenessChannel(config.database.schema) },
  });
  const context: OperationContext = {
    cancels,
    politeness: { gate, robots: new RobotsCache(() => context) },
    config,
    logger,
    db,
    jobs,
    drivers,
    model: opts.llm ? modelClient(opts.llm) : null,
    metrics,
    modelSpec: () =>
      (spec ??= (async () => {
        try {
          return (await context.model?.specs())?.[0] ?? null;
        } catch (err) {
          logger.warn({ err: (err as Error).message }, 'model specs unavailable; using configured or default context window');
          spec = null; // ask again next time
          return null;
        }
      })()),
  };
  jobs.register(
    extractTaskJob(() => context),
    agentTaskJob(() => context),
    callbackJobKind({ db, config, logger, metrics }),
    ...scraperJobKinds(() => context),
    ...runJobKinds(() => context),
    ...scheduleJobKinds(() => context),
    snapshotPruneJob(() => context),
    crawlJob(() => context),
    ...(opts.jobKinds ?? []),
  );
  observeEngine(metrics, { db, jobsSchema: config.jobs.schema, drivers: context.drivers, logger });
  const scrapers = scraperOperations(context);
  const runs = runOperations(context);
  let started = false;

  return {
    config,
    logger,
    db,
    jobs,
    context,
    metrics,
    migrate: () => migrate({ url, schema: config.database.schema, logger }),
    async start() {
      if (started) return;
      await this.migrate();
      if ((fromConfig.drivers || fromConfig.llm) && !built) {
        built = await loadConfiguredPlugins({ config, logger }, fromConfig);
        for (const d of built.drivers) checkPluginApiVersion(d, 'driver');
        if (built.llm) checkPluginApiVersion(built.llm, 'model provider');
        drivers.push(...built.drivers);
        if (built.llm) {
          context.model = modelClient(built.llm);
          logger.info({ provider: built.llm.name, model: built.llm.model }, 'model provider configured');
        }
      }
      await jobs.start();
      started = true;
    },
    async startWorker() {
      await this.start();
      await jobs.work();
      // Idempotent (an upsert of one pg-boss schedule): every worker may say it.
      await jobs.schedule(SNAPSHOT_PRUNE_JOB, 'daily', '17 3 * * *', 'UTC', {});
      logger.info({ concurrency: config.jobs.concurrency, batchSize: config.jobs.batchSize }, 'worker started');
    },
    async stop() {
      await jobs.stop(config.jobs.shutdownGraceSeconds * 1000);
      await gate.close();
      cancels.close();
      await db.close();
      if (built) {
        // Built here, so closed here.
        await built.close();
        drivers.splice(drivers.length - built.drivers.length);
        if (built.llm) context.model = null;
        built = null;
      }
      started = false;
    },
    ready: () => db.ping(),
    authenticateApiKey: (key) => auth.authenticateApiKey(db, key),
    authenticateAccessToken: (token) => auth.authenticateAccessToken(db, token),
    createApiKey: (ownerName) => auth.createApiKey(db, ownerName),
    revokeApiKey: (prefix) => auth.revokeApiKey(db, prefix),
    createAccessToken: (ownerName, ttl) => auth.createAccessToken(db, ownerName, ttl ?? config.auth.tokenTtlSeconds),
    signingSecret: (ownerName) => auth.getSigningSecret(db, ownerName),
    ensureOwner: (ownerName) => auth.ensureOwner(db, ownerName),
    proxyCountries: () => listProxyCountries(config),
    async llmSpecs() {
      if (opts.llmSpecs) return opts.llmSpecs();
      try {
        return (await context.model?.specs()) ?? [];
      } catch {
        return [];
      }
    },
    extract: async (owner, body, signal, call) => extract(context, owner, checkRequest(EXTRACT_BODY, body), signal, call),
    parse: async (owner, body, signal, call) => parse(context, owner, checkRequest(PARSE_BODY, body), signal, call),
    extractMarkdown: async (owner, body, signal) => extractMarkdown(context, owner, checkRequest(MARKDOWN_BODY, body), signal),
    submitExtractTask: async (owner, body) => submitExtractTask(context, owner, checkRequest(EXTRACT_ASYNC_BODY, body)),
    getExtractTask: (owner, taskId) => getTask(context, owner, taskId, 'extract'),
    scrapers,
    runs,
    profiles: profileOperations(context),
    catalog: catalogOperations(context, { scrapers, runs }),
    agent: {
      submit: (owner, body) => submitAgentTask(context, owner, body),
      get: (owner, taskId) => getAgentTask(context, owner, taskId),
      stop: (owner, taskId) => stopAgentTask(context, owner, taskId),
    },
    exportResults: (owner, of, id, format) => (of === 'run' ? exportRun(db, owner, id, format) : exportTask(db, owner, id, of, format)),
    limits: createLimits(db, config, logger),
    history: historyOperations(context),
    schedules: scheduleOperations(context),
    snapshots: snapshotOperations(context),
    cost: {
      settings: (owner) => getOwnerSettings(db, owner.id),
      putSettings: (owner, patch) => putOwnerSettings(db, owner, patch),
      usage: (owner, query) => usageReport(context, owner, query),
    },
    // A map answers before the server's request time limit, with what it found by then (partial).
    map: async (owner, body, signal) =>
      mapSite(context, owner.id, checkRequest(MAP_BODY, body), signal, undefined, Date.now() + Math.max(5_000, config.server.requestTimeoutMs - 15_000)),
    crawls: crawlOperations(context),
    async setPoliteness(ownerName, settings) {
      const owner = await auth.findOwnerByName(db, ownerName);
      if (!owner) throw new GleanerError('NOT_FOUND', `No owner named ${ownerName} (gleaner keys create --owner ${ownerName} creates one)`);
      return setOwnerPoliteness(db, owner.id, settings);
    },
  };
}
