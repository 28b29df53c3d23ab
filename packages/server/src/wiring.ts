import type { Driver, EngineOptions, GleanerConfig, Logger } from '@gleaner/core';
import { createHttpDriver } from '@gleaner/driver-http';
import { createPlaywrightDriver } from '@gleaner/driver-playwright';
import { createSeleniumDriver } from '@gleaner/driver-selenium';
import { createLlmFromConfig, decideModel } from './llm-provider.ts';

/**
 * The browser driver that escalation moves to (`browser.driver`); none when escalation is off.
 * Browsers start lazily, on the first page that needs one.
 */
function browserDriver(config: Readonly<GleanerConfig>, logger: Logger): Driver[] {
  if (config.browser.escalation === 'never') return [];
  return [config.browser.driver === 'selenium' ? createSeleniumDriver({ config, logger }) : createPlaywrightDriver({ config, logger })];
}

/** The plugins the server builds from configuration, for createEngine, and their owner's close(). */
export interface PluginWiring extends Pick<EngineOptions, 'drivers' | 'llm' | 'llmSpecs'> {
  /** Closes the drivers and the provider (the engine borrows them); call after engine.stop(). */
  close(): Promise<void>;
}

/** Plugins wired into the engine from configuration (explicit registration, never on import). */
export function pluginWiring(config: Readonly<GleanerConfig>, logger: Logger): PluginWiring {
  const llm = createLlmFromConfig(config, logger);
  const drivers = [createHttpDriver({ config, logger }), ...browserDriver(config, logger)];
  return {
    llm: llm.provider,
    llmSpecs: llm.listLlmSpecs,
    drivers,
    async close() {
      await Promise.allSettled(drivers.map((d) => d.close()));
      await llm.provider?.close?.();
    },
  };
}

/**
 * pluginWiring with the model decided once (decideModel: the configured one, or the default Ollama
 * when it answers now, else none): what `gleaner serve`, `worker` and `mcp` start with.
 */
export async function startupWiring(config: Readonly<GleanerConfig>, logger: Logger): Promise<PluginWiring> {
  const wiring = pluginWiring(config, logger);
  const llm = await decideModel(config, wiring.llm ?? null, logger);
  // The guessed provider stays in the wiring's close(); the engine never sees it.
  return llm ? wiring : { ...wiring, llm: null, llmSpecs: async () => [] };
}
