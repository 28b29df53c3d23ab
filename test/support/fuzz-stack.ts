// The fuzzer's target: the whole service (both listeners) on fresh schemas, with a scraper, a task
// and a page to point at, and a row count of every table a request could write.
import { randomBytes, randomUUID } from 'node:crypto';
import { apiRoutes } from '../../packages/server/src/routes/index.ts';
import { legacyRoutes } from '../../packages/server/src/legacy/routes.ts';
import { sentSchema, startStack, type Stack } from './stack.ts';
import type { FuzzTarget } from './fuzz.ts';
import { recipeField } from './recipe-answers.ts';

export async function startFuzzTarget(): Promise<{ stack: Stack; target: FuzzTarget }> {
  // Small body limit: the 413 path is exercised without sending megabytes. Limits off: the fuzzer
  // is one owner sending thousands of requests a minute.
  // A secrets key, as a server offering profiles has: a fuzzed `profile` is then the client's mistake (404), not 503.
  const stack = await startStack({
    worker: false,
    agents: true,
    config: { server: { bodyLimitBytes: 256 * 1024 }, auth: { secretsKey: randomBytes(32).toString('base64') } },
  });
  stack.site.page(
    '/fuzz',
    '<!doctype html><html><head><title>Fuzz</title></head><body><h1>Widgets</h1><div class="card"><h2>Widget 1</h2><span>1.10 EUR</span></div></body></html>',
  );
  // The model answers every kind of call well, so a 5xx can only be Gleaner's.
  const recipe = (schema: any) => {
    const names = Object.keys(schema.properties.fields?.properties ?? {});
    return {
      container: { selector: 'div.card' },
      fields: Object.fromEntries((names.length ? names : ['title']).map((n) => [n, recipeField('h2', 'text')])),
      pagination: null,
    };
  };
  stack.model.script((req) => {
    const schema = sentSchema(req);
    return { json: schema?.properties?.container ? recipe(schema) : { records: [{ title: 'Widget 1', price: 1.1 }] } };
  });
  const scraper = (await stack.api('POST', '/v1/extractor/new')).body.template_id as string;
  const pageUrl = `${stack.site.url}/fuzz`;
  const task = (await stack.api('POST', '/v1/extractor/extract_async', { url: pageUrl, prompt: 'widgets' })).body.task_id as string;
  const bearer = (await stack.engine.createAccessToken('alice')).token;
  const tables = ['tasks', 'scrapers', 'runs', 'run_items', 'legacy_agents', 'catalog_entries', 'api_keys', 'access_tokens'];
  const target: FuzzTarget = {
    apiUrl: stack.url,
    legacyUrl: stack.agentsUrl,
    key: stack.key,
    bearer,
    routes: { api: apiRoutes(), legacy: legacyRoutes() },
    targets: { pageUrl, ids: [scraper, task, 'public/none', randomUUID(), 'nope', scraper.toUpperCase()] },
    async storedRows() {
      const { rows } = await stack.engine.db.query<Record<string, number>>(
        `SELECT ${tables.map((t) => `(SELECT count(*)::int FROM ${t}) AS ${t}`).join(', ')}`,
      );
      return tables.map((t) => rows[0][t]);
    },
  };
  return { stack, target };
}
