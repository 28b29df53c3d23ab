import { defineRoutes, route } from '../http/route.ts';
import { ID_PARAMS } from '@gleaner/core';

const NULLABLE_STRING = { type: ['string', 'null'] } as const;

const LIST_ITEM = {
  type: 'object',
  required: ['slug', 'title', 'description', 'source_domain'],
  properties: { slug: { type: 'string' }, title: { type: 'string' }, description: { type: 'string' }, source_domain: NULLABLE_STRING },
} as const;

const DETAIL = {
  type: 'object',
  required: ['slug', 'title', 'description', 'faqs', 'article_links'],
  properties: {
    ...LIST_ITEM.properties,
    niche: NULLABLE_STRING,
    use_case: NULLABLE_STRING,
    long_description: NULLABLE_STRING,
    value_proposition: NULLABLE_STRING,
    sample_url: NULLABLE_STRING,
    sample_input: { type: ['object', 'null'] },
    sample_output: { description: 'What the scraper produced on its sample page (a list of records)' },
    faqs: {
      type: 'array',
      items: { type: 'object', required: ['question', 'answer'], properties: { question: { type: 'string' }, answer: { type: 'string' } } },
    },
    article_links: { type: 'array', items: { type: 'object', required: ['url', 'title'], properties: { url: { type: 'string' }, title: { type: 'string' } } } },
    input_schema: { type: ['array', 'null'], items: { type: 'object' }, description: 'The parameters a run takes (agentic scrapers with parameters)' },
    output_schema: { type: ['array', 'null'], items: { type: 'object' }, description: 'The attributes of each record' },
  },
} as const;

const CLONE_RESPONSE = {
  type: 'object',
  required: ['template_id', 'type', 'name'],
  properties: { template_id: { type: 'string' }, type: { enum: ['extractor', 'agentic'] }, name: { type: 'string' } },
} as const;

/** Spec 4.4 items 1-3: the public scraper APIs (published with `gleaner catalog publish`). */
export function catalogRoutes() {
  return defineRoutes([
    route({
      method: 'get',
      path: '/v1/scraper-apis',
      summary: 'The public scraper APIs',
      tags: ['scraper-apis'],
      auth: 'none',
      responses: { 200: { description: 'Public entries, by title', schema: { type: 'array', items: LIST_ITEM } } },
      handler: async ({ engine }) => ({ body: await engine.catalog.list() }),
    }),
    route({
      method: 'get',
      path: '/v1/scraper-apis/:slug',
      summary: 'One public scraper API',
      tags: ['scraper-apis'],
      auth: 'none',
      params: ID_PARAMS('slug'),
      responses: { 200: { description: 'The public detail', schema: DETAIL } },
      handler: async ({ engine }, { params }) => ({ body: await engine.catalog.detail(params.slug) }),
    }),
    route({
      method: 'post',
      path: '/v1/scraper-apis/:slug/clone',
      summary: "Copy a public scraper API into the caller's scrapers",
      description:
        'Takes a bearer access token (`gleaner tokens create`), not an API key. The new scraper is a copy of the published snapshot: it runs like any of your scrapers, and later changes to the entry do not change it.',
      tags: ['scraper-apis'],
      auth: 'bearer',
      params: ID_PARAMS('slug'),
      responses: { 200: { description: 'The new scraper', schema: CLONE_RESPONSE } },
      handler: async ({ engine, owner }, { params }) => ({ body: await engine.catalog.clone(owner!, params.slug) }),
    }),
  ]);
}
