// Reading a resource again and again until it settles (a build, a run, a list with runs moving).
import { useEffect, useState } from 'preact/hooks';

/**
 * Runs `step` now, then again every `everyMs` while it answers true; stops when the component goes
 * away or `key` changes (`alive()` says whether its answer is still wanted).
 */
export function useRepeat(key: string, step: (alive: () => boolean) => Promise<boolean>, everyMs: number, onError: (message: string) => void): void {
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    const alive = () => !stop;
    const load = async () => {
      try {
        if ((await step(alive)) && !stop) timer = setTimeout(load, everyMs);
      } catch (err) {
        if (!stop) onError((err as Error).message);
      }
    };
    void load();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [key]);
}

/** Reads a resource and reads it again every `everyMs` until `done` says it has settled. */
export function usePoll<T>(key: string, read: () => Promise<T>, done: (value: T) => boolean, everyMs: number): { value: T | null; error: string | null } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useRepeat(
    key,
    async (alive) => {
      const v = await read();
      if (!alive()) return false;
      setValue(v);
      return !done(v);
    },
    everyMs,
    setError,
  );
  return { value, error };
}
