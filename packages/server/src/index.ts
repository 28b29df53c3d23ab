// @gleaner/server — Gleaner's HTTP interface for a host Express app (docs/embedding.md), the
// listeners `gleaner serve` runs, and the plugin wiring it builds from configuration. The CLI is
// the package's bin (`gleaner`).
export { createApiRouter, createLegacyAgentsRouter } from './router.ts';
export type { ApiRouterOptions, LegacyRouterOptions } from './router.ts';
export { startAgents, startApi } from './server.ts';
export type { Listener } from './server.ts';
export { pluginWiring } from './wiring.ts';
export type { PluginWiring } from './wiring.ts';
// The configured Postgres for an embedder: DATABASE_URL, or the embedded one under the data directory.
export { resolveDataDir, startDatabase } from './database.ts';
export type { ConfiguredDatabase } from './database.ts';
