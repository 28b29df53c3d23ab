/**
 * Agentic scripts: what an agentic scraper stores instead of code. A script is JSON data — a list of
 * steps on stable targets, each extract step carrying a classic recipe — checked against
 * SCRIPT_SCHEMA (ajv) before it is stored or replayed, and interpreted by replay.ts. Nothing in it
 * is evaluated: values hold `{{name}}` placeholders that a replay fills with the run's parameters.
 */
import { Ajv } from 'ajv';
import { GleanerError } from '../errors.ts';
import { validateRecipe, type Recipe } from '../recipes/index.ts';
import type { StableTarget } from './types.ts';
import { SecretValue } from '../secrets/values.ts';
import type { VisitLinks } from './visit.ts';

/** The script format version this code writes and reads. */
export const SCRIPT_FORMAT = 1;

/** The built-in variable of every script: the run's URL (top-level `url`, else the scraper's). */
export const RUN_URL_VARIABLE = 'url';

/**
 * `changes: false` on an action step: the recording saw the page unchanged after it, so a replay
 * does not wait for the page to change (absent: it waits, bounded, until the page changed and settled).
 */
export type ScriptStep =
  | { action: 'goto'; url: string }
  | { action: 'click'; target: StableTarget; changes?: boolean }
  | { action: 'type'; target: StableTarget; value: string; pressEnter?: boolean; changes?: boolean }
  | { action: 'select'; target: StableTarget; values: string[]; changes?: boolean }
  | { action: 'scroll'; to?: 'top' | 'bottom'; pixels?: number; target?: StableTarget; changes?: boolean }
  | { action: 'wait'; ms: number }
  /**
   * Click `target` (a "next" control) and run the previous extract step's recipe on each new page,
   * up to `pages` more pages; a target that is gone ends the list (not drift).
   */
  | { action: 'paginate'; target: StableTarget; pages: number }
  /** Run `recipe` on the current page; `sampleRecords` is how many records the build's page gave. */
  | { action: 'extract'; recipe: Recipe; sampleRecords: number }
  /**
   * List -> detail (agent/visit.ts): open the links of the current page with the `links` shape (and,
   * with followPagination, of the listing's next pages) and run `recipe` on each detail page;
   * `sampleRecords` is how many records the build's visit gave.
   */
  | { action: 'visit'; links: VisitLinks; followPagination: boolean; maxItems: number; recipe: Recipe; sampleRecords: number };

export type ScriptAction = ScriptStep['action'];

export interface AgentScript {
  format: typeof SCRIPT_FORMAT;
  /**
   * `http` when every recorded step ran on the plain-HTTP driver (a replay needs no browser; it
   * uses the HTTP driver's interaction when it has one), else `browser`.
   */
  driver: 'http' | 'browser';
  /** The parameter values the build ran with (defaults, the sample URL for a URL-typed one). */
  parameters: Record<string, unknown>;
  steps: ScriptStep[];
}

const TARGET_SCHEMA = {
  type: 'object',
  required: ['selector', 'role', 'name'],
  additionalProperties: false,
  properties: {
    selector: { type: 'string', minLength: 1, maxLength: 2000 },
    role: { type: 'string', maxLength: 200 },
    name: { type: 'string', maxLength: 2000 },
    tag: { type: 'string', maxLength: 50 },
    href: { type: 'string', maxLength: 4000 },
  },
} as const;

const CHANGES = { type: 'boolean' } as const;

const step = (action: ScriptAction, required: string[], properties: Record<string, unknown>) => ({
  type: 'object',
  required: ['action', ...required],
  additionalProperties: false,
  properties: { action: { const: action }, ...properties },
});

/** The JSON Schema every stored script satisfies (docs/api.md, "Agentic scrapers"). */
export const SCRIPT_SCHEMA = {
  $id: 'gleaner:agent-script',
  type: 'object',
  required: ['format', 'driver', 'parameters', 'steps'],
  additionalProperties: false,
  properties: {
    format: { const: SCRIPT_FORMAT },
    driver: { enum: ['http', 'browser'] },
    parameters: { type: 'object' },
    steps: {
      type: 'array',
      minItems: 2,
      maxItems: 200,
      items: {
        oneOf: [
          step('goto', ['url'], { url: { type: 'string', minLength: 1, maxLength: 4000 } }),
          step('click', ['target'], { target: TARGET_SCHEMA, changes: CHANGES }),
          step('type', ['target', 'value'], {
            target: TARGET_SCHEMA,
            value: { type: 'string', maxLength: 10_000 },
            pressEnter: { type: 'boolean' },
            changes: CHANGES,
          }),
          step('select', ['target', 'values'], {
            target: TARGET_SCHEMA,
            values: { type: 'array', items: { type: 'string' }, maxItems: 100 },
            changes: CHANGES,
          }),
          step('scroll', [], { to: { enum: ['top', 'bottom'] }, pixels: { type: 'integer' }, target: TARGET_SCHEMA, changes: CHANGES }),
          step('wait', ['ms'], { ms: { type: 'integer', minimum: 0, maximum: 30_000 } }),
          step('paginate', ['target', 'pages'], { target: TARGET_SCHEMA, pages: { type: 'integer', minimum: 1, maximum: 100 } }),
          step('extract', ['recipe', 'sampleRecords'], { recipe: { type: 'object' }, sampleRecords: { type: 'integer', minimum: 0 } }),
          step('visit', ['links', 'followPagination', 'maxItems', 'recipe', 'sampleRecords'], {
            links: {
              type: 'object',
              required: ['pattern'],
              additionalProperties: false,
              properties: {
                pattern: { type: ['string', 'null'], minLength: 1, maxLength: 2000 },
                urls: { type: 'array', items: { type: 'string', maxLength: 4000 }, maxItems: 200 },
              },
            },
            followPagination: { type: 'boolean' },
            maxItems: { type: 'integer', minimum: 1, maximum: 200 },
            recipe: { type: 'object' },
            sampleRecords: { type: 'integer', minimum: 0 },
          }),
        ],
      },
    },
  },
} as const;

// The recipe inside an extract step is checked by validateRecipe (its own schema and rules).
const ajv = new Ajv({ allErrors: true, strict: false });
const validateShape = ajv.compile(SCRIPT_SCHEMA);

/**
 * Checks a script (schema, then rules the schema cannot say: it starts with goto, has an extract
 * unless it is a profile's sign-in (`signIn`), a paginate follows an extract, every recipe is
 * valid). Throws GleanerError SCRIPT_INVALID naming the first problems; returns the script typed.
 */
export function validateScript(script: unknown, opts: { signIn?: boolean } = {}): AgentScript {
  const problems: string[] = [];
  if (!validateShape(script)) {
    problems.push(...(validateShape.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`));
  } else {
    const s = script as unknown as AgentScript;
    if (s.steps[0].action !== 'goto') problems.push('/steps/0 must be a goto step');
    // A profile's sign-in (profiles/sign-in.ts) only acts: it extracts nothing.
    if (!opts.signIn && !s.steps.some((st) => st.action === 'extract' || st.action === 'visit')) problems.push('/steps has no extract or visit step');
    s.steps.forEach((st, i) => {
      if (st.action === 'paginate' && !s.steps.slice(0, i).some((p) => p.action === 'extract'))
        problems.push(`/steps/${i} paginate has no extract step before it`);
      if (st.action === 'visit' && st.links.pattern === null && !st.links.urls?.length) problems.push(`/steps/${i}/links has neither a pattern nor urls`);
      if (st.action === 'extract' || st.action === 'visit') {
        try {
          validateRecipe(st.recipe);
        } catch (err) {
          problems.push(`/steps/${i}/recipe ${(err as Error).message}`);
        }
      }
    });
  }
  if (problems.length) throw new GleanerError('SCRIPT_INVALID', `the agentic script is invalid: ${problems.join('; ')}`);
  return script as AgentScript;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g;

/** The parameter names a script's placeholders use. */
export function scriptPlaceholders(script: AgentScript): string[] {
  const names = new Set<string>();
  for (const st of script.steps) {
    const texts = st.action === 'goto' ? [st.url] : st.action === 'type' ? [st.value] : st.action === 'select' ? st.values : [];
    for (const t of texts) for (const m of t.matchAll(PLACEHOLDER)) names.add(m[1]);
  }
  return [...names];
}

/**
 * Fills `{{name}}` placeholders from `values`. `encode` applies to each filled value (URL
 * components). A placeholder without a value is an error: the run's parameters were checked
 * against the scraper's schema, so this means the script and schema disagree.
 */
export function fillPlaceholders(text: string, values: Record<string, unknown>, encode: (v: string) => string = (v) => v): string {
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const v = values[name];
    if (v === undefined || v === null) throw new GleanerError('SCRIPT_INVALID', `the agentic script uses the parameter ${name}, which the run did not give`);
    // A secret is revealed only here, as it is typed (a TOTP code computed now).
    return encode(v instanceof SecretValue ? v.reveal() : String(v));
  });
}

/** A short label of a step for messages: `click "Next"`, `extract`, `goto {{start_url}}`. */
export function describeStep(st: ScriptStep, index: number): string {
  const n = `step ${index + 1}`;
  switch (st.action) {
    case 'goto':
      return `${n} goto ${st.url}`;
    case 'extract':
      return `${n} extract`;
    case 'visit':
      return `${n} visit ${st.links.pattern ?? `${st.links.urls?.length ?? 0} links`}`;
    case 'wait':
      return `${n} wait ${st.ms} ms`;
    case 'scroll':
      return st.target ? `${n} scroll to ${JSON.stringify(st.target.name || st.target.selector)}` : `${n} scroll ${st.to ?? `${st.pixels ?? 0}px`}`;
    default:
      return `${n} ${st.action} ${JSON.stringify(st.target.name || st.target.selector)}`;
  }
}
