// Job layer figures: send -> handler-start latency (p50/p95, one job at a time, LISTEN/NOTIFY) and
// no-op throughput (a backlog inserted at once, drained by one worker process with the defaults).
import { JobQueue, defineJob, loadConfig, silentLogger } from '@gleaner/core';
import { TEST_DATABASE_URL, dropSchemas } from '../support/db.ts';

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function run(): Promise<void> {
  const defaults = loadConfig({ env: {} }).jobs;
  const schema = `bench_jobs_${Date.now().toString(36)}`;
  const queue = new JobQueue({
    url: TEST_DATABASE_URL,
    schema,
    poolMax: 10,
    logger: silentLogger(),
    pollingSeconds: defaults.pollingSeconds,
    batchSize: defaults.batchSize,
    concurrency: defaults.concurrency,
    heartbeatSeconds: defaults.heartbeatSeconds,
    superviseSeconds: defaults.superviseSeconds,
  });
  let onStart: ((t: number) => void) | null = null;
  let done = 0;
  queue.register(
    defineJob<{ sentAt: number }>({
      name: 'bench.latency',
      payloadSchema: { type: 'object', properties: { sentAt: { type: 'number' } } },
      handler: async () => onStart?.(performance.now()),
    }),
    defineJob<Record<string, never>>({
      name: 'bench.noop',
      payloadSchema: { type: 'object' },
      handler: async () => void done++,
    }),
  );
  try {
    // Throughput: a backlog of N no-op jobs inserted before the worker starts, drained through the
    // job layer's own handler path (per-job results, signals, logging) by this one process.
    const N = 5000;
    await queue.start();
    for (let i = 0; i < N; i += 1000) {
      await queue.boss.insert(
        'bench.noop',
        Array.from({ length: Math.min(1000, N - i) }, () => ({ data: {} })),
      );
    }
    const t0 = performance.now();
    await queue.work();
    while (done < N) await new Promise((r) => setTimeout(r, 5));
    const secs = (performance.now() - t0) / 1000;
    console.log(
      `no-op throughput: ${N} jobs in ${secs.toFixed(2)} s = ${Math.round(N / secs)} jobs/s (one worker process, batchSize ${defaults.batchSize} x concurrency ${defaults.concurrency})`,
    );

    // Latency: one job at a time, so each measures an idle queue woken by NOTIFY.
    const samples: number[] = [];
    for (let i = 0; i < 60; i++) {
      const started = new Promise<number>((r) => (onStart = r));
      const t1 = performance.now();
      await queue.send('bench.latency', { sentAt: t1 });
      samples.push((await started) - t1);
      await new Promise((r) => setTimeout(r, 20));
    }
    samples.sort((a, b) => a - b);
    console.log(`enqueue -> handler start: p50 ${pct(samples, 50).toFixed(1)} ms, p95 ${pct(samples, 95).toFixed(1)} ms (n=${samples.length}, LISTEN/NOTIFY)`);
    await queue.stop(1000);
  } finally {
    await dropSchemas(TEST_DATABASE_URL, schema);
  }
}
