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

/**
 * A JSON object out of what a small model wrote for one (tool-call arguments above all): parsed as
 * parseModelJson does, then with its slips mended — single quotes for double, a trailing comma,
 * brackets left open by output cut short (not a string cut short: its value is unknown). Null when
 * it still is no object.
 */
export function repairJsonObject(text: string): Record<string, unknown> | null {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  const parsed = parseModelJson(text);
  if (parsed.ok) return isObject(parsed.value) ? parsed.value : null;
  let t = text.trim();
  if (!t.startsWith('{')) return null;
  if (!t.includes('"'))
    t = t
      .replace(/\\'/g, '\u0000')
      .replace(/'/g, '"')
      .replace(/\u0000/g, "'");
  t = t.replace(/[,\s]+$/, '');
  // Close what is open, innermost first; a string cut short is not guessed at.
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') open.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') open.pop();
  }
  if (inString) return null;
  const mended = `${t}${open.reverse().join('')}`.replace(/,\s*([}\]])/g, '$1');
  try {
    const value: unknown = JSON.parse(mended);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
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
