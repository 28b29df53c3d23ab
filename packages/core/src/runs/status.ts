/**
 * Run bodies (docs/api.md): the status of GET /v1/scrapers/run_async/{id} (also
 * the callback body) and the result of POST /v1/scrapers/run.
 */
import type { ExtractedRecord } from '../records/attributes.ts';
import type { ChangeCounts, ReportedChange } from '../schedules/changes.ts';
import { FINISHED_RUN_STATUSES, type RunItemStatus, type RunStatus } from '../schemas/statuses.ts';

export type { RunStatus };

export interface RunRow {
  id: string;
  owner_id: string;
  status: RunStatus;
  url_form: 'single' | 'list';
  completed: number;
  total: number;
  failed: number;
  /** numeric: a string from pg. */
  credits_charged: string | number;
  heal_credits: string | number;
  pages: number;
  model_calls: number;
  callback_url: string | null;
  /** The schedule that started the run (Gleaner extension), when one did. */
  schedule_id?: string | null;
  skipped?: number;
  polite_wait_ms?: string | number;
  backoffs?: number;
  /** The run's recorded politeness policy (options->politeness). */
  politeness?: { concurrency: number; delayMs: number; robots: 'respect' | 'ignore' } | null;
}

export interface RunItemRow {
  url: string;
  status: RunItemStatus;
  records: ExtractedRecord[] | null;
  error: string | null;
  /** Said beside the records (e.g. a pagination fallback). */
  message?: string | null;
}

/** A scheduled run's change report: counts against the baseline run, and (?changes=true) the records that are not unchanged. */
export interface RunChanges {
  baseline_run_id: string | null;
  counts: ChangeCounts;
  records?: ReportedChange[];
}

/** POST /v1/scrapers/run's 200 body (RUN_RESULT_RESPONSE). */
export interface RunResultBody {
  run_id: string;
  status: RunStatus;
  credits_charged?: number;
  /** The records when `url` was one string or omitted; URL -> records when it was a list. */
  data?: ExtractedRecord[] | Record<string, ExtractedRecord[]>;
  /** URL -> why it failed. */
  errors?: Record<string, string>;
  /** A failed run only: why its first URL failed. */
  error?: string;
  /** URL -> what its item says beside its records. */
  messages?: Record<string, string>;
}

export interface RunStatusBody {
  run_id: string;
  status: RunStatus;
  completed: number;
  total: number;
  credits_charged?: number;
  /** URL -> records; a failed URL's entry is []. */
  data?: Record<string, ExtractedRecord[]>;
  /** URL -> why it failed (empty when none did). */
  errors?: Record<string, string>;
  /** Gleaner extension: the schedule that started the run. */
  schedule_id?: string;
  /** Gleaner extension: a scheduled run's changes (null until it is finished and compared). */
  changes?: RunChanges | null;
  /** A failed run only: why its first URL (in the run's order) failed — for clients that read one reason. */
  error?: string;
  /** URL -> what its item says beside its records (only URLs that say something; absent when none does). */
  messages?: Record<string, string>;
  /** Gleaner extension: URL -> why it was skipped (robots.txt); present when some were. */
  skipped?: Record<string, string>;
  /** Gleaner extension: the run's per-host pace, robots.txt rule, and what waiting for hosts cost. */
  politeness?: { concurrency: number; delay_ms: number; robots: 'respected' | 'ignored'; waited_ms: number; backoffs: number; skipped: number };
}

export function isFinished(status: RunStatus): boolean {
  return (FINISHED_RUN_STATUSES as readonly RunStatus[]).includes(status);
}

export function progressBody(run: RunRow): RunStatusBody {
  const body: RunStatusBody = { run_id: run.id, status: run.status, completed: run.completed, total: run.total };
  if (run.politeness) {
    body.politeness = {
      concurrency: run.politeness.concurrency,
      delay_ms: run.politeness.delayMs,
      robots: run.politeness.robots === 'respect' ? 'respected' : 'ignored',
      waited_ms: Number(run.polite_wait_ms ?? 0),
      backoffs: run.backoffs ?? 0,
      skipped: run.skipped ?? 0,
    };
  }
  return body;
}

/** The finished run's status body: progress plus credits, data and errors. */
export function finishedBody(run: RunRow, items: RunItemRow[]): RunStatusBody {
  const data: Record<string, ExtractedRecord[]> = {};
  const errors: Record<string, string> = {};
  const skipped: Record<string, string> = {};
  for (const item of items) {
    data[item.url] = item.status === 'completed' ? (item.records ?? []) : [];
    if (item.status === 'failed') errors[item.url] = item.error ?? 'this URL failed';
    if (item.status === 'skipped') skipped[item.url] = item.error ?? 'skipped';
  }
  const body: RunStatusBody = { ...progressBody(run), credits_charged: Number(run.credits_charged), data, errors };
  if (Object.keys(skipped).length) body.skipped = skipped;
  if (run.status === 'failed') body.error = firstFailure(items);
  const said = items.filter((i) => i.message);
  if (said.length) body.messages = Object.fromEntries(said.map((i) => [i.url, i.message!]));
  return body;
}

/** Why the first failed item (items in position order) failed; every failed run has one. */
function firstFailure(items: RunItemRow[]): string {
  const item = items.find((i) => i.status === 'failed');
  return item?.error ?? 'the run failed';
}

/**
 * POST /v1/scrapers/run's 200 body: `data` is the URL's records when `url` was one string (or
 * omitted), the URL -> records map when it was a list.
 */
export function resultBody(run: RunRow, items: RunItemRow[]): RunResultBody {
  const full = finishedBody(run, items);
  const data = run.url_form === 'single' ? (full.data![items[0]?.url] ?? []) : full.data;
  const body: RunResultBody = { run_id: run.id, status: run.status, credits_charged: full.credits_charged, data, errors: full.errors };
  if (full.error) body.error = full.error;
  if (full.messages) body.messages = full.messages;
  return body;
}
