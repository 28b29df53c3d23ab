// Recipe answers as the model writes them under the recipe answer schema: every key present, the
// unused ones null. Tests script these as the model's JSON answers.

/** A recipe transform `{op}` with the other keys null, `extra` setting some of them. */
export const recipeTransform = (op: string, extra: Record<string, unknown> = {}) => ({
  op,
  pattern: null,
  flags: null,
  group: null,
  with: null,
  separator: null,
  value: null,
  ...extra,
});

/** A recipe field reading `read` ('text', 'attr', ...) at `selector`, `extra` overriding the defaults. */
export const recipeField = (selector: string | null, read: string, extra: Record<string, unknown> = {}) => ({
  selector,
  read,
  attr: null,
  name: null,
  path: null,
  value: null,
  all: false,
  transforms: [],
  fallback: null,
  ...extra,
});
