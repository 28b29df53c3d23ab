/** The OpenAI (and OpenAI-compatible) model provider over the openai SDK. */
import { OpenAI } from 'openai';
import { LlmProviderError, parseModelJson } from '@gleaner/core/plugin';
import type { LlmProvider, LlmRequest, LlmResult, Logger, ModelSpec } from '@gleaner/core/plugin';
import { PROVIDER_NAME, isResponseFormatRejection, toProviderError } from './errors.ts';
import { buildParams, readCompletion } from './request.ts';
import type { JsonMode } from './request.ts';
import { buildSpec, contextLengthOf } from './specs.ts';

/** The plugin API this plugin was written against (createEngine refuses another major). */
const PLUGIN_API = '1.0';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAiProviderOptions {
  /** API key; may be empty for local OpenAI-compatible servers that need none. */
  apiKey?: string;
  /** Base URL of an OpenAI-compatible server; empty means api.openai.com. */
  baseUrl?: string;
  model: string;
  /** llm.contextWindow: when > 0, the context window reported by specs(). */
  contextWindow?: number;
  organization?: string;
  project?: string;
  /** Extra headers on every request (e.g. OpenRouter's HTTP-Referer). */
  headers?: Record<string, string>;
  /** How long specs() waits for /v1/models (ms); 10 s by default. */
  specsTimeoutMs?: number;
  logger?: Logger;
}

/** Creates the provider. Makes no request: an unreachable server shows on the first call. */
export function createOpenAiProvider(opts: OpenAiProviderOptions): LlmProvider {
  const baseURL = (opts.baseUrl || OPENAI_BASE_URL).replace(/\/+$/, '');
  const official = /^https:\/\/api\.openai\.com(\/|$)/.test(baseURL);
  // Every option is passed explicitly so that the SDK reads nothing from the environment.
  const client = new OpenAI({
    apiKey: opts.apiKey || 'unused', // local servers take any key; the SDK refuses none
    baseURL,
    organization: opts.organization || null,
    project: opts.project || null,
    adminAPIKey: null,
    webhookSecret: null,
    maxRetries: 0, // core's model client retries, once, for every provider
    timeout: 24 * 3600_000, // core's timeout aborts through the signal
    logLevel: 'off',
    defaultHeaders: opts.headers,
  });
  const model = opts.model;
  const log = opts.logger?.child({ provider: PROVIDER_NAME, model });
  // Downgraded once when the server refuses a response_format; remembered for this instance.
  let jsonMode: JsonMode = 'json_schema';

  async function generate(req: LlmRequest): Promise<LlmResult> {
    let mode = jsonMode;
    for (;;) {
      try {
        const completion = await client.chat.completions.create(buildParams(model, req, mode), { signal: req.signal });
        const result = readCompletion(completion);
        if (req.jsonSchema && result.toolCalls.length === 0) {
          const parsed = parseModelJson(result.text);
          if (parsed.ok) result.json = parsed.value;
        }
        return result;
      } catch (raw) {
        const err = toProviderError(raw, req.signal);
        if (req.jsonSchema && mode !== 'prompt' && isResponseFormatRejection(err)) {
          const next: JsonMode = mode === 'json_schema' ? 'json_object' : 'prompt';
          // A server that refuses this one schema (OpenAI: "Invalid schema for response_format") still
          // supports the format: fall back for this call only. Otherwise the format itself is unsupported.
          if (!/invalid schema/i.test(err.message)) jsonMode = next;
          log?.info({ refused: mode, next, err: err.message }, 'server refused the response_format; falling back');
          mode = next;
          continue;
        }
        throw err;
      }
    }
  }

  async function specs(): Promise<ModelSpec[]> {
    let serverContextWindow: number | undefined;
    try {
      const page = await client.models.list({ signal: AbortSignal.timeout(opts.specsTimeoutMs ?? 10_000) });
      serverContextWindow = contextLengthOf(page.data.find((m) => m.id === model));
    } catch (raw) {
      const err = toProviderError(raw);
      // Unreachable is worth reporting; a server without /v1/models (or a key without the right) is not.
      if (!(err instanceof LlmProviderError) || err.kind !== 'http') throw err;
      log?.debug({ err: err.message }, '/v1/models unavailable; using the known spec');
    }
    return [buildSpec({ model, contextWindow: opts.contextWindow, serverContextWindow, official })];
  }

  return { name: PROVIDER_NAME, apiVersion: PLUGIN_API, model, generate, specs };
}
