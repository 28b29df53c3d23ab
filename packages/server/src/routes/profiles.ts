import { ID_PARAMS, PROFILE_CREATE_BODY, PROFILE_LIST_RESPONSE, PROFILE_SUMMARY } from '@gleaner/core';
import { defineRoutes, route } from '../http/route.ts';

const EXTENSION =
  'A Gleaner extension (docs/api.md, "Profiles"): stored encrypted with auth.secretsKey (503 SECRETS_KEY_MISSING without it); values are never returned.';

/** Browser profiles: named, per-owner signed-in browser state (Gleaner extension). */
export function profileRoutes() {
  return defineRoutes([
    route({
      method: 'post',
      path: '/v1/profiles',
      summary: 'Import a browser profile from cookies (creates or replaces the profile of that name)',
      description: `${EXTENSION} Use it as \`profile: "name"\` on extract, runs, agent tasks and agentic scrapers.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      body: PROFILE_CREATE_BODY,
      responses: { 201: { description: 'The profile (names and domains only)', schema: PROFILE_SUMMARY } },
      handler: async (ctx, { body }) => ({ status: 201, body: await ctx.engine.profiles.create(ctx.owner!, body) }),
    }),
    route({
      method: 'get',
      path: '/v1/profiles',
      summary: "The caller's browser profiles: names, cookie domains and times (never the values)",
      description: EXTENSION,
      tags: ['gleaner'],
      auth: 'apiKey',
      responses: { 200: { description: 'Profiles', schema: PROFILE_LIST_RESPONSE } },
      handler: async (ctx) => ({ body: await ctx.engine.profiles.list(ctx.owner!) }),
    }),
    route({
      method: 'delete',
      path: '/v1/profiles/:name',
      summary: 'Delete a browser profile',
      description: EXTENSION,
      tags: ['gleaner'],
      auth: 'apiKey',
      params: ID_PARAMS('name'),
      responses: { 200: { description: 'Deleted', schema: { type: 'object', properties: { name: { type: 'string' }, deleted: { const: true } } } } },
      handler: async (ctx, { params }) => ({ body: await ctx.engine.profiles.delete(ctx.owner!, params.name) }),
    }),
  ]);
}
