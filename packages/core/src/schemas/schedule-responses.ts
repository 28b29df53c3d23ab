// Response schemas of the monitoring endpoints (Gleaner extensions): schedules, change tracking,
// the snapshot archive and replays. Their request schemas are SCHEDULE_BODY, ... (schedule-requests.ts).
import { CHANGED_RECORD_STATES, NOTIFY_MODES, RUN_STATUSES, SCHEDULE_HEALTHS, SCHEDULE_STATUSES } from './statuses.ts';

const TIME = { type: 'string', format: 'date-time' } as const;
const NULLABLE_TIME = { type: ['string', 'null'], format: 'date-time' } as const;
const RECORDS = { type: 'array', items: { type: 'object' } } as const;

export const COUNTS_SCHEMA = {
  type: 'object',
  required: ['new', 'unchanged', 'changed', 'removed', 'unknown'],
  properties: {
    new: { type: 'integer' },
    unchanged: { type: 'integer' },
    changed: { type: 'integer' },
    removed: { type: 'integer' },
    unknown: { type: 'integer', description: 'Records of pages that failed in this run (not removals)' },
  },
} as const;

export const RECORD_CHANGE_SCHEMA = {
  type: 'object',
  required: ['url', 'key', 'state', 'record'],
  properties: {
    url: { type: 'string' },
    key: { type: 'string', description: 'The key_attributes values (JSON), or the stable hash of the identifying fields' },
    state: { enum: CHANGED_RECORD_STATES },
    record: { type: 'object', description: 'As it is now (new, changed) or as last seen (removed, unknown)' },
    fields: {
      type: 'array',
      description: "What changed (state 'changed')",
      items: { type: 'object', required: ['field', 'old', 'new'], properties: { field: { type: 'string' }, old: {}, new: {} } },
    },
  },
} as const;

export const CHANGES_SCHEMA = {
  type: 'object',
  required: ['baseline_run_id', 'counts'],
  properties: {
    baseline_run_id: { type: ['string', 'null'], description: "The schedule's previous finished run (null: this is its first)" },
    counts: COUNTS_SCHEMA,
    records: { type: 'array', items: RECORD_CHANGE_SCHEMA, description: 'With ?changes=true: every record that is not unchanged' },
  },
} as const;

export const SCHEDULE_RESPONSE = {
  type: 'object',
  required: ['schedule_id', 'template_id', 'cron', 'timezone', 'notify', 'status', 'health', 'created_at'],
  properties: {
    schedule_id: { type: 'string' },
    name: { type: ['string', 'null'] },
    template_id: { type: 'string' },
    cron: { type: 'string' },
    timezone: { type: 'string' },
    url: { type: ['string', 'array', 'null'], items: { type: 'string' } },
    parameters: { type: ['object', 'null'] },
    max_pages: { type: ['integer', 'null'] },
    callback_url: { type: ['string', 'null'] },
    notify: { enum: NOTIFY_MODES },
    key_attributes: { type: ['array', 'null'], items: { type: 'string' } },
    snapshots: { type: 'boolean' },
    status: { enum: SCHEDULE_STATUSES, description: "'stopped': its scraper was deleted (status_reason says so); it fires no more" },
    status_reason: { type: ['string', 'null'] },
    health: { enum: SCHEDULE_HEALTHS },
    health_reason: { type: ['string', 'null'], description: 'Why the schedule is degraded' },
    health_changed_at: NULLABLE_TIME,
    consecutive_failures: { type: 'integer' },
    next_run_at: { ...NULLABLE_TIME, description: 'The next firing (null unless active)' },
    last_run: {
      type: ['object', 'null'],
      properties: { run_id: { type: 'string' }, status: { enum: RUN_STATUSES }, created_at: TIME, changes: { ...COUNTS_SCHEMA, type: ['object', 'null'] } },
    },
    created_at: TIME,
    updated_at: TIME,
  },
} as const;

export const SCHEDULES_RESPONSE = { type: 'object', required: ['schedules'], properties: { schedules: { type: 'array', items: SCHEDULE_RESPONSE } } } as const;

export const TRIGGER_RESPONSE = {
  type: 'object',
  required: ['schedule_id', 'run_id', 'status'],
  properties: { schedule_id: { type: 'string' }, run_id: { type: 'string' }, status: { enum: ['queued'] } },
} as const;

export const REPLAY_RESPONSE = {
  type: 'object',
  required: ['scraper_id', 'version', 'run_id', 'data', 'errors', 'pages', 'changes'],
  properties: {
    scraper_id: { type: 'string' },
    version: { type: 'integer' },
    run_id: { type: 'string' },
    data: { type: 'object', additionalProperties: RECORDS, description: 'URL -> the records this version finds on the archived pages' },
    errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'URL -> why it was not replayed' },
    pages: { type: 'integer', description: 'Archived pages read (no page is fetched)' },
    changes: {
      type: 'object',
      description: "Against the run's own records",
      properties: { counts: COUNTS_SCHEMA, records: { type: 'array', items: RECORD_CHANGE_SCHEMA } },
    },
  },
} as const;

export const ARCHIVE_USAGE_RESPONSE = {
  type: 'object',
  required: ['pages', 'documents', 'page_bytes', 'document_bytes', 'stored_bytes', 'ratio', 'retention_days'],
  properties: {
    pages: { type: 'integer', description: "Pages archived for the caller's runs" },
    documents: { type: 'integer', description: 'Distinct documents they refer to (stored once each)' },
    page_bytes: { type: 'integer', description: 'What the pages take stored one by one, uncompressed' },
    document_bytes: { type: 'integer', description: 'The distinct documents, uncompressed' },
    stored_bytes: { type: 'integer', description: 'The distinct documents as stored (gzip)' },
    ratio: { type: ['number', 'null'], description: 'page_bytes / stored_bytes' },
    oldest: NULLABLE_TIME,
    retention_days: { type: 'integer', description: 'snapshots.retentionDays (0: kept until deleted)' },
  },
} as const;

export const SNAPSHOT_SETTINGS_RESPONSE = { type: 'object', required: ['runs'], properties: { runs: { type: 'boolean' } } } as const;
