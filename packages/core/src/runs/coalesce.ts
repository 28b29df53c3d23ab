/**
 * Group commit for the statements of run items: calls made close together (the items of one job
 * batch start in the same tick; items finishing while a statement is in flight queue behind it)
 * become one statement for all of them. Every database round trip here costs a write and a
 * wake-up of a Postgres backend, which is most of what a queued URL costs beyond its page.
 */

interface Pending<I, O> {
  input: I;
  resolve(value: O): void;
  reject(err: unknown): void;
}

interface Lane<I, O> {
  queue: Pending<I, O>[];
  busy: boolean;
}

/**
 * Wraps `flush(key, inputs) -> outputs` (outputs in the order of inputs) into a per-call function.
 * Per key, one flush is in flight at a time; calls arriving meanwhile go into the next one.
 */
export function coalesce<I, O>(flush: (key: string, inputs: I[]) => Promise<O[]>): (key: string, input: I) => Promise<O> {
  const lanes = new Map<string, Lane<I, O>>();

  async function drain(key: string, lane: Lane<I, O>): Promise<void> {
    while (lane.queue.length) {
      const batch = lane.queue.splice(0);
      try {
        const outputs = await flush(
          key,
          batch.map((p) => p.input),
        );
        batch.forEach((p, i) => p.resolve(outputs[i]));
      } catch (err) {
        if (batch.length === 1) batch[0].reject(err);
        // One bad input (say, a value Postgres refuses) must fail alone: the others go one by one.
        else for (const p of batch) await flush(key, [p.input]).then((o) => p.resolve(o[0]), p.reject);
      }
    }
    lane.busy = false;
    lanes.delete(key);
  }

  return (key, input) =>
    new Promise<O>((resolve, reject) => {
      let lane = lanes.get(key);
      if (!lane) lanes.set(key, (lane = { queue: [], busy: false }));
      lane.queue.push({ input, resolve, reject });
      if (lane.busy) return;
      lane.busy = true;
      const l = lane;
      // After the current I/O callbacks: the rest of a job batch (or of the pages that arrived
      // together) joins this flush.
      setImmediate(() => void drain(key, l));
    });
}
