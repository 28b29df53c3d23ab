/**
 * Runs a recipe on a page: deterministic, no model, nothing evaluated. The HTML is parsed once;
 * each container match becomes one record whose fields are read, transformed and coerced to their
 * attributes' types; records that carry nothing are skipped.
 */
import { compile as compileCss, selectAll, selectOne } from 'css-select';
import { coerceRecord, isEmptyRecord } from '../records/attributes.ts';
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import { compileRecipe } from './compile.ts';
import type { CompiledField, CompiledRecipe, CssQuery } from './compile.ts';
import { attrOf, documentBaseUrl, evalJsonPath, innerHtml, jsonLdRoots, parseHtmlDocument, visibleText } from './dom.ts';
import type { AnyNode, Document, Element } from './dom.ts';
import { absolutize, applyTransforms, isEmptyValue } from './transforms.ts';
import { urlResolver, type UrlResolver } from '../page/urls.ts';

export interface ExecuteRecipeOptions {
  /** The page's URL: relative links and images resolve against it (or its `<base href>`). */
  url: string;
  /**
   * The attributes the records are coerced to (types, order, exactly these keys). Default: one
   * attribute of type `any` per recipe field.
   */
  attributes?: Attribute[];
  /** At most this many records (default 10,000). */
  maxRecords?: number;
  /**
   * Sees each record kept with, per field, which rule gave its value: 0 the field's own rule, 1 its
   * fallback, 2 the fallback's, ... (for provenance; nothing is kept otherwise).
   */
  trace?: (record: ExtractedRecord, rules: Record<string, number>) => void;
}

export interface RecipeRun {
  records: ExtractedRecord[];
  /** Elements (or JSON-LD items) the container matched, empty ones included. */
  containerMatches: number;
  /** The next page's absolute URL when the recipe has a pagination hint and the page a next link. */
  nextPageUrl: string | null;
}

const LD_SCRIPTS = compileCss<AnyNode, Element>('script[type="application/ld+json" i]');
const BASE = compileCss<AnyNode, Element>('base[href]');

// Attributes holding a URL. Read by a recipe, they resolve exactly as the page the model reads
// renders them (absolute, tracking-free): a link field is the same from a run and from /v1/extract.
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'poster', 'data-src', 'data-href', 'data-url', 'data-lazy-src', 'data-original']);

function readAttr(el: AnyNode, name: string, urls: UrlResolver): string {
  const raw = (attrOf(el, name) ?? '').trim();
  if (!raw || !URL_ATTRIBUTES.has(name.toLowerCase())) return raw;
  return urls.resolve(raw) ?? raw;
}

interface Context {
  doc: Document;
  baseUrl: string;
  urls: UrlResolver;
}

function isLdScript(el: AnyNode): el is Element {
  return (el as Element).name === 'script' && (attrOf(el, 'type') ?? '').toLowerCase() === 'application/ld+json';
}

function matches(query: CssQuery | null, scope: AnyNode): AnyNode[] {
  return query ? selectAll<AnyNode, Element>(query, scope) : [scope];
}

function pick(values: unknown[], all: boolean): unknown {
  const present = values.filter((v) => !isEmptyValue(v));
  if (all) return present;
  return present.length ? present[0] : null;
}

/** A field read in a DOM scope (the container element, or the document). */
function readDom(f: CompiledField, ctx: Context, scope: AnyNode): unknown {
  switch (f.read) {
    case 'const':
      return f.value ?? null;
    case 'exists':
      return f.query ? selectOne<AnyNode, Element>(f.query, scope) !== null : true;
    case 'text':
      return pick(matches(f.query, scope).map(visibleText), f.all);
    case 'html':
      return pick(matches(f.query, scope).map(innerHtml), f.all);
    case 'attr':
      return pick(
        matches(f.query, scope).map((el) => readAttr(el, f.attr!, ctx.urls)),
        f.all,
      );
    case 'meta': {
      const find = (root: AnyNode): unknown[] =>
        matches(f.query, root)
          .flatMap((el) => selectAll<AnyNode, Element>(f.metaQuery!, el))
          .map((m) => (attrOf(m, 'content') ?? '').trim());
      let values = find(scope);
      // Per-record microdata first; page-level meta (og:, twitter:) when the record has none.
      if (scope !== ctx.doc && !values.some((v) => v !== '')) values = find(ctx.doc);
      return pick(values, f.all);
    }
    case 'jsonld': {
      const scripts = (root: AnyNode): Element[] =>
        matches(f.query, root).flatMap((el) => (isLdScript(el) ? [el] : selectAll<AnyNode, Element>(LD_SCRIPTS, el)));
      let found = scripts(scope);
      if (scope !== ctx.doc && found.length === 0 && !f.query) found = scripts(ctx.doc);
      return pickJson(evalJsonPath(jsonLdRoots(found), f.path!), f.all);
    }
  }
}

function pickJson(values: unknown[], all: boolean): unknown {
  if (all) return values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v) => !isEmptyValue(v));
  return values.find((v) => !isEmptyValue(v)) ?? null;
}

/** A field's value; `used.depth` says which rule of the fallback chain gave it. */
function readField(f: CompiledField, ctx: Context, scope: AnyNode | { item: unknown }, used?: { depth: number }): unknown {
  let v: unknown;
  if ('item' in scope) v = f.read === 'const' ? (f.value ?? null) : pickJson(evalJsonPath(scope.item, f.path!), f.all);
  else v = readDom(f, ctx, scope);
  v = applyTransforms(f.transforms, v, ctx.baseUrl);
  if (isEmptyValue(v) && f.fallback) {
    if (used) used.depth++;
    return readField(f.fallback, ctx, scope, used);
  }
  return v;
}

/** Runs a compiled recipe on a parsed page (used by the generator, which parses the page once). */
export function runCompiledRecipe(compiled: CompiledRecipe, doc: Document, opts: ExecuteRecipeOptions): RecipeRun {
  const baseUrl = documentBaseUrl(doc, opts.url, (d) => selectOne<AnyNode, Element>(BASE, d));
  const ctx: Context = { doc, baseUrl, urls: urlResolver(baseUrl) };
  const attributes = opts.attributes ?? compiled.fields.map(([name]) => ({ name, description: '', type: 'any' as const }));
  const maxRecords = opts.maxRecords ?? 10_000;
  // A record must carry something read from the page; constants and presence flags alone do not count.
  const contentFields = compiled.fields.filter(([, f]) => f.read !== 'const' && f.read !== 'exists').map(([name]) => name);
  const counted = contentFields.length ? contentFields : compiled.fields.map(([name]) => name);

  let scopes: Array<AnyNode | { item: unknown }>;
  const c = compiled.container;
  if (c === null) scopes = [doc];
  else if ('query' in c) scopes = selectAll<AnyNode, Element>(c.query, doc);
  else {
    const roots = jsonLdRoots(selectAll<AnyNode, Element>(LD_SCRIPTS, doc));
    const items = pickJson(evalJsonPath(roots, c.path), true) as unknown[];
    scopes = items.filter((v) => v && typeof v === 'object').map((item) => ({ item }));
  }

  const records: ExtractedRecord[] = [];
  for (const scope of scopes) {
    if (records.length >= maxRecords) break;
    const raw: Record<string, unknown> = Object.create(null);
    const rules: Record<string, number> = {};
    for (const [name, f] of compiled.fields) {
      const used = { depth: 0 };
      raw[name] = readField(f, ctx, scope, opts.trace && used);
      rules[name] = used.depth;
    }
    const record = coerceRecord(raw, attributes, ctx.baseUrl);
    const keys = attributes.length ? attributes.map((a) => a.name) : Object.keys(record);
    const carries = keys.some((k) => counted.includes(k) && !isEmptyValue(record[k]));
    if (!carries || isEmptyRecord(record)) continue;
    records.push(record);
    opts.trace?.(record, rules);
  }

  let nextPageUrl: string | null = null;
  if (compiled.next) {
    const link = selectOne<AnyNode, Element>(compiled.next.query, doc);
    const href = link ? attrOf(link, compiled.next.attr) : null;
    nextPageUrl = href ? absolutize(href, ctx.baseUrl) : null;
  }
  return { records, containerMatches: scopes.length, nextPageUrl };
}

/** Parses the page once and runs the recipe: records, container matches and the next page's URL. */
export function runRecipe(recipe: unknown, html: string, opts: ExecuteRecipeOptions): RecipeRun {
  return runCompiledRecipe(compileRecipe(recipe), parseHtmlDocument(html), opts);
}

/**
 * Executes a recipe on a page and returns its records in document order, coerced to the
 * attributes' types, without empty records. Throws GleanerError VALIDATION_FAILED when the recipe
 * is invalid.
 */
export function executeRecipe(recipe: unknown, html: string, opts: ExecuteRecipeOptions): ExtractedRecord[] {
  return runRecipe(recipe, html, opts).records;
}
