// Response schemas of the scraper endpoints (spec 2.3-2.5, 4.1 items 6-9, 4.2 items 4, 6, 7, 4.3
// item 1); their request schemas are GENERATE_BODY and AGENT_GENERATE_BODY (run-requests.ts).
import { SCRAPER_STATUSES, SCRAPER_TYPES } from './statuses.ts';

export const TEMPLATE_ID_RESPONSE = { type: 'object', required: ['template_id'], properties: { template_id: { type: 'string' } } } as const;

export const GENERATING_RESPONSE = {
  type: 'object',
  required: ['template_id', 'status'],
  properties: { template_id: { type: 'string' }, status: { const: 'generating' } },
} as const;

const DRIFT = {
  type: ['object', 'null'],
  properties: { detected_at: { type: 'string' }, reason: { type: ['string', 'null'] } },
  description: 'Layout drift a run found and no heal or regeneration has fixed yet.',
} as const;

const STATUS = { enum: [...SCRAPER_STATUSES, null], description: 'null: created and never generated.' } as const;

export const EXTRACTOR_RESPONSE = {
  type: 'object',
  required: ['template_id', 'type', 'name', 'mode', 'url', 'status'],
  properties: {
    template_id: { type: 'string' },
    type: { const: 'extractor' },
    name: { type: 'string' },
    mode: { type: 'string', description: 'code' },
    url: { type: ['string', 'null'] },
    status: STATUS,
    error: { type: 'string', description: 'Why the last build failed (status failed only).' },
    attributes: { type: 'array', items: { type: 'object' }, description: 'The attributes of the last build, in list form.' },
    prompt: { type: 'string' },
    recipe_version: { type: ['integer', 'null'], description: 'The recipe version runs use; null until a build succeeds.' },
    recipe: { type: ['object', 'null'], description: 'That recipe (selectors, reads, transforms).' },
    sample_data: { type: ['array', 'null'], items: { type: 'object' }, description: 'What the recipe produced on its sample page.' },
    credits_charged: { type: 'number', description: "Credits charged for this scraper's builds and heals so far." },
    drift: DRIFT,
    created_at: { type: 'string' },
  },
} as const;

export const AGENTIC_RESPONSE = {
  type: 'object',
  required: ['template_id', 'type', 'status', 'name', 'url'],
  properties: {
    template_id: { type: 'string' },
    type: { const: 'agentic' },
    status: STATUS,
    name: { type: 'string' },
    url: { type: ['string', 'null'] },
    error: { type: 'string', description: 'Why the last build failed (status failed only).' },
    sample_data: { type: ['array', 'null'], items: { type: 'object' } },
    parameters_schema: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'type'],
        properties: { name: { type: 'string' }, type: { type: 'string' }, description: { type: 'string' }, default: {} },
      },
      description: 'Present only when the scraper takes custom parameters; one without a default is required.',
    },
    prompt: { type: 'string', description: 'Gleaner extension: the prompt of the last build.' },
    attributes: { type: 'array', items: { type: 'object' }, description: 'Gleaner extension: the attributes of the last build, in list form.' },
    credits_charged: { type: 'number' },
    created_at: { type: 'string' },
  },
} as const;

export const DELETED_RESPONSE = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } as const;

export const SCRAPER_LIST_RESPONSE = {
  type: 'array',
  items: {
    type: 'object',
    required: ['id', 'name', 'type'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      type: { enum: SCRAPER_TYPES },
      status: STATUS,
      url: { type: ['string', 'null'] },
      created_at: { type: ['string', 'null'] },
      drift: DRIFT,
    },
  },
} as const;
