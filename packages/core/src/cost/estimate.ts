/**
 * Cost before the work (`dry_run: true`, a Gleaner extension): pages, model calls, input and output
 * tokens, credits and money. Extraction fetches its first page (nothing else) and counts the tokens
 * of exactly what would be sent; pages after the first are assumed like it. Runs estimate from the
 * scraper's history, agent tasks give a range from the agent's budgets.
 */
import type { OperationContext } from '../context.ts';
import { openBrowser } from '../extract/acquire.ts';
import { estimateModelPage } from '../extract/model-extract.ts';
import { countTokens } from '../page/index.ts';
import { suppliedHtml } from '../page/supplied.ts';
import { pageSkeleton, RECIPE_SYSTEM_PROMPT, recipeAnswerSchema } from '../recipes/index.ts';
import type { ExtractOptions } from '../schemas/normalize.ts';
import { creditsFor, type ModelUsage } from '../usage.ts';
import { AGENT_SYSTEM } from '../agent/run.ts';
import { AGENT_TOOLS } from '../agent/tools.ts';
import { OBSERVE_LIMITS } from '../agent/observe.ts';

export interface Money {
  currency: 'USD';
  amount: number;
  /** The model priced, and where its price comes from. */
  model: string;
  priced_by: 'llm.pricing' | 'provider';
}

export interface Estimate {
  pages: number;
  model_calls: number;
  input_tokens: number;
  output_tokens: number;
  credits: number;
  /** null when the model has no configured or published price. */
  money: Money | null;
  /** How the figures were made. */
  basis: string;
  /** Agent tasks: the most they could cost within the agent's budgets. */
  max?: Omit<Estimate, 'max' | 'basis'>;
}

/** The configured model's price per million tokens: `llm.pricing`, else the provider's spec. */
export async function modelPrice(ctx: OperationContext): Promise<{ model: string; input: number; output: number; priced_by: Money['priced_by'] } | null> {
  const model = ctx.model?.provider.model ?? ctx.config.llm.model;
  if (!model) return null;
  const configured = ctx.config.llm.pricing[model];
  if (configured) return { model, input: configured.input, output: configured.output, priced_by: 'llm.pricing' };
  const spec = await ctx.modelSpec().catch(() => null);
  const p = spec?.pricing;
  if (p && p.input_per_million_tokens !== null && p.output_per_million_tokens !== null)
    return { model, input: p.input_per_million_tokens, output: p.output_per_million_tokens, priced_by: 'provider' };
  return null;
}

export function moneyFor(price: Awaited<ReturnType<typeof modelPrice>>, usage: { inputTokens: number; outputTokens: number }): Money | null {
  if (!price) return null;
  const amount = (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
  return { currency: 'USD', amount: Math.round(amount * 1e6) / 1e6, model: price.model, priced_by: price.priced_by };
}

/** An estimate's figures from usage and page counts. */
export async function estimateOf(
  ctx: OperationContext,
  c: { pages: number; modelPages?: number; recipePages?: number; builds?: number; usage: ModelUsage; basis: string },
): Promise<Estimate> {
  return {
    pages: c.pages,
    model_calls: c.usage.modelCalls,
    input_tokens: c.usage.inputTokens,
    output_tokens: c.usage.outputTokens,
    credits: creditsFor(ctx.config, { modelPages: c.modelPages, recipePages: c.recipePages, builds: c.builds, usage: c.usage }),
    money: moneyFor(await modelPrice(ctx), c.usage),
    basis: c.basis,
  };
}

/** A recipe's first round on a page: the skeleton, the recipe prompt and schema in; a recipe out. */
export function estimateRecipeRound(html: string, options: Pick<ExtractOptions, 'attributes' | 'prompt'>): ModelUsage {
  const inputTokens =
    countTokens(RECIPE_SYSTEM_PROMPT) + countTokens(JSON.stringify(recipeAnswerSchema(options.attributes))) + countTokens(pageSkeleton(html)) + 150;
  return { modelCalls: 1, inputTokens, outputTokens: 60 + 45 * Math.max(1, options.attributes.length) };
}

/** Cost of one page read by standard/precision extraction, or (code mode, first page) by a recipe round. */
export async function estimatePage(ctx: OperationContext, page: { html: string; url: string }, options: ExtractOptions, first: boolean): Promise<ModelUsage> {
  if (options.mode === 'code') return first ? estimateRecipeRound(page.html, options) : { modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  const e = await estimateModelPage(ctx, { ...page, attributes: options.attributes, prompt: options.prompt, precision: options.mode === 'precision' });
  return { modelCalls: e.modelCalls, inputTokens: e.inputTokens, outputTokens: e.outputTokens };
}

/** The page an estimate reads: the content supplied, or the URL fetched once (no more pages). */
async function firstPage(
  ctx: OperationContext,
  target: { url: string } | { content: string; url?: string },
  browse: { proxyCountry: string | null; cookies: ExtractOptions['cookies'] },
  signal?: AbortSignal,
): Promise<{ html: string; url: string }> {
  if ('content' in target) return { html: suppliedHtml(target.content), url: target.url ?? 'https://content.invalid/' };
  const browser = await openBrowser(ctx, { ...browse, signal });
  try {
    const snap = await browser.goto(target.url);
    return { html: snap.html, url: snap.finalUrl };
  } finally {
    await browser.close();
  }
}

/** Cost of an extraction (extract, parse, extract_async, the standard read of a build): its first page fetched, nothing else. */
export async function estimateExtraction(
  ctx: OperationContext,
  target: { url: string } | { content: string; url?: string },
  options: ExtractOptions,
  signal?: AbortSignal,
): Promise<Estimate> {
  const page = await firstPage(ctx, target, options, signal);
  const pages = 'content' in target || !options.enablePagination ? 1 : options.maxPages;
  const first = await estimatePage(ctx, page, options, true);
  const later = await estimatePage(ctx, page, options, false);
  const usage = {
    modelCalls: first.modelCalls + (pages - 1) * later.modelCalls,
    inputTokens: first.inputTokens + (pages - 1) * later.inputTokens,
    outputTokens: first.outputTokens + (pages - 1) * later.outputTokens,
  };
  const code = options.mode === 'code';
  return estimateOf(ctx, {
    pages,
    modelPages: code ? 1 : pages,
    recipePages: code ? pages - 1 : 0,
    usage,
    basis:
      pages > 1
        ? `the first page as fetched; the ${pages - 1} next page(s) pagination may read are assumed like it`
        : 'content' in target
          ? 'the content supplied'
          : 'the page as fetched',
  });
}

/** The answer of a request made with `dry_run: true`. */
export interface DryRunBody {
  data?: [];
  dry_run: true;
  estimate: Estimate;
  message: string;
}

/** The `estimate` object's JSON Schema (OpenAPI). */
const FIGURES = {
  pages: { type: 'integer' },
  model_calls: { type: 'integer' },
  input_tokens: { type: 'integer' },
  output_tokens: { type: 'integer' },
  credits: { type: 'number' },
  money: {
    anyOf: [
      { type: 'null' },
      {
        type: 'object',
        required: ['currency', 'amount', 'model', 'priced_by'],
        properties: { currency: { const: 'USD' }, amount: { type: 'number' }, model: { type: 'string' }, priced_by: { enum: ['llm.pricing', 'provider'] } },
      },
    ],
  },
} as const;

export const ESTIMATE_SCHEMA = {
  type: 'object',
  description: 'Present only with dry_run: true (a Gleaner extension): what the work would cost.',
  required: ['pages', 'model_calls', 'input_tokens', 'output_tokens', 'credits', 'money', 'basis'],
  properties: {
    ...FIGURES,
    basis: { type: 'string', description: 'How the figures were made' },
    max: { type: 'object', description: 'Agent tasks: the most the task could cost within the agent budgets', properties: FIGURES },
  },
} as const;

/**
 * Cost of a run from the scraper's history: pages per URL as its completed URLs averaged (capped at
 * max_pages; one page when it never ran), credits per page read by the recipe, no model call
 * (a self-heal after layout drift would add a build's cost; it is not foreseen).
 */
export async function estimateRun(ctx: OperationContext, scraperId: string, urls: number, maxPages: number): Promise<Estimate> {
  const { rows } = await ctx.db.query(
    `SELECT count(*)::int AS n, coalesce(avg(i.pages), 0)::float8 AS pages
       FROM run_items i JOIN runs r ON r.id = i.run_id WHERE r.scraper_id = $1 AND i.status = 'completed'`,
    [scraperId],
  );
  const n = rows[0].n as number;
  const perUrl = n ? Math.min(maxPages, Math.max(1, rows[0].pages as number)) : 1;
  const pages = Math.round(urls * perUrl * 100) / 100;
  return estimateOf(ctx, {
    pages,
    recipePages: pages,
    usage: { modelCalls: 0, inputTokens: 0, outputTokens: 0 },
    basis: n
      ? `the scraper's history: ${n} URL(s) run, ${Math.round(perUrl * 100) / 100} page(s) per URL`
      : 'no completed run of this scraper yet: one page per URL assumed',
  });
}

/**
 * Cost of a one-shot agent task, as a range: at least one decision to extract the start page, the
 * extraction, and one to finish; at most every step of the agent's budget (agent.maxSteps), each
 * decision reading the goal, the tools, an observation of the page and the conversation so far, up
 * to the token budget (agent.maxTokens or the request's max_tokens). The start page is fetched.
 */
export async function estimateAgentTask(
  ctx: OperationContext,
  input: { url: string; prompt: string; attributes: ExtractOptions['attributes']; maxTokens: number },
  signal?: AbortSignal,
): Promise<Estimate> {
  const page = await firstPage(ctx, { url: input.url }, { proxyCountry: null, cookies: [] }, signal);
  const extraction = await estimateModelPage(ctx, { ...page, attributes: input.attributes, prompt: input.prompt, precision: false });
  const observation = Math.min(extraction.reducedTokens, OBSERVE_LIMITS.textTokens) + OBSERVE_LIMITS.elements * 4;
  const decisionIn = countTokens(AGENT_SYSTEM) + countTokens(JSON.stringify(AGENT_TOOLS)) + countTokens(input.prompt) + observation + 40;
  const decisionOut = 60;
  const min = {
    modelCalls: 2 + extraction.modelCalls,
    inputTokens: 2 * decisionIn + extraction.inputTokens,
    outputTokens: 2 * decisionOut + extraction.outputTokens,
  };
  // Every step a decision whose conversation grows by about 100 tokens per step, plus an extraction every other step.
  const steps = ctx.config.agent.maxSteps;
  let inputTokens = 0;
  let outputTokens = 0;
  let calls = 0;
  for (let i = 0; i < steps && inputTokens + outputTokens < input.maxTokens; i++) {
    inputTokens += decisionIn + 100 * i;
    outputTokens += decisionOut;
    calls++;
    if (i % 2 === 1) {
      inputTokens += extraction.inputTokens;
      outputTokens += extraction.outputTokens;
      calls += extraction.modelCalls;
    }
  }
  const scale = Math.min(1, input.maxTokens / Math.max(1, inputTokens + outputTokens));
  const maxUsage = { modelCalls: calls, inputTokens: Math.round(inputTokens * scale), outputTokens: Math.round(outputTokens * scale) };
  const low = await estimateOf(ctx, { pages: 1, modelPages: 1, usage: min, basis: '' });
  const high = await estimateOf(ctx, { pages: Math.ceil(calls / 2), modelPages: Math.ceil(steps / 2), usage: maxUsage, basis: '' });
  const { basis: _b, ...max } = high;
  return {
    ...low,
    basis: `a range: at least the start page extracted in two decisions; at most ${steps} steps (agent.maxSteps) within ${input.maxTokens} model tokens`,
    max,
  };
}

/**
 * Cost of a classic scraper build: standard extraction of the sample page, then one recipe round
 * (at most scrapers.generateRounds when the recipe needs correcting: `max`), and the build's price.
 */
export async function estimateBuild(
  ctx: OperationContext,
  target: { url: string } | { content: string; url?: string },
  options: ExtractOptions,
  signal?: AbortSignal,
): Promise<Estimate> {
  const standard = await estimateExtraction(ctx, target, { ...options, mode: 'standard', enablePagination: false }, signal);
  const page = await firstPage(ctx, target, options, signal);
  const round = estimateRecipeRound(page.html, options);
  const usage = (rounds: number) => ({
    modelCalls: standard.model_calls + rounds,
    inputTokens: standard.input_tokens + rounds * round.inputTokens,
    outputTokens: standard.output_tokens + rounds * round.outputTokens,
  });
  const rounds = ctx.config.scrapers.generateRounds;
  const low = await estimateOf(ctx, { pages: 1, builds: 1, usage: usage(1), basis: '' });
  const { basis: _b, ...max } = await estimateOf(ctx, { pages: 1, builds: 1, usage: usage(rounds), basis: '' });
  return { ...low, basis: `the sample page read by standard extraction, then 1 recipe round (at most ${rounds}: max) and the build price`, max };
}
