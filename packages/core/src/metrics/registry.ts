/**
 * The engine's Prometheus instruments, on a registry of its own (not prom-client's global one), so
 * two engines in one process (tests, an embedder running several) never collide. Code that counts
 * something gets this object through the engine (`context.metrics`) and makes one call; gauges that
 * describe state (queues, browsers) are read when /metrics is scraped (`observe.ts`).
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  /** HTTP requests by method, route pattern (never the raw path: ids would explode the series) and status. */
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Job attempts by kind and outcome: completed, retried (failed, will retry), failed (final). */
  readonly jobs: Counter<'kind' | 'state'>;
  readonly jobDuration: Histogram<'kind'>;
  /** Model calls (one per attempt) by provider, model and outcome (ok or the error code). */
  readonly modelCalls: Counter<'provider' | 'model' | 'outcome'>;
  readonly modelTokens: Counter<'provider' | 'model' | 'type'>;
  readonly modelDuration: Histogram<'provider' | 'model'>;
  /** Callback delivery attempts by outcome: delivered, failed (this attempt), abandoned (no retry left). */
  readonly callbacks: Counter<'outcome'>;
  /** Runs by final status (completed, completed_partial, failed). */
  readonly runs: Counter<'status'>;
  /** Values the grounding check looked for, by operation and outcome (verbatim, normalised, not_found, exempt). */
  readonly groundedValues: Counter<'operation' | 'outcome'>;
  /** Requests and runs refused or stopped by a budget, by scope (request, daily, monthly). */
  readonly budgetRefusals: Counter<'scope'>;
  /** Exposition text of every series (Prometheus text format 0.0.4). */
  scrape(): Promise<{ contentType: string; body: string }>;
}

const SECONDS_FAST = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const SECONDS_SLOW = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 900];

export function createMetrics(opts: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: 'gleaner_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'gleaner_http_request_duration_seconds',
      help: 'Time to answer an HTTP request',
      labelNames: ['method', 'route', 'status'],
      buckets: SECONDS_FAST,
      registers,
    }),
    jobs: new Counter({
      name: 'gleaner_jobs_total',
      help: 'Job attempts finished in this process, by kind and state (completed, retried, failed)',
      labelNames: ['kind', 'state'],
      registers,
    }),
    jobDuration: new Histogram({
      name: 'gleaner_job_duration_seconds',
      help: 'Time one job attempt took, by kind',
      labelNames: ['kind'],
      buckets: SECONDS_SLOW,
      registers,
    }),
    modelCalls: new Counter({
      name: 'gleaner_model_calls_total',
      help: 'Model calls (attempts) by provider, model and outcome (ok or the error code)',
      labelNames: ['provider', 'model', 'outcome'],
      registers,
    }),
    modelTokens: new Counter({
      name: 'gleaner_model_tokens_total',
      help: 'Tokens the model read (input) and wrote (output)',
      labelNames: ['provider', 'model', 'type'],
      registers,
    }),
    modelDuration: new Histogram({
      name: 'gleaner_model_call_duration_seconds',
      help: 'Time one model call attempt took',
      labelNames: ['provider', 'model'],
      buckets: SECONDS_SLOW,
      registers,
    }),
    callbacks: new Counter({
      name: 'gleaner_callback_deliveries_total',
      help: 'Callback delivery attempts by outcome (delivered, failed, abandoned)',
      labelNames: ['outcome'],
      registers,
    }),
    runs: new Counter({ name: 'gleaner_runs_finished_total', help: 'Scraper runs finished, by final status', labelNames: ['status'], registers }),
    groundedValues: new Counter({
      name: 'gleaner_grounded_values_total',
      help: 'Model-extracted values checked against their page, by operation and outcome (not_found: the page does not support the value)',
      labelNames: ['operation', 'outcome'],
      registers,
    }),
    budgetRefusals: new Counter({
      name: 'gleaner_budget_refusals_total',
      help: 'Work refused before it started or stopped mid-way by a budget, by scope (request, daily, monthly)',
      labelNames: ['scope'],
      registers,
    }),
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** Seconds since `started` (a Date.now() value), for histograms. */
export function secondsSince(started: number): number {
  return (Date.now() - started) / 1000;
}
