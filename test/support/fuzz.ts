// A seeded fuzzer over every endpoint of both listeners. The route lists come from the apps' own
// RouteDefs (apiRoutes(), legacyRoutes()), so an endpoint added later is fuzzed without a change
// here; request bodies follow each route's JSON Schema, then are mutated toward what hostile or
// broken clients send. Every answer is checked: never 5xx, every 422 in the documented shape, the
// other errors {detail, code}, and no row stored by a rejected request.
import { gzipSync } from 'node:zlib';
import type { RouteDef } from '../../packages/server/src/http/route.ts';

export type Rng = () => number;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
const chance = (rng: Rng, p: number) => rng() < p;

function nested(depth: number, leaf: unknown, asList: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asList ? [v] : { d: v };
  return v;
}

/** Names every plain object has: a lookup by client input in a plain object must not find them (issue 23). */
export const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'] as const;

/** Values hostile or merely odd clients send, for any field. */
function hostileValue(rng: Rng, ctx: FuzzTargets): unknown {
  const values: Array<() => unknown> = [
    () => null,
    () => true,
    () => 0,
    () => -1,
    () => 1e308,
    () => 2 ** 53 + 1,
    () => 0.5,
    () => '',
    () => ' ',
    () => 'a\u0000b',
    () => '\u0000',
    () => 'x\ud800y',
    () => '\udfff',
    () => 'emoji 😀 ok',
    () => '%',
    () => '%ff%00',
    () => '../../etc/passwd',
    () => '<script>alert(1)</script>',
    () => "'; DROP TABLE tasks; --",
    () => 'x'.repeat(5_000 + Math.floor(rng() * 20_000)),
    () => [],
    () => {},
    () => [[[]]],
    () => JSON.parse('{"__proto__": {"polluted": true}}'),
    () => ({ constructor: { prototype: { polluted: true } } }),
    () => nested(10 + Math.floor(rng() * 60), 'leaf', chance(rng, 0.5)),
    () => Array.from({ length: 500 + Math.floor(rng() * 3_000) }, (_, i) => i),
    () => Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i])),
    () => 'http://',
    () => 'javascript:alert(1)',
    () => 'file:///etc/passwd',
    () => 'http://10.0.0.1/',
    () => 'http://[::1]:5432/',
    () => 'http://169.254.169.254/latest/meta-data/',
    () => ctx.pageUrl,
    () => 'random',
    () => 'US',
    () => 'Romania',
    () => 'Atlantis',
    () => pick(rng, PROTOTYPE_KEYS),
    () => pick(rng, ctx.ids),
  ];
  return pick(rng, values)();
}

export interface FuzzTargets {
  /** A page that answers 200, for URL fields. */
  pageUrl: string;
  /** Ids that exist (scrapers, tasks, slugs) and some that do not. */
  ids: string[];
}

/** A value for `schema`: mostly valid, sometimes hostile, sometimes missing. */
export function sampleFromSchema(schema: any, rng: Rng, ctx: FuzzTargets, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 6) return hostileValue(rng, ctx);
  if (chance(rng, 0.08)) return hostileValue(rng, ctx);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return chance(rng, 0.9) ? pick(rng, schema.enum) : hostileValue(rng, ctx);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return sampleFromSchema(pick(rng, union), rng, ctx, depth + 1);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['string', 'object', 'integer'];
  const type = pick(rng, types);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return chance(rng, 0.5);
    case 'integer':
      return chance(rng, 0.8) ? Math.floor(rng() * 5) : pick(rng, [-5, 0, 1_000_000, 2 ** 40]);
    case 'number':
      return rng() * 100;
    case 'string': {
      const name = String(schema.description ?? '').toLowerCase();
      if (/url/.test(name) || schema.format === 'uri') return chance(rng, 0.6) ? ctx.pageUrl : hostileValue(rng, ctx);
      return chance(rng, 0.7) ? pick(rng, ['products', 'title', 'a', 'Widget', ...ctx.ids]) : hostileValue(rng, ctx);
    }
    case 'array': {
      const n = Math.floor(rng() * 4);
      return Array.from({ length: n }, () => sampleFromSchema(schema.items, rng, ctx, depth + 1));
    }
    case 'object':
    default: {
      const out: Record<string, unknown> = {};
      const props = (schema.properties ?? {}) as Record<string, unknown>;
      const required = new Set<string>(schema.required ?? []);
      for (const [k, sub] of Object.entries(props)) {
        if (required.has(k) ? chance(rng, 0.93) : chance(rng, 0.5)) out[k] = sampleFromSchema(sub, rng, ctx, depth + 1);
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        for (let i = Math.floor(rng() * 3); i > 0; i--)
          out[pick(rng, ['title', 'price', 'na\u0000me', '', 'x'.repeat(300), '😀', ...PROTOTYPE_KEYS])] = sampleFromSchema(
            schema.additionalProperties,
            rng,
            ctx,
            depth + 1,
          );
      }
      if (chance(rng, 0.1)) out[pick(rng, ['source', 'extra', '__proto__', 'constructor'])] = hostileValue(rng, ctx);
      return out;
    }
  }
}

/** A path segment for a parameter: a real id, or something a router or database may choke on. */
function pathSegment(rng: Rng, ctx: FuzzTargets): string {
  if (chance(rng, 0.5)) return encodeURIComponent(pick(rng, ctx.ids));
  return pick(rng, [
    '%',
    '%ff',
    '%00',
    'a%00b',
    '%e0%a4',
    'a%zz',
    '..',
    '%2e%2e',
    encodeURIComponent('x'.repeat(300)),
    encodeURIComponent('😀'),
    '%ED%A0%80',
    encodeURIComponent("'; select 1; --"),
    'public%2Fx',
    ...PROTOTYPE_KEYS,
  ]);
}

export interface FuzzRequest {
  listener: 'api' | 'legacy';
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The route it was built for (absent: an unknown path). */
  route?: string;
}

const RAW_BODIES = ['{', '[1, 2', 'null', '"str"', '123', 'true', '{"url": 1}garbage', '\u0000', '{"a": "\\ud800"}', '{"a": "\\u0000"}', '['.repeat(3_000), ''];

/** One request: a route of either listener (or an unknown path), its body, headers and encoding. */
export function buildRequest(rng: Rng, routes: { api: RouteDef[]; legacy: RouteDef[] }, ctx: FuzzTargets, key: string, bearer: string): FuzzRequest {
  const listener = chance(rng, 0.8) ? 'api' : 'legacy';
  const list = routes[listener];
  if (chance(rng, 0.03)) {
    return {
      listener,
      method: pick(rng, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']),
      path: pick(rng, ['/', '/v1', '/v1/nope', '/v1/extractor/', '/%', '/v1/%ff', `/v1/${'a'.repeat(2_000)}`]),
      headers: { 'X-API-KEY': key },
    };
  }
  const route = pick(rng, list);
  const template = chance(rng, 0.3) && route.aliases?.length ? pick(rng, route.aliases) : route.path;
  let path = template.replace(/:(\w+)/g, () => pathSegment(rng, ctx));
  if (chance(rng, 0.15)) path += pick(rng, ['?a=1&a=2', '?%ff=1', '?x[y]=z', `?q=${'%00'}`, '?limit=-1&offset=abc', '?__proto__[x]=1']);
  const headers: Record<string, string> = {};
  const auth = rng();
  if (route.auth === 'bearer') {
    if (auth < 0.85) headers.Authorization = `Bearer ${bearer}`;
    else if (auth < 0.92) headers.Authorization = pick(rng, ['Bearer ', 'Bearer glt_x', 'Basic abc', `Bearer ${bearer} extra`]);
  } else if (auth < 0.9) headers['X-API-KEY'] = key;
  else if (auth < 0.95) headers['X-API-KEY'] = pick(rng, ['glk_AAAAAAAA_' + 'a'.repeat(32), 'garbage', ' ', 'glk_\u00e9']);
  const req: FuzzRequest = { listener, method: route.method.toUpperCase(), path, headers, route: `${route.method.toUpperCase()} ${route.path}` };
  if (route.method === 'get') return req; // fetch sends no body with GET
  if (route.method === 'delete') {
    if (chance(rng, 0.05)) req.body = JSON.stringify(hostileValue(rng, ctx));
    return req;
  }
  const r = rng();
  if (r < 0.8) req.body = JSON.stringify(route.body ? sampleFromSchema(route.body, rng, ctx) : hostileValue(rng, ctx)) ?? 'null';
  else if (r < 0.9) req.body = pick(rng, RAW_BODIES);
  else if (r < 0.94) {
    req.body = pick(rng, [Buffer.from('not gzip at all'), gzipSync('{"url": "x"').subarray(0, 12), Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0])]);
    req.headers['Content-Encoding'] = pick(rng, ['gzip', 'deflate', 'br', 'x-unknown', 'gzip, gzip']);
  } else if (r < 0.97)
    req.body = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]); // {"a":"<invalid UTF-8>"}
  else req.body = JSON.stringify({ pad: 'x'.repeat(300 * 1024) });
  req.headers['Content-Type'] = chance(rng, 0.85)
    ? 'application/json'
    : pick(rng, [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        '',
      ]);
  return req;
}

export interface FuzzFinding {
  request: FuzzRequest;
  status: number;
  problem: string;
  body: string;
}

/** The answer's problem, if any: a 5xx, or a body not in the documented shape for its status. */
export function checkAnswer(status: number, text: string, method: string): string | null {
  if (status >= 500) return `status ${status}`;
  if (method === 'HEAD' || status === 204 || status < 400) return null;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} with a body that is not JSON`;
  }
  if (status === 422) {
    if (!Array.isArray(body?.detail) || body.detail.length === 0) return '422 without a detail list';
    for (const d of body.detail) {
      if (!Array.isArray(d?.loc) || !['body', 'path', 'query'].includes(d.loc[0])) return `422 entry with loc ${JSON.stringify(d?.loc)}`;
      if (!d.loc.every((p: unknown) => typeof p === 'string' || Number.isInteger(p))) return '422 loc with a part that is neither string nor integer';
      if (typeof d.msg !== 'string' || !d.msg) return '422 entry without msg';
      if (typeof d.type !== 'string' || !d.type) return '422 entry without type';
    }
    return null;
  }
  if (typeof body?.detail !== 'string' || !body.detail || typeof body?.code !== 'string') return `status ${status} without {detail, code}`;
  return null;
}

export interface FuzzTarget {
  apiUrl: string;
  legacyUrl: string;
  key: string;
  bearer: string;
  routes: { api: RouteDef[]; legacy: RouteDef[] };
  targets: FuzzTargets;
  /** Rows a rejected request must not have added (one number per table), read after each write. */
  storedRows(): Promise<number[]>;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  byStatus: Record<number, number>;
  routesHit: Set<string>;
  findings: FuzzFinding[];
  ms: number;
}

/** Sends `count` requests one after another (so a rejected write can be checked for stored rows). */
export async function runFuzz(t: FuzzTarget, count: number, seed: number): Promise<FuzzReport> {
  const rng = seededRng(seed);
  const report: FuzzReport = { seed, requests: 0, byStatus: {}, routesHit: new Set(), findings: [], ms: 0 };
  const started = Date.now();
  let rows = await t.storedRows();
  for (let i = 0; i < count; i++) {
    const req = buildRequest(rng, t.routes, t.targets, t.key, t.bearer);
    const base = req.listener === 'api' ? t.apiUrl : t.legacyUrl;
    let status = 0;
    let text = '';
    try {
      const body = Buffer.isBuffer(req.body) ? new Uint8Array(req.body) : req.body;
      const res = await fetch(new URL(req.path, base), { method: req.method, headers: req.headers, body, signal: AbortSignal.timeout(60_000) });
      status = res.status;
      text = await res.text();
    } catch (err) {
      report.findings.push({ request: req, status: 0, problem: `no answer: ${(err as Error).message}`, body: '' });
      continue;
    }
    report.requests++;
    report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
    if (req.route) report.routesHit.add(`${req.listener} ${req.route}`);
    const problem = checkAnswer(status, text, req.method);
    if (problem) report.findings.push({ request: req, status, problem, body: text.slice(0, 500) });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const now = await t.storedRows();
      if (status >= 400 && now.some((n, k) => n > rows[k])) {
        report.findings.push({ request: req, status, problem: `a rejected request stored rows (${rows} -> ${now})`, body: text.slice(0, 500) });
      }
      rows = now;
    }
  }
  report.ms = Date.now() - started;
  return report;
}

/** A finding as a line a person can replay. */
export function describeFinding(f: FuzzFinding): string {
  const body =
    f.request.body === undefined ? '' : Buffer.isBuffer(f.request.body) ? ` body=<${f.request.body.length} bytes>` : ` body=${f.request.body.slice(0, 300)}`;
  return `${f.problem}: ${f.request.listener} ${f.request.method} ${f.request.path.slice(0, 200)} headers=${JSON.stringify(f.request.headers)}${body} -> ${f.status} ${f.body}`;
}
