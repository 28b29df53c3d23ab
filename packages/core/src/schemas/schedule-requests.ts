// Request schemas of the schedules (a Gleaner extension): POST /v1/schedules, PATCH
// /v1/schedules/{id}, the run status' ?changes= and the replay. Checked by the operations, served by
// the HTTP adapter (validation, OpenAPI). The cron expression, time zone and the run part (URLs,
// parameters, max_pages, callback URL) are checked by the operations with the run rules.
import type { FromSchema } from 'json-schema-to-ts';
import { NOTIFY_MODES } from './statuses.ts';

const URLS_SCHEMA = {
  type: ['string', 'array', 'null'],
  items: { type: 'string', minLength: 1 },
  minItems: 1,
  maxItems: 100,
  description: "What each firing runs: one URL, a list of 1-100 URLs, or null/omitted for the scraper's own URL (as in run_async).",
} as const;

const SCHEDULE_FIELDS = {
  cron: {
    type: 'string',
    minLength: 1,
    maxLength: 200,
    description: 'A five-field cron expression ("0 * * * *": every hour), or an RFC 5545 RRULE. At most one firing a minute.',
  },
  timezone: { type: ['string', 'null'], maxLength: 100, description: 'IANA time zone the cron expression is read in (default UTC).' },
  url: URLS_SCHEMA,
  parameters: { type: ['object', 'null'], description: 'Custom parameters of an agentic scraper, as in run_async.' },
  max_pages: { type: ['integer', 'null'], minimum: 1, description: 'Pages read per URL, as in run_async (default 1).' },
  callback_url: {
    type: ['string', 'null'],
    description: 'Where notifications are POSTed, signed (Standard Webhooks) and retried like every callback; see `notify`.',
  },
  notify: {
    enum: [...NOTIFY_MODES, null],
    description: 'When a finished run is POSTed to callback_url: every run, runs where a record is new, changed or removed (default), or failed runs.',
  },
  name: { type: ['string', 'null'], maxLength: 200 },
  key_attributes: {
    type: ['array', 'null'],
    items: { type: 'string', minLength: 1, maxLength: 200 },
    minItems: 1,
    maxItems: 20,
    description: 'The fields that identify a record across runs (e.g. ["sku"]); default: a hash of the record\'s identifying fields (docs/api.md).',
  },
  snapshots: { type: ['boolean', 'null'], description: 'Keep the fetched pages in the snapshot archive (default true for scheduled runs).' },
} as const;

export const SCHEDULE_BODY = {
  type: 'object',
  required: ['cron'],
  properties: {
    template_id: { type: ['string', 'null'], maxLength: 200, description: 'The scraper each firing runs (required).' },
    ...SCHEDULE_FIELDS,
  },
} as const;

export const SCHEDULE_PATCH_BODY = {
  type: 'object',
  properties: { ...SCHEDULE_FIELDS, cron: { ...SCHEDULE_FIELDS.cron, minLength: 1 } },
} as const;

export const SCHEDULES_QUERY = {
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, maximum: 200, default: 100 } },
} as const;

export const RUN_STATUS_QUERY = {
  type: 'object',
  properties: {
    changes: {
      type: 'boolean',
      default: false,
      description: "Gleaner extension: a scheduled run's `changes` lists its records' states, not only their counts.",
    },
  },
} as const;

export const REPLAY_BODY = {
  type: 'object',
  required: ['run_id'],
  properties: {
    run_id: { type: 'string', minLength: 1, maxLength: 200, description: 'A run whose pages are in the snapshot archive.' },
    version: { type: ['integer', 'null'], minimum: 1, description: "The scraper's recipe version to run (default: the current one)." },
  },
} as const;

export const SNAPSHOT_PARAMS = {
  type: 'object',
  required: ['run_id', 'n'],
  properties: {
    run_id: { type: 'string', minLength: 1, maxLength: 200 },
    n: { type: 'integer', minimum: 0, maximum: 99, description: "The item: the URL's 0-based index in the run." },
  },
} as const;

export const SNAPSHOT_QUERY = {
  type: 'object',
  properties: { page: { type: 'integer', minimum: 1, maximum: 1000, default: 1, description: 'The page of the item (1: the URL itself).' } },
} as const;

export const SNAPSHOT_SETTINGS_BODY = {
  type: 'object',
  required: ['runs'],
  properties: {
    runs: { type: 'boolean', description: 'Keep the pages of every run that does not say (its `snapshots` field wins); scheduled runs follow their schedule.' },
  },
} as const;

export type SnapshotSettingsRequest = FromSchema<typeof SNAPSHOT_SETTINGS_BODY>;
export type ScheduleRequest = FromSchema<typeof SCHEDULE_BODY>;
export type SchedulePatchRequest = FromSchema<typeof SCHEDULE_PATCH_BODY>;
export type ReplayRequest = FromSchema<typeof REPLAY_BODY>;
