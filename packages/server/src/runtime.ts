import { createEngine, type Engine, type EngineOptions, type GleanerConfig, type Logger } from '@gleaner/core';
import type { EmbeddedPostgresHandle } from './embedded-postgres.ts';
import { startDatabase } from './database.ts';

export interface Runtime {
  engine: Engine;
  embedded: EmbeddedPostgresHandle | null;
  /** Stops the engine (graceful for running jobs) and the embedded Postgres if this process owns it. */
  close(): Promise<void>;
  /** No grace: stops the embedded Postgres this process owns at once (immediate shutdown), for a forced exit. */
  abort(): Promise<void>;
}

export interface RuntimeOptions {
  config: Readonly<GleanerConfig>;
  logger: Logger;
  /** Also start pg-boss (needed by serve and worker; not by key management). */
  jobs: boolean;
}

/**
 * Connects the engine to Postgres: DATABASE_URL when set, otherwise the embedded Postgres under
 * <dataDir>/postgres (reusing the instance another gleaner process already runs there).
 * Applies migrations. The server's plugin wiring lives in wiring.ts.
 */
export async function openRuntime(
  opts: RuntimeOptions,
  plugins: Pick<EngineOptions, 'drivers' | 'llm' | 'llmSpecs'> & { close?(): Promise<void> } = {},
): Promise<Runtime> {
  const { config, logger } = opts;
  const { close: closePlugins, ...extra } = plugins;
  const { url, embedded } = await startDatabase(config, logger);
  const engine = createEngine({ config, logger, databaseUrl: url, ...extra });
  try {
    if (opts.jobs) await engine.start();
    else await engine.migrate();
  } catch (err) {
    await engine.stop().catch(() => undefined);
    await closePlugins?.().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw err;
  }
  let closing: Promise<void> | null = null;
  return {
    engine,
    embedded,
    close: () =>
      (closing ??= (async () => {
        try {
          await engine.stop();
          await closePlugins?.(); // the engine borrows its plugins: their owner closes them
        } finally {
          await embedded?.stop();
        }
      })()),
    abort: async () => {
      await embedded?.abort();
    },
  };
}
