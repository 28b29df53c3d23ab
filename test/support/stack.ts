// The whole service in one process for end-to-end tests: engine + real plugins (HTTP driver, the
// configured model provider pointed at the scripted model server) + the Express app on loopback +
// a worker, on fresh schemas; and a fixture web site. Everything is stopped by close().
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, silentLogger, type ConfigOptions, type Driver, type Engine, type Logger } from '@gleaner/core';
import { createApp } from '../../packages/server/src/http/app.ts';
import { apiRoutes } from '../../packages/server/src/routes/index.ts';
import { pluginWiring } from '../../packages/server/src/wiring.ts';
import { startAgents, type Listener } from '../../packages/server/src/server.ts';
import { testSchemas, type TestSchemas } from './db.ts';
import { startModelServer, type ModelServer, type ScriptedModel } from '@gleaner/testing';
import { startFixtureSite, type FixtureSite } from '@gleaner/testing';
import { request, type JsonResponse } from './http.ts';

export interface Stack {
  url: string;
  key: string;
  engine: Engine;
  /** The engine's page drivers (e.g. to read a browser driver's pool stats). */
  drivers: Driver[];
  model: ModelServer;
  site: FixtureSite;
  schemas: TestSchemas;
  /** Calls the API with this stack's key. */
  api<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse<T>>;
  /** The legacy agents listener's URL (with `agents: true`; else empty). */
  agentsUrl: string;
  /** Calls the legacy agents listener with this stack's key (with `agents: true`). */
  agents<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse<T>>;
  close(): Promise<void>;
}

export interface StackOptions {
  provider?: 'openai' | 'ollama';
  config?: ConfigOptions;
  worker?: boolean;
  /** Also start the legacy agents listener (`s.agentsUrl`, `s.agents(...)`). */
  agents?: boolean;
  /** The models the scripted model server reports (default: test-model with tools). */
  models?: ScriptedModel[];
  /** No model at all, as decided at start-up when none is configured (the scripted server still runs). */
  noModel?: boolean;
  /** Replaces the configured drivers (e.g. wraps them) before the engine gets them. */
  drivers?: (drivers: Driver[]) => Driver[];
  /** The logger of the engine, the plugins and the app (default: silent). */
  logger?: Logger;
}

function merge(a: ConfigOptions, b: ConfigOptions): ConfigOptions {
  const out: Record<string, any> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = v && typeof v === 'object' && !Array.isArray(v) ? { ...(out[k] ?? {}), ...v } : v;
  return out;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const model = await startModelServer(opts.models ? { models: opts.models } : {});
  const site = await startFixtureSite();
  const provider = opts.provider ?? 'openai';
  const base: ConfigOptions = {
    network: { allowNetworks: ['127.0.0.0/8'] },
    llm: { provider, model: 'test-model', maxRetries: 1, timeoutMs: 10_000 },
    openai: { apiKey: 'test-key', baseUrl: model.openaiBaseUrl },
    ollama: { host: model.url },
    fetch: { timeoutMs: 5_000 },
    jobs: { concurrency: 2, batchSize: 4 },
  };
  const schemas = testSchemas(merge(base, opts.config ?? {}));
  const logger = opts.logger ?? silentLogger();
  const plugins = pluginWiring(schemas.config, logger);
  const drivers = opts.drivers ? opts.drivers(plugins.drivers ?? []) : plugins.drivers;
  const llm = opts.noModel ? { llm: null } : { llm: plugins.llm, llmSpecs: plugins.llmSpecs };
  const engine = createEngine({ config: schemas.config, logger, drivers, ...llm });
  await engine.start();
  if (opts.worker !== false) await engine.startWorker();
  const app = createApp({ engine, logger, routes: apiRoutes(), bodyLimitBytes: schemas.config.server.bodyLimitBytes, metrics: true, mcp: true, console: true });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = (await engine.createApiKey('alice')).key;
  const agents: Listener | null = opts.agents ? await startAgents(engine, logger, { host: '127.0.0.1', port: 0, apiUrl: url }) : null;
  const agentsUrl = agents?.url ?? '';
  return {
    url,
    key,
    engine,
    drivers: drivers ?? [],
    model,
    site,
    schemas,
    api: (method, path, body, headers = {}) => request(url, method, path, { body, headers: { 'X-API-KEY': key, ...headers } }),
    agentsUrl,
    agents: (method, path, body, headers = {}) => {
      if (!agents) throw new Error('start the stack with {agents: true} to call the legacy agents listener');
      return request(agentsUrl, method, path, { body, headers: { 'X-API-KEY': key, ...headers } });
    },
    async close() {
      if (agents) {
        agents.server.closeAllConnections();
        await agents.close();
      }
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await engine.stop();
      await plugins.close();
      await model.close();
      await site.close();
      await schemas.drop();
    },
  };
}

/** The last user message of a recorded chat request (what the model read). */
/**
 * A stack whose http driver can interact with plain HTML pages (the agent without a browser), with
 * Playwright to escalate to; null (the stack closed) when this build's http driver has no interaction.
 */
export async function startInteractiveHttpStack(): Promise<Stack | null> {
  const stack = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' } } });
  if (stack.engine.context.drivers.some((d) => d.name === 'http' && d.capabilities.interaction)) return stack;
  await stack.close();
  return null;
}

export function userContent(req: { body: any }): string {
  const msgs = req.body.messages as Array<{ role: string; content: string }>;
  return [...msgs].reverse().find((m) => m.role === 'user')?.content ?? '';
}

/** The JSON Schema a recorded chat request asked the answer to follow. */
export function sentSchema(req: { api: string; body: any }): any {
  if (req.api === 'ollama') return req.body.format;
  return req.body.response_format?.json_schema?.schema ?? null;
}

export { waitFor } from './wait.ts';
