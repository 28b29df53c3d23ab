import { GENERATE_BODY, ID_PARAMS } from '@gleaner/core';
import { defineRoutes, route, type RouteDef } from '../http/route.ts';
import { AGENTIC_RESPONSE, DELETED_RESPONSE, EXTRACTOR_RESPONSE, GENERATING_RESPONSE, SCRAPER_LIST_RESPONSE, TEMPLATE_ID_RESPONSE } from '@gleaner/core';
import { DRY_RUN_RESPONSE } from '@gleaner/core';

type Kind = 'extractor' | 'agentic';

/** new / get / delete of one kind of scraper (`/v1/extractor/...` or `/v1/agent/...`). */
export function kindRoutes(kind: Kind, prefix: string, tag: string): RouteDef[] {
  const what = kind === 'extractor' ? 'classic scraper' : 'agentic scraper';
  return [
    route({
      method: 'post',
      path: `${prefix}/new`,
      summary: `Create an empty ${what}`,
      tags: [tag],
      auth: 'apiKey',
      responses: { 200: { description: "The new scraper's id", schema: TEMPLATE_ID_RESPONSE } },
      handler: async (ctx) => ({ body: await ctx.engine.scrapers.create(ctx.owner!, { kind }) }),
    }),
    route({
      method: 'get',
      path: `${prefix}/:scraper_id`,
      summary: `A ${what}: status, and once built its sample output`,
      description: `404 for the other kind of scraper, another owner's scraper or an unknown id.`,
      tags: [tag],
      auth: 'apiKey',
      params: ID_PARAMS('scraper_id'),
      responses: { 200: { description: 'The scraper', schema: kind === 'extractor' ? EXTRACTOR_RESPONSE : AGENTIC_RESPONSE } },
      handler: async (ctx, { params }) => ({ body: await ctx.engine.scrapers.get(ctx.owner!, params.scraper_id, kind) }),
    }),
    route({
      method: 'delete',
      path: `${prefix}/:scraper_id`,
      summary: `Delete a ${what}`,
      description:
        kind === 'extractor'
          ? 'A build in progress finds the scraper gone and changes nothing. 404 for the other kind of scraper.'
          : 'Stops a build in progress (its job is cancelled, the agent and its browser session stop), then deletes. 404 for the other kind of scraper.',
      tags: [tag],
      auth: 'apiKey',
      params: ID_PARAMS('scraper_id'),
      responses: { 200: { description: 'Deleted', schema: DELETED_RESPONSE } },
      handler: async (ctx, { params }) => ({ body: await ctx.engine.scrapers.remove(ctx.owner!, params.scraper_id, kind) }),
    }),
  ];
}

/** Spec 4.1 items 6-9 and 4.3 item 1 (the agentic scrapers' routes are in agent-scrapers.ts). */
export function scrapersRoutes() {
  return defineRoutes([
    ...kindRoutes('extractor', '/v1/extractor', 'extractor'),
    route({
      method: 'post',
      path: '/v1/extractor/generate',
      startsJob: true,
      summary: 'Build a classic scraper (a recipe) from a sample URL or content, in the background',
      description:
        'Creates the scraper when template_id is omitted, else regenerates it (runs keep using its last recipe until the new one is accepted). Poll GET /v1/extractor/{scraper_id} until status is ready or failed.' +
        ' Gleaner extensions: `dry_run: true` answers 200 with an `estimate`; `max_credits` / `max_tokens` refuse the build (402 BUDGET_EXCEEDED) when its least cost passes them, and stop it mid-way (status failed, error saying so) when it reaches them.',
      tags: ['extractor'],
      auth: 'apiKey',
      body: GENERATE_BODY,
      responses: {
        202: { description: 'Accepted', schema: GENERATING_RESPONSE },
        200: { description: 'dry_run: true — the estimate (a range; nothing created or queued)', schema: DRY_RUN_RESPONSE },
      },
      // dry_run: true (a Gleaner extension): the estimate, 200; nothing created or queued.
      handler: async (ctx, { body }) =>
        body.dry_run === true
          ? { body: await ctx.engine.scrapers.estimateGenerate(ctx.owner!, body) }
          : { status: 202, body: await ctx.engine.scrapers.generate(ctx.owner!, body) },
    }),
    route({
      method: 'get',
      path: '/v1/scrapers',
      summary: "The caller's scrapers, both kinds, newest first",
      tags: ['scrapers'],
      auth: 'apiKey',
      responses: { 200: { description: 'Scrapers', schema: SCRAPER_LIST_RESPONSE } },
      handler: async (ctx) => ({ body: await ctx.engine.scrapers.list(ctx.owner!) }),
    }),
  ]);
}
