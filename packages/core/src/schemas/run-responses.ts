// Response schemas of the run endpoints (spec 4.3 items 2-4, 2.7); their request schema is RUN_BODY
// (run-requests.ts), which checks direct calls too.
import { POLITENESS } from './crawl-responses.ts';
import { CHANGES_SCHEMA } from './schedule-responses.ts';
import { RUN_STATUSES } from './statuses.ts';

const RECORDS = {
  type: 'array',
  items: { type: 'object' },
  description: 'With provenance: true (a Gleaner extension) each record carries `_provenance`.',
} as const;
const DATA_MAP = { type: 'object', additionalProperties: RECORDS, description: "URL -> records; a failed URL's entry is []." } as const;
const ERRORS_MAP = { type: 'object', additionalProperties: { type: 'string' }, description: 'URL -> why it failed.' } as const;

const STATUS = { enum: RUN_STATUSES } as const;
const MESSAGES = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: "URL -> what its item says beside its records, e.g. that pagination fell back to the page's own next link (Gleaner extension).",
} as const;
const ERROR = { type: 'string', description: 'A failed run only: why its first URL failed (its entry in `errors`); a Gleaner extension.' } as const;

export const RUN_RESULT_RESPONSE = {
  type: 'object',
  required: ['run_id', 'status'],
  properties: {
    run_id: { type: 'string' },
    status: STATUS,
    credits_charged: { type: 'number' },
    data: { anyOf: [RECORDS, DATA_MAP], description: 'The records when url was one string or omitted; URL -> records when it was a list.' },
    errors: ERRORS_MAP,
    error: ERROR,
    messages: MESSAGES,
  },
} as const;

export const RUN_ACCEPTED_RESPONSE = {
  type: 'object',
  required: ['run_id', 'status'],
  properties: { run_id: { type: 'string' }, status: { enum: ['queued', 'running'] } },
} as const;

export const RUN_STATUS_RESPONSE = {
  type: 'object',
  required: ['run_id', 'status', 'completed', 'total'],
  properties: {
    run_id: { type: 'string' },
    status: STATUS,
    completed: { type: 'integer', description: 'URLs processed (completed or failed).' },
    total: { type: 'integer', description: 'URLs in the run.' },
    credits_charged: { type: 'number', description: 'Once finished.' },
    data: { ...DATA_MAP, description: "Once finished: URL -> records; a failed URL's entry is []." },
    errors: { ...ERRORS_MAP, description: 'Once finished: URL -> why it failed (empty when none did).' },
    schedule_id: { type: 'string', description: 'Gleaner extension: the schedule that started the run (scheduled runs only).' },
    changes: { ...CHANGES_SCHEMA, type: ['object', 'null'], description: 'Gleaner extension (scheduled runs only): null until the finished run is compared.' },
    error: ERROR,
    messages: MESSAGES,
    skipped: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: "Gleaner extension, once finished and only when some were: URL -> why it was skipped (the site's robots.txt rule).",
    },
    politeness: {
      ...POLITENESS,
      description: `Gleaner extension. ${POLITENESS.description} waited_ms is summed over the run's URLs; skipped counts the URLs robots.txt disallowed.`,
      properties: { ...POLITENESS.properties, skipped: { type: 'integer' } },
    },
  },
} as const;
