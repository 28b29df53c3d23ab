// Schemas of the Gleaner-extension endpoints that are not in the interface: the run and task lists,
// a scraper's versions and heal history, and the opt-in extraction details (docs/api.md).
import { COUNTS_SCHEMA } from './schedule-responses.ts';
import { RECORDS_RESPONSE } from './requests.ts';
import { RUN_STATUSES, SCRAPER_TYPES, TASK_KINDS, TASK_STATUSES } from './statuses.ts';
import { ESTIMATE_SCHEMA } from '../cost/estimate.ts';
import { DEFAULT_PAGE, MAX_PAGE } from '../history/index.ts';
import { EXTRACTION_DETAILS_SCHEMA } from '../operations/extract-details.ts';
import { WARNINGS_SCHEMA } from '../trust/schemas.ts';

const LIMIT = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_PAGE,
  default: DEFAULT_PAGE,
  description: `Items per page (1-${MAX_PAGE}, default ${DEFAULT_PAGE})`,
} as const;
const CURSOR = { type: 'string', minLength: 1, maxLength: 400, description: 'next_cursor of the previous page' } as const;
const ID = { type: 'string', minLength: 1, maxLength: 200 } as const;
const NEXT_CURSOR = { type: ['string', 'null'], description: 'Pass as ?cursor= for the next page; null on the last page' } as const;
const TIME = { type: 'string', format: 'date-time' } as const;
const NULLABLE_TIME = { type: ['string', 'null'], format: 'date-time' } as const;

export const DETAILS_QUERY = {
  type: 'object',
  properties: { details: { type: 'boolean', default: false, description: 'Add a `details` object (a Gleaner extension)' } },
} as const;

export const RECORDS_WITH_DETAILS_RESPONSE = {
  ...RECORDS_RESPONSE,
  properties: {
    ...RECORDS_RESPONSE.properties,
    details: EXTRACTION_DETAILS_SCHEMA,
    // Trust and cost (Gleaner extensions): each record may carry `_provenance` (PROVENANCE_SCHEMA).
    warnings: WARNINGS_SCHEMA,
    dry_run: { const: true },
    estimate: ESTIMATE_SCHEMA,
  },
} as const;

/** The answer of a request made with dry_run: true. */
export const DRY_RUN_RESPONSE = {
  type: 'object',
  required: ['dry_run', 'estimate', 'message'],
  properties: { dry_run: { const: true }, estimate: ESTIMATE_SCHEMA, message: { type: 'string' } },
} as const;

export const RUNS_QUERY = {
  type: 'object',
  properties: { limit: LIMIT, cursor: CURSOR, scraper_id: ID, status: { enum: RUN_STATUSES }, schedule_id: { ...ID, description: 'Runs of one schedule' } },
} as const;

export const RUNS_RESPONSE = {
  type: 'object',
  required: ['runs', 'next_cursor'],
  properties: {
    runs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['run_id', 'scraper_id', 'status', 'completed', 'failed', 'total', 'created_at'],
        properties: {
          run_id: { type: 'string' },
          scraper_id: { type: 'string' },
          scraper_name: { type: ['string', 'null'], description: 'null once the scraper was deleted' },
          scraper_type: { enum: [...SCRAPER_TYPES, null] },
          status: { enum: RUN_STATUSES },
          completed: { type: 'integer', description: 'URLs recorded (completed or failed)' },
          failed: { type: 'integer' },
          total: { type: 'integer' },
          credits_charged: { type: 'number' },
          source: { type: ['string', 'null'] },
          created_at: TIME,
          finished_at: NULLABLE_TIME,
          schedule_id: { type: ['string', 'null'], description: 'The schedule that started the run' },
          changes: { ...COUNTS_SCHEMA, type: ['object', 'null'], description: "A scheduled run's change counts, once compared" },
        },
      },
    },
    next_cursor: NEXT_CURSOR,
  },
} as const;

export const TASKS_QUERY = {
  type: 'object',
  properties: { limit: LIMIT, cursor: CURSOR, kind: { enum: TASK_KINDS }, status: { enum: TASK_STATUSES } },
} as const;

export const TASKS_RESPONSE = {
  type: 'object',
  required: ['tasks', 'next_cursor'],
  properties: {
    tasks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['task_id', 'kind', 'status', 'created_at'],
        properties: {
          task_id: { type: 'string' },
          kind: { enum: TASK_KINDS },
          status: { enum: TASK_STATUSES },
          url: { type: ['string', 'null'] },
          prompt: { type: 'string' },
          steps: { type: 'integer', description: "The agent's actions so far" },
          records: { type: ['integer', 'null'] },
          credits_charged: { type: ['number', 'null'] },
          error: { type: ['string', 'null'] },
          created_at: TIME,
          finished_at: NULLABLE_TIME,
        },
      },
    },
    next_cursor: NEXT_CURSOR,
  },
} as const;

export const VERSIONS_QUERY = { type: 'object', properties: { limit: LIMIT } } as const;

export const VERSIONS_RESPONSE = {
  type: 'object',
  required: ['scraper_id', 'type', 'current_version', 'versions', 'heals'],
  properties: {
    scraper_id: { type: 'string' },
    type: { enum: SCRAPER_TYPES },
    current_version: { type: ['integer', 'null'] },
    versions: {
      type: 'array',
      description: 'Newest first',
      items: {
        type: 'object',
        required: ['version', 'current', 'reason', 'created_at'],
        properties: {
          version: { type: 'integer' },
          current: { type: 'boolean' },
          reason: { type: 'string', description: "'generated', 'healed: <drift reason>' or 'cloned from <slug>'" },
          created_at: TIME,
          sample_url: { type: ['string', 'null'] },
          sample_data: { type: ['array', 'null'], items: { type: 'object' } },
          model_calls: { type: 'integer' },
          recipe: { type: 'object', description: 'Classic scrapers' },
          script: { type: 'object', description: 'Agentic scrapers' },
          parameters_schema: { type: ['array', 'null'], items: { type: 'object' } },
        },
      },
    },
    heals: {
      type: 'array',
      description: 'Self-heal attempts after layout drift, newest first',
      items: {
        type: 'object',
        required: ['at', 'trigger', 'outcome'],
        properties: {
          at: TIME,
          trigger: { type: 'string', description: 'The drift the run saw' },
          outcome: { enum: ['healed', 'failed'] },
          detail: { type: ['string', 'null'], description: 'Why a failed heal failed' },
          from_version: { type: ['integer', 'null'] },
          to_version: { type: ['integer', 'null'] },
          url: { type: ['string', 'null'] },
          model_calls: { type: 'integer' },
          credits: { type: 'number' },
        },
      },
    },
  },
} as const;
