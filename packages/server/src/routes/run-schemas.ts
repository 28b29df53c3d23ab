// Request and response schemas of the run endpoints (spec 4.3 items 2-4, 2.7). Unknown fields are
// ignored; the scraper-dependent rules (URL count of agentic scrapers, parameters, readiness) are
// checked in core.
import { COOKIES_SCHEMA, PROXY_COUNTRY_SCHEMA } from './schemas.ts';

const URLS_SCHEMA = {
  type: ['string', 'array', 'null'],
  items: { type: 'string', minLength: 1 },
  minItems: 1,
  maxItems: 100,
  description: "One URL, a list of 1-100 URLs (classic scrapers; agentic scrapers take one), or null/omitted for the scraper's own URL.",
};

const commonRun = {
  template_id: { type: ['string', 'null'], description: 'The scraper to run (required, or the legacy scraper_id).' },
  scraper_id: { type: ['string', 'null'], description: 'Legacy name of template_id.', deprecated: true },
  url: URLS_SCHEMA,
  proxy_country: PROXY_COUNTRY_SCHEMA,
  cookies: COOKIES_SCHEMA,
  max_pages: {
    type: ['integer', 'null'],
    minimum: 1,
    description: 'Pages read per URL, the first included (default 1; 2 when pagination_detection_url is set).',
  },
  parameters: { type: ['object', 'null'], description: 'Custom parameters of an agentic scraper with a parameters_schema.' },
  callback_url: { type: ['string', 'null'], description: "The finished run's status body is POSTed here, signed (Standard Webhooks)." },
  source: { type: ['string', 'null'], default: 'api' },
};

export const RUN_BODY = {
  type: 'object',
  properties: {
    ...commonRun,
    pagination_detection_url: {
      type: ['string', 'null'],
      description:
        'Turns pagination on for the run: each URL\'s next pages are followed up to max_pages (default 2 then). See docs/api.md ("Running scrapers").',
    },
  },
};

export const RUN_ASYNC_BODY = RUN_BODY;

const RECORDS = { type: 'array', items: { type: 'object' } };
const DATA_MAP = { type: 'object', additionalProperties: RECORDS, description: "URL -> records; a failed URL's entry is []." };
const ERRORS_MAP = { type: 'object', additionalProperties: { type: 'string' }, description: 'URL -> why it failed.' };
const STATUS = { enum: ['queued', 'running', 'completed', 'completed_partial', 'failed'] };

export const RUN_RESULT_RESPONSE = {
  type: 'object',
  required: ['run_id', 'status'],
  properties: {
    run_id: { type: 'string' },
    status: STATUS,
    credits_charged: { type: 'number' },
    data: { anyOf: [RECORDS, DATA_MAP], description: 'The records when url was one string or omitted; URL -> records when it was a list.' },
    errors: ERRORS_MAP,
  },
};

export const RUN_ACCEPTED_RESPONSE = {
  type: 'object',
  required: ['run_id', 'status'],
  properties: { run_id: { type: 'string' }, status: { enum: ['queued', 'running'] } },
};

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
  },
};
