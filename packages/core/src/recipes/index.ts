// Recipes: schema, validation, executor and generator (code mode, classic scrapers).
export { RECIPE_READS, RECIPE_TRANSFORM_OPS, RECIPE_LIMITS, RECIPE_SCHEMA, recipeAnswerSchema } from './schema.ts';
export type { Recipe, RecipeContainer, RecipeFieldRule, RecipePagination, RecipeRead, RecipeTransform, RecipeTransformOp } from './schema.ts';
export { validateRecipe } from './compile.ts';
export { executeRecipe, runRecipe } from './execute.ts';
export type { ExecuteRecipeOptions, RecipeRun } from './execute.ts';
export { generateRecipe } from './generate.ts';
export { RECIPE_SYSTEM_PROMPT } from './prompt.ts';
export type { GenerateRecipeInput, GenerateRecipeResult, RecipeUsage } from './generate.ts';
export type { RecipeMismatch } from './prompt.ts';
export { compareRecipeOutput } from './compare.ts';
export type { RecipeComparison, FieldComparison } from './compare.ts';
export { brittleSelectors } from './quality.ts';
export type { SelectorWarning } from './quality.ts';
export { pageSkeleton } from './skeleton.ts';
export type { SkeletonOptions } from './skeleton.ts';
export { compileSafeRegex, REGEX_INPUT_LIMIT } from './safe-regex.ts';
