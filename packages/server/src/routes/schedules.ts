import { defineRoutes, type RouteDef } from '../http/route.ts';
import { ID_PARAMS, REPLAY_BODY, SCHEDULE_BODY, SCHEDULE_PATCH_BODY, SCHEDULES_QUERY, SNAPSHOT_PARAMS, SNAPSHOT_QUERY } from '@gleaner/core';
import { ARCHIVE_USAGE_RESPONSE, REPLAY_RESPONSE, SCHEDULE_RESPONSE, SCHEDULES_RESPONSE, TRIGGER_RESPONSE } from './schedule-schemas.ts';

const EXTENSION = 'A Gleaner extension (docs/api.md, "Schedules and change tracking").';
const ID = ID_PARAMS('schedule_id');

/** Schedules, their change tracking, the snapshot archive and replays (Gleaner extensions). */
export function scheduleRoutes() {
  const action = (verb: 'pause' | 'resume', summary: string): RouteDef => ({
    method: 'post',
    path: `/v1/schedules/:schedule_id/${verb}`,
    summary,
    description: `${EXTENSION} 409 for a stopped schedule.`,
    tags: ['gleaner'],
    auth: 'apiKey',
    params: ID,
    responses: { 200: { description: 'The schedule', schema: SCHEDULE_RESPONSE } },
    handler: async (ctx, { params }) => ({ body: await ctx.engine.schedules[verb](ctx.owner!, params.schedule_id) }),
  });
  return defineRoutes([
    {
      method: 'post',
      path: '/v1/schedules',
      summary: 'Schedule a scraper: each firing starts an ordinary run, compared with the last one',
      description: `${EXTENSION} 422 for a bad cron expression or time zone (with the reason), 404 for an unknown or another owner's scraper.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      body: SCHEDULE_BODY,
      responses: { 201: { description: 'The schedule', schema: SCHEDULE_RESPONSE } },
      handler: async (ctx, { body }) => ({ status: 201, body: await ctx.engine.schedules.create(ctx.owner!, body) }),
    },
    {
      method: 'get',
      path: '/v1/schedules',
      summary: "The caller's schedules, newest first, with their health and last run",
      description: EXTENSION,
      tags: ['gleaner'],
      auth: 'apiKey',
      query: SCHEDULES_QUERY,
      responses: { 200: { description: 'Schedules', schema: SCHEDULES_RESPONSE } },
      handler: async (ctx, { query }) => ({ body: await ctx.engine.schedules.list(ctx.owner!, query) }),
    },
    {
      method: 'get',
      path: '/v1/schedules/:schedule_id',
      summary: 'A schedule',
      description: `${EXTENSION} Its runs: GET /v1/runs?schedule_id=.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID,
      responses: { 200: { description: 'The schedule', schema: SCHEDULE_RESPONSE } },
      handler: async (ctx, { params }) => ({ body: await ctx.engine.schedules.get(ctx.owner!, params.schedule_id) }),
    },
    {
      method: 'patch',
      path: '/v1/schedules/:schedule_id',
      summary: "Change a schedule's settings (the fields given)",
      description: `${EXTENSION} Its scraper stays the same; a new cron expression or time zone applies from the next firing.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID,
      body: SCHEDULE_PATCH_BODY,
      responses: { 200: { description: 'The schedule', schema: SCHEDULE_RESPONSE } },
      handler: async (ctx, { params, body }) => ({ body: await ctx.engine.schedules.update(ctx.owner!, params.schedule_id, body) }),
    },
    {
      method: 'delete',
      path: '/v1/schedules/:schedule_id',
      summary: 'Delete a schedule (its runs stay)',
      description: EXTENSION,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID,
      responses: { 200: { description: 'Deleted' } },
      handler: async (ctx, { params }) => ({ body: await ctx.engine.schedules.remove(ctx.owner!, params.schedule_id) }),
    },
    action('pause', 'Pause a schedule (no firing until resumed)'),
    action('resume', 'Resume a paused schedule'),
    {
      method: 'post',
      path: '/v1/schedules/:schedule_id/trigger',
      startsJob: true,
      summary: 'Fire a schedule now (also while paused)',
      description: `${EXTENSION} The run is compared and notified like a scheduled firing's. 409 for a stopped schedule.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID,
      responses: { 202: { description: 'The run', schema: TRIGGER_RESPONSE } },
      handler: async (ctx, { params }) => ({ status: 202, body: await ctx.engine.schedules.trigger(ctx.owner!, params.schedule_id) }),
    },
    {
      method: 'get',
      path: '/v1/runs/:run_id/items/:n/snapshot',
      summary: 'The page a run item fetched, as archived',
      description: `${EXTENSION} n is the URL's 0-based index in the run; ?page= picks a later page of a paginated item. The body is the document (text/html); X-Gleaner-Snapshot-Url, -Hash (SHA-256), -Fetched-At and -Pages describe it. 404 with the reason when nothing was archived.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: SNAPSHOT_PARAMS,
      query: SNAPSHOT_QUERY,
      responses: { 200: { description: 'The archived document (text/html)' } },
      handler: async (ctx, { params, query }) => {
        const s = await ctx.engine.snapshots.get(ctx.owner!, params.run_id, params.n, query.page ?? 1);
        return {
          headers: {
            'X-Gleaner-Snapshot-Url': encodeURI(s.url),
            'X-Gleaner-Snapshot-Hash': s.hash,
            'X-Gleaner-Fetched-At': s.fetchedAt.toISOString(),
            'X-Gleaner-Snapshot-Pages': String(s.pages),
          },
          bytes: { contentType: 'text/html; charset=utf-8', data: s.content },
        };
      },
    },
    {
      method: 'get',
      path: '/v1/snapshots/usage',
      summary: "The size of the caller's part of the snapshot archive",
      description: `${EXTENSION} Documents are stored once by content hash (gzip) however many pages served them.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      responses: { 200: { description: 'Archive size', schema: ARCHIVE_USAGE_RESPONSE } },
      handler: async (ctx) => ({ body: await ctx.engine.snapshots.usage(ctx.owner!) }),
    },
    {
      method: 'post',
      path: '/v1/scrapers/:scraper_id/replay',
      summary: "Run a scraper version on a run's archived pages, fetching nothing",
      description: `${EXTENSION} Classic scrapers; the records per URL, and how they differ from the run's own (to test a heal, or compare versions).`,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID_PARAMS('scraper_id'),
      body: REPLAY_BODY,
      responses: { 200: { description: 'The replay', schema: REPLAY_RESPONSE } },
      handler: async (ctx, { params, body }) => ({ body: await ctx.engine.snapshots.replay(ctx.owner!, params.scraper_id, body) }),
    },
  ]);
}
