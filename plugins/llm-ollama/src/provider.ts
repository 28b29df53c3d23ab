/** The Ollama model provider over the ollama SDK. */
import { Ollama } from 'ollama';
import { LlmProviderError, parseModelJson } from '@gleaner/core/plugin';
import type { LlmProvider, LlmRequest, LlmResult, Logger, ModelSpec } from '@gleaner/core/plugin';
import { PROVIDER_NAME, toProviderError } from './errors.ts';
import { buildChatRequest, readChatResponse } from './request.ts';
import { buildSpec } from './specs.ts';
import type { ShowInfo } from './specs.ts';

/** The plugin API this plugin was written against (createEngine refuses another major). */
const PLUGIN_API = '1.0';

export const OLLAMA_DEFAULT_HOST = 'http://127.0.0.1:11434';

export interface OllamaProviderOptions {
  /** Address of the Ollama server (ollama.host). */
  host?: string;
  model: string;
  /** Ollama's keep_alive for every call (ollama.keepAlive), e.g. '5m'; a numeric string means seconds. */
  keepAlive?: string | number;
  /** llm.contextWindow: when > 0, sent as options.num_ctx and reported by specs(). */
  contextWindow?: number;
  /** Extra headers on every request (e.g. a proxy's Authorization). */
  headers?: Record<string, string>;
  /** How long specs() waits for /api/show (ms); 10 s by default. */
  specsTimeoutMs?: number;
  logger?: Logger;
}

/**
 * The SDK (0.6) cancels only streamed requests (`ollama.abort()`, for all of a client's streams at
 * once), so each call gets its own client whose fetch carries the call's signal and remembers the
 * response, whose Retry-After the SDK's ResponseError does not keep.
 */
function clientFor(host: string, headers: Record<string, string> | undefined, signal: AbortSignal | undefined) {
  const seen: { response?: Response } = {};
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const signals = [init?.signal, signal].filter((s): s is AbortSignal => Boolean(s));
    const response = await fetch(input, { ...init, signal: signals.length ? AbortSignal.any(signals) : undefined });
    seen.response = response;
    return response;
  };
  return { client: new Ollama({ host, headers, fetch: wrapped as typeof fetch }), seen };
}

/** Creates the provider. Makes no request: an unreachable server shows on the first call. */
export function createOllamaProvider(opts: OllamaProviderOptions): LlmProvider {
  const host = (opts.host || OLLAMA_DEFAULT_HOST).replace(/\/+$/, '');
  const model = opts.model;
  const log = opts.logger?.child({ provider: PROVIDER_NAME, model });

  async function generate(req: LlmRequest): Promise<LlmResult> {
    const { client, seen } = clientFor(host, opts.headers, req.signal);
    try {
      const chat = buildChatRequest(req, { model, keepAlive: opts.keepAlive, numCtx: opts.contextWindow });
      const result = readChatResponse(await client.chat(chat));
      if (req.jsonSchema && result.toolCalls.length === 0) {
        const parsed = parseModelJson(result.text);
        if (parsed.ok) result.json = parsed.value;
      }
      return result;
    } catch (err) {
      throw toProviderError(err, req.signal, seen.response);
    }
  }

  async function specs(): Promise<ModelSpec[]> {
    const { client, seen } = clientFor(host, opts.headers, AbortSignal.timeout(opts.specsTimeoutMs ?? 10_000));
    let show: ShowInfo | undefined;
    try {
      const res = await client.show({ model });
      // Typed as a Map by the SDK, but it is the parsed JSON object.
      show = { modelInfo: res.model_info as unknown as Record<string, unknown>, capabilities: res.capabilities };
    } catch (raw) {
      const err = toProviderError(raw, undefined, seen.response);
      // Unreachable is worth reporting; a model not pulled yet still has a (fallback) spec.
      if (!(err instanceof LlmProviderError) || err.kind !== 'http') throw err;
      log?.debug({ err: err.message }, '/api/show failed; using the fallback spec');
    }
    return [buildSpec(model, opts.contextWindow, show)];
  }

  return { name: PROVIDER_NAME, apiVersion: PLUGIN_API, model, generate, specs };
}
