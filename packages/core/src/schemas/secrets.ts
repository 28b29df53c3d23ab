// Request and response schemas of signed-in sites (Gleaner extensions): the `secrets` field of agent
// tasks and agentic scraper builds, the `profile` / `save_profile` fields, and the profiles API.
import { COOKIES_SCHEMA, PROFILE_FIELD } from './requests.ts';

export { PROFILE_FIELD };

export const SECRETS_SCHEMA = {
  type: ['object', 'null'],
  additionalProperties: {
    anyOf: [
      { type: 'string', minLength: 1 },
      {
        type: 'object',
        required: ['value'],
        properties: {
          type: { enum: ['secret', 'totp'], default: 'secret' },
          value: { type: 'string', minLength: 1, description: 'The secret, or for totp the base32 seed (RFC 6238: SHA-1, 30 s, 6 digits).' },
          description: { type: 'string', maxLength: 300, description: 'What it is, for the agent (e.g. "the account password").' },
        },
      },
    ],
  },
  description:
    'Gleaner extension: secret inputs the agent types through a placeholder: `{"password": "..."}` or `{"otp": {"type": "totp", "value": "<base32 seed>"}}`. The model sees `{{password}}`, never the value; a totp code is computed when it is typed. Stored encrypted (auth.secretsKey); never returned.',
} as const;

export const PROFILE_NAME_SCHEMA = {
  type: 'string',
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$',
  description: 'A profile name: letters, digits, `_`, `.`, `-` (at most 100).',
} as const;

export const SAVE_PROFILE_FIELD = {
  type: ['string', 'null'],
  description:
    'Gleaner extension: when the agent is done, its browser state (cookies) is saved as this profile (created or replaced), for extract, runs and agent tasks to use as `profile`.',
} as const;

export const PROFILE_CREATE_BODY = {
  type: 'object',
  required: ['name', 'cookies'],
  properties: {
    name: PROFILE_NAME_SCHEMA,
    cookies: { ...COOKIES_SCHEMA, description: 'The cookies of the signed-in session (the shapes of `cookies` on extract).' },
    local_storage: {
      type: ['object', 'null'],
      additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
      description: 'Local storage by origin: {"https://example.com": {"key": "value"}}; kept with the profile.',
    },
  },
} as const;

export const PROFILE_SUMMARY = {
  type: 'object',
  required: ['name', 'domains', 'created_at', 'updated_at'],
  properties: {
    name: { type: 'string' },
    domains: { type: 'array', items: { type: 'string' }, description: 'The domains its cookies are for (never the values).' },
    cookies: { type: 'integer', description: 'How many cookies it holds.' },
    source: { type: 'string', description: '`import` (POST /v1/profiles), `agent_task` or `agentic_scraper` (saved by one).' },
    scraper_id: { type: ['string', 'null'], description: 'The agentic scraper whose replay signs in again when the profile has expired.' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const;

export const PROFILE_LIST_RESPONSE = {
  type: 'object',
  required: ['profiles'],
  properties: { profiles: { type: 'array', items: PROFILE_SUMMARY } },
} as const;
