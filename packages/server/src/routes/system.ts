import type { Request } from 'express';
import { defineRoutes, route, type RouteDef } from '../http/route.ts';
import { buildOpenApi, renderDocsPage } from '../http/openapi.ts';
import { canonicalProxyCountry, RANDOM_PROXY_COUNTRY, type Engine } from '@gleaner/core';

/**
 * The proxy countries a proxy is configured for (`?configured=true`, a Gleaner extension): every
 * country behind a `"*"` gateway, else the configured ones and `random`; none without proxies.
 */
function configuredProxyCountries(engine: Engine): Record<string, string> {
  const all = engine.proxyCountries();
  const proxies = engine.config.network.proxies ?? {};
  if (Object.hasOwn(proxies, '*')) return all;
  const keys = Object.keys(proxies);
  if (!keys.length) return {};
  const configured = new Set(keys.map((k) => canonicalProxyCountry(k, engine.config) ?? k));
  configured.add(RANDOM_PROXY_COUNTRY);
  return Object.fromEntries(Object.entries(all).filter(([value]) => configured.has(value)));
}
import { STATUS_SCHEMA, statusBody } from './status.ts';

const INFO = {
  title: 'Gleaner',
  version: '0.1.0',
  description: 'Self-hosted web data extraction. Authenticate with the X-API-KEY header; see docs/api.md.',
};

/** The app's OpenAPI document, built once from the routes the app serves. */
function openapi(req: Request): Record<string, unknown> {
  const locals = req.app.locals as { routes: RouteDef[]; openapi?: Record<string, unknown> };
  return (locals.openapi ??= buildOpenApi(locals.routes, INFO));
}

/** Health, reference lists, and the API's own description. */
export function systemRoutes(): RouteDef[] {
  return defineRoutes([
    route({
      method: 'get',
      path: '/readyz',
      summary: 'Health check: 200 when Postgres answers, 503 otherwise',
      tags: ['utilities'],
      auth: 'none',
      responses: {
        200: { description: 'Ready', schema: { type: 'object', properties: { status: { const: 'ok' } } } },
        503: { description: 'Postgres unreachable', schema: { type: 'object', properties: { status: { const: 'unavailable' }, detail: { type: 'string' } } } },
      },
      handler: async ({ engine }) => {
        try {
          await engine.ready();
          return { body: { status: 'ok' as const } };
        } catch (err) {
          return { status: 503, headers: { 'Retry-After': '5' }, body: { status: 'unavailable' as const, detail: (err as Error).message } };
        }
      },
    }),
    route({
      method: 'get',
      path: '/v1/status',
      summary: 'What works now: the database, the model and the browsers, each reported separately (Gleaner extension)',
      tags: ['gleaner'],
      auth: 'none',
      responses: {
        200: { description: 'The database answers; `model` and `browsers` say whether they are configured', schema: STATUS_SCHEMA },
        503: { description: 'Postgres unreachable (the other parts are still reported)', schema: STATUS_SCHEMA },
      },
      handler: async ({ engine }) => {
        const body = await statusBody(engine);
        return body.status === 'ok' ? { body } : { status: 503, headers: { 'Retry-After': '5' }, body };
      },
    }),
    route({
      method: 'get',
      path: '/v1/proxy-countries',
      summary: 'Accepted proxy_country values, mapped to their labels',
      description: 'With ?configured=true (a Gleaner extension) only the countries a proxy is configured for (network.proxies): {} without proxies.',
      tags: ['utilities'],
      auth: 'none',
      query: {
        type: 'object',
        properties: { configured: { type: 'boolean', default: false, description: 'Only the countries a proxy is configured for (a Gleaner extension)' } },
      },
      responses: { 200: { description: 'value -> label', schema: { type: 'object', additionalProperties: { type: 'string' } } } },
      handler: async ({ engine }, { query }) => ({ body: query.configured ? configuredProxyCountries(engine) : engine.proxyCountries() }),
    }),
    route({
      method: 'get',
      path: '/v1/llm-specs',
      summary: 'Models of the configured providers',
      tags: ['utilities'],
      auth: 'none',
      responses: { 200: { description: 'Model specs', schema: { type: 'array', items: { type: 'object' } } } },
      handler: async ({ engine }) => ({ body: await engine.llmSpecs() }),
    }),
    route({
      method: 'get',
      path: '/openapi.json',
      summary: 'This API as an OpenAPI 3.1 document',
      auth: 'none',
      internal: true,
      handler: async ({ req }) => ({ body: openapi(req) }),
    }),
    route({
      method: 'get',
      path: '/docs',
      summary: 'Human-readable API reference',
      auth: 'none',
      internal: true,
      handler: async ({ req }) => ({ html: renderDocsPage(openapi(req)) }),
    }),
  ]);
}
