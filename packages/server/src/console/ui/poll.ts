// Reads a resource and reads it again every `everyMs` until `done` says it has settled (a build,
// a run); stops when the component goes away or `key` changes.
import { useEffect, useState } from 'preact/hooks';

export function usePoll<T>(key: string, read: () => Promise<T>, done: (value: T) => boolean, everyMs: number): { value: T | null; error: string | null } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    const load = async () => {
      try {
        const v = await read();
        if (stop) return;
        setValue(v);
        if (!done(v)) timer = setTimeout(load, everyMs);
      } catch (err) {
        if (!stop) setError((err as Error).message);
      }
    };
    void load();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [key]);
  return { value, error };
}
