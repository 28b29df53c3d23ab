/**
 * Recipes: the declarative "scraping code" of code mode and classic scrapers.
 * A recipe names a record container, and for each attribute where its value sits (a CSS selector
 * relative to the container), what to read there and which transforms from a fixed list to apply.
 * It is data, never code: the executor interprets it and nothing in it is evaluated.
 */
import type { Attribute } from '../records/attributes.ts';

/** What a field reads. */
export const RECIPE_READS = [
  /** The element's visible text, whitespace collapsed. */
  'text',
  /** The element's inner HTML. */
  'html',
  /** An attribute of the element (`attr`). */
  'attr',
  /** A value from the page's JSON-LD (`path`), or from the record when the container is JSON-LD. */
  'jsonld',
  /** The `content` of `<meta name|property|itemprop="<name>">`: in the record first, then the page. */
  'meta',
  /** A constant (`value`). */
  'const',
  /** true when the selector matches something, else false (badges, flags). */
  'exists',
] as const;
export type RecipeRead = (typeof RECIPE_READS)[number];

/** The fixed list of transforms; they apply in order, to each item of a list. */
export const RECIPE_TRANSFORM_OPS = [
  'trim',
  'collapse_whitespace',
  'lowercase',
  'uppercase',
  /** `pattern` (+ `flags`, `group`): the group's match (group 1 when the pattern has groups, else 0), or null. */
  'regex',
  /** `pattern` (+ `flags`) replaced everywhere by `with` ($1 refers to a group). */
  'replace',
  /** A string split at the literal `separator` into trimmed, non-empty parts. */
  'split',
  /** A list joined with `separator` (", " by default). */
  'join',
  'number',
  'integer',
  'bool',
  /** Resolved against the page URL (and its `<base href>`). */
  'absolute_url',
  /** utm_*, gclid, fbclid and similar query parameters removed from a URL. */
  'strip_tracking',
  'first',
  'last',
  /** `value` put before / after a non-empty string. */
  'prefix',
  'suffix',
] as const;
export type RecipeTransformOp = (typeof RECIPE_TRANSFORM_OPS)[number];

export interface RecipeTransform {
  op: RecipeTransformOp;
  /** regex, replace: a JavaScript regular expression (checked for safety, at most 200 characters). */
  pattern?: string;
  /** regex, replace: any of i, m, s, u. */
  flags?: string;
  /** regex: the capture group to return. */
  group?: number;
  /** replace: the replacement. */
  with?: string;
  /** split, join. */
  separator?: string;
  /** prefix, suffix. */
  value?: string;
}

export interface RecipeFieldRule {
  /** CSS selector relative to the record container; omitted = the container (or the page) itself. */
  selector?: string;
  read: RecipeRead;
  /** read=attr: the attribute, e.g. `href`, `data-src`, `content`. */
  attr?: string;
  /** read=meta: the meta name, property or itemprop, e.g. `og:title`. */
  name?: string;
  /** read=jsonld: a path like `offers.price`, `@graph[0].name`, `[@type=Product].sku`, `image[*]`. */
  path?: string;
  /** read=const: the value. */
  value?: string | number | boolean;
  /** A list of every match instead of the first non-empty one. */
  all?: boolean;
  transforms?: RecipeTransform[];
  /** Tried when this rule yields nothing (null, "" or []). */
  fallback?: RecipeFieldRule;
}

/** One record per element matching `selector`, or per item the JSON-LD `jsonld` path yields. */
export type RecipeContainer = { selector: string } | { jsonld: string };

export interface RecipePagination {
  /** The "next page" link: its URL is read from `attr` (`href` by default). */
  next: { selector: string; attr?: string };
}

export interface Recipe {
  version: 1;
  /** null: the whole page is one record. */
  container: RecipeContainer | null;
  /** Attribute name -> where its value is. */
  fields: Record<string, RecipeFieldRule>;
  pagination?: RecipePagination;
}

export const RECIPE_LIMITS = {
  selectorLength: 500,
  patternLength: 200,
  transformsPerField: 12,
  fallbackDepth: 3,
  fields: 100,
} as const;

const nullable = (type: string | string[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: [...(Array.isArray(type) ? type : [type]), 'null'],
  ...extra,
});

const selectorSchema = { type: 'string', minLength: 1, maxLength: RECIPE_LIMITS.selectorLength };

const transformSchema = {
  type: 'object',
  required: ['op'],
  additionalProperties: false,
  properties: {
    op: { enum: [...RECIPE_TRANSFORM_OPS] },
    pattern: nullable('string', { minLength: 1, maxLength: RECIPE_LIMITS.patternLength }),
    flags: nullable('string', { pattern: '^[imsu]*$' }),
    group: nullable('integer', { minimum: 0, maximum: 20 }),
    with: nullable('string', { maxLength: 500 }),
    separator: nullable('string', { maxLength: 50 }),
    value: nullable('string', { maxLength: 500 }),
  },
};

/**
 * The JSON Schema of a stored recipe (ajv-checked by `validateRecipe`). Optional keys may also be
 * null, so that answers written under {@link recipeAnswerSchema} validate as they are; transforms
 * without arguments may be written as bare names (`"trim"`).
 */
export const RECIPE_SCHEMA = {
  type: 'object',
  required: ['version', 'container', 'fields'],
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    container: {
      anyOf: [
        { type: 'object', required: ['selector'], additionalProperties: false, properties: { selector: selectorSchema } },
        { type: 'object', required: ['jsonld'], additionalProperties: false, properties: { jsonld: { type: 'string', minLength: 1, maxLength: 200 } } },
        { type: 'null' },
      ],
    },
    fields: { type: 'object', minProperties: 1, maxProperties: RECIPE_LIMITS.fields, additionalProperties: { $ref: '#/$defs/field' } },
    pagination: {
      anyOf: [
        {
          type: 'object',
          required: ['next'],
          additionalProperties: false,
          properties: {
            next: {
              type: 'object',
              required: ['selector'],
              additionalProperties: false,
              properties: { selector: selectorSchema, attr: nullable('string', { minLength: 1, maxLength: 100 }) },
            },
          },
        },
        { type: 'null' },
      ],
    },
  },
  $defs: {
    field: {
      type: 'object',
      required: ['read'],
      additionalProperties: false,
      properties: {
        selector: nullable('string', { minLength: 1, maxLength: RECIPE_LIMITS.selectorLength }),
        read: { enum: [...RECIPE_READS] },
        attr: nullable('string', { minLength: 1, maxLength: 100 }),
        name: nullable('string', { minLength: 1, maxLength: 200 }),
        path: nullable('string', { minLength: 1, maxLength: 200 }),
        value: { type: ['string', 'number', 'boolean', 'null'] },
        all: nullable('boolean'),
        transforms: nullable('array', { maxItems: RECIPE_LIMITS.transformsPerField, items: transformSchema }),
        fallback: { anyOf: [{ $ref: '#/$defs/field' }, { type: 'null' }] },
      },
    },
  },
} as const;

// ---- the schema the model answers under ------------------------------------------------------

const answerTransform = {
  type: 'object',
  additionalProperties: false,
  required: ['op', 'pattern', 'flags', 'group', 'with', 'separator', 'value'],
  properties: {
    op: { enum: [...RECIPE_TRANSFORM_OPS] },
    pattern: { type: ['string', 'null'], description: 'regex/replace: a JavaScript regular expression without slashes' },
    flags: { type: ['string', 'null'], description: 'regex/replace: any of i, m, s, u' },
    group: { type: ['integer', 'null'], description: 'regex: the capture group to return' },
    with: { type: ['string', 'null'], description: 'replace: the replacement' },
    separator: { type: ['string', 'null'], description: 'split/join: a literal separator' },
    value: { type: ['string', 'null'], description: 'prefix/suffix: the text to add' },
  },
};

function answerField(withFallback: boolean): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    selector: { type: ['string', 'null'], description: 'CSS selector relative to the container; null = the container itself' },
    read: { enum: [...RECIPE_READS] },
    attr: { type: ['string', 'null'], description: 'read=attr: the attribute name' },
    name: { type: ['string', 'null'], description: 'read=meta: the meta name/property/itemprop' },
    path: { type: ['string', 'null'], description: 'read=jsonld: a path like offers.price or [@type=Product].name' },
    value: { type: ['string', 'null'], description: 'read=const: the constant' },
    all: { type: 'boolean', description: 'true: a list of every match' },
    transforms: { type: 'array', items: { $ref: '#/$defs/transform' } },
  };
  if (withFallback) {
    properties.fallback = { anyOf: [{ $ref: '#/$defs/fallback' }, { type: 'null' }], description: 'tried when this rule finds nothing' };
  }
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

/**
 * The JSON Schema a model writes a recipe under: the recipe shape with every key present (null when
 * unused) and one level of fallback, so that it qualifies for strict structured output. With
 * attributes, `fields` has exactly one entry per attribute.
 */
export function recipeAnswerSchema(attributes: Attribute[]): Record<string, unknown> {
  const fields = attributes.length
    ? {
        type: 'object',
        additionalProperties: false,
        required: attributes.map((a) => a.name),
        properties: Object.fromEntries(attributes.map((a) => [a.name, { $ref: '#/$defs/field' }])),
      }
    : { type: 'object', additionalProperties: { $ref: '#/$defs/field' } };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['container', 'fields', 'pagination'],
    properties: {
      container: {
        anyOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['selector'],
            properties: { selector: { type: 'string', description: 'CSS selector matching each record element' } },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['jsonld'],
            properties: { jsonld: { type: 'string', description: 'JSON-LD path yielding one object per record' } },
          },
          { type: 'null' },
        ],
      },
      fields,
      pagination: {
        anyOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['next'],
            properties: {
              next: {
                type: 'object',
                additionalProperties: false,
                required: ['selector', 'attr'],
                properties: { selector: { type: 'string' }, attr: { type: ['string', 'null'] } },
              },
            },
          },
          { type: 'null' },
        ],
      },
    },
    $defs: { field: answerField(true), fallback: answerField(false), transform: answerTransform },
  };
}
