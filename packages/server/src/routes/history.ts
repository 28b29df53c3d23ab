import { defineRoutes, route } from '../http/route.ts';
import { ID_PARAMS } from '@gleaner/core';
import { RUNS_QUERY, RUNS_RESPONSE, TASKS_QUERY, TASKS_RESPONSE, VERSIONS_QUERY, VERSIONS_RESPONSE } from '@gleaner/core';

const EXTENSION = 'A Gleaner extension (not in the interface other clients know).';

/** The caller's recent runs and tasks, and a scraper's versions and heal history (Gleaner extensions). */
export function historyRoutes() {
  return defineRoutes([
    route({
      method: 'get',
      path: '/v1/runs',
      summary: "The caller's scraper runs, newest first, with their progress",
      description: `${EXTENSION} Paginated: pass next_cursor back as ?cursor=. Filter by scraper_id or status. The records are at GET /v1/scrapers/run_async/{run_id}.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      query: RUNS_QUERY,
      responses: { 200: { description: 'A page of runs', schema: RUNS_RESPONSE } },
      handler: async (ctx, { query }) => ({ body: await ctx.engine.history.runs(ctx.owner!, query) }),
    }),
    route({
      method: 'get',
      path: '/v1/tasks',
      summary: "The caller's agent tasks and async extractions, newest first, with their status",
      description: `${EXTENSION} Paginated like /v1/runs; filter by kind (agent, extract) or status. Each task's status and records are at its own status endpoint.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      query: TASKS_QUERY,
      responses: { 200: { description: 'A page of tasks', schema: TASKS_RESPONSE } },
      handler: async (ctx, { query }) => ({ body: await ctx.engine.history.tasks(ctx.owner!, query) }),
    }),
    route({
      method: 'get',
      path: '/v1/scrapers/:scraper_id/versions',
      summary: "A scraper's recipe or script versions and its self-heal attempts, newest first",
      description: `${EXTENSION} Either kind of scraper; 404 for an unknown id or another owner's scraper. ?limit= bounds each list.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID_PARAMS('scraper_id'),
      query: VERSIONS_QUERY,
      responses: { 200: { description: 'Versions and heals', schema: VERSIONS_RESPONSE } },
      handler: async (ctx, { params, query }) => ({ body: await ctx.engine.history.scraperVersions(ctx.owner!, params.scraper_id, query) }),
    }),
  ]);
}
