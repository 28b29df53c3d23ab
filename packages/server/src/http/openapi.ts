import type { RouteDef } from './route.ts';

const ERROR_BODY = {
  type: 'object',
  required: ['detail', 'code'],
  properties: { detail: { type: 'string' }, code: { type: 'string', description: 'Stable error code (docs/errors.md)' } },
};
const VALIDATION_BODY = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        required: ['loc', 'msg', 'type'],
        properties: { loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, msg: { type: 'string' }, type: { type: 'string' } },
      },
    },
  },
};

function toOpenApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** The OpenAPI 3.1 document, generated from the same route schemas that validate requests. */
export function buildOpenApi(routes: RouteDef[], info: { title: string; version: string; description?: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.internal) continue;
    for (const [i, p] of [r.path, ...(r.aliases ?? [])].entries()) {
      const params: unknown[] = [];
      const pathProps = (r.params?.properties ?? {}) as Record<string, Record<string, unknown>>;
      for (const [name, schema] of Object.entries(pathProps)) params.push({ name, in: 'path', required: true, schema });
      const queryProps = (r.query?.properties ?? {}) as Record<string, Record<string, unknown>>;
      const queryRequired = new Set((r.query?.required as string[] | undefined) ?? []);
      for (const [name, schema] of Object.entries(queryProps)) params.push({ name, in: 'query', required: queryRequired.has(name), schema });
      const responses: Record<string, unknown> = {};
      for (const [status, resp] of Object.entries(r.responses ?? { 200: { description: 'OK' } })) {
        responses[status] = resp.schema
          ? { description: resp.description, content: { 'application/json': { schema: resp.schema } } }
          : { description: resp.description };
      }
      if (r.body || r.params || r.query) responses['422'] = { description: 'Validation error', content: { 'application/json': { schema: VALIDATION_BODY } } };
      if (r.auth !== 'none') responses['401'] = { description: 'Missing or invalid credentials', content: { 'application/json': { schema: ERROR_BODY } } };
      if (r.auth !== 'none') {
        const what = r.startsJob ? 'Request rate or concurrent-job limit reached' : 'Request rate limit reached';
        responses['429'] = { description: `${what}; retry after the Retry-After header`, content: { 'application/json': { schema: ERROR_BODY } } };
      }
      responses.default = { description: 'Error', content: { 'application/json': { schema: ERROR_BODY } } };
      const op: Record<string, unknown> = {
        operationId: `${r.method}${toOpenApiPath(p).replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
        summary: i === 0 ? r.summary : `${r.summary} (alias of ${toOpenApiPath(r.path)})`,
        ...(r.description ? { description: r.description } : {}),
        ...(r.tags ? { tags: r.tags } : {}),
        ...(r.deprecated ? { deprecated: true } : {}),
        ...(params.length ? { parameters: params } : {}),
        ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: r.body } } } } : {}),
        ...(r.auth === 'apiKey' ? { security: [{ ApiKeyAuth: [] }] } : r.auth === 'bearer' ? { security: [{ BearerAuth: [] }] } : { security: [] }),
        responses,
      };
      (paths[toOpenApiPath(p)] ??= {})[r.method] = op;
    }
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        BearerAuth: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}

function esc(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A self-contained page rendering the OpenAPI document (no CDN: self-hosted boxes may be offline). */
export function renderDocsPage(doc: Record<string, any>): string {
  const sections: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const auth = op.security?.length ? Object.keys(op.security[0])[0] : 'none';
      const body = op.requestBody
        ? `<details><summary>Request body schema</summary><pre>${esc(JSON.stringify(op.requestBody.content['application/json'].schema, null, 2))}</pre></details>`
        : '';
      const params = (op.parameters ?? []).map((p: any) => `<li><code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ', required' : ''})</li>`).join('');
      const responses = Object.entries(op.responses)
        .map(([s, r]: [string, any]) => `<li><b>${esc(s)}</b> ${esc(r.description)}</li>`)
        .join('');
      sections.push(`<section id="${esc(op.operationId)}"><h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code>${op.deprecated ? ' <em>(deprecated)</em>' : ''}</h3>
<p>${esc(op.summary)}</p>${op.description ? `<p>${esc(op.description)}</p>` : ''}<p>Authentication: <code>${esc(auth)}</code></p>
${params ? `<ul>${params}</ul>` : ''}${body}<ul>${responses}</ul></section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)} API</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}
section{border-top:1px solid #ddd;padding:.5em 0}pre{background:#f6f6f6;padding:.8em;overflow:auto;font-size:13px}
.m{display:inline-block;min-width:4.5em;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:2px 6px}
.get{background:#2b7bb9}.post{background:#2e8b57}.delete{background:#c0392b}.put,.patch{background:#b8860b}</style></head>
<body><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1><p>${esc(doc.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a></p>${sections.join('\n')}</body></html>`;
}
