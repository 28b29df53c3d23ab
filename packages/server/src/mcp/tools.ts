/**
 * The MCP tools: each is an engine operation with the request schema of its HTTP endpoint (the same
 * objects, so a field added to the API appears in the tool), validated by the same ajv setup (the
 * same defaults and the same `{loc, msg, type}` issues). Tools that start background work (a run, an
 * agent task) follow it to the end and report progress to clients that ask for it.
 */
import {
  AGENT_EXTRACT_BODY,
  type Engine,
  EXTRACT_BODY,
  type ExtractRequest,
  FINISHED_RUN_STATUSES,
  FINISHED_TASK_STATUSES,
  GENERATE_BODY,
  GleanerError,
  ID_PARAMS,
  MARKDOWN_BODY,
  type MarkdownRequest,
  type Owner,
  PARSE_BODY,
  type ParseRequest,
  RUN_ASYNC_BODY,
  USAGE_QUERY,
} from '@gleaner/core';
import type { JsonSchema } from '../http/route.ts';
import { followUntilDone, type Follow } from './follow.ts';

export interface ToolCall {
  engine: Engine;
  owner: Owner;
  /** The client cancelled the call (or went away). */
  signal: AbortSignal;
  /** Reports progress when the client asked for it (a progress token); a no-op otherwise. */
  progress(progress: number, total: number | undefined, message: string): Promise<void>;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  /** Read-only tools change nothing (MCP annotations help clients decide what to confirm). */
  readOnly: boolean;
  /** `args` have passed `inputSchema` (the same check the HTTP route makes). */
  call(ctx: ToolCall, args: any): Promise<ToolOutput>;
}

/** What a tool returns: JSON for the model to read (also as structured content), or plain text. */
export type ToolOutput = { json: Record<string, unknown> } | { text: string; json?: Record<string, unknown> };

const RUN_FINISHED = new Set<string>(FINISHED_RUN_STATUSES);
const TASK_FINISHED = new Set<string>(FINISHED_TASK_STATUSES);

/** A run followed to its end: progress in URLs done. */
function followRun(ctx: ToolCall, runId: string, waitSeconds: number): Promise<Record<string, unknown>> {
  const follow: Follow<Record<string, any>> = {
    read: () => ctx.engine.runs.get(ctx.owner, runId) as Promise<Record<string, any>>,
    done: (s) => RUN_FINISHED.has(s.status),
    report: (s) => ctx.progress(s.completed, s.total, `run ${runId}: ${s.completed}/${s.total} URLs done (${s.status})`),
  };
  return followUntilDone(follow, { waitMs: waitSeconds * 1000, signal: ctx.signal });
}

/** An agent task followed to its end: progress in steps taken, the latest one in the message. */
function followAgent(ctx: ToolCall, taskId: string): Promise<Record<string, unknown>> {
  const maxSteps = ctx.engine.config.agent.maxSteps;
  const follow: Follow<Record<string, any>> = {
    read: () => ctx.engine.agent.get(ctx.owner, taskId) as Promise<Record<string, any>>,
    done: (s) => TASK_FINISHED.has(s.status),
    report: (s) => {
      const steps: Array<{ action: string; target?: string; url: string }> = s.steps ?? [];
      const last = steps.at(-1);
      const what = last ? `step ${steps.length}: ${last.action} ${last.target ?? last.url}` : `agent task ${taskId} ${s.status}`;
      return ctx.progress(steps.length, maxSteps, what);
    },
  };
  // The agent's own wall-time budget bounds the wait, with a margin for queueing.
  return followUntilDone(follow, { waitMs: ctx.engine.config.agent.timeoutMs + 60_000, signal: ctx.signal });
}

const object = (properties: Record<string, unknown>, required: string[] = []): JsonSchema => ({ type: 'object', properties, required });

export const TOOLS: ToolDef[] = [
  {
    name: 'extract',
    title: 'Extract records from a URL',
    description:
      'Reads the page at `url` and returns the records described by `attributes` (a list of {name, type?, description?}) and/or `prompt`, as JSON. Same as POST /v1/extract.',
    inputSchema: EXTRACT_BODY,
    readOnly: true,
    call: async (ctx, args) => ({ json: { ...(await ctx.engine.extract(ctx.owner, args as ExtractRequest, ctx.signal)) } }),
  },
  {
    name: 'parse',
    title: 'Extract records from HTML or text',
    description: 'Extracts records from `content` (HTML or text you supply) as described by `attributes` and/or `prompt`. Same as POST /v1/parse.',
    inputSchema: PARSE_BODY,
    readOnly: true,
    call: async (ctx, args) => ({ json: { ...(await ctx.engine.parse(ctx.owner, args as ParseRequest, ctx.signal)) } }),
  },
  {
    name: 'markdown',
    title: 'A page as Markdown',
    description:
      "Returns the page at `url` as clean Markdown (navigation and boilerplate removed); with `only_main_content: true`, only the page's main content (article, thread, listing, product description, documentation body). Same as POST /v1/extract_markdown.",
    inputSchema: MARKDOWN_BODY,
    readOnly: true,
    call: async (ctx, args) => {
      const result = await ctx.engine.extractMarkdown(ctx.owner, args as MarkdownRequest, ctx.signal);
      return { text: result.data, json: result };
    },
  },
  {
    name: 'agent_extract',
    title: 'Browse with an agent and extract',
    description:
      'Starts a browsing agent at `url` that follows `prompt` (navigate, search, page through results) and gathers records with `attributes`; waits for it, reporting each step as progress, and returns the records and the steps taken. Same as POST /v1/agent/extract followed to its end.',
    inputSchema: AGENT_EXTRACT_BODY,
    readOnly: false,
    call: async (ctx, args) => {
      const task = await ctx.engine.agent.submit(ctx.owner, args);
      if ('dry_run' in task) return { json: { ...task } }; // dry_run: true — the estimate, nothing queued
      const stopOnCancel = () => void ctx.engine.agent.stop(ctx.owner, task.task_id).catch(() => undefined);
      ctx.signal.addEventListener('abort', stopOnCancel, { once: true });
      try {
        return { json: await followAgent(ctx, task.task_id) };
      } finally {
        ctx.signal.removeEventListener('abort', stopOnCancel);
      }
    },
  },
  {
    name: 'list_scrapers',
    title: 'List scrapers',
    description: 'Your scrapers (classic and agentic), newest first, with their status. Same as GET /v1/scrapers.',
    inputSchema: object({}),
    readOnly: true,
    call: async (ctx) => ({ json: { scrapers: await ctx.engine.scrapers.list(ctx.owner) } }),
  },
  {
    name: 'get_scraper',
    title: 'Get a scraper',
    description:
      'One scraper: its status (generating, ready, failed), sample data and, when it failed, why. Same as GET /v1/extractor/{scraper_id} (or /v1/agent/{scraper_id}).',
    inputSchema: ID_PARAMS('scraper_id'),
    readOnly: true,
    call: async (ctx, args) => {
      try {
        return { json: { ...(await ctx.engine.scrapers.get(ctx.owner, args.scraper_id, 'extractor')) } };
      } catch (err) {
        if ((err as GleanerError).code !== 'NOT_FOUND') throw err;
        return { json: { ...(await ctx.engine.scrapers.get(ctx.owner, args.scraper_id, 'agentic')) } };
      }
    },
  },
  {
    name: 'generate_scraper',
    title: 'Generate a scraper',
    description:
      'Builds a reusable scraper (a recipe that runs without a model) from a sample `url` (or `content`) and `attributes`/`prompt`, in the background; returns its template_id. Call get_scraper until its status is ready, then run_scraper. Same as POST /v1/extractor/generate.',
    inputSchema: GENERATE_BODY,
    readOnly: false,
    call: async (ctx, args) => ({
      json: args.dry_run === true ? { ...(await ctx.engine.scrapers.estimateGenerate(ctx.owner, args)) } : await ctx.engine.scrapers.generate(ctx.owner, args),
    }),
  },
  {
    name: 'run_scraper',
    title: 'Run a scraper',
    description:
      'Runs a ready scraper (`template_id`) over `url` (one URL, a list of up to 100, or omitted for its own URL) and waits for the records, reporting URLs done as progress. A run still going after the wait returns its status: call get_run later. Same as POST /v1/scrapers/run_async followed to its end.',
    inputSchema: RUN_ASYNC_BODY,
    readOnly: false,
    call: async (ctx, args) => {
      const run = await ctx.engine.runs.submit(ctx.owner, args);
      if ('dry_run' in run) return { json: { ...run } }; // dry_run: true — the estimate, nothing queued
      return { json: await followRun(ctx, run.run_id, ctx.engine.config.runs.waitSeconds) };
    },
  },
  {
    name: 'get_run',
    title: 'Get a run',
    description: "A run's progress and, once finished, its records per URL and errors. Same as GET /v1/scrapers/run_async/{run_id}.",
    inputSchema: ID_PARAMS('run_id'),
    readOnly: true,
    call: async (ctx, args) => ({ json: { ...(await ctx.engine.runs.get(ctx.owner, args.run_id)) } }),
  },
  {
    name: 'get_usage',
    title: 'Get usage',
    description:
      'Your usage between `from` and `to` (dates or ISO date-times; default this month), grouped by `group_by` (day, scraper or kind): pages, model calls, tokens, credits, values the pages did not support, money; totals are the sum of the items. Same as GET /v1/usage.',
    inputSchema: USAGE_QUERY,
    readOnly: true,
    call: async (ctx, args) => ({ json: { ...(await ctx.engine.cost.usage(ctx.owner, args)) } }),
  },
  {
    name: 'get_agent_task',
    title: 'Get an agent task',
    description: "An agent task's status, its steps so far and, once completed, its records. Same as GET /v1/agent/extract/{task_id}.",
    inputSchema: ID_PARAMS('task_id'),
    readOnly: true,
    call: async (ctx, args) => ({ json: { ...(await ctx.engine.agent.get(ctx.owner, args.task_id)) } }),
  },
];
