/** Maps openai SDK errors to core's LlmProviderError (status and Retry-After kept for the retry policy). */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { LlmProviderError, retryAfterFromHeaders } from '@gleaner/core/plugin';

export const PROVIDER_NAME = 'openai';

export function toProviderError(err: unknown, signal?: AbortSignal): Error {
  if (err instanceof LlmProviderError) return err;
  // The signal fired (caller's abort or the model client's timeout): the client tells which.
  if (signal?.aborted || err instanceof APIUserAbortError) {
    return new LlmProviderError('the request was aborted', { provider: PROVIDER_NAME, kind: 'aborted', cause: err });
  }
  if (err instanceof APIConnectionTimeoutError) {
    return new LlmProviderError(err.message, { provider: PROVIDER_NAME, kind: 'timeout', cause: err });
  }
  if (err instanceof APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return new LlmProviderError(`cannot reach the server (${err.message}${cause})`, { provider: PROVIDER_NAME, kind: 'connection', cause: err });
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    return new LlmProviderError(err.message, {
      provider: PROVIDER_NAME,
      kind: 'http',
      status: err.status,
      retryAfterMs: retryAfterFromHeaders(err.headers),
      cause: err,
    });
  }
  // Other SDK errors: the answer could not be read (e.g. a body that is not JSON).
  if (err instanceof OpenAIError || err instanceof SyntaxError) {
    return new LlmProviderError(err.message, { provider: PROVIDER_NAME, kind: 'bad_response', cause: err });
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** A 400 that says the server does not accept this response_format (vLLM, llama.cpp, LM Studio, ...). */
export function isResponseFormatRejection(err: unknown): boolean {
  return (
    err instanceof LlmProviderError &&
    err.kind === 'http' &&
    (err.status === 400 || err.status === 422) &&
    /response_format|json_schema|json_object|structured output/i.test(err.message)
  );
}
