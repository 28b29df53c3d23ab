import type { Driver, EngineOptions, GleanerConfig, Logger } from '@gleaner/core';
import { createHttpDriver } from '@gleaner/driver-http';
import { createPlaywrightDriver } from '@gleaner/driver-playwright';
import { createSeleniumDriver } from '@gleaner/driver-selenium';
import { createLlmFromConfig } from './llm-provider.ts';

/**
 * The browser driver that escalation moves to (`browser.driver`); none when escalation is off.
 * Browsers start lazily, on the first page that needs one.
 */
function browserDriver(config: Readonly<GleanerConfig>, logger: Logger): Driver[] {
  if (config.browser.escalation === 'never') return [];
  return [config.browser.driver === 'selenium' ? createSeleniumDriver({ config, logger }) : createPlaywrightDriver({ config, logger })];
}

/** Plugins wired into the engine from configuration (explicit registration, CONVENTIONS.md 2). */
export function pluginWiring(config: Readonly<GleanerConfig>, logger: Logger): Partial<EngineOptions> {
  const llm = createLlmFromConfig(config, logger);
  return {
    llm: llm.provider,
    llmSpecs: llm.listLlmSpecs,
    drivers: [createHttpDriver({ config, logger }), ...browserDriver(config, logger)],
  };
}
