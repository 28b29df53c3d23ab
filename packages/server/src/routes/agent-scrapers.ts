// Agentic scrapers (spec 4.2 items 4-7): new, generate (the agent records a script in the
// background), read, delete (stopping a build). Runs go through POST /v1/scrapers/run_async.
import { defineRoutes } from '../http/route.ts';
import { AGENT_GENERATE_BODY } from '@gleaner/core';
import { GENERATING_RESPONSE } from './scraper-schemas.ts';
import { kindRoutes } from './scrapers.ts';

export function agentScraperRoutes() {
  return defineRoutes([
    ...kindRoutes('agentic', '/v1/agent', 'agent'),
    {
      method: 'post',
      path: '/v1/agent/generate',
      summary: 'Build an agentic scraper: the agent browses the sample URL once and its actions become a replayable script',
      description:
        'Creates the scraper when template_id is omitted, else rebuilds it (runs keep using its last script until the new one is accepted). ' +
        'The prompt may declare inputs, which become parameters_schema. Poll GET /v1/agent/{scraper_id} until status is ready or failed; ' +
        'then run it with POST /v1/scrapers/run_async.',
      tags: ['agent'],
      auth: 'apiKey',
      startsJob: true,
      body: AGENT_GENERATE_BODY,
      responses: { 202: { description: 'Accepted', schema: GENERATING_RESPONSE } },
      handler: async (ctx, { body }) => ({ status: 202, body: await ctx.engine.scrapers.generate(ctx.owner!, body, 'agentic') }),
    },
  ]);
}
