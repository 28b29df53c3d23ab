// A small bookshop on the fixture site and a model scripted to read it, for the tests of the
// surfaces around the API (metrics, the scripting CLI, the MCP server, the console): standard
// extraction finds the books, a recipe request gets a recipe that reproduces them, so a scraper
// builds to ready in one round and its runs need no model.
import type { ServerResponse } from 'node:http';
import { recipeField, recipeTransform } from './recipe-answers.ts';
import { sentSchema, userContent, waitFor, type Stack } from './stack.ts';

export const BOOK_ATTRS = [
  { name: 'title', type: 'string' },
  { name: 'pages', type: 'number' },
];

const RECIPE = {
  container: { selector: 'li.book' },
  fields: { title: recipeField('.t', 'text'), pages: recipeField('.p', 'text', { transforms: [recipeTransform('number')] }) },
  pagination: null,
};

/** The books of shelf `n`: three titles with their page counts. */
export const shelf = (n: number) => [1, 2, 3].map((k) => ({ title: `Book ${n}.${k}`, pages: n * 100 + k }));

function page(n: number): string {
  const books = shelf(n)
    .map((b) => `<li class="book"><span class="t">${b.title}</span> <span class="p">${b.pages} pages</span></li>`)
    .join('');
  return `<!doctype html><html><head><title>Shelf ${n}</title></head><body><main><h1>Shelf ${n}</h1><ul>${books}</ul></main></body></html>`;
}

/** Serves /shelf?n=N on the stack's fixture site and scripts its model; returns the URL of shelf n. */
export function openBookshop(s: Stack): (n: number) => string {
  s.site.route('/shelf', (_req, res: ServerResponse, url) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(Number(url.searchParams.get('n') ?? 1)));
  });
  s.model.script((req) => {
    if (sentSchema(req)?.properties?.container) return { json: RECIPE, usage: { inputTokens: 300, outputTokens: 80 } };
    const records = [...userContent(req).matchAll(/Book (\d+)\.(\d)/g)].map((m) => ({
      title: `Book ${m[1]}.${m[2]}`,
      pages: `${Number(m[1]) * 100 + Number(m[2])}`,
    }));
    return { json: { records }, usage: { inputTokens: 200, outputTokens: 40 } };
  });
  return (n) => `${s.site.url}/shelf?n=${n}`;
}

/** Generates a scraper from a shelf through the API and waits until it is ready; returns its id. */
export async function buildBookScraper(s: Stack, url: string): Promise<string> {
  const started = await s.api('POST', '/v1/extractor/generate', { url, attributes: BOOK_ATTRS });
  if (started.status !== 202) throw new Error(`generate answered ${started.status}: ${started.text}`);
  const id = started.body.template_id as string;
  const built = await waitFor(
    async () => {
      const r = await s.api('GET', `/v1/extractor/${id}`);
      return r.body.status === 'ready' || r.body.status === 'failed' ? r.body : undefined;
    },
    30_000,
    `scraper ${id} build`,
  );
  if (built.status !== 'ready') throw new Error(`scraper ${id} failed to build: ${JSON.stringify(built)}`);
  return id;
}
