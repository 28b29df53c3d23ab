// Issue 23, item 6: a client-supplied string that names a property every plain object has
// ("constructor", "__proto__", "toString", ...) must never reach a lookup in a plain object and give
// a 500. Every string a route reads — each string field of its body schema (nested ones included),
// each key of its map-shaped fields, each path and query parameter — gets each prototype key, on
// both listeners; none may answer 5xx.
import { expect } from 'chai';
import { PROTOTYPE_KEYS, checkAnswer } from './support/fuzz.ts';
import { startFuzzTarget } from './support/fuzz-stack.ts';
import type { RouteDef } from '../packages/server/src/http/route.ts';
import type { Stack } from './support/stack.ts';
import { applyParameterRules, canonicalProxyCountry, checkCall, parseSetCookie, reducePage, resolveProxy } from '@gleaner/core/internal';

type Path = Array<string | number>;
/** A place in a request body: a string value at `path`, or (`key: true`) a key of the object at `path`. */
interface Slot {
  path: Path;
  key?: boolean;
}

/** A plausible value for a field, so that the one field under test is what the request is about. */
function plausible(name: string, schema: any, ctx: { pageUrl: string; scraper: string }): unknown {
  const type = Array.isArray(schema?.type) ? schema.type.find((t: string) => t !== 'null') : schema?.type;
  if (schema?.enum) return schema.enum[0];
  if (schema?.anyOf || schema?.oneOf) return plausible(name, (schema.anyOf ?? schema.oneOf)[0], ctx);
  if (type === 'array') return [plausible(name, schema.items, ctx)];
  if (type === 'object' || schema?.properties) {
    const out: Record<string, unknown> = {};
    for (const k of schema.required ?? []) out[k] = plausible(k, schema.properties?.[k], ctx);
    return out;
  }
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return false;
  if (/url/.test(name)) return ctx.pageUrl;
  if (/template_id|scraper_id|^id$/.test(name)) return ctx.scraper;
  return name === 'type' ? 'string' : 'widgets';
}

/** Every string leaf and map key of a body schema (first branch of a union, first item of a list). */
function slots(schema: any, path: Path = [], out: Slot[] = [], depth = 0): Slot[] {
  if (!schema || typeof schema !== 'object' || depth > 5) return out;
  for (const branch of schema.anyOf ?? schema.oneOf ?? []) slots(branch, path, out, depth + 1);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes('string') || (!types.length && !schema.properties && !schema.items && !schema.anyOf && !schema.oneOf)) out.push({ path });
  if (schema.items) slots(schema.items, [...path, 0], out, depth + 1);
  for (const [k, sub] of Object.entries(schema.properties ?? {})) slots(sub, [...path, k], out, depth + 1);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    out.push({ path, key: true });
    slots(schema.additionalProperties, [...path, 'name'], out, depth + 1);
  }
  return out;
}

/** `base` with the slot set to `value` (a string value, or a one-key object). */
function withSlot(base: any, slot: Slot, value: string): any {
  const root = structuredClone(base ?? {});
  if (!slot.path.length) return slot.key ? Object.fromEntries([[value, 'string']]) : value;
  let node = root;
  for (const [i, part] of slot.path.entries()) {
    const last = i === slot.path.length - 1;
    if (last && !slot.key) {
      node[part] = value;
    } else if (last) {
      node[part] = JSON.parse(`{${JSON.stringify(value)}: "string"}`); // "__proto__" as an own key, as JSON.parse makes it
    } else {
      const next = slot.path[i + 1];
      if (node[part] === null || typeof node[part] !== 'object') node[part] = typeof next === 'number' ? [] : {};
      node = node[part];
    }
  }
  return root;
}

describe('prototype keys in client input (issue 23 item 6)', function () {
  this.timeout(600_000);
  let stack: Stack;
  let target: Awaited<ReturnType<typeof startFuzzTarget>>['target'];
  before(async () => {
    ({ stack, target } = await startFuzzTarget());
  });
  after(() => stack?.close());

  it('resolves proxy countries by own entries only', () => {
    for (const key of PROTOTYPE_KEYS) {
      expect(canonicalProxyCountry(key), key).to.equal(undefined);
      expect(() => resolveProxy(key, { network: { proxies: {}, defaultProxyCountry: '' } }), key).to.throw(/unknown proxy_country/);
    }
  });

  it('finds nothing for them in the other tables read by outside input: pages, cookies, model tool calls, scraper parameters', () => {
    for (const key of PROTOTYPE_KEYS) {
      // A page's element names (markdown headings), a site's SameSite value, a model's tool name.
      const tag = key === '__proto__' ? 'x-proto' : key.toLowerCase();
      const page = `<html><body><main><${tag}>Widget text</${tag}><p>More</p></main></body></html>`;
      expect(reducePage(page, { url: 'https://example.com/', mode: 'standard' }).text, key).to.not.contain('function');
      expect(parseSetCookie(`a=1; SameSite=${key}`, new URL('https://example.com/'))?.sameSite, key).to.equal(undefined);
      expect(checkCall({ name: key, arguments: {} })).to.include({ ok: false });
      // A scraper parameter named like one is missing unless the client sends it, then it is its value.
      const schema = [{ name: key, type: 'string' }];
      expect(() => applyParameterRules(schema, { parameters: {} }, null), key).to.throw(`Missing required parameters: ${key}`);
      expect(applyParameterRules(schema, { parameters: JSON.parse(`{${JSON.stringify(key)}: "v"}`) }, null)?.[key], key).to.equal('v');
    }
  });

  it('never answers 5xx to a prototype key in any string of any route, on both listeners', async () => {
    const ctx = { pageUrl: target.targets.pageUrl, scraper: target.targets.ids[0] };
    const problems: string[] = [];
    let sent = 0;
    const send = async (listener: 'api' | 'legacy', route: RouteDef, path: string, body?: unknown) => {
      const base = listener === 'api' ? target.apiUrl : target.legacyUrl;
      const headers: Record<string, string> =
        route.auth === 'bearer' ? { Authorization: `Bearer ${target.bearer}` } : { 'X-API-KEY': target.key, 'Content-Type': 'application/json' };
      const res = await fetch(new URL(path, base), {
        method: route.method.toUpperCase(),
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(120_000),
      });
      const text = await res.text();
      sent++;
      // A 502-504 is the fixture or the model being slow on a loaded machine, not a lookup gone wrong.
      const problem = res.status > 500 ? null : checkAnswer(res.status, text, route.method.toUpperCase());
      if (problem)
        problems.push(`${listener} ${route.method.toUpperCase()} ${path} ${JSON.stringify(body ?? null).slice(0, 200)} -> ${problem}: ${text.slice(0, 200)}`);
    };
    const queue: Array<() => Promise<void>> = [];
    for (const listener of ['api', 'legacy'] as const) {
      for (const route of target.routes[listener]) {
        const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
        const fill = (name: string, value: string) =>
          route.path.replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(p === name ? value : String(plausible(p, {}, ctx))));
        const queryNames = Object.keys((route.query as any)?.properties ?? {});
        const baseBody = route.body ? plausible('body', route.body, ctx) : undefined;
        const bodySlots = route.body && route.method !== 'get' ? slots(route.body) : [];
        // The three that behave differently in a plain object (an inherited function, the prototype
        // accessor, a method); the rest of PROTOTYPE_KEYS behave like the first.
        for (const key of ['constructor', '__proto__', 'toString']) {
          for (const p of params) queue.push(() => send(listener, route, fill(p, key), baseBody));
          for (const q of queryNames) queue.push(() => send(listener, route, `${fill('', '')}?${q}=${encodeURIComponent(key)}`, baseBody));
          for (const slot of bodySlots) queue.push(() => send(listener, route, fill('', ''), withSlot(baseBody, slot, key)));
        }
      }
    }
    // Independent requests, a few at a time.
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await next();
      }),
    );
    expect(problems, problems.slice(0, 10).join('\n')).to.deep.equal([]);
    expect(sent).to.be.greaterThan(300);
  });
});
