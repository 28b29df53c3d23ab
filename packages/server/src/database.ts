/**
 * The Postgres the configuration names: DATABASE_URL when set, otherwise the embedded Postgres under
 * <dataDir>/postgres. `gleaner serve`, `gleaner worker` and embedders (docs/embedding.md) share it.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { createLogger, environmentConventions, type GleanerConfig, type Logger } from '@gleaner/core';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres.ts';

/**
 * Where local state lives: `dataDir` when set (a relative one from the working directory), else
 * $XDG_DATA_HOME/gleaner or ~/.local/share/gleaner — the same directory wherever gleaner is started
 * from, so an assistant launching it elsewhere finds the same database.
 */
export function resolveDataDir(config: Pick<GleanerConfig, 'dataDir'>, env?: NodeJS.ProcessEnv): string {
  if (config.dataDir) return path.resolve(config.dataDir);
  const xdg = environmentConventions(env).xdgDataHome ?? path.join(homedir(), '.local', 'share');
  return path.join(xdg, 'gleaner');
}

export interface ConfiguredDatabase {
  /** The connection string to hand to createEngine (`databaseUrl`). */
  url: string;
  /** The embedded Postgres, or null when DATABASE_URL is set. */
  embedded: EmbeddedPostgresHandle | null;
  /** Leaves the embedded Postgres (stops it unless another process shares it); nothing for DATABASE_URL. Call after engine.stop(). */
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise starts (or joins) the embedded Postgres under
 * <resolveDataDir(config)>/postgres on 127.0.0.1:`database.embeddedPort`.
 */
export async function startDatabase(
  config: Readonly<GleanerConfig>,
  logger: Logger = createLogger({ level: config.log.level, format: config.log.format }),
): Promise<ConfiguredDatabase> {
  if (config.database.url) return { url: config.database.url, embedded: null, stop: async () => {} };
  const dataDir = resolveDataDir(config);
  // The default used to be ./.data, relative to the working directory: say where an old one is.
  if (!config.dataDir && !existsSync(path.join(dataDir, 'postgres')) && existsSync(path.resolve('.data', 'postgres'))) {
    logger.warn(
      { dataDir, found: path.resolve('.data') },
      `a Gleaner data directory exists at ${path.resolve('.data')} (the default of earlier versions, relative to the working directory); to keep using it, set GLEANER_DATA_DIR=${path.resolve('.data')}`,
    );
  }
  logger.info({ dataDir }, 'data directory');
  const embedded = await startEmbeddedPostgres({
    dataDir,
    port: config.database.embeddedPort,
    osUser: config.database.embeddedUser,
    logger,
  });
  return { url: embedded.url, embedded, stop: () => embedded.stop() };
}
