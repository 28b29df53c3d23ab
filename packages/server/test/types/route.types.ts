// Compile-time checks (tsc in `make lint`; nothing runs): route() types a handler from its schemas.
// Its input has the types of its params/query/body schemas, and the JSON body it answers must be a
// value of one of its response schemas.
import { ID_PARAMS, RUN_ACCEPTED_RESPONSE } from '@gleaner/core';
import { route } from '../../src/http/route.ts';

const QUERY = { type: 'object', properties: { limit: { type: 'integer', default: 10 } } } as const;
const ANSWER = { type: 'object', required: ['id', 'limit'], properties: { id: { type: 'string' }, limit: { type: 'integer' } } } as const;

// The input is typed: params.run_id is a string, query.limit a number (ajv fills in its default).
route({
  method: 'get',
  path: '/probe/:run_id',
  summary: 'probe',
  auth: 'none',
  params: ID_PARAMS('run_id'),
  query: QUERY,
  responses: { 200: { description: 'ok', schema: ANSWER } },
  handler: async (_ctx, { params, query }) => ({ body: { id: params.run_id, limit: query.limit } }),
});

// Either of two responses' bodies; a route without a schema for some status answers anything.
route({
  method: 'post',
  path: '/probe',
  summary: 'probe',
  auth: 'none',
  responses: { 202: { description: 'accepted', schema: RUN_ACCEPTED_RESPONSE }, 200: { description: 'ok', schema: ANSWER } },
  handler: async () => ({ status: 202, body: { run_id: 'r', status: 'queued' as const } }),
});

route({
  method: 'get',
  path: '/probe/:run_id',
  summary: 'probe',
  auth: 'none',
  params: ID_PARAMS('run_id'),
  responses: { 200: { description: 'ok', schema: ANSWER } },
  // @ts-expect-error `limit` is required by the response schema
  handler: async (_ctx, { params }) => ({ body: { id: params.run_id } }),
});

route({
  method: 'get',
  path: '/probe/:run_id',
  summary: 'probe',
  auth: 'none',
  params: ID_PARAMS('run_id'),
  responses: { 200: { description: 'ok', schema: RUN_ACCEPTED_RESPONSE } },
  // @ts-expect-error 'paused' is not a status RUN_ACCEPTED_RESPONSE allows
  handler: async (_ctx, { params }) => ({ body: { run_id: params.run_id, status: 'paused' as const } }),
});

route({
  method: 'get',
  path: '/probe/:run_id',
  summary: 'probe',
  auth: 'none',
  params: ID_PARAMS('run_id'),
  responses: { 200: { description: 'ok', schema: ANSWER } },
  // @ts-expect-error the path has no parameter `id`
  handler: async (_ctx, { params }) => ({ body: { id: params.id, limit: 1 } }),
});

// A schema that lost its literal type (not `as const`) does not type-check silently.
const LOOSE: Record<string, unknown> = { type: 'object' };
route({
  method: 'get',
  path: '/probe',
  summary: 'probe',
  auth: 'none',
  responses: { 200: { description: 'ok', schema: LOOSE } },
  // @ts-expect-error declare the schema `as const`
  handler: async () => ({ body: { anything: 1 } }),
});
