// Every enumeration of the HTTP contract, written once: the response schemas take their `enum` from
// these arrays and core's types are derived from them (`(typeof X)[number]`), so a new status is
// one edit that the schemas, the OpenAPI document and the types all follow.

/** A scraper run (GET /v1/scrapers/run_async/{id}, the run list, callbacks). */
export const RUN_STATUSES = ['queued', 'running', 'completed', 'completed_partial', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** The statuses a run ends in. */
export const FINISHED_RUN_STATUSES = ['completed', 'completed_partial', 'failed'] as const satisfies readonly RunStatus[];
export type FinishedRunStatus = (typeof FINISHED_RUN_STATUSES)[number];

/** One URL of a run. */
export const RUN_ITEM_STATUSES = ['queued', 'running', 'completed', 'failed', 'skipped'] as const;
export type RunItemStatus = (typeof RUN_ITEM_STATUSES)[number];

/** An agent or extraction task. */
export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'stopped'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** The statuses a task ends in. */
export const FINISHED_TASK_STATUSES = ['completed', 'failed', 'stopped'] as const satisfies readonly TaskStatus[];
export const TASK_KINDS = ['agent', 'extract'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** A scraper's build; a scraper created and never built has status null. */
export const SCRAPER_STATUSES = ['generating', 'ready', 'failed'] as const;
export type ScraperStatus = (typeof SCRAPER_STATUSES)[number] | null;
export const SCRAPER_TYPES = ['extractor', 'agentic'] as const;
export type ScraperType = (typeof SCRAPER_TYPES)[number];

/** A schedule (Gleaner extension). */
export const SCHEDULE_STATUSES = ['active', 'paused', 'stopped'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];
export const SCHEDULE_HEALTHS = ['ok', 'degraded'] as const;
export type ScheduleHealth = (typeof SCHEDULE_HEALTHS)[number];
export const NOTIFY_MODES = ['always', 'changes', 'failures'] as const;
export type NotifyMode = (typeof NOTIFY_MODES)[number];
/** The states of a record a change report lists (every state but 'unchanged'). */
export const CHANGED_RECORD_STATES = ['new', 'changed', 'removed', 'unknown'] as const;

/** A crawl (Gleaner extension). */
export const CRAWL_STATUSES = ['discovering', 'running', 'stopped', 'completed', 'failed'] as const;
export type CrawlStatus = (typeof CRAWL_STATUSES)[number];
