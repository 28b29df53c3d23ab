import type { EngineOptions, GleanerConfig, Logger } from '@gleaner/core';

/** Plugins wired into the engine from configuration (explicit registration, CONVENTIONS.md 2). */
export function pluginWiring(_config: Readonly<GleanerConfig>, _logger: Logger): Partial<EngineOptions> {
  return {};
}
