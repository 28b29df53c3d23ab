// Request validation shared by the HTTP adapter and the engine's operations: the same JSON Schemas,
// the same ajv settings, the same 422 issues ({loc, msg, type}), whichever way a request arrives.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { validationFailed, type ValidationIssue } from '../errors.ts';

export type JsonSchema = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
// Unknown fields are ignored (clients send extras such as source: "n8n"), so no
// additionalProperties: false and no removal either; coercion only for query strings.
const ajv = addFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true }));
const ajvQuery = addFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: true }));

export function compileSchema(schema: JsonSchema, where: 'body' | 'path' | 'query'): ValidateFunction {
  return (where === 'body' ? ajv : ajvQuery).compile(schema);
}

function pointerToLoc(pointer: string): Array<string | number> {
  if (!pointer) return [];
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

const TYPE_NAMES: Record<string, string> = {
  string: 'string_type',
  integer: 'int_type',
  number: 'float_type',
  boolean: 'bool_type',
  array: 'list_type',
  object: 'dict_type',
  null: 'none_required',
};

function issueFor(e: ErrorObject, where: string): ValidationIssue | null {
  const loc = [where, ...pointerToLoc(e.instancePath)];
  switch (e.keyword) {
    case 'required':
      return { loc: [...loc, (e.params as { missingProperty: string }).missingProperty], msg: 'Field required', type: 'missing' };
    case 'type': {
      const t = String((e.params as { type: string | string[] }).type).split(',');
      return { loc, msg: `Input should be a valid ${t.join(' or ')}`, type: TYPE_NAMES[t[0]] ?? 'type_error' };
    }
    case 'enum':
      return { loc, msg: `Input should be ${((e.params as { allowedValues: unknown[] }).allowedValues).map((v) => JSON.stringify(v)).join(', ')}`, type: 'enum' };
    case 'const':
      return { loc, msg: `Input should be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`, type: 'literal_error' };
    case 'maxItems':
      return { loc, msg: `List should have at most ${(e.params as { limit: number }).limit} items`, type: 'too_long' };
    case 'minItems':
      return { loc, msg: `List should have at least ${(e.params as { limit: number }).limit} item${(e.params as { limit: number }).limit === 1 ? '' : 's'}`, type: 'too_short' };
    case 'maxLength':
      return { loc, msg: `String should have at most ${(e.params as { limit: number }).limit} characters`, type: 'string_too_long' };
    case 'minLength':
      return { loc, msg: `String should have at least ${(e.params as { limit: number }).limit} character${(e.params as { limit: number }).limit === 1 ? '' : 's'}`, type: 'string_too_short' };
    case 'minimum':
    case 'exclusiveMinimum':
      return { loc, msg: `Input should be ${e.keyword === 'minimum' ? 'greater than or equal to' : 'greater than'} ${(e.params as { limit: number }).limit}`, type: e.keyword === 'minimum' ? 'greater_than_equal' : 'greater_than' };
    case 'maximum':
    case 'exclusiveMaximum':
      return { loc, msg: `Input should be ${e.keyword === 'maximum' ? 'less than or equal to' : 'less than'} ${(e.params as { limit: number }).limit}`, type: e.keyword === 'maximum' ? 'less_than_equal' : 'less_than' };
    case 'format':
      return { loc, msg: `Input should be a valid ${(e.params as { format: string }).format}`, type: `${(e.params as { format: string }).format}_parsing`.replace(/-/g, '_') };
    case 'pattern':
      return { loc, msg: `String should match pattern '${(e.params as { pattern: string }).pattern}'`, type: 'string_pattern_mismatch' };
    case 'anyOf':
    case 'oneOf':
    case 'if':
      return null; // the branch errors say more; a summary is added below when none remain
    case 'errorMessage':
      return { loc, msg: e.message ?? 'Invalid input', type: 'value_error' };
    default:
      return { loc, msg: e.message ? e.message[0].toUpperCase() + e.message.slice(1) : 'Invalid input', type: e.keyword };
  }
}

/**
 * Turns ajv errors into spec 2.9 issues: one entry per problem, loc rooted at body/path/query.
 * For a value that matched none of several alternatives, only the alternatives' common complaint
 * is kept, as one entry, rather than one per branch.
 */
export function toIssues(errors: ErrorObject[] | null | undefined, where: 'body' | 'path' | 'query'): ValidationIssue[] {
  if (!errors) return [];
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const path of anyOfPaths) {
    out.push({ loc: [where, ...pointerToLoc(path)], msg: 'Input does not match any of the accepted forms', type: 'union_error' });
    seen.add(path);
  }
  for (const e of errors) {
    // Errors inside a failed union are the branches' reasons; the union entry stands for them.
    if ([...anyOfPaths].some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`)) && e.keyword !== 'required') continue;
    if ([...anyOfPaths].some((p) => e.instancePath === p) && e.keyword === 'required') continue;
    const issue = issueFor(e, where);
    if (!issue) continue;
    const key = JSON.stringify([issue.loc, issue.type]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}

const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/**
 * Checks a request body against its schema, as the HTTP adapter does, and returns a copy with the
 * schema's defaults filled in; throws VALIDATION_FAILED with one issue per problem (loc under `body`).
 */
export function checkRequest<T>(schema: JsonSchema, body: unknown): T {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = compileSchema(schema, 'body')));
  const copy = body === undefined ? {} : structuredClone(body);
  if (!validate(copy)) throw validationFailed(toIssues(validate.errors, 'body'));
  return copy as T;
}
