// The caller's history, as Gleaner extensions of the interface (docs/api.md): recent runs and
// background tasks, and a scraper's versions and heal attempts (the heals write theirs through
// recordHealAttempt). Every read is owner-scoped.
import type { Owner } from '../auth/owners.ts';
import type { Queryable } from '../store/db.ts';
import { listRuns, type RunListItem, type RunListQuery } from './runs.ts';
import { listTasks, type TaskListItem, type TaskListQuery } from './tasks.ts';
import { scraperHistory, type ScraperHistory } from './scraper-versions.ts';

export type { RunListItem, RunListQuery } from './runs.ts';
export type { TaskListItem, TaskListQuery } from './tasks.ts';
export type { HealRecord, ScraperHistory, ScraperVersion } from './scraper-versions.ts';
export { recordHealAttempt, type HealAttempt } from './heals.ts';

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

/** A page size within 1..MAX_PAGE (the routes' schemas refuse others; direct callers are clamped). */
const pageSize = (limit: number | undefined) => Math.min(Math.max(1, Math.trunc(limit ?? DEFAULT_PAGE)), MAX_PAGE);

export interface HistoryOperations {
  /** The owner's runs, newest first, a page at a time (`next_cursor` is null on the last page). */
  runs(owner: Owner, query?: Partial<RunListQuery>): Promise<{ runs: RunListItem[]; next_cursor: string | null }>;
  /** The owner's agent tasks and async extractions, newest first, a page at a time. */
  tasks(owner: Owner, query?: Partial<TaskListQuery>): Promise<{ tasks: TaskListItem[]; next_cursor: string | null }>;
  /** A scraper's versions and heal attempts, newest first (`limit` of each); NOT_FOUND for another owner's. */
  scraperVersions(owner: Owner, scraperId: string, opts?: { limit?: number }): Promise<ScraperHistory>;
}

export function historyOperations(ctx: { db: Queryable }): HistoryOperations {
  return {
    runs: (owner, query = {}) => listRuns(ctx.db, owner.id, { ...query, limit: pageSize(query.limit) }),
    tasks: (owner, query = {}) => listTasks(ctx.db, owner.id, { ...query, limit: pageSize(query.limit) }),
    scraperVersions: (owner, id, opts = {}) => scraperHistory(ctx.db, owner.id, id, { limit: pageSize(opts.limit) }),
  };
}
