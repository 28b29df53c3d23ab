// The deprecated legacy agents interface (spec 4.5), served on its own listener ({agents_url}).
import { clientSignal } from '../http/client-signal.ts';
import { LEGACY_GENERATE_BODY, LEGACY_REMOVE_BODY, LEGACY_SCRAPE_BODY } from '@gleaner/core';
import { defineRoutes, route, type RouteDef } from '../http/route.ts';
import { systemRoutes } from '../routes/system.ts';

const KEEP_SYSTEM = new Set(['/readyz', '/openapi.json', '/docs']);

/** Every route of the legacy agents listener. */
export function legacyRoutes(): RouteDef[] {
  return [
    ...systemRoutes().filter((r) => KEEP_SYSTEM.has(r.path)),
    ...defineRoutes([
      route({
        method: 'post',
        path: '/v1/generate',
        startsJob: true,
        summary: 'Build (or rebuild) the agent `name`: a classic scraper of yours (deprecated: POST /v1/extractor/generate)',
        tags: ['legacy agents'],
        deprecated: true,
        auth: 'apiKey',
        body: LEGACY_GENERATE_BODY,
        responses: {
          202: { description: 'Build started', schema: { type: 'object', properties: { name: { type: 'string' }, status: { const: 'generating' } } } },
        },
        handler: async ({ engine, owner }, { body }) => ({ status: 202, body: await engine.catalog.legacy.generate(owner!, body) }),
      }),
      route({
        method: 'post',
        path: '/v1/scrape',
        startsJob: true,
        summary: 'Run an agent, or a public one (`public/<slug>`) (deprecated: POST /v1/scrapers/run)',
        tags: ['legacy agents'],
        deprecated: true,
        auth: 'apiKey',
        body: LEGACY_SCRAPE_BODY,
        responses: {
          200: { description: 'Records', schema: { type: 'object', properties: { data: { type: 'array', items: { type: 'object' } } } } },
          202: { description: 'Still running after the wait: poll GET /v1/scrapers/run_async/{run_id} on the current API' },
        },
        handler: async (ctx, { body }) => {
          const result = await ctx.engine.catalog.legacy.scrape(ctx.owner!, body, clientSignal(ctx));
          return { status: result.finished ? 200 : 202, body: result.body };
        },
      }),
      route({
        method: 'get',
        path: '/v1/list',
        summary: 'Your agents and the public ones (deprecated: GET /v1/scrapers and GET /v1/scraper-apis)',
        tags: ['legacy agents'],
        deprecated: true,
        auth: 'apiKey',
        responses: { 200: { description: '{agents: {user: [{id, name, status}], public: [{id, name}]}}' } },
        handler: async ({ engine, owner }) => ({ body: await engine.catalog.legacy.list(owner!) }),
      }),
      route({
        method: 'post',
        path: '/v1/remove',
        summary: 'Remove an agent and its scraper (deprecated: DELETE /v1/extractor/{template_id})',
        tags: ['legacy agents'],
        deprecated: true,
        auth: 'apiKey',
        body: LEGACY_REMOVE_BODY,
        responses: { 200: { description: 'Removed', schema: { type: 'object', properties: { message: { type: 'string' } } } } },
        handler: async ({ engine, owner }, { body }) => ({ body: await engine.catalog.legacy.remove(owner!, body) }),
      }),
    ]),
  ];
}
