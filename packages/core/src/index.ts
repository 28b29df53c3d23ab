// @gleaner/core — what an embedder uses: the engine, its configuration, its operations' types, the
// error codes, job kinds. Each name is listed on purpose (no whole-module re-exports): whatever is not here is
// internal and may change without notice. Plugins use the subpath @gleaner/core/plugin instead;
// '@gleaner/testing' serves plugin authors' tests.

// The engine and its lifecycle.
export { createEngine } from './engine.ts';
export type { Engine, EngineOptions } from './engine.ts';

// Configuration: one schema, options > environment > file > defaults.
export { loadConfig, redactConfig, CONFIG_FIELDS, environmentConventions } from './config/index.ts';
export type { ConfigOptions, DeepPartial, FieldSpec, GleanerConfig, LoadConfigInput } from './config/index.ts';

// Errors: stable codes, a message a user can act on, whether a retry can help.
export { ERROR_CODES, GleanerError, isGleanerError, toGleanerError, validationFailed } from './errors.ts';
export type { ErrorCode, GleanerErrorJSON, ValidationIssue } from './errors.ts';

// Logging.
export { createLogger, silentLogger } from './log.ts';
export type { Logger, LoggerOptions } from './log.ts';

// The store and job queue the engine runs on (an embedder registers its own job kinds).
export { createDatabase } from './store/db.ts';
export type { Database, DatabaseOptions, Queryable } from './store/db.ts';
export { migrate } from './store/migrate.ts';
export { defineJob } from './jobs/job-kind.ts';
export type { JobContext, JobKind, JobPolicy } from './jobs/job-kind.ts';
export { JobQueue } from './jobs/job-queue.ts';
export type { JobQueueOptions, SendOptions } from './jobs/job-queue.ts';

// Request validation and schemas: the engine checks direct calls as the HTTP adapter does.
export { checkRequest, compileSchema, toIssues } from './schemas/validate.ts';
export type { JsonSchema } from './schemas/validate.ts';
export {
  COOKIES_SCHEMA,
  EXTRACT_ASYNC_BODY,
  EXTRACT_BODY,
  ID_PARAMS,
  MARKDOWN_BODY,
  PARSE_BODY,
  PROXY_COUNTRY_SCHEMA,
  RECORDS_RESPONSE,
  TASK_RESPONSE,
  URL_SCHEMA,
} from './schemas/requests.ts';
export type { ExtractAsyncRequest, ExtractRequest, MarkdownRequest, ParseRequest } from './schemas/requests.ts';
export { AGENT_EXTRACT_BODY, AGENT_GENERATE_BODY, GENERATE_BODY, RUN_ASYNC_BODY, RUN_BODY } from './schemas/run-requests.ts';
export type { AgentTaskRequest, GenerateAgenticScraperRequest, GenerateScraperRequest, RunScraperRequest } from './schemas/run-requests.ts';
export { LEGACY_GENERATE_BODY, LEGACY_REMOVE_BODY, LEGACY_SCRAPE_BODY } from './schemas/legacy-requests.ts';
export type { LegacyGenerateRequest, LegacyRemoveRequest, LegacyScrapeRequest } from './schemas/legacy-requests.ts';

// Owners and credentials.
export type { Owner } from './auth/owners.ts';
export type { CreatedApiKey } from './auth/api-keys.ts';
export type { CreatedAccessToken } from './auth/access-tokens.ts';
export { signWebhook, verifyWebhook } from './callbacks/sign.ts';
export type { WebhookHeaders } from './callbacks/sign.ts';

// What the operations take and return.
export { ATTRIBUTES_REQUEST_SCHEMA, ATTRIBUTE_TYPES } from './records/attributes.ts';
export type { Attribute, AttributeType, ExtractedRecord } from './records/attributes.ts';
export type { ExtractResponse } from './operations/extract.ts';
export type { TaskStatusBody } from './tasks/extract-task.ts';
export type { ScraperOperations } from './scrapers/operations.ts';
export type {
  AgenticBody,
  ExtractorBody,
  ParameterSpec,
  ScraperBuildRequest,
  ScraperDrift,
  ScraperKind,
  ScraperRecord,
  ScraperStatus,
} from './scrapers/types.ts';
export type { ScraperListItem } from './scrapers/store.ts';
export type { RunOperations, RunOutcome } from './runs/operations.ts';
export type { RunOptions } from './runs/request.ts';
export type { RunResultBody, RunStatus, RunStatusBody } from './runs/status.ts';
export type { CatalogOperations } from './catalog/index.ts';
export type { Recipe } from './recipes/schema.ts';
export { RANDOM_PROXY_COUNTRY, canonicalProxyCountry } from './net/proxies.ts';

// Gleaner extensions (docs/api.md): extraction details, the owner's runs and tasks, scraper versions and heals.
export type { ExtractCallOptions } from './operations/extract.ts';
export { EXTRACTION_DETAILS_SCHEMA } from './operations/extract-details.ts';
// Trust and cost (Gleaner extensions): provenance, grounding, dry runs, budgets, settings, the usage report.
export { PROVENANCE_SCHEMA, WARNINGS_SCHEMA } from './trust/schemas.ts';
export type { FieldProvenance, GroundingPolicy, GroundingWarning, RecordProvenance } from './trust/provenance.ts';
export { ESTIMATE_SCHEMA } from './cost/estimate.ts';
export type { DryRunBody, Estimate, Money } from './cost/estimate.ts';
export { SETTINGS_SCHEMA } from './cost/settings.ts';
export type { OwnerSettings } from './cost/settings.ts';
export { USAGE_QUERY, USAGE_RESPONSE } from './cost/report.ts';
export type { UsageFigures, UsageGroupBy, UsageItem, UsageReport } from './cost/report.ts';
export type { BudgetDetails } from './cost/budgets.ts';
export type { ExtractionDetails, ExtractionMode, PageDetails } from './operations/extract-details.ts';
export { DEFAULT_PAGE, MAX_PAGE } from './history/index.ts';
export { CRAWL_BODY, MAP_BODY, POLITENESS_REQUEST_SCHEMA } from './crawl/public.ts';
export type { CrawlOperations, CrawlRequest, CrawlStatusBody, MapRequest, MapResult, MappedUrl, OwnerPoliteness } from './crawl/public.ts';
export type { HealRecord, HistoryOperations, RunListItem, RunListQuery, ScraperHistory, ScraperVersion, TaskListItem, TaskListQuery } from './history/index.ts';
// Gleaner extensions: schedules, change tracking, the snapshot archive and replays.
export {
  REPLAY_BODY,
  RUN_STATUS_QUERY,
  SCHEDULE_BODY,
  SCHEDULE_PATCH_BODY,
  SCHEDULES_QUERY,
  SNAPSHOT_PARAMS,
  SNAPSHOT_QUERY,
  SNAPSHOT_SETTINGS_BODY,
} from './schemas/schedule-requests.ts';
export type { ReplayRequest, SchedulePatchRequest, ScheduleRequest } from './schemas/schedule-requests.ts';
export type { ChangeCounts, ChangeState, ChangesSummary, RecordChange, ScheduleOperations, ScheduleView } from './schedules/index.ts';
export type { ReplayResult, SnapshotOperations } from './snapshots/operations.ts';
export type { ArchiveUsage, Snapshot, SnapshotDefaults, SnapshotRef } from './snapshots/archive.ts';
export { DOCUMENT_PARAMS, SNAPSHOT_REFS_SCHEMA, SNAPSHOTS_FIELD, TASK_SNAPSHOT_PARAMS, TASK_SNAPSHOT_QUERY } from './schemas/snapshot-requests.ts';

// The HTTP contract's response schemas (the server serves them in its OpenAPI document) and its
// enumerations, each written once (schemas/statuses.ts); the body types are derived from them.
export {
  CHANGED_RECORD_STATES,
  CRAWL_STATUSES,
  FINISHED_RUN_STATUSES,
  FINISHED_TASK_STATUSES,
  NOTIFY_MODES,
  RUN_ITEM_STATUSES,
  RUN_STATUSES,
  SCHEDULE_HEALTHS,
  SCHEDULE_STATUSES,
  SCRAPER_STATUSES,
  SCRAPER_TYPES,
  TASK_KINDS,
  TASK_STATUSES,
} from './schemas/statuses.ts';
export type { FinishedRunStatus, NotifyMode, RunItemStatus, ScheduleHealth, ScraperType, TaskStatus } from './schemas/statuses.ts';
export { RUN_ACCEPTED_RESPONSE, RUN_RESULT_RESPONSE, RUN_STATUS_RESPONSE } from './schemas/run-responses.ts';
export {
  DETAILS_QUERY,
  DRY_RUN_RESPONSE,
  RECORDS_WITH_DETAILS_RESPONSE,
  RUNS_QUERY,
  RUNS_RESPONSE,
  TASKS_QUERY,
  TASKS_RESPONSE,
  VERSIONS_QUERY,
  VERSIONS_RESPONSE,
} from './schemas/history-responses.ts';
export {
  ARCHIVE_USAGE_RESPONSE,
  CHANGES_SCHEMA,
  COUNTS_SCHEMA,
  RECORD_CHANGE_SCHEMA,
  REPLAY_RESPONSE,
  SCHEDULE_RESPONSE,
  SCHEDULES_RESPONSE,
  SNAPSHOT_SETTINGS_RESPONSE,
  TRIGGER_RESPONSE,
} from './schemas/schedule-responses.ts';
export {
  AGENTIC_RESPONSE,
  DELETED_RESPONSE,
  EXTRACTOR_RESPONSE,
  GENERATING_RESPONSE,
  SCRAPER_LIST_RESPONSE,
  TEMPLATE_ID_RESPONSE,
} from './schemas/scraper-responses.ts';
export { CRAWL_RESULTS_QUERY, CRAWL_STATUS_RESPONSE, MAP_RESPONSE, POLITENESS } from './schemas/crawl-responses.ts';

// The plugin seams an embedder hands to createEngine (implementing one: '@gleaner/core/plugin').
export { PLUGIN_API_VERSION } from './plugins/version.ts';
export type { Driver, DriverCapabilities } from './plugins/driver.ts';
export type { LlmProvider, ModelSpec } from './plugins/llm.ts';
// The known plugin packages createEngine builds from configuration when it is handed none.
export { KNOWN_PLUGINS, PROVIDER_PICKED_BY, chooseProvider, loadConfiguredPlugins, providerChosen, settingValue } from './plugins/registry.ts';
export type { ConfiguredPlugins, PluginContext, PluginFromConfig } from './plugins/registry.ts';

// The browsing agent: one-shot tasks (engine.agent), and the loop itself for embedders that run it
// on their own (runAgent with an engine's context).
export { runAgent, agentBudgets, stableTarget, resolveTarget, AGENT_TOOLS } from './agent/index.ts';
export type {
  AgentActionName,
  AgentBudgets,
  AgentExtraction,
  AgentGoal,
  AgentOutcome,
  AgentRunInput,
  AgentRunResult,
  RecordedAction,
  StableTarget,
} from './agent/index.ts';
export type { AgentTaskStatusBody, AgentStepSummary } from './tasks/agent-task.ts';
export type { OperationContext } from './context.ts';
export { MODEL_SETTINGS_HINT } from './context.ts';
export { EXPORT_COLUMNS } from './exports/index.ts';
export type { ExportFormat, ResultFile } from './exports/index.ts';

// Prometheus metrics (prom-client): the registry an engine records into, for a host app's /metrics.
export { createMetrics, observeEngine } from './metrics/index.ts';
export type { Metrics, ObserveOptions } from './metrics/index.ts';
export { PROFILE_CREATE_BODY, PROFILE_LIST_RESPONSE, PROFILE_SUMMARY, SECRETS_SCHEMA } from './schemas/secrets.ts';
export type { ProfileOperations, ProfileSummary } from './profiles/index.ts';
