import { GleanerError } from './errors.ts';
import type { GleanerConfig } from './config/types.ts';
import type { Logger } from './log.ts';
import type { Database } from './store/db.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { Driver } from './plugins/driver.ts';
import type { ModelClient } from './llm/call-model.ts';
import type { ModelSpec } from './plugins/llm.ts';
import type { Metrics } from './metrics/registry.ts';
import type { CancelWatch } from './jobs/cancel.ts';
import type { Politeness } from './politeness/policy.ts';

/** What operations get from the engine. */
export interface OperationContext {
  config: Readonly<GleanerConfig>;
  logger: Logger;
  db: Database;
  jobs: JobQueue;
  drivers: readonly Driver[];
  /** Null when no provider is wired (operations that need a model answer MODEL_NOT_CONFIGURED). */
  model: ModelClient | null;
  /** The configured model's spec, fetched once; null when the provider does not say. */
  modelSpec(): Promise<ModelSpec | null>;
  /** Prometheus instruments (absent in contexts built by hand, e.g. some tests). */
  metrics?: Metrics;
  /** Cancellation of running work from another process (agent stop, scraper delete mid-build). */
  cancels: CancelWatch;
  /** Per-host politeness and robots.txt shared by every worker (absent in contexts built by hand). */
  politeness?: Politeness;
}

/** The settings that give Gleaner a model, for messages and logs that say how to configure one. */
export const MODEL_SETTINGS_HINT =
  'set OPENAI_API_KEY (OpenAI), OPENAI_BASE_URL (an OpenAI-compatible server) or OLLAMA_HOST (an Ollama server), or start Ollama at http://127.0.0.1:11434, then restart Gleaner';

/** The context's model client, or MODEL_NOT_CONFIGURED for operations that need one. */
export function requireModel(ctx: OperationContext) {
  if (!ctx.model) throw new GleanerError('MODEL_NOT_CONFIGURED', `this operation needs a model and none is configured: ${MODEL_SETTINGS_HINT}`);
  return ctx.model;
}
