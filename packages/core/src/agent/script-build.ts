/**
 * From an agent's trajectory to a script: each successful action becomes a step on its recorded
 * stable target, values that came from a parameter become placeholders, each page the agent
 * extracted from gets a classic recipe generated and verified on that page's HTML against the
 * agent's records there (the classic build's buildRecipe; a recipe already made for an earlier page
 * is reused when it reproduces this one), and a repeated "click next, extract" becomes a paginate
 * step. The script is validated against the script schema before it is returned.
 */
import { NOTHING_CHANGED } from './observe.ts';
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import type { OperationContext } from '../context.ts';
import { addUsage, emptyUsage, type ModelUsage } from '../usage.ts';
import { compareRecipeOutput, executeRecipe, type Recipe } from '../recipes/index.ts';
import { buildRecipe } from '../scrapers/build.ts';
import { parameterizeText, parameterizeUrl } from './script-parameters.ts';
import { SCRIPT_FORMAT, validateScript, type AgentScript, type ScriptStep } from './script.ts';
import type { AgentExtraction, AgentRunResult, RecordedAction, StableTarget } from './types.ts';

export interface ScriptBuildInput {
  run: AgentRunResult;
  /** The URL the agent started from. */
  url: string;
  /** The parameter values the build ran with (placeholders replace them). */
  values: Record<string, unknown>;
  attributes: Attribute[];
  prompt: string;
  signal?: AbortSignal;
  /** A heal's kept steps (a stored script's, before the one that drifted): the run goes on after them. */
  kept?: { steps: ScriptStep[]; driver: AgentScript['driver'] };
}

export type ScriptBuildResult = { ok: true; script: AgentScript; usage: ModelUsage; recipes: number } | { ok: false; reason: string; usage: ModelUsage };

/** The same control on two pages: the same selector, or the same role and name (a "Next" link whose href moves on). */
/** The agent's words for an action that changed nothing (agent/observe.ts describeEffect). */
const UNCHANGED = NOTHING_CHANGED;

const sameTarget = (a: StableTarget, b: StableTarget) => a.role === b.role && (a.selector === b.selector || (a.name !== '' && a.name === b.name));

/** Folds repeated `click T, extract R` pairs after an `extract R` into one paginate step. */
export function foldPagination(steps: ScriptStep[]): ScriptStep[] {
  const out: ScriptStep[] = [];
  for (let i = 0; i < steps.length; i++) {
    const st = steps[i];
    out.push(st);
    if (st.action !== 'extract') continue;
    let target: StableTarget | null = null;
    let pages = 0;
    while (i + 2 < steps.length) {
      const click = steps[i + 1];
      const next = steps[i + 2];
      if (click.action !== 'click' || next.action !== 'extract' || next.recipe !== st.recipe) break;
      if (target && !sameTarget(target, click.target)) break;
      target = click.target;
      pages++;
      i += 2;
    }
    if (target) out.push({ action: 'paginate', target, pages });
  }
  return out;
}

const hasValue = (v: unknown) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);

/**
 * Each recipe without its rules for fields the agent never had a value for on any page the recipe
 * extracts: a recipe is verified on the values the agent found, so a rule for a field it left
 * empty was never checked against anything (a model filling `sku` with a card's whole text would
 * pass). Such fields stay null in the replay's records, as in the agent's. New recipe objects (a
 * recipe's compiled form is cached per object).
 */
export function withoutUnsourcedFields(
  uses: Map<Recipe, ExtractedRecord[]>,
  log: (field: string) => void,
): { recipes: Map<Recipe, Recipe> } | { reason: string } {
  const recipes = new Map<Recipe, Recipe>();
  for (const [recipe, records] of uses) {
    const names = Object.keys(recipe.fields);
    const unsourced = new Set(names.filter((name) => !records.some((r) => hasValue(r[name]))));
    if (unsourced.size === names.length)
      return { reason: `the recipe's fields (${names.join(', ')}) have no value in any of the agent's records, so none of them has a source the agent saw` };
    for (const name of unsourced) log(name);
    recipes.set(recipe, unsourced.size ? { ...recipe, fields: Object.fromEntries(Object.entries(recipe.fields).filter(([n]) => !unsourced.has(n))) } : recipe);
  }
  return { recipes };
}

/** A recipe for one extraction: an earlier one that reproduces it, else a new verified one. */
async function recipeFor(
  ctx: OperationContext,
  x: AgentExtraction,
  made: Recipe[],
  input: ScriptBuildInput,
  usage: ModelUsage,
): Promise<{ recipe: Recipe } | { reason: string }> {
  const attributes = input.attributes.length ? input.attributes : undefined;
  for (const recipe of made) {
    const actual = executeRecipe(recipe, x.html, { url: x.url, attributes });
    if (compareRecipeOutput(actual, x.records, { baseUrl: x.url }).ok) return { recipe };
  }
  const built = await buildRecipe(ctx, {
    page: { html: x.html, url: x.url, driver: x.driver },
    expected: x.records,
    attributes: input.attributes,
    prompt: input.prompt,
    signal: input.signal,
  });
  addUsage(usage, built.usage);
  if (!built.accepted) return { reason: `no recipe reproduces what the agent extracted on ${x.url}: ${built.reason}` };
  made.push(built.recipe);
  return { recipe: built.recipe };
}

/**
 * The script step that repeats a recorded browsing action (navigate, back, click, type, select,
 * scroll, wait); null for the others (extract, visit, finish), which need more than the action.
 */
export function actionStep(a: RecordedAction, url: (u: string) => string, values: Record<string, unknown>): ScriptStep | null {
  // The replay waits for the page to change only after actions that changed it when recorded.
  const still = a.urlAfter === a.urlBefore && a.effect === UNCHANGED ? { changes: false } : {};
  switch (a.action) {
    case 'navigate':
      return a.url ? { action: 'goto', url: url(a.url) } : null;
    case 'back':
      return { action: 'goto', url: url(a.urlAfter) };
    case 'click':
      return a.target ? { action: 'click', target: a.target, ...still } : null;
    case 'type':
      return a.target
        ? { action: 'type', target: a.target, value: parameterizeText(String(a.value ?? ''), values), ...(a.pressEnter ? { pressEnter: true } : {}), ...still }
        : null;
    case 'select':
      return a.target ? { action: 'select', target: a.target, values: [a.value ?? []].flat().map((v) => parameterizeText(v, values)), ...still } : null;
    case 'scroll':
      if (a.target) return { action: 'scroll', target: a.target, ...still };
      if (a.scroll?.pixels !== undefined) return { action: 'scroll', pixels: Math.round(a.scroll.pixels), ...still };
      return { action: 'scroll', to: a.scroll?.to ?? 'bottom', ...still };
    case 'wait':
      return { action: 'wait', ms: Math.min(30_000, Math.max(0, Math.round(a.ms ?? 1000))) };
    default:
      return null;
  }
}

export async function buildScript(ctx: OperationContext, input: ScriptBuildInput): Promise<ScriptBuildResult> {
  const { run, values } = input;
  const usage = emptyUsage();
  const made: Recipe[] = [];
  const urlParam = Object.entries(values).find(([, v]) => typeof v === 'string' && v === input.url)?.[0];
  const steps: ScriptStep[] = input.kept ? [...input.kept.steps] : [{ action: 'goto', url: urlParam ? `{{${urlParam}}}` : '{{url}}' }];
  const byStep = new Map(run.extractions.map((x) => [x.step, x]));
  const url = (u: string) => parameterizeUrl(u, values, input.url);
  /** The agent's records on every page each recipe extracts. */
  const uses = new Map<Recipe, ExtractedRecord[]>();

  for (const [i, a] of run.steps.entries()) {
    if (!a.ok) continue; // a failed action changed nothing the replay needs
    const acted = actionStep(a, url, values);
    if (acted) {
      steps.push(acted);
      continue;
    }
    switch (a.action) {
      case 'extract': {
        const x = byStep.get(i);
        if (!x || !x.records.length) break; // nothing to reproduce on this page
        const r = await recipeFor(ctx, x, made, input, usage);
        if ('reason' in r) return { ok: false, reason: r.reason, usage };
        uses.set(r.recipe, [...(uses.get(r.recipe) ?? []), ...x.records]);
        steps.push({ action: 'extract', recipe: r.recipe, sampleRecords: x.records.length });
        break;
      }
      case 'visit': {
        const v = run.visits.find((x) => x.step === i);
        const records = v?.pages.flatMap((p) => p.records) ?? [];
        if (!v || !records.length) break; // nothing to reproduce
        if (!v.recipe)
          return {
            ok: false,
            reason: `no recipe held on the detail pages visited from ${v.listingUrl} (each was read by the model), so the visit cannot be replayed without the model`,
            usage,
          };
        uses.set(v.recipe, [...(uses.get(v.recipe) ?? []), ...records]);
        steps.push({
          action: 'visit',
          links: v.links,
          followPagination: v.followPagination,
          maxItems: v.maxItems,
          recipe: v.recipe,
          sampleRecords: records.length,
        });
        break;
      }
      case 'finish':
        break;
    }
  }
  if (!steps.some((s) => s.action === 'extract' || s.action === 'visit'))
    return { ok: false, reason: 'the agent extracted no records on any page, so there is no extract step to record', usage };
  const sourced = withoutUnsourcedFields(uses, (field) =>
    ctx.logger.info({ field }, 'agentic build: the agent had no value for this field on any page; the recipe leaves it null'),
  );
  if ('reason' in sourced) return { ok: false, reason: sourced.reason, usage };
  for (const [i, st] of steps.entries())
    if (st.action === 'extract' || st.action === 'visit') steps[i] = { ...st, recipe: sourced.recipes.get(st.recipe) ?? st.recipe };
  // Trailing actions after the last extract (or visit) do not change the output.
  const last = steps.findLastIndex((s) => s.action === 'extract' || s.action === 'visit');
  const onHttp =
    (input.kept?.driver ?? 'http') === 'http' &&
    run.steps.every((a) => !a.ok || a.driver === 'http') &&
    run.extractions.every((x) => x.driver === 'http') &&
    run.visits.every((v) => v.pages.every((p) => !p.driver || p.driver === 'http'));
  const script = validateScript({
    format: SCRIPT_FORMAT,
    driver: onHttp ? 'http' : 'browser',
    parameters: values,
    steps: foldPagination(steps.slice(0, last + 1)),
  });
  return { ok: true, script, usage, recipes: made.length };
}

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * What a replay got wrong against the agent's records (null when it reproduced them all; records the
 * replay finds in addition are not an error, as for recipes), for the scraper's `error`.
 */
export function replayDifference(replayed: ExtractedRecord[], agent: ExtractedRecord[], baseUrl: string): string | null {
  const c = compareRecipeOutput(replayed, agent, { baseUrl });
  if (c.ok) return null;
  const parts = [`the replay without the model gave ${c.actualCount} record${c.actualCount === 1 ? '' : 's'} where the agent gave ${c.expectedCount}`];
  if (c.missingRecordCount) parts.push(`${c.missingRecordCount} of the agent's records are missing (e.g. ${cut(JSON.stringify(c.missingRecords[0]), 200)})`);
  for (const [name, f] of Object.entries(c.fields)) {
    if (!f.missing && !f.wrong) continue;
    const ex = f.examples[0];
    parts.push(
      `field ${name}: ${f.missing} missing, ${f.wrong} different${ex ? ` (agent ${cut(JSON.stringify(ex.expected), 80)}, replay ${cut(JSON.stringify(ex.actual), 80)})` : ''}`,
    );
  }
  return cut(parts.join('; '), 1500);
}
