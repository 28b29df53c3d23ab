// Request validation shared by the HTTP adapter and the engine's operations: the same JSON Schemas,
// the same ajv settings, the same 422 issues ({loc, msg, type}), whichever way a request arrives.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { validationFailed, type ValidationIssue } from '../errors.ts';

export type JsonSchema = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
// Unknown fields are ignored (clients send extras such as source: "n8n"), so no
// additionalProperties: false and no removal either; coercion only for query strings.
// verbose: union errors need their branches and the value to say which branch was meant.
const ajv = addFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true, verbose: true }));
const ajvQuery = addFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: true, verbose: true }));

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
  // A key that breaks propertyNames is reported at that key.
  const loc = [where, ...pointerToLoc(e.instancePath), ...(e.propertyName === undefined ? [] : [e.propertyName])];
  switch (e.keyword) {
    case 'propertyNames':
      return null; // the key's own error (maxLength, ...) says what is wrong
    case 'maxProperties':
      return { loc, msg: `Object should have at most ${(e.params as { limit: number }).limit} keys`, type: 'too_long' };
    case 'required':
      return { loc: [...loc, (e.params as { missingProperty: string }).missingProperty], msg: 'Field required', type: 'missing' };
    case 'type': {
      const t = String((e.params as { type: string | string[] }).type).split(',');
      return { loc, msg: `Input should be a valid ${t.join(' or ')}`, type: TYPE_NAMES[t[0]] ?? 'type_error' };
    }
    case 'enum':
      return { loc, msg: `Input should be ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`, type: 'enum' };
    case 'const':
      return { loc, msg: `Input should be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`, type: 'literal_error' };
    case 'maxItems':
      return { loc, msg: `List should have at most ${(e.params as { limit: number }).limit} items`, type: 'too_long' };
    case 'minItems':
      return {
        loc,
        msg: `List should have at least ${(e.params as { limit: number }).limit} item${(e.params as { limit: number }).limit === 1 ? '' : 's'}`,
        type: 'too_short',
      };
    case 'maxLength':
      return { loc, msg: `String should have at most ${(e.params as { limit: number }).limit} characters`, type: 'string_too_long' };
    case 'minLength':
      return {
        loc,
        msg: `String should have at least ${(e.params as { limit: number }).limit} character${(e.params as { limit: number }).limit === 1 ? '' : 's'}`,
        type: 'string_too_short',
      };
    case 'minimum':
    case 'exclusiveMinimum':
      return {
        loc,
        msg: `Input should be ${e.keyword === 'minimum' ? 'greater than or equal to' : 'greater than'} ${(e.params as { limit: number }).limit}`,
        type: e.keyword === 'minimum' ? 'greater_than_equal' : 'greater_than',
      };
    case 'maximum':
    case 'exclusiveMaximum':
      return {
        loc,
        msg: `Input should be ${e.keyword === 'maximum' ? 'less than or equal to' : 'less than'} ${(e.params as { limit: number }).limit}`,
        type: e.keyword === 'maximum' ? 'less_than_equal' : 'less_than',
      };
    case 'format':
      return {
        loc,
        msg: `Input should be a valid ${(e.params as { format: string }).format}`,
        type: `${(e.params as { format: string }).format}_parsing`.replace(/-/g, '_'),
      };
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

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Whether a union branch takes values of this JSON type; undefined when the branch does not say. */
function branchTakes(branch: unknown, type: string): boolean | undefined {
  const declared = (branch as { type?: string | string[] } | null)?.type;
  if (declared === undefined) return undefined;
  const types = Array.isArray(declared) ? declared : [declared];
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

/** The one branch of a failed union the value's type selects (a list -> the list form), or -1. */
function chosenBranch(e: ErrorObject): number {
  const branches = Array.isArray(e.schema) ? e.schema : [];
  const type = jsonType(e.data);
  const takes = branches.map((b) => branchTakes(b, type));
  if (takes.includes(undefined)) return -1;
  return takes.filter(Boolean).length === 1 ? takes.indexOf(true) : -1;
}

function unionSummary(e: ErrorObject, where: string): ValidationIssue {
  const forms = (e.parentSchema as { description?: string } | undefined)?.description;
  return {
    loc: [where, ...pointerToLoc(e.instancePath)],
    msg: forms ? `Input does not match any of the accepted forms: ${forms}` : 'Input does not match any of the accepted forms',
    type: 'union_error',
  };
}

/**
 * Turns ajv errors into spec 2.9 issues: one entry per problem, loc rooted at body/path/query.
 * A value that matched none of several alternatives is reported as a pydantic server would: when
 * its type selects one alternative (a list for the list form), that alternative's own errors, at
 * the entry and field (["body","attributes",0,"type"]); otherwise one `union_error` naming the
 * accepted forms.
 */
export function toIssues(errors: ErrorObject[] | null | undefined, where: 'body' | 'path' | 'query'): ValidationIssue[] {
  if (!errors) return [];
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const hidden: string[] = []; // schema paths whose errors another entry stands for
  const summaries: ErrorObject[] = [];
  for (const u of unions) {
    const chosen = chosenBranch(u);
    const branches = Array.isArray(u.schema) ? u.schema.length : 0;
    for (let i = 0; i < branches; i++) if (i !== chosen) hidden.push(`${u.schemaPath}/${i}/`);
    if (chosen < 0) summaries.push(u);
  }
  const isHidden = (e: ErrorObject) => hidden.some((p) => e.schemaPath.startsWith(p));
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  const add = (issue: ValidationIssue | null) => {
    if (!issue) return;
    const key = JSON.stringify([issue.loc, issue.type]);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(issue);
  };
  for (const u of summaries) if (!isHidden(u)) add(unionSummary(u, where));
  for (const e of errors) if (!isHidden(e)) add(issueFor(e, where));
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
