/**
 * The model-provider plugin interface. A provider package (plugins/llm-*) exports one factory that
 * returns an {@link LlmProvider}; core wraps every provider in one model client
 * (`createModelClient`, packages/core/src/llm/) that adds the timeout, retries, the concurrency limit
 * and JSON validation, so providers stay thin translations between this shape and their SDK.
 */

/** A JSON Schema as a plain object (draft-07 keywords; what the model is asked to follow). */
export type LlmJsonSchema = Record<string, unknown>;

/** One turn of the conversation. The system prompt travels separately in {@link LlmRequest.system}. */
export interface LlmMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** On an assistant turn: the tool calls it made (sent back so the model sees its own calls). */
  toolCalls?: LlmToolCall[];
  /** On a tool turn: the id of the call this answers (OpenAI) ... */
  toolCallId?: string;
  /** ... and the tool's name (Ollama). */
  toolName?: string;
}

/** A function the model may call instead of answering. */
export interface LlmTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: LlmJsonSchema;
}

/** A tool call the model made. */
export interface LlmToolCall {
  /** The provider's call id; providers without ids (Ollama) number the calls `call_0`, `call_1`, ... */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The raw argument text when it was not a JSON object (then `arguments` is `{}`). */
  rawArguments?: string;
}

/** Structured output: the answer must be JSON matching `schema`. */
export interface LlmJsonSchemaRequest {
  /** A short name for the schema (OpenAI's json_schema.name): letters, digits, `_` and `-`. */
  name: string;
  schema: LlmJsonSchema;
  description?: string;
  /**
   * Validate the answer against this instead of `schema` (core only; never sent): a looser schema
   * for callers that coerce values themselves, so "$1,299.00" for a number costs no repair round.
   */
  acceptSchema?: LlmJsonSchema;
}

export interface LlmRequest {
  system?: string;
  messages: LlmMessage[];
  /** Ask for JSON matching this schema; the result then carries `json`. */
  jsonSchema?: LlmJsonSchemaRequest;
  /** Offer tools; calls come back in `LlmResult.toolCalls`. */
  tools?: LlmTool[];
  toolChoice?: 'auto' | 'required' | 'none';
  /** Aborts the call; providers must pass it to their SDK so the HTTP request is cancelled. */
  signal?: AbortSignal;
  maxOutputTokens?: number;
  temperature?: number;
}

export type LlmFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'refusal' | 'other';

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface LlmResult {
  /** The answer's text (for structured output: the JSON text as the model wrote it). */
  text: string;
  /** The parsed answer when a schema was asked and the text parsed (validated by the model client). */
  json?: unknown;
  toolCalls: LlmToolCall[];
  usage: LlmUsage;
  finishReason: LlmFinishReason;
  /** The model that answered, as the server named it. */
  model?: string;
}

/** One item of GET /v1/llm-specs. */
export interface ModelSpec {
  id: string;
  name: string;
  provider: string;
  context_window: number;
  /** null when the provider does not say. */
  max_output_tokens: number | null;
  modalities: { input: string[]; output: string[] };
  capabilities: { structured_output: boolean; tool_calls: boolean; vision: boolean; reasoning: boolean };
  /** US dollars per million tokens; null when unknown (OpenAI-compatible servers), 0 for local models. */
  pricing: { currency: 'USD'; input_per_million_tokens: number | null; output_per_million_tokens: number | null };
}

/** What a provider factory returns. */
export interface LlmProvider {
  /** The provider kind, e.g. `openai` or `ollama`. */
  readonly name: string;
  /** The model every call uses. */
  readonly model: string;
  /** The plugin API version the provider implements (`PLUGIN_API_VERSION` of the core it was built with). */
  readonly apiVersion: string;
  /** One call, no retries: failures throw {@link LlmProviderError} (or the caller's abort reason). */
  generate(req: LlmRequest): Promise<LlmResult>;
  /** The configured model's spec. May throw LlmProviderError when the server cannot be reached. */
  specs(): Promise<ModelSpec[]> | ModelSpec[];
  /** Releases connections, if the provider holds any. */
  close?(): Promise<void>;
}

/** What kind of failure a provider met: decides whether the model client retries. */
export type LlmProviderErrorKind =
  /** The server answered with an HTTP error (`status` set). */
  | 'http'
  /** No answer: connection refused or reset, DNS, TLS. */
  | 'connection'
  /** The SDK's own timeout fired. */
  | 'timeout'
  /** The request's AbortSignal fired. */
  | 'aborted'
  /** The server answered 2xx with something that is not a valid answer of its protocol. */
  | 'bad_response';

/**
 * The one error type providers throw. It carries the HTTP status and the server's Retry-After so the
 * model client (core) can decide on retries in one place.
 */
export class LlmProviderError extends Error {
  readonly provider: string;
  readonly kind: LlmProviderErrorKind;
  readonly status?: number;
  /** The server's Retry-After (or retry-after-ms), in milliseconds, when it sent one. */
  readonly retryAfterMs?: number;

  constructor(message: string, opts: { provider: string; kind: LlmProviderErrorKind; status?: number; retryAfterMs?: number; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'LlmProviderError';
    this.provider = opts.provider;
    this.kind = opts.kind;
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
  }

  /** 429, 408, 425 and 5xx, connection failures and timeouts can pass on a retry; other 4xx cannot. */
  get retryable(): boolean {
    if (this.kind === 'connection' || this.kind === 'timeout') return true;
    if (this.kind !== 'http' || this.status === undefined) return false;
    return this.status === 429 || this.status === 408 || this.status === 425 || this.status >= 500;
  }
}

export function isLlmProviderError(err: unknown): err is LlmProviderError {
  return err instanceof LlmProviderError;
}

/**
 * Milliseconds to wait from a `Retry-After` value (delay-seconds or an HTTP date) or a
 * `retry-after-ms` value; undefined when absent or unreadable. Never negative.
 */
export function retryAfterFromHeaders(headers: { get(name: string): string | null } | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A provider factory, e.g. `createOpenAiProvider`. */
export type LlmProviderFactory<Options> = (opts: Options) => LlmProvider;
