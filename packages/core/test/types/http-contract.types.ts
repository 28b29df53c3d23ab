// Compile-time checks (tsc in `make lint`; nothing runs): the types core hands the HTTP adapter agree
// with the response schemas the OpenAPI document publishes. Each body type must be assignable to the
// type json-schema-to-ts derives from its schema, and each enumeration is the schema's own.
import type { FromSchema } from 'json-schema-to-ts';
import type { ArchiveUsage, CrawlStatusBody, MapResult, ReplayResult, RunListItem, RunStatus, RunStatusBody, ScheduleView, TaskListItem } from '@gleaner/core';
import {
  ARCHIVE_USAGE_RESPONSE,
  CRAWL_STATUS_RESPONSE,
  MAP_RESPONSE,
  REPLAY_RESPONSE,
  RUN_STATUS_RESPONSE,
  RUNS_RESPONSE,
  SCHEDULE_RESPONSE,
  TASKS_RESPONSE,
} from '@gleaner/core';

/** The schema's type without the `[x: string]: unknown` that open objects (no additionalProperties: false) get. */
type Closed<T> = T extends readonly (infer E)[] ? Closed<E>[] : T extends object ? { [K in keyof T as string extends K ? never : K]: Closed<T[K]> } : T;
/**
 * Compiles only when every value of T is a value of the schema's type S, and T has no top-level
 * property S does not document (the argument names those).
 */
const conforms = <T extends Closed<S>, S>(undocumented: [Exclude<keyof T, keyof Closed<S>>] extends [never] ? true : Exclude<keyof T, keyof Closed<S>>) =>
  undocumented;
/** Compiles only when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(ok: Same<A, B>): Same<A, B> => ok;

conforms<RunStatusBody, FromSchema<typeof RUN_STATUS_RESPONSE>>(true);
conforms<RunListItem, FromSchema<typeof RUNS_RESPONSE>['runs'][number]>(true);
conforms<TaskListItem, FromSchema<typeof TASKS_RESPONSE>['tasks'][number]>(true);
conforms<ScheduleView, FromSchema<typeof SCHEDULE_RESPONSE>>(true);
conforms<CrawlStatusBody, FromSchema<typeof CRAWL_STATUS_RESPONSE>>(true);
conforms<MapResult, FromSchema<typeof MAP_RESPONSE>>(true);
conforms<ArchiveUsage, FromSchema<typeof ARCHIVE_USAGE_RESPONSE>>(true);
conforms<ReplayResult, FromSchema<typeof REPLAY_RESPONSE>>(true);

same<RunStatus, FromSchema<typeof RUN_STATUS_RESPONSE>['status']>(true);
same<RunStatus, FromSchema<typeof RUNS_RESPONSE>['runs'][number]['status']>(true);

// The checks can fail: a property the schema does not document, and a status it does not list.
// @ts-expect-error `bogus` is not in RUN_STATUS_RESPONSE
conforms<RunStatusBody & { bogus: number }, FromSchema<typeof RUN_STATUS_RESPONSE>>(true);
// @ts-expect-error 'paused' is not a run status
conforms<Omit<RunStatusBody, 'status'> & { status: RunStatus | 'paused' }, FromSchema<typeof RUN_STATUS_RESPONSE>>(true);
