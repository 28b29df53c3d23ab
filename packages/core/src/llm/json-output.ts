/** Parsing and validating a model's JSON answer, and the repair prompt when it is wrong. */
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import type { LlmJsonSchema, LlmMessage } from '../plugins/llm.ts';
import { GleanerError } from '../errors.ts';

// ajv-formats is CommonJS with a `default` export; under nodenext the plugin function sits on `.default`.
type FormatsPlugin = (ajv: Ajv) => Ajv;
const formatsModule = ajvFormats as unknown as { default: FormatsPlugin | { default: FormatsPlugin } };
const addFormats: FormatsPlugin = typeof formatsModule.default === 'function' ? formatsModule.default : formatsModule.default.default;

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

// Compiled validators by schema text; bounded so that per-request schemas cannot grow it forever.
const MAX_CACHED = 256;
const cache = new Map<string, ValidateFunction>();

export type JsonParseOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Parses a model's JSON answer. Models sometimes wrap JSON in a Markdown fence or add a sentence
 * around it even when asked not to, so after a plain parse fails the outermost object or array is tried.
 */
export function parseModelJson(text: string): JsonParseOutcome {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'the answer is empty' };
  const attempts = [trimmed];
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(trimmed);
  if (fenced) attempts.push(fenced[1].trim());
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ]) {
    const start = trimmed.indexOf(open);
    const end = trimmed.lastIndexOf(close);
    if (start >= 0 && end > start) attempts.push(trimmed.slice(start, end + 1));
  }
  let firstError = '';
  for (const candidate of attempts) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (err) {
      firstError ||= (err as Error).message;
    }
  }
  return { ok: false, error: `the answer is not valid JSON (${firstError})` };
}

function validatorFor(schema: LlmJsonSchema): ValidateFunction {
  // $id would clash in ajv's registry on the second compile; $schema may name a draft ajv does not load.
  const { $id: _id, $schema: _draft, ...rest } = schema;
  const key = JSON.stringify(rest);
  let validate = cache.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(rest);
    } catch (err) {
      throw new GleanerError('INTERNAL', `The JSON Schema given to the model is invalid: ${(err as Error).message}`, { cause: err });
    }
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(key, validate);
  }
  return validate;
}

/** Validates `value` against `schema`; returns one readable line per problem (empty when valid). */
export function validateAgainstSchema(schema: LlmJsonSchema, value: unknown): string[] {
  const validate = validatorFor(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => {
    const where = e.instancePath === '' ? '(root)' : e.instancePath;
    const extra = e.keyword === 'additionalProperties' ? ` ('${(e.params as { additionalProperty: string }).additionalProperty}')` : '';
    return `${where} ${e.message ?? 'is invalid'}${extra}`;
  });
}

/** Checks an answer: parse, then validate. `problems` is empty when the answer is usable. */
export function checkJsonAnswer(schema: LlmJsonSchema, text: string, parsed?: unknown): { value?: unknown; problems: string[] } {
  let value = parsed;
  if (value === undefined) {
    const outcome = parseModelJson(text);
    if (!outcome.ok) return { problems: [outcome.error] };
    value = outcome.value;
  }
  const problems = validateAgainstSchema(schema, value);
  return problems.length ? { value, problems } : { value, problems: [] };
}

/** The two turns appended to the conversation to ask the model to correct its JSON. */
export function repairMessages(badAnswer: string, problems: string[]): LlmMessage[] {
  return [
    { role: 'assistant', content: badAnswer },
    {
      role: 'user',
      content:
        'Your previous answer does not satisfy the required JSON Schema. Problems found:\n' +
        problems.map((p) => `- ${p}`).join('\n') +
        '\nReply again with the corrected JSON only: no explanation, no Markdown fence.',
    },
  ];
}
