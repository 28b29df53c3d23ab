import { clientSignal } from '../http/client-signal.ts';
import { defineRoutes, route } from '../http/route.ts';
import { ID_PARAMS, RUN_ASYNC_BODY, RUN_BODY, RUN_STATUS_QUERY } from '@gleaner/core';
import { RUN_ACCEPTED_RESPONSE, RUN_RESULT_RESPONSE, RUN_STATUS_RESPONSE } from '@gleaner/core';
import { FORMAT_QUERY, statusOrFile } from './result-files.ts';
import { DRY_RUN_RESPONSE } from '@gleaner/core';

const COST =
  " Gleaner extensions: `dry_run: true` answers 200 with an `estimate` from the scraper's history and queues nothing; `max_credits` (and the owner's budgets) refuse the run with 402 BUDGET_EXCEEDED when not even one URL fits, and fail the URLs past the budget (the run ends completed_partial with the records so far). `provenance: true` adds `_provenance` to each record (the recipe or script rule that read each value, the page URL and content hash).";

/** Spec 4.3 items 2-4: running scrapers, synchronously or in the background. */
export function runsRoutes() {
  return defineRoutes([
    route({
      method: 'post',
      path: '/v1/scrapers/run',
      startsJob: true,
      summary: 'Run a scraper and wait for its records',
      description:
        'Waits up to runs.waitSeconds (GLEANER_RUN_WAIT_SECONDS, 300 by default); a run still going then answers 202 {run_id, status: "running"}: poll GET /v1/scrapers/run_async/{run_id}. 404 for an unknown or another owner\'s scraper, 409 SCRAPER_NOT_READY before its first build.' +
        COST,
      tags: ['scrapers'],
      auth: 'apiKey',
      body: RUN_BODY,
      responses: {
        200: { description: 'The finished run (dry_run: true — the estimate, nothing queued)', schema: { anyOf: [RUN_RESULT_RESPONSE, DRY_RUN_RESPONSE] } },
        202: { description: 'Still running after the wait', schema: RUN_ACCEPTED_RESPONSE },
      },
      handler: async (ctx, { body }) => {
        const result = await ctx.engine.runs.run(ctx.owner!, body, { signal: clientSignal(ctx) });
        return { status: result.finished ? 200 : 202, body: result.body };
      },
    }),
    route({
      method: 'post',
      path: '/v1/scrapers/run_async',
      startsJob: true,
      summary: 'Run a scraper in the background (one job per URL)',
      description: COST.trim(),
      tags: ['scrapers'],
      auth: 'apiKey',
      body: RUN_ASYNC_BODY,
      responses: {
        202: { description: 'Accepted', schema: RUN_ACCEPTED_RESPONSE },
        200: { description: 'dry_run: true — the estimate (nothing queued)', schema: DRY_RUN_RESPONSE },
      },
      handler: async (ctx, { body }) => {
        const answer = await ctx.engine.runs.submit(ctx.owner!, body);
        return { status: 'dry_run' in answer ? 200 : 202, body: answer };
      },
    }),
    route({
      method: 'get',
      path: '/v1/scrapers/run_async/:run_id',
      summary: 'Progress of a run; once finished, its records per URL and errors',
      tags: ['scrapers'],
      auth: 'apiKey',
      description:
        'A run started by a schedule also carries schedule_id and changes (Gleaner extensions): the change counts once the run is compared, with every record that is not unchanged when ?changes=true.',
      params: ID_PARAMS('run_id'),
      query: { type: 'object', properties: { ...RUN_STATUS_QUERY.properties, ...FORMAT_QUERY.properties } },
      responses: { 200: { description: 'Run status (with ?format=csv or jsonl: its results as a file)', schema: RUN_STATUS_RESPONSE } },
      handler: async (ctx, { params, query }) =>
        statusOrFile(ctx.engine, ctx.owner!, 'run', params.run_id, query.format, () =>
          ctx.engine.runs.get(ctx.owner!, params.run_id, { changes: query.changes === true }),
        ),
    }),
  ]);
}
