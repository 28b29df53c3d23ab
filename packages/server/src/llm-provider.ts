/**
 * Chooses and builds the model provider from the resolved configuration. The engine wraps it once
 * in core's model client (timeout, retries, concurrency limit, JSON validation).
 */
import type { GleanerConfig, LlmProvider, Logger, ModelSpec } from '@gleaner/core';
import { createOpenAiProvider } from '@gleaner/llm-openai';
import { createOllamaProvider } from '@gleaner/llm-ollama';

export const DEFAULT_MODELS = { openai: 'gpt-4o-mini', ollama: 'llama3.1' } as const;

export interface LlmSetup {
  /** null when no provider is configured (model-free operations still work). */
  provider: LlmProvider | null;
  /** For GET /v1/llm-specs: never throws. */
  listLlmSpecs(): Promise<ModelSpec[]>;
}

type LlmConfig = Pick<GleanerConfig, 'llm' | 'openai' | 'ollama'>;

/** 'openai' or 'ollama' as configured; empty means openai when a key or base URL is set, else ollama. */
export function chooseProvider(config: LlmConfig): 'openai' | 'ollama' {
  if (config.llm.provider) return config.llm.provider;
  return config.openai.apiKey || config.openai.baseUrl ? 'openai' : 'ollama';
}

function buildProvider(config: LlmConfig, logger: Logger): LlmProvider | null {
  const kind = chooseProvider(config);
  const contextWindow = config.llm.contextWindow > 0 ? config.llm.contextWindow : undefined;
  if (kind === 'openai') {
    if (!config.openai.apiKey && !config.openai.baseUrl) {
      logger.warn('llm.provider is openai but neither OPENAI_API_KEY nor OPENAI_BASE_URL is set; model operations are disabled');
      return null;
    }
    return createOpenAiProvider({
      apiKey: config.openai.apiKey,
      baseUrl: config.openai.baseUrl,
      model: config.llm.model || DEFAULT_MODELS.openai,
      contextWindow,
      logger,
    });
  }
  if (!config.ollama.host) {
    logger.warn('llm.provider is ollama but OLLAMA_HOST is empty; model operations are disabled');
    return null;
  }
  return createOllamaProvider({
    host: config.ollama.host,
    model: config.llm.model || DEFAULT_MODELS.ollama,
    keepAlive: config.ollama.keepAlive,
    contextWindow,
    logger,
  });
}

/**
 * The specs of a provider for GET /v1/llm-specs: an empty list (and a warning in the log) when there
 * is no provider or it cannot be reached within `timeoutMs`, never an error.
 */
export async function listLlmSpecs(provider: LlmProvider | null, logger: Logger, timeoutMs = 10_000): Promise<ModelSpec[]> {
  if (!provider) return [];
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return await Promise.race([Promise.resolve().then(() => provider.specs()), timeout]);
  } catch (err) {
    logger.warn({ provider: provider.name, model: provider.model, err: err instanceof Error ? err.message : String(err) }, 'model provider specs unavailable');
    return [];
  } finally {
    clearTimeout(timer);
  }
}

/** Builds the configured provider; logs which one was chosen. */
export function createLlmFromConfig(config: LlmConfig, logger: Logger): LlmSetup {
  const provider = buildProvider(config, logger);
  if (provider) logger.info({ provider: provider.name, model: provider.model }, 'model provider configured');
  return { provider, listLlmSpecs: () => listLlmSpecs(provider, logger) };
}
