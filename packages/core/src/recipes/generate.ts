/**
 * The recipe generator: the model reads a skeleton of the page and writes a recipe under the recipe
 * JSON Schema; the recipe runs on the page; when standard extraction's records of the same page are
 * given, the output is compared with them, and what is missing or wrong (and any brittle selector)
 * goes back to the model for a corrected recipe, for a bounded number of rounds. The best recipe
 * seen is returned.
 */
import { selectOne } from 'css-select';
import { GleanerError, isGleanerError } from '../errors.ts';
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import type { ModelClient } from '../llm/call-model.ts';
import type { LlmMessage } from '../plugins/llm.ts';
import { compareRecipeOutput } from './compare.ts';
import type { RecipeComparison } from './compare.ts';
import { compileRecipe } from './compile.ts';
import { documentBaseUrl, parseHtmlDocument } from './dom.ts';
import { runCompiledRecipe } from './execute.ts';
import { comparisonMismatches, feedbackMessage, firstMessage, RECIPE_SYSTEM_PROMPT } from './prompt.ts';
import type { RecipeMismatch } from './prompt.ts';
import { brittleSelectors } from './quality.ts';
import { recipeAnswerSchema } from './schema.ts';
import type { Recipe } from './schema.ts';
import { pageSkeleton } from './skeleton.ts';
import type { AnyNode, Element } from './dom.ts';

export interface GenerateRecipeInput {
  model: ModelClient;
  page: { html: string; url: string; reducedText?: string };
  /** The attributes to extract; empty or omitted: the model names the fields after the prompt. */
  attributes?: Attribute[];
  prompt?: string;
  /** Standard extraction's records of the same page: the recipe must reproduce them. */
  expected?: ExtractedRecord[];
  /** Model rounds at most (default 3). */
  maxRounds?: number;
  /** Share of expected values the recipe must reproduce to be accepted (default 1). */
  acceptScore?: number;
  /** Bound of the page skeleton shown to the model (default 24,000 characters). */
  skeletonChars?: number;
  signal?: AbortSignal;
}

export interface RecipeUsage {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
}

export interface GenerateRecipeResult {
  /** The best recipe seen: accepted, or else the one reproducing the most. */
  recipe: Recipe;
  /** Its records on the page. */
  records: ExtractedRecord[];
  /** Model rounds used. */
  rounds: number;
  usage: RecipeUsage;
  /** Whether the recipe reproduces what was wanted (expected records, or at least one record). */
  accepted: boolean;
  /** What is still wrong with the returned recipe (empty when accepted with robust selectors). */
  mismatches: RecipeMismatch[];
  /** The comparison with `expected`, when it was given. */
  comparison: RecipeComparison | null;
}

interface Candidate {
  recipe: Recipe;
  records: ExtractedRecord[];
  comparison: RecipeComparison | null;
  mismatches: RecipeMismatch[];
  dataOk: boolean;
  score: number;
  brittle: number;
}

function better(a: Candidate, b: Candidate | null): boolean {
  if (!b) return true;
  if (a.dataOk !== b.dataOk) return a.dataOk;
  if (a.score !== b.score) return a.score > b.score;
  if (a.brittle !== b.brittle) return a.brittle < b.brittle;
  return (a.comparison?.extraRecords ?? 0) < (b.comparison?.extraRecords ?? 0);
}

/**
 * Has the model write a recipe for the page and checks it by running it (see the module comment).
 * Throws MODEL_BAD_OUTPUT when no round produced a valid recipe, and the model client's errors.
 */
export async function generateRecipe(input: GenerateRecipeInput): Promise<GenerateRecipeResult> {
  const attributes = input.attributes ?? [];
  const maxRounds = Math.max(1, input.maxRounds ?? 3);
  const acceptScore = input.acceptScore ?? 1;
  const expected = input.expected?.length ? input.expected : undefined;
  const doc = parseHtmlDocument(input.page.html);
  const baseUrl = documentBaseUrl(doc, input.page.url, (d) => selectOne<AnyNode, Element>('base[href]', d));
  const schema = { name: 'recipe', schema: recipeAnswerSchema(attributes) };
  const messages: LlmMessage[] = [
    {
      role: 'user',
      content: firstMessage({
        url: input.page.url,
        attributes,
        prompt: input.prompt,
        expected,
        reducedText: input.page.reducedText,
        skeleton: pageSkeleton(input.page.html, { maxChars: input.skeletonChars }),
      }),
    },
  ];
  const usage: RecipeUsage = { modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  let best: Candidate | null = null;
  let lastInvalid = '';
  let rounds = 0;

  while (rounds < maxRounds) {
    rounds++;
    let answer;
    try {
      answer = await input.model.generateJson<Record<string, unknown>>({
        system: RECIPE_SYSTEM_PROMPT,
        messages,
        jsonSchema: schema,
        signal: input.signal,
        temperature: 0,
      });
    } catch (err) {
      // An answer its repair round did not mend costs the round; the next round asks afresh.
      if (!isGleanerError(err) || err.code !== 'MODEL_BAD_OUTPUT') throw err;
      const spent = (err.details as { usage?: { inputTokens: number; outputTokens: number } } | undefined)?.usage;
      usage.modelCalls += 2;
      usage.inputTokens += spent?.inputTokens ?? 0;
      usage.outputTokens += spent?.outputTokens ?? 0;
      lastInvalid = err.message;
      continue;
    }
    usage.modelCalls++;
    usage.inputTokens += answer.usage.inputTokens;
    usage.outputTokens += answer.usage.outputTokens;
    messages.push({ role: 'assistant', content: JSON.stringify(answer.json) });

    let candidate: Candidate;
    try {
      candidate = evaluate({ ...answer.json, version: 1 });
    } catch (err) {
      if (!isGleanerError(err) || err.code !== 'VALIDATION_FAILED') throw err;
      lastInvalid = err.message;
      messages.push({ role: 'user', content: feedbackMessage([{ kind: 'invalid_recipe', message: err.message }], []) });
      continue;
    }
    if (better(candidate, best)) best = candidate;
    if (candidate.dataOk && candidate.brittle === 0) break;
    if (rounds < maxRounds) messages.push({ role: 'user', content: feedbackMessage(candidate.mismatches, candidate.records) });
  }

  if (!best) {
    throw new GleanerError('MODEL_BAD_OUTPUT', `The model did not write a valid recipe in ${rounds} round${rounds === 1 ? '' : 's'}: ${lastInvalid}`, {
      details: { rounds, usage },
    });
  }
  return { recipe: best.recipe, records: best.records, rounds, usage, accepted: best.dataOk, mismatches: best.mismatches, comparison: best.comparison };

  function evaluate(answer: unknown): Candidate {
    const compiled = compileRecipe(answer);
    const recipe = compiled.recipe;
    const run = runCompiledRecipe(compiled, doc, { url: input.page.url, attributes: attributes.length ? attributes : undefined });
    const mismatches: RecipeMismatch[] = [];
    let comparison: RecipeComparison | null = null;
    let dataOk: boolean;
    let score: number;
    if (expected) {
      comparison = compareRecipeOutput(run.records, expected, { baseUrl, fields: attributes.length ? attributes.map((a) => a.name) : undefined });
      score = comparison.score;
      dataOk = comparison.missingRecordCount === 0 && score >= acceptScore;
      if (run.records.length === 0) mismatches.push(noRecords(run.containerMatches));
      else mismatches.push(...comparisonMismatches(comparison));
    } else {
      dataOk = run.records.length > 0;
      score = dataOk ? 1 : 0;
      if (!dataOk) mismatches.push(noRecords(run.containerMatches));
      for (const a of attributes) {
        if (dataOk && run.records.every((r) => r[a.name] === null || r[a.name] === '' || (Array.isArray(r[a.name]) && (r[a.name] as unknown[]).length === 0))) {
          mismatches.push({ kind: 'empty_field', field: a.name, message: `Field "${a.name}" is empty in every record.` });
        }
      }
    }
    const brittle = brittleSelectors(recipe);
    for (const w of brittle) {
      mismatches.push({
        kind: 'brittle_selector',
        path: w.path,
        message: `The selector ${JSON.stringify(w.selector)} at ${w.path} is brittle (${w.reason}); anchor it on an id, a class, a data-*/itemprop/aria attribute or text instead of positions.`,
      });
    }
    return { recipe, records: run.records, comparison, mismatches, dataOk, score, brittle: brittle.length };
  }
}

function noRecords(containerMatches: number): RecipeMismatch {
  return {
    kind: 'no_records',
    message:
      containerMatches === 0
        ? 'The recipe found no records: the container selector matches nothing on the page.'
        : `The recipe found no records: the container matched ${containerMatches} elements but every field read nothing there.`,
  };
}
