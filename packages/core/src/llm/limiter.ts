import { abortReason } from './retry.ts';

/** A counting semaphore: at most `max` tasks run at once, the rest wait in arrival order. */
export interface Limiter {
  /** Runs `task` once a slot is free; waiting stops (rejects) when `signal` fires. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly active: number;
  readonly queued: number;
}

export function createLimiter(max: number): Limiter {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency must be a positive integer, got ${max}`);
  let active = 0;
  const waiting: Array<() => void> = [];

  const acquire = (signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (active < max) {
      active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        active++;
        resolve();
      };
      const onAbort = (): void => {
        const i = waiting.indexOf(grant);
        if (i >= 0) waiting.splice(i, 1);
        reject(abortReason(signal!));
      };
      waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };

  const release = (): void => {
    active--;
    waiting.shift()?.();
  };

  return {
    async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      await acquire(signal);
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
  };
}
