/**
 * The custom parameters of an agentic scraper (spec 2.4): one structured-output model call reads the
 * prompt and names the inputs it declares ("parameter `start_url` (url) — the listing to start
 * from", "min_rating (number, default 4)", or plain words such as "search for the given query"),
 * with the value the build should use. Values the agent typed that equal a parameter's build
 * value, and build values inside the URLs it navigated to, become `{{name}}` placeholders in the
 * script (`parameterizeText`, `parameterizeUrl`).
 */
import { requireModel, type OperationContext } from '../context.ts';
import { addUsage, emptyUsage, type ModelUsage } from '../usage.ts';
import type { ParameterSpec } from '../scrapers/types.ts';

export const PARAMETER_TYPES = ['string', 'integer', 'number', 'bool', 'url'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const SYSTEM = `You read the instructions a user wrote for a web scraper that an agent will record once and replay later with other inputs.
List the inputs the instructions declare: values the user wants to change between runs, written as a named parameter ("parameter \`start_url\` (url)", "min_rating (number, default 4)") or in plain words ("the search term is an input", "for a given city").
A value merely mentioned once, with no sign that it varies, is not an input. Say nothing you cannot point to in the text.
For each input give: name (snake_case), type (string, integer, number, bool or url; url for a page to start from), description (a short phrase),
default (the default the text states, else null) and example (a value the text gives for this run, else null).
Answer {"parameters": []} when there are none.`;

const ANSWER_SCHEMA = {
  type: 'object',
  required: ['parameters'],
  additionalProperties: false,
  properties: {
    parameters: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['name', 'type', 'description', 'default', 'example'],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          type: { enum: [...PARAMETER_TYPES] },
          description: { type: 'string' },
          default: { type: ['string', 'number', 'boolean', 'null'] },
          example: { type: ['string', 'number', 'boolean', 'null'] },
        },
      },
    },
  },
};

interface Answer {
  parameters: Array<{ name: string; type: ParameterType; description: string; default: unknown; example: unknown }>;
}

/**
 * A value as the parameter's type, or undefined when it cannot be one ("4" is a number, "yes" a
 * bool). Used for the model's defaults and for the values of a run.
 */
export function coerceParameter(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (type) {
    case 'integer':
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(n) && (type === 'number' || Number.isInteger(n)) ? n : undefined;
    }
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false|yes|no)$/i.test(value.trim())) return /^(true|yes)$/i.test(value.trim());
      return undefined;
    case 'url':
      try {
        const u = new URL(String(value));
        return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
      } catch {
        return undefined;
      }
    default:
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
  }
}

export interface IdentifiedParameters {
  schema: ParameterSpec[];
  /** The values this build runs with: the defaults, the examples, and the sample URL for a url-typed one. */
  values: Record<string, unknown>;
  usage: ModelUsage;
}

/** Asks the model for the prompt's declared inputs; the sample URL becomes the url-typed one's value. */
export async function identifyParameters(ctx: OperationContext, input: { prompt: string; url: string; signal?: AbortSignal }): Promise<IdentifiedParameters> {
  const usage = emptyUsage();
  if (!input.prompt.trim()) return { schema: [], values: {}, usage };
  const res = await requireModel(ctx).generateJson<Answer>({
    system: SYSTEM,
    messages: [{ role: 'user', content: `Start URL of this build: ${input.url}\n\nInstructions:\n${input.prompt}` }],
    jsonSchema: { name: 'parameters', schema: ANSWER_SCHEMA },
    temperature: 0,
    signal: input.signal,
  });
  addUsage(usage, res.usage);
  const schema: ParameterSpec[] = [];
  const values: Record<string, unknown> = {};
  let urlTaken = false;
  for (const p of res.json.parameters) {
    const name = p.name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_');
    if (!NAME.test(name) || name === 'url' || schema.some((s) => s.name === name)) continue;
    // One url-typed parameter takes the top-level url of a run (spec 4.3); a second one is a string.
    const type: ParameterType = p.type === 'url' && urlTaken ? 'string' : p.type;
    const spec: ParameterSpec = { name, type, description: p.description.trim().slice(0, 500) };
    const def = coerceParameter(type, p.default);
    if (def !== undefined) spec.default = def;
    schema.push(spec);
    if (type === 'url') {
      urlTaken = true;
      values[name] = input.url;
    } else {
      const v = def !== undefined ? def : coerceParameter(type, p.example);
      if (v !== undefined) values[name] = v;
    }
  }
  return { schema, values, usage };
}

/** The parameter values as the agent is told them (it must use exactly these, so they can be found again). */
export function describeValues(values: Record<string, unknown>): string {
  const entries = Object.entries(values);
  if (!entries.length) return '';
  return `Use these input values: ${entries.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ')}.`;
}

/** Replaces a typed value equal to a parameter's value by its placeholder. */
export function parameterizeText(text: string, values: Record<string, unknown>): string {
  for (const [name, v] of Object.entries(values)) {
    if (v !== null && v !== undefined && String(v) !== '' && text.trim() === String(v)) return `{{${name}}}`;
  }
  return text;
}

/**
 * Replaces parameter values in a URL the agent opened: the whole URL when it equals a url-typed
 * value (or the run's URL, `{{url}}`), else each parameter value inside a path segment or a query
 * value, compared decoded (`/browse/red%20kettle`, `?q=red+kettle`, `?filter=name:kettle`). The
 * text around a placeholder is kept encoded; a replay encodes the values it fills in
 * (encodeURIComponent), so a value with spaces or `&` stays one segment or one query value.
 */
export function parameterizeUrl(url: string, values: Record<string, unknown>, runUrl: string): string {
  for (const [name, v] of Object.entries(values)) if (typeof v === 'string' && sameUrl(v, url)) return `{{${name}}}`;
  if (sameUrl(runUrl, url)) return '{{url}}';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  // URL-typed values are whole URLs, never part of one; the longest value first (a value inside another).
  const inner = Object.entries(values)
    .filter(([, v]) => v !== null && v !== undefined && String(v) !== '' && !(typeof v === 'string' && /^https?:\/\//i.test(v)))
    .map(([name, v]) => ({ name, text: String(v), partial: typeof v === 'string' && v.length >= 3 }))
    .sort((a, b) => b.text.length - a.text.length);
  const path = u.pathname
    .split('/')
    .map((seg) => (seg ? parameterizePart(seg, safeDecode(seg), inner) : seg))
    .join('/');
  const query = u.search
    .slice(1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const raw = pair.slice(eq + 1);
      return `${pair.slice(0, eq)}=${parameterizePart(raw, safeDecode(raw.replace(/\+/g, ' ')), inner)}`;
    });
  const search = query.length ? `?${query.join('&')}` : '';
  if (!path.includes('{{') && !search.includes('{{')) return url;
  return `${u.origin}${path}${search}${u.hash}`;
}

/**
 * `text` where it stands as a whole word (no letter or digit right before or after it): `kettle`
 * in `name:kettle` or `red-kettle`, not in `kettles` (a replay with `teapot` must not ask for
 * `teapots`).
 */
function wordMatch(text: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'gu');
}

/**
 * One path segment or query value with the parameter values in it as placeholders (the whole
 * decoded part equal to a value, or a string value of 3 characters or more standing as a word
 * inside it); `raw` as it was when there are none.
 */
function parameterizePart(raw: string, decoded: string, inner: Array<{ name: string; text: string; partial: boolean }>): string {
  let pieces: Array<string | { name: string }> = [decoded];
  for (const p of inner) {
    pieces = pieces.flatMap((piece) => {
      if (typeof piece !== 'string') return [piece];
      if (piece === p.text) return [{ name: p.name }];
      if (!p.partial) return [piece];
      const lits = piece.split(wordMatch(p.text));
      return lits.length === 1 ? [piece] : lits.flatMap((lit, i) => (i === 0 ? [lit] : [{ name: p.name }, lit]));
    });
  }
  if (pieces.every((piece) => typeof piece === 'string')) return raw;
  return pieces.map((piece) => (typeof piece === 'string' ? encodeURIComponent(piece) : `{{${piece.name}}}`)).join('');
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
