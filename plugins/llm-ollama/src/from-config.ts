import type { LlmProvider, PluginFromConfig } from '@gleaner/core/plugin';
import { createOllamaProvider } from './provider.ts';

/** The model used when llm.model is empty. */
export const OLLAMA_DEFAULT_MODEL = 'llama3.1';

/** The provider as core's plugin table builds it (KNOWN_PLUGINS.llm.ollama): it needs OLLAMA_HOST. */
export const fromConfig: PluginFromConfig<LlmProvider> = ({ config, logger }) => {
  if (!config.ollama.host) return { missing: 'OLLAMA_HOST is empty (set it, or OPENAI_API_KEY / OPENAI_BASE_URL for an OpenAI-compatible server)' };
  return createOllamaProvider({
    host: config.ollama.host,
    model: config.llm.model || OLLAMA_DEFAULT_MODEL,
    keepAlive: config.ollama.keepAlive,
    contextWindow: config.llm.contextWindow > 0 ? config.llm.contextWindow : undefined,
    logger,
  });
};
