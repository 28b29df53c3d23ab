// A form's action: busy while it runs, its failure as a message to show.
import { useState } from 'preact/hooks';

export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (fn: () => Promise<void>, describe = (err: unknown) => (err as Error).message) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
