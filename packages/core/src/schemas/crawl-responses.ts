// Response schemas of the map and crawl endpoints (Gleaner extensions); their request schemas are
// MAP_BODY and CRAWL_BODY.
import { CRAWL_STATUSES, RUN_STATUSES } from './statuses.ts';

export const POLITENESS = {
  type: 'object',
  description: 'The pace per host, whether robots.txt was respected (an owner setting), and what waiting for hosts cost.',
  properties: {
    concurrency: { type: 'integer' },
    delay_ms: { type: 'integer' },
    robots: { enum: ['respected', 'ignored'] },
    waited_ms: { type: 'integer' },
    backoffs: { type: 'integer' },
  },
} as const;

export const MAP_RESPONSE = {
  type: 'object',
  required: ['success', 'urls', 'links'],
  properties: {
    success: { const: true },
    url: { type: 'string', description: 'The start URL, normalised.' },
    urls: {
      type: 'array',
      items: {
        type: 'object',
        required: ['url', 'source'],
        properties: {
          url: { type: 'string' },
          source: { enum: ['start', 'sitemap', 'link'] },
          found_in: { type: 'string', description: 'The sitemap or page it was first found in.' },
        },
      },
    },
    links: { type: 'array', items: { type: 'string' }, description: 'The same URLs as plain strings.' },
    sitemaps: { type: 'array', items: { type: 'string' }, description: 'The sitemap files read.' },
    pages_visited: { type: 'integer' },
    disallowed: { type: 'integer', description: 'URLs found but disallowed by robots.txt (not listed).' },
    partial: { type: 'boolean', description: 'True when the map ran out of time (server.requestTimeoutMs less 15 s) before limit: the URLs found by then.' },
    politeness: POLITENESS,
  },
} as const;

export const CRAWL_STATUS_RESPONSE = {
  type: 'object',
  required: ['crawl_id', 'status'],
  properties: {
    crawl_id: { type: 'string' },
    status: { enum: CRAWL_STATUSES },
    url: { type: 'string' },
    template_id: { type: 'string' },
    discovered: { type: 'integer', description: 'URLs discovery kept (after include/exclude and robots.txt).' },
    started: { type: 'integer', description: 'URLs given to a run so far.' },
    completed: { type: 'integer', description: 'URLs whose run recorded them (completed, failed or skipped).' },
    failed: { type: 'integer' },
    skipped: { type: 'integer', description: 'URLs robots.txt disallowed at run time.' },
    runs: {
      type: 'array',
      items: {
        type: 'object',
        properties: { run_id: { type: 'string' }, status: { enum: RUN_STATUSES }, completed: { type: 'integer' }, total: { type: 'integer' } },
      },
      description: 'Its runs (each at GET /v1/scrapers/run_async/{run_id}).',
    },
    politeness: POLITENESS,
    map: { type: ['object', 'null'], description: 'What discovery read: sitemaps, pages_visited, disallowed.' },
    error: { type: ['string', 'null'] },
    created_at: { type: 'string' },
    finished_at: { type: ['string', 'null'] },
  },
} as const;

export const CRAWL_RESULTS_QUERY = {
  type: 'object',
  properties: { format: { enum: ['jsonl', 'csv'], default: 'jsonl' } },
} as const;
