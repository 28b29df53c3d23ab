import type { LlmProvider, PluginFromConfig } from '@gleaner/core/plugin';
import { createOpenAiProvider } from './provider.ts';

/** The model used when llm.model is empty. */
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

/** The provider as core's plugin table builds it (KNOWN_PLUGINS.llm.openai): it needs a key or a base URL. */
export const fromConfig: PluginFromConfig<LlmProvider> = ({ config, logger }) => {
  if (!config.openai.apiKey && !config.openai.baseUrl)
    return { missing: 'set OPENAI_API_KEY (api.openai.com) or OPENAI_BASE_URL (an OpenAI-compatible server)' };
  return createOpenAiProvider({
    apiKey: config.openai.apiKey,
    baseUrl: config.openai.baseUrl,
    model: config.llm.model || OPENAI_DEFAULT_MODEL,
    contextWindow: config.llm.contextWindow > 0 ? config.llm.contextWindow : undefined,
    logger,
  });
};
