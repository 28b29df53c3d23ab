import type { EngineOptions, GleanerConfig, Logger } from '@gleaner/core';
import { createHttpDriver } from '@gleaner/driver-http';
import { createLlmFromConfig } from './llm-provider.ts';

/** Plugins wired into the engine from configuration (explicit registration, CONVENTIONS.md 2). */
export function pluginWiring(config: Readonly<GleanerConfig>, logger: Logger): Partial<EngineOptions> {
  const llm = createLlmFromConfig(config, logger);
  return {
    llm: llm.provider,
    llmSpecs: llm.listLlmSpecs,
    drivers: [createHttpDriver({ config, logger })],
  };
}
