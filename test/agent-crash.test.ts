// A worker killed with SIGKILL in the middle of an agent task: the task is not left `running` for
// ever — the job layer notices the missed heartbeats and another worker runs the agent again.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { TEST_DATABASE_URL } from './support/db.ts';
import { startCli } from './support/process.ts';
import { addAgentPages, PRODUCTS } from './support/agent-site.ts';
import { agentScript, call, isDecision } from './support/agent-script.ts';

/** The direct children of a process (the worker's browser). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('agent tasks survive a worker killed with SIGKILL mid-task', () => {
  let s: Stack;
  before(async function () {
    this.timeout(60_000);
    s = await startStack({ worker: false, config: { jobs: { heartbeatSeconds: 10 } } });
    addAgentPages(s.site);
  });
  after(() => s?.close());

  it('retries the task on another worker and completes it', async function () {
    this.timeout(180_000);
    const plan = agentScript([() => [call.extract()], () => [call.finish()]]);
    let first = true;
    s.model.script((req, i) => {
      // The child worker's first decision hangs: it is killed while waiting for the model.
      if (first && isDecision(req)) {
        first = false;
        return { hang: true };
      }
      return plan.script(req, i);
    });
    const child = startCli(['worker'], {
      DATABASE_URL: TEST_DATABASE_URL,
      GLEANER_DB_SCHEMA: s.schemas.schema,
      GLEANER_JOBS_SCHEMA: s.schemas.jobsSchema,
      GLEANER_ALLOW_NETWORKS: '127.0.0.0/8',
      GLEANER_JOB_POLLING_SECONDS: '0.5',
      GLEANER_JOB_SUPERVISE_SECONDS: '1',
      GLEANER_JOB_HEARTBEAT_SECONDS: '10',
      GLEANER_BROWSER_ESCALATION: 'always',
      GLEANER_LLM_PROVIDER: 'openai',
      GLEANER_LLM_MODEL: 'test-model',
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: s.model.openaiBaseUrl,
      GLEANER_LOG_LEVEL: 'info',
    });
    let taskId: string;
    let browserPids: number[] = [];
    try {
      await waitFor(() => child.output().includes('worker started') || child.exitCode !== null, 30_000, 'the child worker');
      expect(child.exitCode, child.output()).to.equal(null);
      const sent = await s.api('POST', '/v1/agent/extract', {
        url: `${s.site.url}/list?page=1`,
        prompt: 'products',
        attributes: [{ name: 'name' }, { name: 'price', type: 'number' }],
      });
      expect(sent.status, sent.text).to.equal(202);
      taskId = sent.body.task_id;
      await waitFor(() => s.model.inFlight > 0, 60_000, 'the child worker to ask the model');
      expect((await s.api('GET', `/v1/agent/extract/${taskId}`)).body.status).to.equal('running');
      browserPids = childrenOf(child.pid!);
      expect(browserPids.length, 'the child worker runs a browser').to.be.greaterThan(0);
    } finally {
      child.kill('SIGKILL');
    }
    await s.engine.startWorker();
    const done = await waitFor(
      async () => {
        const r = await s.api('GET', `/v1/agent/extract/${taskId}`);
        return ['completed', 'failed', 'stopped'].includes(r.body.status) ? r.body : undefined;
      },
      120_000,
      'the task to end after the crash',
      200,
    );
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(done.data.map((r: { name: string }) => r.name).sort()).to.deep.equal(
      PRODUCTS.slice(0, 3)
        .map((p) => p.name)
        .sort(),
    );
    // The killed worker's browser went with it (its DevTools pipe closed).
    await waitFor(() => browserPids.every((pid) => !alive(pid)), 15_000, "the killed worker's browser to exit");
  });
});
