/**
 * Gauges read at scrape time: queue depth and the age of the oldest waiting job (from pg-boss's job
 * table, so every process reports the whole cluster's queues), and the browser pools of this
 * process's drivers (their `stats()`, which both browser drivers have).
 */
import { Counter, Gauge } from 'prom-client';
import type { Queryable } from '../store/db.ts';
import type { Driver } from '../plugins/driver.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from './registry.ts';

interface PoolStats {
  browsers: number;
  activePages: number;
  waiting: number;
  launches: number;
  retired: number;
  killed: number;
}

function poolStats(driver: Driver): PoolStats | null {
  const stats = (driver as Driver & { stats?: () => Partial<PoolStats> }).stats;
  if (typeof stats !== 'function') return null;
  const s = stats.call(driver);
  return typeof s?.launches === 'number' ? (s as PoolStats) : null;
}

export interface ObserveOptions {
  db: Queryable;
  /** pg-boss's schema (config jobs.schema; validated as an identifier by the config schema). */
  jobsSchema: string;
  drivers: readonly Driver[];
  logger: Logger;
}

export function observeEngine(metrics: Metrics, opts: ObserveOptions): void {
  const registers = [metrics.registry];
  const { db, jobsSchema, drivers, logger } = opts;

  // Each gauge reads the table itself: two small grouped queries per scrape, no shared cache to go stale.
  const queueRows = () =>
    db
      .query<{ name: string; state: string; n: number; oldest: number | null }>(
        `SELECT name, state, count(*)::int AS n,
                extract(epoch FROM now() - min(created_on))::float8 AS oldest
           FROM "${jobsSchema}".job
          WHERE state IN ('created', 'retry', 'active')
          GROUP BY name, state`,
      )
      .then((r) => r.rows)
      .catch((err: Error) => {
        logger.warn({ err: err.message }, 'metrics: queue depth unavailable');
        return [];
      });

  new Gauge({
    name: 'gleaner_queue_jobs',
    help: 'Jobs waiting (created, retry) or running (active) in the queue, by kind',
    labelNames: ['kind', 'state'],
    registers,
    async collect() {
      this.reset();
      for (const r of await queueRows()) this.set({ kind: r.name, state: r.state }, r.n);
    },
  });
  new Gauge({
    name: 'gleaner_queue_oldest_job_age_seconds',
    help: 'Age of the oldest job waiting to start (created or retry), by kind; absent when none waits',
    labelNames: ['kind'],
    registers,
    async collect() {
      this.reset();
      const oldest = new Map<string, number>();
      for (const r of await queueRows()) {
        if (r.state === 'active' || r.oldest === null) continue;
        oldest.set(r.name, Math.max(oldest.get(r.name) ?? 0, r.oldest));
      }
      for (const [kind, age] of oldest) this.set({ kind }, age);
    },
  });

  // Monitors (Gleaner's schedules): how many are active, paused or stopped, and how many degraded.
  new Gauge({
    name: 'gleaner_schedules',
    help: 'Schedules by status (active, paused, stopped) and health (ok, degraded), over every owner',
    labelNames: ['status', 'health'],
    registers,
    async collect() {
      this.reset();
      const rows = await db
        .query<{ status: string; health: string; n: number }>('SELECT status, health, count(*)::int AS n FROM schedules GROUP BY status, health')
        .then((r) => r.rows)
        .catch((err: Error) => {
          logger.warn({ err: err.message }, 'metrics: schedules unavailable');
          return [];
        });
      for (const r of rows) this.set({ status: r.status, health: r.health }, r.n);
    },
  });

  const pools = () =>
    drivers.flatMap((d) => {
      const s = poolStats(d);
      return s ? [{ driver: d.name, s }] : [];
    });
  // The pool keeps running totals too: those counters are reset and set to them at each scrape.
  const series = (Kind: typeof Gauge | typeof Counter) => (name: string, help: string, pick: (s: PoolStats) => number) =>
    new (Kind as typeof Gauge)({
      name,
      help,
      labelNames: ['driver'],
      registers,
      collect() {
        this.reset();
        for (const { driver, s } of pools()) this.inc({ driver }, pick(s));
      },
    });
  const gauge = series(Gauge);
  const total = series(Counter);
  gauge('gleaner_browser_browsers', 'Browsers running in this process (current plus retired ones still closing)', (s) => s.browsers);
  gauge('gleaner_browser_pages', 'Browser pages open (leases out) in this process', (s) => s.activePages);
  gauge('gleaner_browser_waiting', 'Jobs waiting for a browser page slot', (s) => s.waiting);
  total('gleaner_browser_launches_total', 'Browsers launched', (s) => s.launches);
  total('gleaner_browser_retirements_total', 'Browsers retired (page count reached, or broken)', (s) => s.retired);
  total('gleaner_browser_kills_total', 'Browser process groups killed (hung close, dead browser, late launch)', (s) => s.killed);
}
