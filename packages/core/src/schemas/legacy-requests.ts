// Request schemas of the deprecated legacy agents interface (engine.catalog.legacy, spec 4.5),
// checked by its operations and served by the legacy listener.
import type { FromSchema } from 'json-schema-to-ts';
import { ATTRIBUTES_REQUEST_SCHEMA } from '../records/attributes.ts';
import { COOKIES_SCHEMA, PROXY_COUNTRY_SCHEMA, URL_SCHEMA } from './requests.ts';

const NAME = { type: 'string', minLength: 1, maxLength: 200, description: 'The agent name; `public/<slug>` addresses a public scraper API' } as const;

export const LEGACY_GENERATE_BODY = {
  type: 'object',
  required: ['name', 'url'],
  properties: {
    name: NAME,
    url: URL_SCHEMA,
    prompt: { type: ['string', 'null'], default: '' },
    attributes: { ...ATTRIBUTES_REQUEST_SCHEMA, description: 'A map name -> description or name -> {description, type} (the list form is accepted too).' },
    proxy_country: PROXY_COUNTRY_SCHEMA,
    cookies: COOKIES_SCHEMA,
  },
} as const;

export const LEGACY_SCRAPE_BODY = {
  type: 'object',
  required: ['name'],
  properties: {
    name: NAME,
    url: { type: ['string', 'null'], description: 'Default: the URL the agent was built on' },
    proxy_country: PROXY_COUNTRY_SCHEMA,
    cookies: COOKIES_SCHEMA,
  },
} as const;

export const LEGACY_REMOVE_BODY = { type: 'object', required: ['name'], properties: { name: NAME } } as const;

const OPTIONS = { keepDefaultedPropertiesOptional: true } as const;
/** POST /v1/generate on the legacy listener (engine.catalog.legacy.generate). */
export type LegacyGenerateRequest = FromSchema<typeof LEGACY_GENERATE_BODY, typeof OPTIONS>;
/** POST /v1/scrape on the legacy listener (engine.catalog.legacy.scrape). */
export type LegacyScrapeRequest = FromSchema<typeof LEGACY_SCRAPE_BODY, typeof OPTIONS>;
/** POST /v1/remove on the legacy listener (engine.catalog.legacy.remove). */
export type LegacyRemoveRequest = FromSchema<typeof LEGACY_REMOVE_BODY, typeof OPTIONS>;
