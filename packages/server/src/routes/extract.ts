import { clientSignal } from '../http/client-signal.ts';
import { defineRoutes, route } from '../http/route.ts';
import { EXTRACT_ASYNC_BODY, EXTRACT_BODY, ID_PARAMS, MARKDOWN_BODY, PARSE_BODY, SNAPSHOT_REFS_SCHEMA, TASK_RESPONSE } from '@gleaner/core';
import { DETAILS_QUERY, DRY_RUN_RESPONSE, RECORDS_WITH_DETAILS_RESPONSE } from '@gleaner/core';
import { FORMAT_QUERY, statusOrFile } from './result-files.ts';

const DETAILS =
  'With ?details=true (a Gleaner extension) the body adds `details`: the driver and size of each page, what the model saw of it, the model, its tokens and the credits charged. ' +
  'Gleaner extensions in the body: `provenance: true` adds `_provenance` to each record, `grounding` (keep, flag, drop) decides what happens to values the page does not support (`warnings`), ' +
  '`dry_run: true` answers an `estimate` and extracts nothing, `max_credits` / `max_tokens` refuse (402 BUDGET_EXCEEDED) or stop the work at that cost, ' +
  '`snapshots: true` keeps the pages read in the snapshot archive and lists them in `snapshots` (GET /v1/snapshots/{hash}).';

/** Spec 4.1 items 1-5: extraction from a URL or from content, markdown, async extraction. */
export function extractRoutes() {
  return defineRoutes([
    route({
      method: 'post',
      path: '/v1/extractor/extract',
      aliases: ['/v1/extract'],
      summary: 'Extract structured records from a URL',
      description: DETAILS,
      tags: ['extractor'],
      auth: 'apiKey',
      body: EXTRACT_BODY,
      query: DETAILS_QUERY,
      responses: { 200: { description: 'Records (`message` says why when there are none)', schema: RECORDS_WITH_DETAILS_RESPONSE } },
      handler: async (ctx, { body, query }) => ({ body: await ctx.engine.extract(ctx.owner!, body, clientSignal(ctx), { details: query.details }) }),
    }),
    route({
      method: 'post',
      path: '/v1/extractor/parse',
      aliases: ['/v1/parse'],
      summary: 'Extract structured records from HTML or text you supply',
      description: DETAILS,
      tags: ['extractor'],
      auth: 'apiKey',
      body: PARSE_BODY,
      query: DETAILS_QUERY,
      responses: { 200: { description: 'Records', schema: RECORDS_WITH_DETAILS_RESPONSE } },
      handler: async (ctx, { body, query }) => ({ body: await ctx.engine.parse(ctx.owner!, body, clientSignal(ctx), { details: query.details }) }),
    }),
    route({
      method: 'post',
      path: '/v1/extractor/extract_markdown',
      aliases: ['/v1/extract_markdown'],
      summary: 'The page at a URL as clean markdown',
      tags: ['extractor'],
      auth: 'apiKey',
      body: MARKDOWN_BODY,
      responses: { 200: { description: 'Markdown', schema: { type: 'object', properties: { data: { type: 'string' }, snapshots: SNAPSHOT_REFS_SCHEMA } } } },
      handler: async (ctx, { body }) => ({ body: await ctx.engine.extractMarkdown(ctx.owner!, body, clientSignal(ctx)) }),
    }),
    route({
      method: 'post',
      path: '/v1/extractor/extract_async',
      startsJob: true,
      summary: 'Start an extraction in the background',
      description: 'With `dry_run: true` (a Gleaner extension) the answer is 200 with an `estimate`, and nothing is queued.',
      tags: ['extractor'],
      auth: 'apiKey',
      body: EXTRACT_ASYNC_BODY,
      responses: {
        202: { description: 'Accepted', schema: TASK_RESPONSE },
        200: { description: 'dry_run: true — the estimate (nothing queued)', schema: DRY_RUN_RESPONSE },
      },
      handler: async (ctx, { body }) => {
        const answer = await ctx.engine.submitExtractTask(ctx.owner!, body);
        return { status: 'dry_run' in answer ? 200 : 202, body: answer };
      },
    }),
    route({
      method: 'get',
      path: '/v1/extractor/extract_async/:task_id',
      summary: 'Status (and, once completed, the records) of a background extraction',
      tags: ['extractor'],
      auth: 'apiKey',
      params: ID_PARAMS('task_id'),
      query: FORMAT_QUERY,
      responses: { 200: { description: 'Task status (with ?format=csv or jsonl: its results as a file)', schema: TASK_RESPONSE } },
      handler: async (ctx, { params, query }) =>
        statusOrFile(ctx.engine, ctx.owner!, 'extract', params.task_id, query.format, () => ctx.engine.getExtractTask(ctx.owner!, params.task_id)),
    }),
  ]);
}
