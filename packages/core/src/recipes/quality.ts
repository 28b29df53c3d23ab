/**
 * Selector robustness: positional chains (`div:nth-child(2) > div:nth-child(3)`) break at the first
 * layout change, while selectors anchored on ids, classes, data-* / itemprop / aria attributes or
 * text survive it. The generator sends these findings back to the model and ranks recipes by them.
 */
import { parse } from 'css-what';
import type { Selector } from 'css-what';
import type { Recipe, RecipeFieldRule } from './schema.ts';

export interface SelectorWarning {
  /** Where the selector is, e.g. `/fields/price/selector`. */
  path: string;
  selector: string;
  reason: string;
}

const POSITIONAL = new Set([
  'nth-child',
  'nth-of-type',
  'nth-last-child',
  'nth-last-of-type',
  'first-child',
  'last-child',
  'first-of-type',
  'last-of-type',
  'only-child',
]);
const COMBINATORS = new Set(['child', 'descendant', 'sibling', 'adjacent', 'parent', 'column-combinator']);
const ANCHOR_PSEUDOS = new Set(['contains', 'icontains', 'has', 'is', 'where', 'matches']);

interface Shape {
  positional: number;
  compounds: number;
  anchored: number;
  childSteps: number;
}

function shapeOf(tokens: Selector[]): Shape {
  const shape: Shape = { positional: 0, compounds: 1, anchored: 0, childSteps: 0 };
  let anchoredHere = false;
  for (const t of tokens) {
    const type = t.type as string;
    if (COMBINATORS.has(type)) {
      if (anchoredHere) shape.anchored++;
      anchoredHere = false;
      shape.compounds++;
      if (type === 'child') shape.childSteps++;
    } else if (type === 'attribute') {
      anchoredHere = true;
    } else if (type === 'pseudo') {
      const name = (t as { name: string }).name;
      if (POSITIONAL.has(name)) shape.positional++;
      if (ANCHOR_PSEUDOS.has(name)) anchoredHere = true;
    }
  }
  if (anchoredHere) shape.anchored++;
  return shape;
}

/**
 * Why a selector is brittle, or null. `standalone` selectors (the container, page-level fields,
 * pagination) have no anchored container around them, so one unanchored positional step is
 * already brittle there; inside a container, `td:nth-child(3)` is fine.
 */
export function brittleReason(selector: string, standalone: boolean): string | null {
  let groups: Selector[][];
  try {
    groups = parse(selector);
  } catch {
    return null; // validation reports syntax errors
  }
  for (const tokens of groups) {
    const s = shapeOf(tokens);
    if (s.positional >= 2) return `${s.positional} positional steps (nth-child/nth-of-type chain)`;
    if (s.positional === 1 && s.anchored === 0 && standalone) return 'a positional step with no id, class, attribute or text anchor';
    if (s.childSteps >= 4 && s.anchored <= 1) return `a chain of ${s.childSteps} child steps with little anchoring`;
  }
  return null;
}

/** Every brittle selector of a recipe, with its path and the reason. */
export function brittleSelectors(recipe: Recipe): SelectorWarning[] {
  const out: SelectorWarning[] = [];
  const check = (selector: string | undefined, path: string, standalone: boolean): void => {
    if (!selector) return;
    const reason = brittleReason(selector, standalone);
    if (reason) out.push({ path, selector, reason });
  };
  const pageLevel = recipe.container === null;
  if (recipe.container && 'selector' in recipe.container) check(recipe.container.selector, '/container/selector', true);
  const field = (rule: RecipeFieldRule, path: string): void => {
    check(rule.selector, `${path}/selector`, pageLevel);
    if (rule.fallback) field(rule.fallback, `${path}/fallback`);
  };
  for (const [name, rule] of Object.entries(recipe.fields)) field(rule, `/fields/${name}`);
  if (recipe.pagination) check(recipe.pagination.next.selector, '/pagination/next/selector', true);
  return out;
}
