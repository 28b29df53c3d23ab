// Schedules, change tracking and monitor health (Gleaner extensions), and their job kinds.
import type { OperationContext } from '../context.ts';
import type { JobKind } from '../jobs/job-kind.ts';
import { scheduleFinishJob, scheduleFireJob } from './jobs.ts';

export { scheduleOperations, stopSchedules } from './operations.ts';
export type { ScheduleOperations } from './operations.ts';
export { compareRuns, recordKey, canonical, hasChanges } from './changes.ts';
export type { ChangeCounts, ChangeState, RecordChange, UrlComparison } from './changes.ts';
export { SCHEDULE_FINISH_JOB, SCHEDULE_FIRE_JOB } from './store.ts';
export type { ScheduleView } from './store.ts';
export type { ChangesSummary } from './jobs.ts';

export function scheduleJobKinds(ctx: () => OperationContext): JobKind<any>[] {
  return [scheduleFireJob(ctx), scheduleFinishJob(ctx)];
}
