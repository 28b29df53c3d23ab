// Response schemas and formats of the map and crawl endpoints (Gleaner extensions); their request
// schemas live in core (MAP_BODY, CRAWL_BODY).
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
};

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
};

export const CRAWL_STATUS_RESPONSE = {
  type: 'object',
  required: ['crawl_id', 'status'],
  properties: {
    crawl_id: { type: 'string' },
    status: { enum: ['discovering', 'running', 'stopped', 'completed', 'failed'] },
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
        properties: { run_id: { type: 'string' }, status: { type: 'string' }, completed: { type: 'integer' }, total: { type: 'integer' } },
      },
      description: 'Its runs (each at GET /v1/scrapers/run_async/{run_id}).',
    },
    politeness: POLITENESS,
    map: { type: ['object', 'null'], description: 'What discovery read: sitemaps, pages_visited, disallowed.' },
    error: { type: ['string', 'null'] },
    created_at: { type: 'string' },
    finished_at: { type: ['string', 'null'] },
  },
};

export const CRAWL_RESULTS_QUERY = {
  type: 'object',
  properties: { format: { enum: ['jsonl', 'csv'], default: 'jsonl' } },
};

function cell(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row per record (url, status, error, then the records' fields); a URL without records gets one row. */
export function resultsAsCsv(rows: Array<{ url: string; status: string; records: unknown[] | null; error: string | null }>): string {
  const fields: string[] = [];
  for (const r of rows) for (const rec of r.records ?? []) for (const k of Object.keys(rec as object)) if (!fields.includes(k)) fields.push(k);
  const lines = [['url', 'status', 'error', ...fields].map(cell).join(',')];
  for (const r of rows) {
    const records = (r.records?.length ? r.records : [null]) as Array<Record<string, unknown> | null>;
    for (const rec of records) lines.push([r.url, r.status, r.error, ...fields.map((f) => rec?.[f])].map(cell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
