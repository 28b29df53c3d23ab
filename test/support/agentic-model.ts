// Scripting the model of an agentic scraper's build on the scripted model server: the parameter call
// (structured output with a `parameters` list), the recipe calls (the recipe for the agent fixture's
// product lines) and the agent itself (agent-script.ts: decisions along a plan, extractions read back).
import { agentScript, type AgentScript, type PlanStep } from './agent-script.ts';
import type { ModelRequest as RecordedRequest, Step } from '@gleaner/testing';
import { recipeField, recipeTransform } from './recipe-answers.ts';
import { sentSchema, type Stack } from './stack.ts';

// The recipe the model writes for the fixture's product lines (unused keys null, as under the answer schema).
export const PRODUCT_RECIPE = {
  container: { selector: 'li.product' },
  fields: {
    name: recipeField('.name', 'text', { transforms: [recipeTransform('replace', { pattern: '^Product:\\s*', with: '' })] }),
    price: recipeField('.price', 'text'),
  },
  pagination: null,
};

export const isRecipeRequest = (req: RecordedRequest) => Boolean(sentSchema(req)?.properties?.container);
export const isParametersRequest = (req: RecordedRequest) => Boolean(sentSchema(req)?.properties?.parameters);

/**
 * The model of one build: the parameter call gets `parameters`, recipe calls the product recipe,
 * everything else plays the agent along `plan` (`recipe` and `extract` replace the product recipe
 * and the agent's extraction answers). `onDecision` sees each agent request first (e.g. to
 * read the values the agent was told). `delayMs` holds every answer (a model's latency).
 */
export function scriptBuildModel(
  s: Stack,
  plan: PlanStep[],
  parameters: unknown[],
  opts: {
    decisionDelayMs?: number;
    delayMs?: number;
    onAgentRequest?: (req: RecordedRequest) => void;
    recipe?: unknown;
    extract?: (pageText: string) => unknown[];
  } = {},
): AgentScript {
  const agent = agentScript(plan, { decisionDelayMs: opts.decisionDelayMs, extract: opts.extract });
  s.model.script(async (req, i): Promise<Step> => {
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    if (isParametersRequest(req)) return { json: { parameters } };
    if (isRecipeRequest(req)) return { json: opts.recipe ?? PRODUCT_RECIPE };
    opts.onAgentRequest?.(req);
    return agent.script(req, i);
  });
  return agent;
}
