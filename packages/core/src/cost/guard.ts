/**
 * Budgets inside an extraction: before each page is read, what it would add (estimated on the page
 * itself) is checked against the request's and the owner's budgets. The first page over a budget
 * refuses the whole request (BUDGET_EXCEEDED, nothing charged); a later page stops pagination and
 * the pages read so far are answered with a message.
 */
import type { OperationContext } from '../context.ts';
import type { ExtractOptions } from '../schemas/normalize.ts';
import { creditsFor, type ModelUsage } from '../usage.ts';
import { budgetExceeded, firstExceeded, hasOwnerBudgets, ownerSpend } from './budgets.ts';
import { estimatePage } from './estimate.ts';
import type { OwnerSettings } from './settings.ts';

export interface PageGuard {
  /** Throws BUDGET_EXCEEDED for the first page; for a later one returns why to stop, or null to go on. */
  beforePage(page: { html: string; url: string }, index: number, used: { usage: ModelUsage; modelPages: number; recipePages: number }): Promise<string | null>;
}

/** The guard of an extraction, or null when neither the request nor the owner has a budget. */
export async function extractionGuard(ctx: OperationContext, ownerId: string, options: ExtractOptions, settings: OwnerSettings): Promise<PageGuard | null> {
  const request = { maxCredits: options.maxCredits, maxTokens: options.maxTokens };
  const owner = hasOwnerBudgets(settings);
  if (request.maxCredits == null && request.maxTokens == null && !owner) return null;
  // Read once: this extraction's own spending is added page by page.
  const spend = owner ? await ownerSpend(ctx.db, ownerId) : null;
  return {
    async beforePage(page, index, used) {
      const code = options.mode === 'code';
      const est = await estimatePage(ctx, page, options, index === 0);
      const usage = {
        modelCalls: used.usage.modelCalls + est.modelCalls,
        inputTokens: used.usage.inputTokens + est.inputTokens,
        outputTokens: used.usage.outputTokens + est.outputTokens,
      };
      const credits = creditsFor(ctx.config, {
        modelPages: used.modelPages + (code && index > 0 ? 0 : 1),
        recipePages: used.recipePages + (code && index > 0 ? 1 : 0),
        usage,
      });
      const over = firstExceeded(settings, spend, request, { credits, tokens: usage.inputTokens + usage.outputTokens });
      if (!over) return null;
      ctx.metrics?.budgetRefusals.inc({ scope: over.scope });
      if (index === 0) throw budgetExceeded(over, `extracting ${page.url}`);
      return `Stopped before page ${index + 1} (${page.url}): ${budgetExceeded(over, 'reading it').message}. The records of the ${index} page(s) read are returned.`;
    },
  };
}
