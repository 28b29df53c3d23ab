// Everything core exports, for Gleaner's own tests and tools inside this repository. Not a public
// surface: it is only resolvable under the 'gleaner-source' condition (the workspace), never from an
// installed package; embedders use '@gleaner/core', plugins '@gleaner/core/plugin'.
export * from './errors.ts';
export * from './config/index.ts';
export * from './log.ts';
export * from './store/db.ts';
export * from './store/migrate.ts';
export * from './jobs/index.ts';
export * from './auth/index.ts';
export * from './engine.ts';
export * from './plugins/llm.ts';
export * from './llm/index.ts';
export * from './plugins/driver.ts';
export * from './net/ssrf.ts';
export * from './net/cookies.ts';
export * from './net/cookie-jar.ts';
export * from './net/proxies.ts';
export * from './records/attributes.ts';
export * from './callbacks/index.ts';
export * from './recipes/index.ts';
export * from './page/index.ts';
export * from './net/filter-proxy.ts';
export * from './browser/pool.ts';
export * from './browser/page-scripts.ts';
export * from './scrapers/index.ts';
export * from './runs/index.ts';
export * from './politeness/index.ts';
export * from './net/content-type.ts';
export * from './browser/chromium-flags.ts';
export * from './browser/driver-options.ts';
export * from './browser/request-check.ts';
export * from './plugin.ts';
export * from './index.ts';
export * from './agent/index.ts';
export { CancelWatch, cancelChannel, notifyCancel } from './jobs/cancel.ts';
export type { AgentTaskStatusBody, AgentStepSummary } from './tasks/agent-task.ts';
export * from './metrics/index.ts';
export * from './history/index.ts';
