// Request schemas of the scraper, run and agent operations (engine.runs, engine.scrapers.generate,
// engine.agent.submit, engine.catalog.legacy), checked by the operations themselves and served by the
// HTTP adapter (validation, OpenAPI). Unknown fields are ignored; the scraper-dependent rules (URL
// count of agentic scrapers, parameters, readiness) and the cross-field ones (url or content,
// attributes or prompt, proxy country, cookie shapes) are checked by the operations and reported
// with the same 422 body.
import type { FromSchema } from 'json-schema-to-ts';
import { ATTRIBUTES_REQUEST_SCHEMA } from '../records/attributes.ts';
import { COOKIES_SCHEMA, COST_FIELDS, PROXY_COUNTRY_SCHEMA, TRUST_FIELDS, URL_SCHEMA } from './requests.ts';
import { POLITENESS_REQUEST_SCHEMA } from '../politeness/policy.ts';
import { SNAPSHOTS_FIELD } from './snapshot-requests.ts';
import { PROFILE_FIELD, SAVE_PROFILE_FIELD, SECRETS_SCHEMA } from './secrets.ts';

const CALLBACK_URL_SCHEMA = { type: ['string', 'null'], description: "The finished run's status body is POSTed here, signed (Standard Webhooks)." } as const;
const SOURCE_SCHEMA = { type: ['string', 'null'], default: 'api' } as const;

const URLS_SCHEMA = {
  type: ['string', 'array', 'null'],
  items: { type: 'string', minLength: 1 },
  minItems: 1,
  maxItems: 100,
  description: "One URL, a list of 1-100 URLs (classic scrapers; agentic scrapers take one), or null/omitted for the scraper's own URL.",
} as const;

export const RUN_BODY = {
  type: 'object',
  properties: {
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
    callback_url: CALLBACK_URL_SCHEMA,
    source: SOURCE_SCHEMA,
    pagination_detection_url: {
      type: ['string', 'null'],
      description:
        'Turns pagination on for the run: each URL\'s next pages are followed up to max_pages (default 2 then). See docs/api.md ("Running scrapers").',
    },
    snapshots: {
      type: ['boolean', 'null'],
      description:
        'Gleaner extension: keep every page the run fetches in the snapshot archive (default false), for GET /v1/runs/{run_id}/items/{n}/snapshot and POST /v1/scrapers/{id}/replay.',
    },
    dry_run: COST_FIELDS.dry_run,
    max_credits: COST_FIELDS.max_credits,
    provenance: TRUST_FIELDS.provenance,
    politeness: POLITENESS_REQUEST_SCHEMA,
    profile: PROFILE_FIELD,
  },
} as const;

/** POST /v1/scrapers/run_async takes the same body as POST /v1/scrapers/run. */
export const RUN_ASYNC_BODY = RUN_BODY;

export const GENERATE_BODY = {
  type: 'object',
  properties: {
    template_id: { type: ['string', 'null'], maxLength: 200, description: 'The scraper to regenerate; omitted: a new scraper is created.' },
    url: { type: ['string', 'null'], description: 'The sample page (absolute http(s) URL). With `content`, only the base for relative links.' },
    content: { type: ['string', 'null'], description: 'Raw HTML or text of the sample page, instead of fetching `url`.' },
    attributes: { ...ATTRIBUTES_REQUEST_SCHEMA, description: 'What to extract (spec 2.1). Either attributes or prompt is required.' },
    prompt: { type: ['string', 'null'], default: '', description: 'Free-text instructions; enough on its own when attributes are omitted.' },
    proxy_country: PROXY_COUNTRY_SCHEMA,
    cookies: COOKIES_SCHEMA,
    name: { type: ['string', 'null'], maxLength: 200, description: "Gleaner extension: the scraper's name (default: the sample URL's host and path)." },
    ...COST_FIELDS,
  },
} as const;

const ALLOWED_DOMAINS_SCHEMA = {
  type: ['array', 'null'],
  items: { type: 'string' },
  description:
    'Gleaner extension: the hosts the agent may browse (subdomains included), e.g. ["example.com"]. A navigation or a click that would leave them is refused and reported to the model; the start URL must be inside them.',
} as const;

export const AGENT_GENERATE_BODY = {
  type: 'object',
  required: ['url', 'prompt'],
  properties: {
    template_id: { type: ['string', 'null'], maxLength: 200, description: 'The agentic scraper to rebuild; omitted: a new scraper is created.' },
    url: { type: 'string', description: 'The page the agent starts from (absolute http(s) URL); runs without a url start here.' },
    prompt: {
      type: 'string',
      description:
        'What the agent should do and extract. Inputs may be declared, e.g. "parameter `query` (string) — the search term" or "min_rating (number, default 4)"; they become parameters_schema.',
    },
    attributes: { ...ATTRIBUTES_REQUEST_SCHEMA, description: 'The fields of each record (spec 2.1); optional, the prompt can say what to return.' },
    name: { type: ['string', 'null'], maxLength: 200, description: "Gleaner extension: the scraper's name (default: the URL's host and path)." },
    allowed_domains: ALLOWED_DOMAINS_SCHEMA,
    secrets: SECRETS_SCHEMA,
    profile: PROFILE_FIELD,
    save_profile: SAVE_PROFILE_FIELD,
    ...COST_FIELDS,
  },
} as const;

export const AGENT_EXTRACT_BODY = {
  type: 'object',
  required: ['url', 'prompt'],
  properties: {
    url: { ...URL_SCHEMA, description: 'Where the agent starts browsing' },
    prompt: { type: 'string', minLength: 1, description: 'What the agent should do and gather (navigate, search, open tabs, page through results...)' },
    attributes: { ...ATTRIBUTES_REQUEST_SCHEMA, description: 'The fields of each record: a list of {name, description?, type?} (or the map forms); optional.' },
    callback_url: { type: ['string', 'null'], description: "The finished task's status body is POSTed here, signed (Standard Webhooks)." },
    source: SOURCE_SCHEMA,
    allowed_domains: ALLOWED_DOMAINS_SCHEMA,
    secrets: SECRETS_SCHEMA,
    profile: PROFILE_FIELD,
    save_profile: SAVE_PROFILE_FIELD,
    ...COST_FIELDS,
    ...TRUST_FIELDS,
    ...SNAPSHOTS_FIELD,
  },
} as const;

const OPTIONS = { keepDefaultedPropertiesOptional: true } as const;
/** POST /v1/scrapers/run and run_async (engine.runs.run, engine.runs.submit). */
export type RunScraperRequest = FromSchema<typeof RUN_BODY, typeof OPTIONS>;
/** POST /v1/extractor/generate (engine.scrapers.generate). */
export type GenerateScraperRequest = FromSchema<typeof GENERATE_BODY, typeof OPTIONS>;
/** POST /v1/agent/generate (engine.scrapers.generate with kind 'agentic'). */
export type GenerateAgenticScraperRequest = FromSchema<typeof AGENT_GENERATE_BODY, typeof OPTIONS>;
/** POST /v1/agent/extract (engine.agent.submit). */
export type AgentTaskRequest = FromSchema<typeof AGENT_EXTRACT_BODY, typeof OPTIONS>;
