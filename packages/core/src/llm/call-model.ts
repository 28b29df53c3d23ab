/**
 * The model client: the one place that wraps every provider call with a timeout, retries
 * (exponential backoff with full jitter, Retry-After honoured), a concurrency limit, and validation
 * of structured output with one repair round.
 */
import type { Logger } from '../log.ts';
import { GleanerError, isGleanerError } from '../errors.ts';
import type { ErrorCode } from '../errors.ts';
import { isLlmProviderError } from '../plugins/llm.ts';
import type { LlmJsonSchemaRequest, LlmProvider, LlmRequest, LlmResult, ModelSpec } from '../plugins/llm.ts';
import { createLimiter } from './limiter.ts';
import { abortReason, backoffDelay, sleep } from './retry.ts';
import { checkJsonAnswer, repairMessages } from './json-output.ts';
import { secondsSince, type Metrics } from '../metrics/registry.ts';

export interface ModelClientOptions {
  /** Timeout of one attempt (llm.timeoutMs); the wait for a concurrency slot is not counted. */
  timeoutMs: number;
  /** Retries after the first attempt (llm.maxRetries). */
  maxRetries: number;
  /** Calls in flight at once through this client (llm.concurrency). */
  concurrency: number;
  logger?: Logger;
  /** First backoff delay before jitter; 500 ms by default. */
  baseDelayMs?: number;
  /** Ceiling of one backoff delay; 30 s by default. */
  maxDelayMs?: number;
  /** Ceiling of a server's Retry-After; 60 s by default. */
  maxRetryAfterMs?: number;
  /** Source of jitter in [0, 1); Math.random by default. */
  random?: () => number;
  metrics?: Metrics;
}

/** A structured-output request: `jsonSchema` is required. */
export type LlmJsonRequest = LlmRequest & { jsonSchema: LlmJsonSchemaRequest };

/** A result whose `json` has passed the schema. */
export type LlmJsonResult<T> = LlmResult & { json: T };

export interface ModelClient {
  readonly provider: LlmProvider;
  /**
   * One model call with timeout, retries and the concurrency limit. With `jsonSchema` (and no tool
   * call in the answer) the JSON is validated, repaired once if needed, and returned in `json`.
   * Throws GleanerError MODEL_TIMEOUT / MODEL_UNAVAILABLE / MODEL_REQUEST_REJECTED / MODEL_BAD_OUTPUT,
   * or the caller's abort reason when `req.signal` fires.
   */
  generate(req: LlmRequest): Promise<LlmResult>;
  /** Structured output: like generate(), but the validated JSON is always there, typed. */
  generateJson<T = unknown>(req: LlmJsonRequest): Promise<LlmJsonResult<T>>;
  /** The provider's specs (may throw when the provider is unreachable). */
  specs(): Promise<ModelSpec[]>;
  /** Calls running and waiting for a slot. */
  load(): { active: number; queued: number };
}

/** Thrown inside one attempt when our own timer fired (not the caller's signal). */
class AttemptTimeout extends Error {}

interface Failure {
  retryable: boolean;
  code: ErrorCode;
  message: string;
  status?: number;
  retryAfterMs?: number;
  cause: unknown;
}

function classify(err: unknown, timeoutMs: number): Failure {
  if (err instanceof AttemptTimeout) {
    return { retryable: true, code: 'MODEL_TIMEOUT', message: `no answer within ${timeoutMs} ms`, cause: err };
  }
  if (isLlmProviderError(err)) {
    const code: ErrorCode = err.kind === 'timeout' ? 'MODEL_TIMEOUT' : err.kind === 'http' && !err.retryable ? 'MODEL_REQUEST_REJECTED' : 'MODEL_UNAVAILABLE';
    return { retryable: err.retryable, code, message: err.message, status: err.status, retryAfterMs: err.retryAfterMs, cause: err };
  }
  if (isGleanerError(err)) return { retryable: false, code: err.code, message: err.message, cause: err };
  // A provider should map every SDK error; anything else is a provider bug and is not retried.
  return { retryable: false, code: 'INTERNAL', message: err instanceof Error ? err.message : String(err), cause: err };
}

export function createModelClient(provider: LlmProvider, opts: ModelClientOptions): ModelClient {
  const limiter = createLimiter(opts.concurrency);
  const log = opts.logger?.child({ provider: provider.name, model: provider.model });
  const backoff = { baseDelayMs: opts.baseDelayMs ?? 500, maxDelayMs: opts.maxDelayMs ?? 30_000, random: opts.random };
  const maxRetryAfterMs = opts.maxRetryAfterMs ?? 60_000;
  const label = `${provider.name} model ${provider.model}`;

  async function attempt(req: LlmRequest): Promise<LlmResult> {
    const timer = new AbortController();
    const signal = req.signal ? AbortSignal.any([req.signal, timer.signal]) : timer.signal;
    let onTimeout: (() => void) | undefined;
    // Racing the provider against the signal protects us from a provider that ignores it.
    const stopped = new Promise<never>((_, reject) => {
      onTimeout = () => reject(req.signal?.aborted ? abortReason(req.signal) : new AttemptTimeout());
      signal.addEventListener('abort', onTimeout, { once: true });
    });
    stopped.catch(() => {});
    const handle = setTimeout(() => timer.abort(new AttemptTimeout()), opts.timeoutMs);
    try {
      return await Promise.race([provider.generate({ ...req, signal }), stopped]);
    } catch (err) {
      if (req.signal?.aborted) throw abortReason(req.signal);
      if (timer.signal.aborted) throw new AttemptTimeout();
      throw err;
    } finally {
      clearTimeout(handle);
      signal.removeEventListener('abort', onTimeout!);
    }
  }

  const labels = { provider: provider.name, model: provider.model };
  function observe(outcome: string, started: number, result?: LlmResult): void {
    const m = opts.metrics;
    if (!m) return;
    m.modelCalls.inc({ ...labels, outcome });
    m.modelDuration.observe(labels, secondsSince(started));
    if (!result) return;
    m.modelTokens.inc({ ...labels, type: 'input' }, result.usage.inputTokens);
    m.modelTokens.inc({ ...labels, type: 'output' }, result.usage.outputTokens);
  }

  async function callWithRetries(req: LlmRequest): Promise<LlmResult> {
    for (let retry = 0; ; retry++) {
      if (req.signal?.aborted) throw abortReason(req.signal);
      const started = Date.now();
      try {
        const result = await limiter.run(() => attempt(req), req.signal);
        observe('ok', started, result);
        log?.debug({ ms: Date.now() - started, usage: result.usage, finishReason: result.finishReason }, 'model call done');
        return result;
      } catch (err) {
        if (req.signal?.aborted) throw abortReason(req.signal);
        const failure = classify(err, opts.timeoutMs);
        observe(failure.code, started);
        const attempts = retry + 1;
        if (!failure.retryable || retry >= opts.maxRetries) {
          const after = failure.retryable ? ` after ${attempts} attempt${attempts === 1 ? '' : 's'}` : '';
          throw new GleanerError(failure.code, `The ${label} failed${after}: ${failure.message}`, {
            cause: failure.cause,
            details: { provider: provider.name, model: provider.model, status: failure.status, attempts },
          });
        }
        const delayMs = failure.retryAfterMs !== undefined ? Math.min(failure.retryAfterMs, maxRetryAfterMs) : backoffDelay(retry, backoff);
        log?.warn({ attempt: attempts, delayMs, status: failure.status, code: failure.code, err: failure.message }, 'model call failed; retrying');
        await sleep(delayMs, req.signal);
      }
    }
  }

  async function generate(req: LlmRequest): Promise<LlmResult> {
    const first = await callWithRetries(req);
    if (!req.jsonSchema || first.toolCalls.length > 0) return first;
    const schema = req.jsonSchema.acceptSchema ?? req.jsonSchema.schema;
    const checked = checkJsonAnswer(schema, first.text, first.json);
    if (checked.problems.length === 0) return { ...first, json: checked.value };

    log?.info({ problems: checked.problems.slice(0, 10) }, 'model answer does not match the schema; asking for a repair');
    const second = await callWithRetries({ ...req, messages: [...req.messages, ...repairMessages(first.text, checked.problems)] });
    const usage = {
      inputTokens: first.usage.inputTokens + second.usage.inputTokens,
      outputTokens: first.usage.outputTokens + second.usage.outputTokens,
    };
    const rechecked = checkJsonAnswer(schema, second.text, second.json);
    if (rechecked.problems.length === 0) return { ...second, usage, json: rechecked.value };
    throw new GleanerError(
      'MODEL_BAD_OUTPUT',
      `The ${label} did not answer JSON matching the schema "${req.jsonSchema.name}", even after one repair: ${rechecked.problems.slice(0, 3).join('; ')}`,
      { details: { provider: provider.name, model: provider.model, problems: rechecked.problems.slice(0, 20), output: second.text.slice(0, 2000), usage } },
    );
  }

  return {
    provider,
    generate,
    async generateJson<T>(req: LlmJsonRequest): Promise<LlmJsonResult<T>> {
      const result = await generate({ ...req, tools: undefined, toolChoice: undefined });
      return result as LlmJsonResult<T>;
    },
    async specs() {
      return provider.specs();
    },
    load() {
      return { active: limiter.active, queued: limiter.queued };
    },
  };
}
