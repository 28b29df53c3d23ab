import type { Driver, EngineOptions, GleanerConfig, KNOWN_PLUGINS, Logger, PluginFromConfig } from '@gleaner/core';
import { fromConfig as httpFromConfig } from '@gleaner/driver-http';
import { fromConfig as playwrightFromConfig } from '@gleaner/driver-playwright';
import { fromConfig as seleniumFromConfig } from '@gleaner/driver-selenium';
import { createLlmFromConfig, decideModel } from './llm-provider.ts';

/** The server links every driver plugin: core's table of known drivers, built by each package's fromConfig. */
const DRIVERS: Record<keyof typeof KNOWN_PLUGINS.driver, PluginFromConfig<Driver>> = {
  http: httpFromConfig,
  playwright: playwrightFromConfig,
  selenium: seleniumFromConfig,
};

/** A driver as its package builds it from configuration (drivers need no settings they could miss). */
function driver(name: keyof typeof DRIVERS, config: Readonly<GleanerConfig>, logger: Logger): Driver {
  const built = DRIVERS[name]({ config, logger });
  if ('missing' in built) throw new Error(`driver ${name} is not configured: ${built.missing}`);
  return built;
}

/**
 * The browser driver that escalation moves to (`browser.driver`); none when escalation is off.
 * Browsers start lazily, on the first page that needs one.
 */
function browserDriver(config: Readonly<GleanerConfig>, logger: Logger): Driver[] {
  if (config.browser.escalation === 'never') return [];
  return [driver(config.browser.driver, config, logger)];
}

/** The plugins the server builds from configuration, for createEngine, and their owner's close(). */
export interface PluginWiring extends Pick<EngineOptions, 'drivers' | 'llm' | 'llmSpecs'> {
  /** Closes the drivers and the provider (the engine borrows them); call after engine.stop(). */
  close(): Promise<void>;
}

/** Plugins wired into the engine from configuration (explicit registration, never on import). */
export function pluginWiring(config: Readonly<GleanerConfig>, logger: Logger): PluginWiring {
  const llm = createLlmFromConfig(config, logger);
  const drivers = [driver('http', config, logger), ...browserDriver(config, logger)];
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
