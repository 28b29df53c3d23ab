/**
 * The `details` object of /v1/extract and /v1/parse when the caller asks for it (`?details=true`, a
 * Gleaner extension; docs/api.md): which driver fetched each page and how large it was, what the
 * model was shown of it (the reduced page text, or in code mode the page skeleton the recipe was
 * written from), the model, its calls and tokens, and the credits charged. Without the flag the
 * responses are exactly those of the interface.
 */
import type { ModelClient } from '../llm/call-model.ts';
import type { ExtractionResult } from '../extract/pipeline.ts';
import { countTokens, reducePage } from '../page/index.ts';
import { pageSkeleton, type Recipe } from '../recipes/index.ts';

/** A page as the pipeline read it (its observer's argument). */
export interface ReadPage {
  url: string;
  driver: string;
  html: string;
  /** The bytes `html` was decoded from, and their encoding, when the driver has them (for the snapshot archive). */
  body?: Uint8Array;
  charset?: string;
}

export interface PageDetails {
  url: string;
  /** 'http', 'playwright', ... or 'content' for /v1/parse. */
  driver: string;
  records: number;
  /** The HTML as fetched (or supplied), in UTF-8 bytes. */
  raw_bytes: number;
  /** reduced_page: the model read this text; page_skeleton: the model wrote a recipe from it; recipe: no model, the recipe read the HTML. */
  read_by: 'reduced_page' | 'page_skeleton' | 'recipe';
  /** What the model saw of the page (absent when the recipe read it). */
  model_input?: { text: string; chars: number; tokens: number };
  /** The page's document in the snapshot archive, when the pages were kept (`snapshots`). */
  snapshot?: string;
}

export type ExtractionMode = 'standard' | 'precision' | 'code';

export interface ExtractionDetails {
  mode: ExtractionMode;
  /** The first page's driver. */
  driver: string;
  /** The model used, or null when no model call was made. */
  model: { provider: string; name: string } | null;
  pages: PageDetails[];
  raw_bytes: number;
  usage: { model_calls: number; input_tokens: number; output_tokens: number };
  credits: number;
  /** Code mode: the recipe generated on the first page and run on the next. */
  recipe?: Recipe;
}

function modelInput(text: string) {
  return { text, chars: text.length, tokens: countTokens(text) };
}

/** Details of a finished extraction from the pages it read (in order) and its result. */
export function extractionDetails(model: ModelClient | null, mode: ExtractionMode, read: ReadPage[], result: ExtractionResult): ExtractionDetails {
  const pages: PageDetails[] = result.pages.map((p, i) => {
    const page = read[i];
    const html = page?.html ?? '';
    const base = { url: p.url, driver: p.driver, records: p.records, raw_bytes: Buffer.byteLength(html) };
    if (mode === 'code') return i === 0 ? { ...base, read_by: 'page_skeleton', model_input: modelInput(pageSkeleton(html)) } : { ...base, read_by: 'recipe' };
    const reduced = reducePage(html, { url: p.url, mode: mode === 'precision' ? 'precision' : 'standard' });
    return { ...base, read_by: 'reduced_page', model_input: modelInput(reduced.text) };
  });
  const details: ExtractionDetails = {
    mode,
    driver: result.driver,
    model: model && result.usage.modelCalls ? { provider: model.provider.name, name: model.provider.model } : null,
    pages,
    raw_bytes: pages.reduce((n, p) => n + p.raw_bytes, 0),
    usage: { model_calls: result.usage.modelCalls, input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens },
    credits: result.credits,
  };
  if (result.recipe) details.recipe = result.recipe;
  return details;
}

const MODEL_INPUT_SCHEMA = {
  type: 'object',
  required: ['text', 'chars', 'tokens'],
  properties: { text: { type: 'string' }, chars: { type: 'integer' }, tokens: { type: 'integer' } },
} as const;

/** The `details` object's JSON Schema (served in the OpenAPI document). */
export const EXTRACTION_DETAILS_SCHEMA = {
  type: 'object',
  description: 'Present only with ?details=true (a Gleaner extension).',
  required: ['mode', 'driver', 'model', 'pages', 'raw_bytes', 'usage', 'credits'],
  properties: {
    mode: { enum: ['standard', 'precision', 'code'] },
    driver: { type: 'string', description: "The first page's driver ('content' for /v1/parse)" },
    model: {
      anyOf: [{ type: 'null' }, { type: 'object', required: ['provider', 'name'], properties: { provider: { type: 'string' }, name: { type: 'string' } } }],
    },
    pages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['url', 'driver', 'records', 'raw_bytes', 'read_by'],
        properties: {
          url: { type: 'string' },
          driver: { type: 'string' },
          records: { type: 'integer' },
          raw_bytes: { type: 'integer', description: 'The HTML as fetched or supplied, in bytes' },
          read_by: { enum: ['reduced_page', 'page_skeleton', 'recipe'] },
          model_input: { ...MODEL_INPUT_SCHEMA, description: 'What the model was shown of the page' },
          snapshot: { type: 'string', description: "The page's document in the snapshot archive (its SHA-256), when the pages were kept" },
        },
      },
    },
    raw_bytes: { type: 'integer' },
    usage: {
      type: 'object',
      required: ['model_calls', 'input_tokens', 'output_tokens'],
      properties: { model_calls: { type: 'integer' }, input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' } },
    },
    credits: { type: 'number' },
    recipe: { type: 'object', description: 'Code mode: the recipe generated on the first page' },
  },
} as const;
