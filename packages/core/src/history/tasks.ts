/**
 * GET /v1/tasks (a Gleaner extension): the caller's background tasks — one-shot agent tasks and
 * async extractions — newest first, with their status and how far an agent got (steps so far).
 */
import type { Queryable } from '../store/db.ts';
import { afterCondition, CURSOR_AT_SQL, keysetPage, type PageQuery } from './cursor.ts';
import type { TaskKind, TaskStatus } from '../schemas/statuses.ts';

export type { TaskKind };
export type TaskListStatus = TaskStatus;

export interface TaskListItem {
  task_id: string;
  kind: TaskKind;
  status: TaskListStatus;
  url: string | null;
  /** The agent's goal, or the extraction's prompt (may be empty). */
  prompt: string;
  /** Actions the agent has taken so far (0 for extractions). */
  steps: number;
  /** Records found, once completed. */
  records: number | null;
  credits_charged: number | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface TaskListQuery extends PageQuery {
  kind?: TaskKind;
  status?: TaskListStatus;
}

interface Row {
  id: string;
  cursor_at: string;
  kind: TaskKind;
  status: TaskListStatus;
  url: string | null;
  prompt: string | null;
  steps: number;
  records: number | null;
  credits_charged: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export async function listTasks(db: Queryable, ownerId: string, query: TaskListQuery): Promise<{ tasks: TaskListItem[]; next_cursor: string | null }> {
  const page = await keysetPage<Row>(query, async (after, take) => {
    const params: unknown[] = [ownerId, query.kind ?? null, query.status ?? null, take];
    const keyset = afterCondition(after, params.length + 1);
    const { rows } = await db.query<Row>(
      `SELECT id, ${CURSOR_AT_SQL('created_at')} AS cursor_at, kind, status, request->>'url' AS url, request->>'prompt' AS prompt,
              coalesce(jsonb_array_length(steps), 0)::int AS steps,
              CASE WHEN jsonb_typeof(data) = 'array' THEN jsonb_array_length(data) END AS records,
              credits_charged, error, created_at, finished_at
         FROM tasks
        WHERE owner_id = $1 AND kind IN ('agent', 'extract') AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR status = $3) AND ${keyset.sql}
        ORDER BY created_at DESC, id DESC LIMIT $4`,
      [...params, ...keyset.params],
    );
    return rows;
  });
  return {
    tasks: page.rows.map((r) => ({
      task_id: r.id,
      kind: r.kind,
      status: r.status,
      url: r.url,
      prompt: r.prompt ?? '',
      steps: r.steps,
      records: r.records,
      credits_charged: r.credits_charged === null ? null : Number(r.credits_charged),
      error: r.error,
      created_at: r.created_at.toISOString(),
      finished_at: r.finished_at?.toISOString() ?? null,
    })),
    next_cursor: page.next_cursor,
  };
}
