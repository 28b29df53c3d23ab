import { clientSignal } from '../http/client-signal.ts';
import { defineRoutes, route } from '../http/route.ts';
import { CRAWL_BODY, ID_PARAMS, MAP_BODY } from '@gleaner/core';
import { CRAWL_RESULTS_QUERY, CRAWL_STATUS_RESPONSE, MAP_RESPONSE } from '@gleaner/core';
import { resultsAsCsv } from './crawl-csv.ts';

const EXTENSION = 'A Gleaner extension (not in the interface other clients know).';

/** Maps and crawls (Gleaner extensions): a site's URLs, and a classic scraper over all of them. */
export function crawlRoutes() {
  return defineRoutes([
    route({
      method: 'post',
      path: '/v1/map',
      summary: "A site's URLs: its sitemaps and the links of its pages",
      description: `${EXTENSION} Sitemaps named by robots.txt (else /sitemap.xml), sitemap indexes and gzipped sitemaps, then the links of the pages it visits, breadth first, up to limit; normalised and deduplicated, each with where it was found. robots.txt and the per-host pace apply. Answers when done (no job).`,
      tags: ['gleaner'],
      auth: 'apiKey',
      body: MAP_BODY,
      responses: { 200: { description: 'The URLs', schema: MAP_RESPONSE } },
      handler: async (ctx, { body }) => ({ body: await ctx.engine.map(ctx.owner!, body, clientSignal(ctx)) }),
    }),
    route({
      method: 'post',
      path: '/v1/crawls',
      startsJob: true,
      summary: 'Discover a site as a map does, then run a classic scraper on every page found',
      description: `${EXTENSION} In runs of at most 100 URLs, under the crawl's politeness. 202 with the crawl's status; poll GET /v1/crawls/{crawl_id}, or give a callback_url.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      body: CRAWL_BODY,
      responses: { 202: { description: 'Accepted', schema: CRAWL_STATUS_RESPONSE } },
      handler: async (ctx, { body }) => ({ status: 202, body: await ctx.engine.crawls.submit(ctx.owner!, body) }),
    }),
    route({
      method: 'get',
      path: '/v1/crawls/:crawl_id',
      summary: "A crawl's progress: URLs discovered, started and finished, its runs, its politeness",
      description: EXTENSION,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID_PARAMS('crawl_id'),
      responses: { 200: { description: 'Crawl status', schema: CRAWL_STATUS_RESPONSE } },
      handler: async (ctx, { params }) => ({ body: await ctx.engine.crawls.get(ctx.owner!, params.crawl_id) }),
    }),
    route({
      method: 'get',
      path: '/v1/crawls/:crawl_id/results',
      summary: "A crawl's results so far: one line per URL (JSON Lines), or one row per record (CSV)",
      description: `${EXTENSION} format=jsonl (default): {url, status, records, error} per discovered URL in discovery order (status pending until its run reaches it). format=csv: url, status, error, then one column per field of the records (objects and lists as JSON), one row per record.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID_PARAMS('crawl_id'),
      query: CRAWL_RESULTS_QUERY,
      responses: { 200: { description: 'application/x-ndjson or text/csv' } },
      handler: async (ctx, { params, query }) => {
        const rows = await ctx.engine.crawls.results(ctx.owner!, params.crawl_id);
        if (query.format === 'csv') return { text: { body: resultsAsCsv(rows), contentType: 'text/csv; charset=utf-8' } };
        return { text: { body: rows.map((r) => `${JSON.stringify(r)}\n`).join(''), contentType: 'application/x-ndjson; charset=utf-8' } };
      },
    }),
    route({
      method: 'post',
      path: '/v1/crawls/:crawl_id/stop',
      summary: 'Stop a crawl: no new run starts (the runs already going finish)',
      description: `${EXTENSION} Stopping a finished crawl changes nothing. Resume with POST /v1/crawls/{crawl_id}/resume.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID_PARAMS('crawl_id'),
      responses: { 200: { description: 'Crawl status', schema: CRAWL_STATUS_RESPONSE } },
      handler: async (ctx, { params }) => ({ body: await ctx.engine.crawls.stop(ctx.owner!, params.crawl_id) }),
    }),
    route({
      method: 'post',
      path: '/v1/crawls/:crawl_id/resume',
      startsJob: true,
      summary: 'Resume a stopped (or failed) crawl where it was: URLs already given to a run are not run again',
      description: `${EXTENSION} 409 CONFLICT for a crawl that is not stopped or failed.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID_PARAMS('crawl_id'),
      responses: { 200: { description: 'Crawl status', schema: CRAWL_STATUS_RESPONSE } },
      handler: async (ctx, { params }) => ({ body: await ctx.engine.crawls.resume(ctx.owner!, params.crawl_id) }),
    }),
  ]);
}
