// Agentic scrapers (spec 4.2 items 4-7): new, generate (the agent records a script in the
// background), read, delete (stopping a build). Runs go through POST /v1/scrapers/run_async.
import { defineRoutes, route } from '../http/route.ts';
import { AGENT_GENERATE_BODY } from '@gleaner/core';
import { GENERATING_RESPONSE } from '@gleaner/core';
import { kindRoutes } from './scrapers.ts';
import { DRY_RUN_RESPONSE } from '@gleaner/core';

export function agentScraperRoutes() {
  return defineRoutes([
    ...kindRoutes('agentic', '/v1/agent', 'agent'),
    route({
      method: 'post',
      path: '/v1/agent/generate',
      summary: 'Build an agentic scraper: the agent browses the sample URL once and its actions become a replayable script',
      description:
        'Creates the scraper when template_id is omitted, else rebuilds it (runs keep using its last script until the new one is accepted). ' +
        'The prompt may declare inputs, which become parameters_schema. Poll GET /v1/agent/{scraper_id} until status is ready or failed; ' +
        'then run it with POST /v1/scrapers/run_async.' +
        ' Gleaner extensions: `dry_run: true` answers 200 with an `estimate`; `max_credits` / `max_tokens` refuse the build (402 BUDGET_EXCEEDED) when its least cost passes them, and stop it mid-way (status failed, error saying so) when it reaches them.',
      tags: ['agent'],
      auth: 'apiKey',
      startsJob: true,
      body: AGENT_GENERATE_BODY,
      responses: {
        202: { description: 'Accepted', schema: GENERATING_RESPONSE },
        200: { description: 'dry_run: true — the estimate (a range; nothing created or queued)', schema: DRY_RUN_RESPONSE },
      },
      // dry_run: true (a Gleaner extension): the estimate, 200; nothing created or queued.
      handler: async (ctx, { body }) =>
        body.dry_run === true
          ? { body: await ctx.engine.scrapers.estimateGenerate(ctx.owner!, body, 'agentic') }
          : { status: 202, body: await ctx.engine.scrapers.generate(ctx.owner!, body, 'agentic') },
    }),
  ]);
}
