// PLACEHOLDER (replaced by the runs work): scraper runs and their job kinds.
import type { OperationContext } from '../extract/context.ts';
import type { JobKind } from '../jobs/job-kind.ts';
export interface RunOperations {}
export function runOperations(_ctx: OperationContext): RunOperations {
  return {};
}
export function runJobKinds(_ctx: () => OperationContext): JobKind<any>[] {
  return [];
}
