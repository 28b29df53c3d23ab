import { defineRoutes, route } from '../http/route.ts';
import { SETTINGS_SCHEMA, USAGE_QUERY, USAGE_RESPONSE } from '@gleaner/core';

const EXTENSION = 'A Gleaner extension (not in the interface other clients know).';

/** The usage report and the owner's settings: grounding policy and budgets (Gleaner extensions). */
export function costRoutes() {
  return defineRoutes([
    route({
      method: 'get',
      path: '/v1/usage',
      summary: "The caller's usage between two times, grouped by day, scraper or kind",
      description: `${EXTENSION} Pages, model calls, tokens, credits, unsupported values and money per group; totals are the sum of the items. A run counts when it finishes.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      query: USAGE_QUERY,
      responses: { 200: { description: 'The usage report', schema: USAGE_RESPONSE } },
      handler: async (ctx, { query }) => ({ body: await ctx.engine.cost.usage(ctx.owner!, query) }),
    }),
    route({
      method: 'get',
      path: '/v1/settings',
      summary: "The caller's settings: default grounding policy, daily and monthly budgets",
      description: EXTENSION,
      tags: ['gleaner'],
      auth: 'apiKey',
      responses: { 200: { description: 'The settings (null: not set)', schema: SETTINGS_SCHEMA } },
      handler: async (ctx) => ({ body: await ctx.engine.cost.settings(ctx.owner!) }),
    }),
    route({
      method: 'put',
      path: '/v1/settings',
      summary: "Changes the caller's settings",
      description: `${EXTENSION} Keys given replace their value (null clears one); keys omitted are kept. Answers the settings now.`,
      tags: ['gleaner'],
      auth: 'apiKey',
      body: SETTINGS_SCHEMA,
      responses: { 200: { description: 'The settings now', schema: SETTINGS_SCHEMA } },
      handler: async (ctx, { body }) => ({ body: await ctx.engine.cost.putSettings(ctx.owner!, body) }),
    }),
  ]);
}
