/** Backoff and abortable waits for the model client. */

export interface BackoffOptions {
  /** Delay before the first retry, before jitter (ms). */
  baseDelayMs: number;
  /** Ceiling of one backoff delay (ms). */
  maxDelayMs: number;
  /** A number in [0, 1); Math.random by default (tests pass a fixed one). */
  random?: () => number;
}

/**
 * Exponential backoff with full jitter (AWS architecture blog): a uniform wait in
 * [0, min(max, base * 2^retry)], so many clients that failed together do not retry together.
 * `retry` counts from 0 for the first retry.
 */
export function backoffDelay(retry: number, opts: BackoffOptions): number {
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** retry);
  return Math.floor((opts.random ?? Math.random)() * ceiling);
}

/** The error an aborted signal stands for: its reason when that is an Error, else an AbortError. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(reason === undefined ? 'The operation was aborted' : String(reason), 'AbortError');
}

/** Waits `ms`, or rejects with the abort reason as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
