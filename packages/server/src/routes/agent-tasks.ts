import { AGENT_EXTRACT_BODY, ID_PARAMS, TASK_RESPONSE } from '@gleaner/core';
import { defineRoutes, route } from '../http/route.ts';
import { FORMAT_QUERY, statusOrFile } from './result-files.ts';
import { DRY_RUN_RESPONSE } from '@gleaner/core';

const STEP_SCHEMA = {
  type: 'object',
  properties: {
    action: { type: 'string' },
    target: { type: 'string' },
    value: {},
    url: { type: 'string' },
    ok: { type: 'boolean' },
    error: { type: 'string' },
    records: { type: 'integer' },
    duration_ms: { type: 'integer' },
    tokens: { type: 'integer' },
  },
} as const;

const AGENT_TASK_RESPONSE = {
  ...TASK_RESPONSE,
  properties: { ...TASK_RESPONSE.properties, steps: { type: 'array', items: STEP_SCHEMA, description: 'What the agent did so far, one entry per action' } },
} as const;

/** Spec 4.2 items 1-3: the one-shot browsing agent. */
export function agentTaskRoutes() {
  return defineRoutes([
    route({
      method: 'post',
      path: '/v1/agent/extract',
      summary: 'Start a browsing agent that navigates from a URL and extracts records',
      description:
        "Gleaner extensions: `dry_run: true` answers 200 with an `estimate` (a range: `max` is the most within the agent budgets) and queues nothing; `max_tokens` / `max_credits` and the owner's budgets cut the agent's token budget (402 BUDGET_EXCEEDED when already used up; a task that reaches it ends with the records so far and a message). `provenance: true` adds `_provenance` to each record (text spans into what the model read); `grounding` flag or drop adds `warnings` to the status body.",
      tags: ['agent'],
      auth: 'apiKey',
      startsJob: true,
      body: AGENT_EXTRACT_BODY,
      responses: {
        202: { description: 'Accepted', schema: TASK_RESPONSE },
        200: { description: 'dry_run: true — the estimate (nothing queued)', schema: DRY_RUN_RESPONSE },
      },
      handler: async (ctx, { body }) => {
        const answer = await ctx.engine.agent.submit(ctx.owner!, body);
        return { status: 'dry_run' in answer ? 200 : 202, body: answer };
      },
    }),
    route({
      method: 'get',
      path: '/v1/agent/extract/:task_id',
      summary: 'Status of an agent task: its steps so far, and the records once completed',
      tags: ['agent'],
      auth: 'apiKey',
      params: ID_PARAMS('task_id'),
      query: FORMAT_QUERY,
      responses: { 200: { description: 'Task status (with ?format=csv or jsonl: its results as a file)', schema: AGENT_TASK_RESPONSE } },
      handler: async (ctx, { params, query }) =>
        statusOrFile(ctx.engine, ctx.owner!, 'agent', params.task_id, query.format, () => ctx.engine.agent.get(ctx.owner!, params.task_id)),
    }),
    route({
      method: 'post',
      path: '/v1/agent/extract/:task_id/stop',
      summary: 'Stop an agent task (stopped), or learn that it already ended (not_running)',
      tags: ['agent'],
      auth: 'apiKey',
      params: ID_PARAMS('task_id'),
      responses: {
        200: {
          description: 'stopped for a pending or running task; not_running for a finished one (its status is unchanged)',
          schema: {
            type: 'object',
            required: ['task_id', 'status'],
            properties: { task_id: { type: 'string' }, status: { enum: ['stopped', 'not_running'] } },
          },
        },
      },
      handler: async (ctx, { params }) => ({ body: await ctx.engine.agent.stop(ctx.owner!, params.task_id) }),
    }),
  ]);
}
