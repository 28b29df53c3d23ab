// `?format=csv|jsonl` on the status endpoints of runs and tasks (a Gleaner extension): the results
// as a file, streamed — a row per record with its item's source URL and status (docs/api.md).
import type { Engine, Owner } from '@gleaner/core';
import type { TypedRouteResult } from '../http/route.ts';

export const FORMAT_QUERY = {
  type: 'object',
  properties: {
    format: {
      enum: ['json', 'csv', 'jsonl'],
      default: 'json',
      description:
        'json: the status body. csv or jsonl (a Gleaner extension): the results as a file, one row per record with `_source_url`, `_status` and `_error` of its URL, and one row for a URL without records',
    },
  },
} as const;

/** The file when `format` asks for one, else the JSON status body from `json()`. */
export async function statusOrFile<T>(
  engine: Engine,
  owner: Owner,
  of: 'run' | 'agent' | 'extract',
  id: string,
  format: string | undefined,
  json: () => Promise<T>,
): Promise<TypedRouteResult<T>> {
  if (format === 'csv' || format === 'jsonl') return { file: await engine.exportResults(owner, of, id, format) };
  return { body: await json() };
}
