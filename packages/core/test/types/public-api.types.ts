// Type tests of the public surface (tsc in `make lint`; nothing runs): what an embedder and a plugin
// author write against @gleaner/core and @gleaner/core/plugin keeps compiling, and what they must not
// write keeps failing (the @ts-expect-error lines fail the build if the error goes away). The full
// signatures are in packages/core/api/*.api.md (`make api-report`).
import type { FromSchema } from 'json-schema-to-ts';
import {
  createEngine,
  EXTRACT_BODY,
  FINISHED_RUN_STATUSES,
  RUN_STATUSES,
  SCRAPER_STATUSES,
  TASK_STATUSES,
  type Engine,
  type EngineOptions,
  type ExtractRequest,
  type ExtractResponse,
  type FinishedRunStatus,
  type GleanerConfig,
  type Owner,
  type RunStatus,
  type RunStatusBody,
  type ScraperStatus,
  type TaskStatus,
} from '@gleaner/core';
import {
  PLUGIN_API_VERSION,
  type Driver,
  type DriverSession,
  type LlmProvider,
  type LlmResult,
  type ModelSpec,
  type PluginFromConfig,
} from '@gleaner/core/plugin';

/** true when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(ok: Same<A, B>): Same<A, B> => ok;
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

declare const config: GleanerConfig;
declare const owner: Owner;
declare const session: DriverSession;
declare const result: LlmResult;

// createEngine: one options object (only `config` required) and an Engine back, synchronously.
same<Parameters<typeof createEngine>, [EngineOptions]>(true);
same<ReturnType<typeof createEngine>, Engine>(true);
same<RequiredKeys<EngineOptions>, 'config'>(true);
// @ts-expect-error the configuration is required
export const noConfig = () => createEngine({});

// The engine's operations take the request types derived from the request schemas, and answer the
// body types the response schemas describe (packages/core/test/types/http-contract.types.ts).
export const extract = (engine: Engine, body: ExtractRequest): Promise<ExtractResponse> => engine.extract(owner, body);
export const status = (engine: Engine, id: string): Promise<RunStatusBody> => engine.runs.get(owner, id);
same<ExtractRequest, FromSchema<typeof EXTRACT_BODY, { keepDefaultedPropertiesOptional: true }>>(true);
// @ts-expect-error an extraction needs a url
export const noUrl: ExtractRequest = { prompt: 'the title' };

// Each enumeration is one array; its type is derived from it.
same<RunStatus, (typeof RUN_STATUSES)[number]>(true);
same<RunStatusBody['status'], RunStatus>(true);
same<FinishedRunStatus, 'completed' | 'completed_partial' | 'failed'>(true);
same<(typeof FINISHED_RUN_STATUSES)[number], FinishedRunStatus>(true);
same<TaskStatus, (typeof TASK_STATUSES)[number]>(true);
same<ScraperStatus, (typeof SCRAPER_STATUSES)[number] | null>(true);
// @ts-expect-error not a run status
export const notAStatus: RunStatus = 'paused';

// A driver and a model provider as a plugin writes them: these literals are the whole interface.
const driver = {
  name: 'fetch',
  apiVersion: PLUGIN_API_VERSION,
  capabilities: { javascript: false, interaction: false, proxy: false, cookies: true },
  openSession: async () => session,
  close: async () => {},
} satisfies Driver;
const provider = {
  name: 'scripted',
  model: 'test-model',
  apiVersion: PLUGIN_API_VERSION,
  generate: async () => result,
  specs: (): ModelSpec[] => [],
} satisfies LlmProvider;
export const options: EngineOptions = { config, drivers: [driver], llm: provider };
same<typeof PLUGIN_API_VERSION, string>(false); // a literal: plugins declare the version they were built for
same<PluginFromConfig<Driver>, (ctx: Parameters<PluginFromConfig<Driver>>[0]) => Driver | { missing: string }>(true);
// @ts-expect-error a driver declares the plugin API version it implements
export const unversioned: Driver = { name: 'x', capabilities: driver.capabilities, openSession: driver.openSession, close: driver.close };
// @ts-expect-error a session's goto answers a PageSnapshot
export const wrongSession: DriverSession = { goto: async () => 'html', close: async () => {} };
