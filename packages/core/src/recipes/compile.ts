/**
 * Validation of a recipe (ajv against RECIPE_SCHEMA, then the rules a schema cannot say) and its
 * compiled form: selectors, regexes and JSON-LD paths prepared once, so that running a recipe on
 * many pages does no parsing of the recipe itself.
 */
import { Ajv } from 'ajv';
import type { ErrorObject } from 'ajv';
import { compile as compileCss } from 'css-select';
import { GleanerError } from '../errors.ts';
import type { AnyNode, Element } from './dom.ts';
import { parseJsonPath } from './dom.ts';
import { compileSafeRegex } from './safe-regex.ts';
import { RECIPE_LIMITS, RECIPE_SCHEMA } from './schema.ts';
import type { Recipe, RecipeFieldRule, RecipeRead, RecipeTransform, RecipeTransformOp } from './schema.ts';

export type CssQuery = ReturnType<typeof compileCss<AnyNode, Element>>;
export type JsonPath = ReturnType<typeof parseJsonPath>;

export interface CompiledTransform {
  op: RecipeTransformOp;
  re?: RegExp;
  group?: number;
  with?: string;
  separator?: string;
  value?: string;
}

export interface CompiledField {
  read: RecipeRead;
  query: CssQuery | null;
  attr?: string;
  /** read=meta: the query for `<meta>` elements carrying the name. */
  metaQuery?: CssQuery;
  path?: JsonPath;
  value?: unknown;
  all: boolean;
  transforms: CompiledTransform[];
  fallback: CompiledField | null;
}

export interface CompiledRecipe {
  recipe: Recipe;
  container: { query: CssQuery } | { path: JsonPath } | null;
  fields: Array<[string, CompiledField]>;
  next: { query: CssQuery; attr: string } | null;
}

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
const validateShape = ajv.compile(RECIPE_SCHEMA);

interface Problem {
  loc: Array<string | number>;
  msg: string;
}

/** Bare transform names become `{op}`, and null (an unused key in a model's answer) is dropped. */
function normalize(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) {
    return value.map((v) => (key === 'transforms' && typeof v === 'string' ? { op: v } : normalize(v)));
  }
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null && k !== 'container') continue;
    // defineProperty: a field named "__proto__" must stay a field.
    Object.defineProperty(out, k, { value: normalize(v, k), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function shapeProblems(errors: ErrorObject[]): Problem[] {
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const out: Problem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const loc = e.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let msg: string;
    if (anyOfPaths.has(e.instancePath)) {
      // The branches' own complaints at this level read as noise; say what is allowed instead.
      msg =
        e.instancePath === '/container'
          ? 'must be {"selector": "..."}, {"jsonld": "<path>"} or null'
          : e.instancePath === '/pagination'
            ? 'must be {"next": {"selector": "...", "attr": "href"}} or null'
            : 'must be a field rule or null';
    } else if (e.keyword === 'enum') {
      msg = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')} (got ${JSON.stringify(e.data)})`;
    } else if (e.keyword === 'additionalProperties') {
      msg = `has an unknown key "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    } else {
      msg = e.message ?? 'is invalid';
    }
    const id = `${loc.join('.')}|${msg}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ loc, msg });
  }
  return out;
}

function css(selector: string, loc: Problem['loc'], problems: Problem[]): CssQuery | null {
  try {
    return compileCss<AnyNode, Element>(selector);
  } catch (err) {
    problems.push({ loc, msg: `${JSON.stringify(selector)} is not a valid CSS selector (${(err as Error).message || 'syntax error'})` });
    return null;
  }
}

function compileTransform(t: RecipeTransform, loc: Problem['loc'], problems: Problem[]): CompiledTransform {
  const out: CompiledTransform = { op: t.op };
  const need = (key: 'pattern' | 'separator' | 'value'): boolean => {
    if (t[key] === undefined) problems.push({ loc, msg: `transform "${t.op}" needs "${key}"` });
    return t[key] !== undefined;
  };
  if ((t.op === 'regex' || t.op === 'replace') && need('pattern')) {
    try {
      const re = compileSafeRegex(t.pattern!, t.flags ?? '', RECIPE_LIMITS.patternLength);
      const groups = new RegExp(`${re.source}|`, re.flags).exec('')!.length - 1;
      if (t.op === 'regex') {
        out.re = re;
        out.group = t.group ?? (groups > 0 ? 1 : 0);
        if (out.group > groups) problems.push({ loc: [...loc, 'group'], msg: `group ${out.group} does not exist (the pattern has ${groups})` });
      } else {
        out.re = new RegExp(re.source, `${re.flags}g`);
        out.with = t.with ?? '';
      }
    } catch (err) {
      problems.push({ loc: [...loc, 'pattern'], msg: (err as Error).message });
    }
  }
  if (t.op === 'split' && need('separator')) out.separator = t.separator;
  if (t.op === 'join') out.separator = t.separator ?? ', ';
  if ((t.op === 'prefix' || t.op === 'suffix') && need('value')) out.value = t.value;
  return out;
}

function compileField(rule: RecipeFieldRule, loc: Problem['loc'], problems: Problem[], jsonLdContainer: boolean, depth = 0): CompiledField {
  const query = rule.selector === undefined ? null : css(rule.selector, [...loc, 'selector'], problems);
  const field: CompiledField = { read: rule.read, query, all: rule.all === true, transforms: [], fallback: null };
  const require = (key: 'attr' | 'name' | 'path' | 'value' | 'selector', why: string): void => {
    if (rule[key] === undefined) problems.push({ loc: [...loc, key], msg: `read "${rule.read}" needs "${key}" (${why})` });
  };
  if (jsonLdContainer && rule.read !== 'jsonld' && rule.read !== 'const') {
    problems.push({
      loc: [...loc, 'read'],
      msg: `with a JSON-LD container, fields read "jsonld" (a path in the record's object) or "const", not "${rule.read}"`,
    });
  }
  switch (rule.read) {
    case 'attr':
      require('attr', 'the attribute to read, e.g. href');
      field.attr = rule.attr;
      break;
    case 'meta':
      require('name', 'the meta name, property or itemprop');
      if (rule.name !== undefined) {
        const n = JSON.stringify(rule.name);
        field.metaQuery = css(`meta[name=${n} i], meta[property=${n} i], meta[itemprop=${n} i]`, [...loc, 'name'], problems) ?? undefined;
      }
      break;
    case 'jsonld':
      require('path', 'e.g. offers.price');
      if (rule.path !== undefined) {
        try {
          field.path = parseJsonPath(rule.path);
        } catch (err) {
          problems.push({ loc: [...loc, 'path'], msg: (err as Error).message });
        }
      }
      break;
    case 'const':
      require('value', 'the constant');
      field.value = rule.value;
      break;
    case 'exists':
      require('selector', 'what must be present');
      break;
  }
  field.transforms = (rule.transforms ?? []).map((t, i) => compileTransform(t, [...loc, 'transforms', i], problems));
  if (rule.fallback) {
    if (depth + 1 >= RECIPE_LIMITS.fallbackDepth)
      problems.push({ loc: [...loc, 'fallback'], msg: `fallbacks nest at most ${RECIPE_LIMITS.fallbackDepth} deep` });
    else field.fallback = compileField(rule.fallback, [...loc, 'fallback'], problems, jsonLdContainer, depth + 1);
  }
  return field;
}

function fail(problems: Problem[]): never {
  const where = (p: Problem): string => `/${p.loc.join('/')}`;
  const summary = problems
    .slice(0, 5)
    .map((p) => `${where(p)} ${p.msg}`)
    .join('; ');
  throw new GleanerError('VALIDATION_FAILED', `The recipe is invalid: ${summary}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`, {
    details: problems.map((p) => ({ loc: ['recipe', ...p.loc], msg: p.msg, type: 'value_error' })),
  });
}

const compiledCache = new WeakMap<object, CompiledRecipe>();

/**
 * Validates and compiles a recipe: its shape (RECIPE_SCHEMA), then every selector, regex (including
 * its backtracking risk) and JSON-LD path. Throws GleanerError VALIDATION_FAILED naming each
 * problem's place (`/fields/price/transforms/0/pattern ...`). Compiled forms are cached per object,
 * so a recipe object must not be changed after its first use.
 */
export function compileRecipe(value: unknown): CompiledRecipe {
  if (value && typeof value === 'object') {
    const cached = compiledCache.get(value);
    if (cached) return cached;
  }
  const recipe = normalize(value) as Recipe;
  if (!validateShape(recipe)) fail(shapeProblems(validateShape.errors ?? []));
  const problems: Problem[] = [];
  let container: CompiledRecipe['container'] = null;
  const jsonLdContainer = recipe.container !== null && 'jsonld' in recipe.container;
  if (recipe.container && 'selector' in recipe.container) {
    const query = css(recipe.container.selector, ['container', 'selector'], problems);
    if (query) container = { query };
  } else if (recipe.container && 'jsonld' in recipe.container) {
    try {
      container = { path: parseJsonPath(recipe.container.jsonld) };
    } catch (err) {
      problems.push({ loc: ['container', 'jsonld'], msg: (err as Error).message });
    }
  }
  const fields = Object.entries(recipe.fields).map(([name, rule]): [string, CompiledField] => [
    name,
    compileField(rule, ['fields', name], problems, jsonLdContainer),
  ]);
  let next: CompiledRecipe['next'] = null;
  if (recipe.pagination) {
    const query = css(recipe.pagination.next.selector, ['pagination', 'next', 'selector'], problems);
    if (query) next = { query, attr: recipe.pagination.next.attr ?? 'href' };
  }
  if (problems.length) fail(problems);
  const compiled: CompiledRecipe = { recipe, container, fields, next };
  if (value && typeof value === 'object') compiledCache.set(value, compiled);
  compiledCache.set(recipe, compiled);
  return compiled;
}

/**
 * Checks a recipe and returns it in normal form (bare transform names expanded, null keys dropped).
 * Throws GleanerError VALIDATION_FAILED with the path of each problem.
 */
export function validateRecipe(value: unknown): Recipe {
  return compileRecipe(value).recipe;
}
