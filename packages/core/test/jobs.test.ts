import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { JobQueue, defineJob, GleanerError, silentLogger, type JobKind } from '@gleaner/core';
import { TEST_DATABASE_URL, dropSchemas } from '../../../test/support/db.ts';
import { waitFor } from '../../../test/support/wait.ts';

const schemaBase = `t_jobs_${Math.random().toString(36).slice(2, 8)}`;
let n = 0;

function makeQueue(schema: string, kinds: JobKind<any>[]): JobQueue {
  const q = new JobQueue({
    url: TEST_DATABASE_URL,
    schema,
    poolMax: 4,
    logger: silentLogger(),
    pollingSeconds: 0.5,
    batchSize: 4,
    concurrency: 2,
    heartbeatSeconds: 10,
    superviseSeconds: 1,
  });
  q.register(...kinds);
  return q;
}

const payloadSchema = { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } };

describe('jobs: the job layer on pg-boss', function () {
  const schemas: string[] = [];
  const queues: JobQueue[] = [];
  function fresh(kinds: JobKind<any>[]): JobQueue {
    const schema = `${schemaBase}_${n++}`;
    schemas.push(schema);
    const q = makeQueue(schema, kinds);
    queues.push(q);
    return q;
  }
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.stop(500).catch(() => undefined)));
  });
  after(() => dropSchemas(TEST_DATABASE_URL, ...schemas));

  it('delivers a sent payload to its handler', async () => {
    const seen: number[] = [];
    const q = fresh([defineJob<{ n: number }>({ name: 'test.echo', payloadSchema, handler: async (p) => void seen.push(p.n) })]);
    await q.work();
    await q.send('test.echo', { n: 1 });
    await q.send('test.echo', { n: 2 });
    await waitFor(() => seen.length === 2, 10_000, 'both jobs');
    expect(seen.sort()).to.deep.equal([1, 2]);
  });

  it('refuses a payload that does not match the kind schema', async () => {
    const q = fresh([defineJob<{ n: number }>({ name: 'test.strict', payloadSchema, handler: async () => undefined })]);
    await q.start();
    const err = await q.send('test.strict', { n: 'x' }).catch((e) => e);
    expect(err).to.be.instanceOf(GleanerError);
    expect(err.code).to.equal('JOB_PAYLOAD_INVALID');
    expect(err.message).to.contain('payload/n must be integer');
  });

  it('retries a retryable failure and then succeeds', async () => {
    const attempts: number[] = [];
    const q = fresh([
      defineJob<{ n: number }>({
        name: 'test.flaky',
        payloadSchema,
        policy: { retryLimit: 2, retryDelaySeconds: 1 },
        handler: async (_p, ctx) => {
          attempts.push(ctx.attempt);
          if (ctx.attempt === 0) throw new GleanerError('FETCH_FAILED', 'transient');
        },
      }),
    ]);
    await q.work();
    const id = await q.send('test.flaky', { n: 1 });
    await waitFor(async () => (await q.boss.getJobById('test.flaky', id))?.state === 'completed', 15_000, 'completion after retry');
    expect(attempts).to.deep.equal([0, 1]);
  });

  it('does not retry a non-retryable failure and reports it once to onFailure', async () => {
    const attempts: number[] = [];
    const failures: string[] = [];
    const q = fresh([
      defineJob<{ n: number }>({
        name: 'test.fatal',
        payloadSchema,
        policy: { retryLimit: 3, retryDelaySeconds: 1 },
        handler: async (_p, ctx) => {
          attempts.push(ctx.attempt);
          throw new GleanerError('URL_BLOCKED', 'blocked: 10.0.0.1 is a private address');
        },
        onFailure: async (_p, error) => void failures.push(`${error.code}: ${error.message}`),
      }),
    ]);
    await q.work();
    await q.send('test.fatal', { n: 1 });
    await waitFor(() => failures.length > 0, 10_000, 'onFailure');
    await new Promise((r) => setTimeout(r, 2500)); // a retry, or the dead-letter run, would have shown by now
    expect(attempts).to.deep.equal([0]);
    expect(failures).to.deep.equal(['URL_BLOCKED: blocked: 10.0.0.1 is a private address']);
  });

  it('lets a running job finish on graceful stop', async () => {
    let finished = false;
    const q = fresh([
      defineJob<{ n: number }>({
        name: 'test.slow',
        payloadSchema,
        handler: async () => {
          await new Promise((r) => setTimeout(r, 800));
          finished = true;
        },
      }),
    ]);
    await q.work();
    const id = await q.send('test.slow', { n: 1 });
    await waitFor(() => q.activeCount === 1, 10_000, 'job start');
    await q.stop(5_000);
    expect(finished).to.equal(true);
    const check = makeQueue(schemas[schemas.length - 1], []);
    await check.start();
    expect((await check.boss.getJobById('test.slow', id))?.state).to.equal('completed');
    await check.stop(500);
  });

  it('aborts the job signal when the grace period runs out, and the job is retried later', async () => {
    let aborted = false;
    const q = fresh([
      defineJob<{ n: number }>({
        name: 'test.stuck',
        payloadSchema,
        policy: { retryLimit: 2, retryDelaySeconds: 1 },
        handler: async (_p, ctx) =>
          new Promise<void>((_, reject) => {
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              reject(ctx.signal.reason);
            });
          }),
      }),
    ]);
    await q.work();
    const id = await q.send('test.stuck', { n: 1 });
    await waitFor(() => q.activeCount === 1, 10_000, 'job start');
    await q.stop(300);
    expect(aborted).to.equal(true);
    const check = makeQueue(schemas[schemas.length - 1], []);
    await check.start();
    const state = (await check.boss.getJobById('test.stuck', id))?.state;
    expect(state).to.be.oneOf(['retry', 'created']);
    await check.stop(500);
  });

  it('recovers the job of a worker process killed with SIGKILL (heartbeat), running it exactly once more', async function () {
    this.timeout(60_000);
    const schema = `${schemaBase}_${n++}`;
    schemas.push(schema);
    const child = spawn(process.execPath, ['packages/core/test/fixtures/hanging-worker.ts', TEST_DATABASE_URL, schema], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    try {
      await waitFor(() => out.includes('ready'), 20_000, 'child worker');
      const sender = makeQueue(schema, [
        defineJob<{ n: number }>({ name: 'test.hang', payloadSchema, policy: { retryLimit: 3, retryDelaySeconds: 1 }, handler: async () => undefined }),
      ]);
      queues.push(sender);
      await sender.start();
      const id = await sender.send('test.hang', { n: 7 });
      await waitFor(() => out.includes(`started ${id} attempt=0`), 20_000, 'child to take the job');
    } finally {
      child.kill('SIGKILL');
    }
    // Now a healthy worker on the same queue: it gets the job once pg-boss sees the missed heartbeat.
    const runs: number[] = [];
    const worker = makeQueue(schema, [
      defineJob<{ n: number }>({
        name: 'test.hang',
        payloadSchema,
        policy: { retryLimit: 3, retryDelaySeconds: 1 },
        handler: async (p, ctx) => void runs.push(ctx.attempt * 100 + p.n),
      }),
    ]);
    queues.push(worker);
    await worker.work();
    await waitFor(() => runs.length > 0, 40_000, "recovery of the killed worker's job");
    await new Promise((r) => setTimeout(r, 1500));
    expect(runs).to.deep.equal([107]); // attempt 1, payload 7, once
  });
});
