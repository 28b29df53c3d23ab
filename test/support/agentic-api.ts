// Driving agentic scrapers through the HTTP API in tests: the build (generate, wait until ready or
// failed), a run (wait until it finished) and the scraper's stored script versions.
import { expect } from 'chai';
import { PRODUCTS } from './agent-site.ts';
import { waitFor, type Stack } from './stack.ts';

export const ATTRIBUTES = [
  { name: 'name', type: 'string', description: 'product name' },
  { name: 'price', type: 'number' },
];
export const names = (data: Array<{ name: string }>) => data.map((r) => r.name).sort();
export const expected = (ps: typeof PRODUCTS) => ps.map((p) => p.name).sort();

export async function untilBuilt(s: Stack, id: string, key = s.key): Promise<any> {
  return waitFor(
    async () => {
      const r = await s.api('GET', `/v1/agent/${id}`, undefined, { 'X-API-KEY': key });
      return r.body.status === 'ready' || r.body.status === 'failed' ? r.body : undefined;
    },
    90_000,
    `agentic scraper ${id} build`,
    100,
  );
}

export async function untilFinished(s: Stack, runId: string): Promise<any> {
  return waitFor(
    async () => {
      const r = await s.api('GET', `/v1/scrapers/run_async/${runId}`);
      return ['completed', 'completed_partial', 'failed'].includes(r.body.status) ? r.body : undefined;
    },
    90_000,
    `run ${runId}`,
    100,
  );
}

/** POST /v1/agent/generate (the product attributes unless given), then the finished build. */
export async function build(s: Stack, body: Record<string, unknown>): Promise<any> {
  const gen = await s.api('POST', '/v1/agent/generate', { attributes: ATTRIBUTES, ...body });
  expect(gen.status, gen.text).to.equal(202);
  expect(gen.body).to.deep.equal({ template_id: gen.body.template_id, status: 'generating' });
  return untilBuilt(s, gen.body.template_id);
}

/** POST /v1/scrapers/run_async, then the finished run's status body. */
export async function runAndWait(s: Stack, body: Record<string, unknown>): Promise<any> {
  const run = await s.api('POST', '/v1/scrapers/run_async', body);
  expect(run.status, run.text).to.equal(202);
  return untilFinished(s, run.body.run_id);
}

/** The scraper's script versions, oldest first. */
export async function scriptVersions(s: Stack, id: string): Promise<Array<{ version: number; reason: string; script: any }>> {
  const { rows } = await s.engine.db.query('SELECT version, reason, script FROM scraper_scripts WHERE scraper_id = $1 ORDER BY version', [id]);
  return rows as Array<{ version: number; reason: string; script: any }>;
}

const TASK_TERMINAL = ['completed', 'failed', 'stopped'];

/** POST /v1/agent/extract (the product attributes unless given), then the task's final status body. */
export async function runTask(s: Stack, body: Record<string, unknown>, ms = 60_000): Promise<any> {
  const sent = await s.api('POST', '/v1/agent/extract', { attributes: ATTRIBUTES, ...body });
  expect(sent.status, sent.text).to.equal(202);
  expect(sent.body).to.deep.equal({ task_id: sent.body.task_id, status: 'pending' });
  return waitFor(
    async () => {
      const r = await s.api('GET', `/v1/agent/extract/${sent.body.task_id}`);
      return TASK_TERMINAL.includes(r.body.status) ? r.body : undefined;
    },
    ms,
    'the agent task to end',
    100,
  );
}
