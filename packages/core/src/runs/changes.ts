// A scheduled run's changes as its status shows them (written by the schedule.finish job).
import type { Queryable } from '../store/db.ts';
import type { RunChanges } from './status.ts';

/** The run's change summary, with its records' states when asked; null until it has been compared. */
export async function loadChanges(db: Queryable, runId: string, withRecords: boolean): Promise<RunChanges | null> {
  const { rows } = await db.query<{ summary: Omit<RunChanges, 'records'>; records?: RunChanges['records'] }>(
    `SELECT summary${withRecords ? ', records' : ''} FROM run_changes WHERE run_id = $1`,
    [runId],
  );
  const r = rows[0];
  if (!r) return null;
  return withRecords ? { ...r.summary, records: r.records } : r.summary;
}
