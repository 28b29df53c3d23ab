/** Maps ollama SDK errors to core's LlmProviderError (status and Retry-After kept for the retry policy). */
import { LlmProviderError, retryAfterFromHeaders } from '@gleaner/core/plugin';

export const PROVIDER_NAME = 'ollama';

/**
 * Maps what the SDK threw. The SDK's ResponseError (not exported) carries only the status, so the
 * provider's fetch wrapper hands in the response it saw, for its Retry-After header.
 */
export function toProviderError(err: unknown, signal?: AbortSignal, response?: Response): Error {
  if (err instanceof LlmProviderError) return err;
  if (signal?.aborted || (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError'))) {
    return new LlmProviderError('the request was aborted', { provider: PROVIDER_NAME, kind: 'aborted', cause: err });
  }
  if (err instanceof Error && err.name === 'ResponseError' && typeof (err as { status_code?: unknown }).status_code === 'number') {
    const status = (err as unknown as { status_code: number }).status_code;
    return new LlmProviderError(`${status} ${err.message}`, {
      provider: PROVIDER_NAME,
      kind: 'http',
      status,
      retryAfterMs: response && response.status === status ? retryAfterFromHeaders(response.headers) : undefined,
      cause: err,
    });
  }
  // undici's fetch: TypeError('fetch failed') with the socket error as cause.
  if (err instanceof TypeError && /fetch failed|network|socket/i.test(err.message)) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return new LlmProviderError(`cannot reach the Ollama server (${err.message}${cause})`, { provider: PROVIDER_NAME, kind: 'connection', cause: err });
  }
  if (err instanceof SyntaxError) {
    return new LlmProviderError(`the Ollama server's answer could not be read: ${err.message}`, { provider: PROVIDER_NAME, kind: 'bad_response', cause: err });
  }
  return err instanceof Error ? err : new Error(String(err));
}
