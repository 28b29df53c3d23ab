// Per-host politeness (concurrency, minimum delay, 429/503 backoff) shared by every worker through
// Postgres, and robots.txt: for runs, maps, crawls, and any operation that fetches many pages of
// one site (see policy.ts for the entry points).
export {
  PolitenessGate,
  parseRetryAfter,
  politenessChannel,
  type HostLease,
  type HostLimits,
  type PolitenessGateOptions,
  type ReleaseOutcome,
} from './gate.ts';
export { RobotsCache, parseRobots, robotsVerdict, type RobotsRules } from './robots.ts';
export { fetchRaw, type RawFetchOptions, type RawResponse } from './fetch.ts';
export {
  POLITENESS_REQUEST_SCHEMA,
  checkRobots,
  defaultPolicy,
  fetchPolitely,
  loadOwnerPoliteness,
  politeScope,
  resolvePolicy,
  setOwnerPoliteness,
  type OwnerPoliteness,
  type Politeness,
  type PolitenessPolicy,
  type PolitenessRequest,
  type PoliteScope,
} from './policy.ts';
