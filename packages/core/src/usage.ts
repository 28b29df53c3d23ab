// What operations cost: model usage added up across calls, credits from the price table, and the
// per-owner usage events.
import type { GleanerConfig } from './config/types.ts';
import type { Queryable } from './store/db.ts';
import type { LlmUsage } from './plugins/llm.ts';

export interface ModelUsage {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
}

export const emptyUsage = (): ModelUsage => ({ modelCalls: 0, inputTokens: 0, outputTokens: 0 });

export function addUsage(total: ModelUsage, u: LlmUsage | ModelUsage): void {
  total.inputTokens += u.inputTokens;
  total.outputTokens += u.outputTokens;
  total.modelCalls += 'modelCalls' in u ? u.modelCalls : 1;
}

/** Credits from the one price table in config (`credits.*`, docs/configuration.md). */
export function creditsFor(config: Readonly<GleanerConfig>, c: { modelPages?: number; recipePages?: number; builds?: number; usage?: ModelUsage }): number {
  const tokens = c.usage ? c.usage.inputTokens + c.usage.outputTokens : 0;
  const total =
    (c.modelPages ?? 0) * config.credits.extractPage +
    (c.recipePages ?? 0) * config.credits.recipePage +
    (c.builds ?? 0) * config.credits.scraperBuild +
    (tokens / 1000) * config.credits.per1kModelTokens;
  return Math.round(total * 10_000) / 10_000;
}

/** Records what one operation cost, per owner. */
export async function recordUsage(
  db: Queryable,
  e: { ownerId: string; operation: string; subject?: string | null; pages: number; usage: ModelUsage; credits: number; unsupported?: number },
): Promise<void> {
  await db.query(
    `INSERT INTO usage_events (owner_id, operation, subject, pages, model_calls, input_tokens, output_tokens, credits, unsupported_values)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [e.ownerId, e.operation, e.subject ?? null, e.pages, e.usage.modelCalls, e.usage.inputTokens, e.usage.outputTokens, e.credits, e.unsupported ?? 0],
  );
}
