// Request schemas of the extraction operations, used by the engine (checkRequest) and served by the
// HTTP adapter (validation, OpenAPI). Unknown fields are ignored; the cross-field rules (url or
// content, attributes or prompt, proxy country, cookie shapes) are checked by the operations and
// reported with the same 422 body.
import { WARNINGS_SCHEMA } from '../trust/schemas.ts';
import type { FromSchema } from 'json-schema-to-ts';
import { ATTRIBUTES_REQUEST_SCHEMA } from '../records/attributes.ts';
import { SNAPSHOTS_FIELD } from './snapshot-requests.ts';
import { TASK_STATUSES } from './statuses.ts';

export const COOKIES_SCHEMA = {
  description:
    'A list of cookie objects {name, value, domain?, path?, url?, expires?, httpOnly?, secure?, sameSite?}, or the older flat form {"name": "value", ...}.',
  anyOf: [
    { type: 'array', maxItems: 300, items: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 4096 } } } },
    { type: 'object', maxProperties: 300 },
    { type: 'null' },
  ],
} as const;

export const PROXY_COUNTRY_SCHEMA = { type: ['string', 'null'], description: 'A value of GET /v1/proxy-countries, or "random".' } as const;

export const URL_SCHEMA = { type: 'string', minLength: 1, description: 'Absolute http(s) URL' } as const;

/** Budgets and dry runs (Gleaner extensions, docs/api.md "Cost before and budgets"): runs, agent tasks, builds and extraction. */
export const COST_FIELDS = {
  dry_run: {
    type: ['boolean', 'null'],
    default: false,
    description: 'Gleaner extension: answer at once with an estimate (pages, model calls, tokens, credits, money); nothing is queued or charged.',
  },
  max_credits: {
    type: ['number', 'null'],
    minimum: 0,
    description: 'Gleaner extension: refuse (402 BUDGET_EXCEEDED) or stop once the work would cost more credits.',
  },
  max_tokens: {
    type: ['integer', 'null'],
    minimum: 0,
    description: 'Gleaner extension: refuse (402 BUDGET_EXCEEDED) or stop once the work would use more model tokens.',
  },
} as const;

/** Provenance and the grounding policy (Gleaner extensions, docs/api.md "Provenance and grounding"). */
export const TRUST_FIELDS = {
  provenance: { type: ['boolean', 'null'], default: false, description: 'Gleaner extension: add `_provenance` to each record (where each value was found).' },
  grounding: {
    enum: ['keep', 'flag', 'drop', null],
    description:
      "Gleaner extension: what to do with values not found on the page: keep (default, or the owner's setting), flag (`warnings`), drop (set to null and listed).",
  },
} as const;

const commonExtract = {
  attributes: {
    ...ATTRIBUTES_REQUEST_SCHEMA,
    description: 'What to extract: a list of {name, description?, type?}, or a map name -> {description, type} or name -> description (deprecated).',
  },
  prompt: { type: ['string', 'null'], default: '', description: 'Free-text instructions; enough on its own when attributes are omitted.' },
  mode: {
    enum: ['standard', 'precision', 'code', 'fast', 'light', null],
    default: 'standard',
    description: 'standard (default), precision (less reduction), code (a generated recipe is executed); fast and light mean standard.',
  },
  enable_pagination: { type: ['boolean', 'null'], default: false },
  max_pages: { type: ['integer', 'null'], minimum: 1, default: 2 },
  source: { type: ['string', 'null'], default: 'api' },
  ...TRUST_FIELDS,
  ...COST_FIELDS,
  ...SNAPSHOTS_FIELD,
} as const;

/** `profile` (a Gleaner extension, docs/api.md "Profiles"): a browser profile's cookies and local storage for the pages. */
export const PROFILE_FIELD = {
  type: ['string', 'null'],
  description:
    'Gleaner extension: the name of one of your browser profiles (GET /v1/profiles): its cookies and local storage are used for every page (404 when there is no such profile).',
} as const;

export const EXTRACT_BODY = {
  type: 'object',
  required: ['url'],
  properties: { url: URL_SCHEMA, ...commonExtract, proxy_country: PROXY_COUNTRY_SCHEMA, cookies: COOKIES_SCHEMA, profile: PROFILE_FIELD },
} as const;

export const EXTRACT_ASYNC_BODY = {
  type: 'object',
  required: ['url'],
  properties: {
    ...EXTRACT_BODY.properties,
    callback_url: { type: ['string', 'null'], description: "The finished task's status body is POSTed here, signed (Standard Webhooks)." },
  },
} as const;

export const PARSE_BODY = {
  type: 'object',
  required: ['content'],
  properties: {
    content: { type: 'string', minLength: 1, description: 'Raw HTML or text' },
    url: { type: ['string', 'null'], description: "Optional: the page's URL, to make relative links absolute" },
    ...commonExtract,
  },
} as const;

export const MARKDOWN_BODY = {
  type: 'object',
  required: ['url'],
  properties: {
    url: URL_SCHEMA,
    proxy_country: PROXY_COUNTRY_SCHEMA,
    cookies: COOKIES_SCHEMA,
    only_main_content: {
      type: 'boolean',
      default: false,
      description:
        "Gleaner extension: only the page's main content (the article, the whole thread, the whole listing, the product's description and specifications, every section of a service page, the documentation body), without navigation, header, footer, sidebars, consent text, related rails, share bars and ads; the page type is detected. Empty when the page has no main content (an app shell)",
    },
    profile: PROFILE_FIELD,
    ...SNAPSHOTS_FIELD,
  },
} as const;

/** POST /v1/extractor/extract (engine.extract), as the schema describes it. */
export type ExtractRequest = FromSchema<typeof EXTRACT_BODY, { keepDefaultedPropertiesOptional: true }>;
/** POST /v1/extractor/extract_async (engine.submitExtractTask). */
export type ExtractAsyncRequest = FromSchema<typeof EXTRACT_ASYNC_BODY, { keepDefaultedPropertiesOptional: true }>;
/** POST /v1/extractor/parse (engine.parse). */
export type ParseRequest = FromSchema<typeof PARSE_BODY, { keepDefaultedPropertiesOptional: true }>;
/** POST /v1/extractor/extract_markdown (engine.extractMarkdown). */
export type MarkdownRequest = FromSchema<typeof MARKDOWN_BODY, { keepDefaultedPropertiesOptional: true }>;

export const RECORDS_RESPONSE = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: { type: 'object' } }, message: { type: 'string' } },
} as const;

export const TASK_RESPONSE = {
  type: 'object',
  required: ['task_id', 'status'],
  properties: {
    task_id: { type: 'string' },
    status: { enum: TASK_STATUSES },
    data: { type: 'array', items: { type: 'object' }, description: 'With provenance: true (a Gleaner extension) each record carries `_provenance`.' },
    message: { type: 'string' },
    error: { type: 'string' },
    warnings: WARNINGS_SCHEMA,
  },
} as const;

const ID = { type: 'string', minLength: 1, maxLength: 200 } as const;
/** The path parameter `name`, an id. */
export const ID_PARAMS = <const N extends string>(name: N) =>
  ({ type: 'object', required: [name], properties: { [name]: ID } as Record<N, typeof ID> }) as const;
