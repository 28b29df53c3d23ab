// Agentic scrapers: the same task done by the one-shot agent (POST /v1/agent/extract) and by the
// replayed script of an agentic scraper built once from it (POST /v1/scrapers/run_async), side by
// side, on the interactive fixture pages (plain HTML ones on the HTTP driver's interaction, the
// JavaScript one on Playwright, as the agent found them): wall time per run from the request to
// its finished status, model tokens (the replay's must be 0) and the ratio. The scripted model
// answers at once, so the agent's time is its own overhead (a lower bound); the "model at N s" column
// adds N s per model call, the order of a hosted model's decision (1-3 s).
import { loadavg } from 'node:os';
import { addAgentPages, PRODUCTS } from '../support/agent-site.ts';
import { call, refOf, type PlanStep } from '../support/agent-script.ts';
import { scriptBuildModel } from '../support/agentic-model.ts';
import { startStack, waitFor, type Stack } from '../support/stack.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SLOW_ROUNDS = 3;
const MODEL_SECONDS = 1.5;
const ATTRIBUTES = [
  { name: 'name', type: 'string', description: 'product name' },
  { name: 'price', type: 'number' },
];
interface Task {
  name: string;
  path: string;
  prompt: string;
  parameters: unknown[];
  plan: PlanStep[];
  records: number;
}

const TASKS: Task[] = [
  {
    name: 'search form (type + submit)',
    path: '/shop',
    prompt: 'Search the shop and return every result. Parameter `query` (string, default kettle) — the search term.',
    parameters: [{ name: 'query', type: 'string', description: 'the search term', default: 'kettle', example: null }],
    plan: [(o) => [call.type(refOf(o, /searchbox|textbox/), 'kettle', true)], () => [call.extract()], () => [call.finish()]],
    records: PRODUCTS.filter((p) => p.name.includes('Kettle')).length,
  },
  {
    name: 'pagination by clicking (3 pages)',
    path: '/list?page=1',
    prompt: 'Return all products from every page.',
    parameters: [],
    plan: [
      () => [call.extract()],
      (o) => [call.click(refOf(o, /link "Next page"/))],
      () => [call.extract()],
      (o) => [call.click(refOf(o, /link "Next page"/))],
      () => [call.extract()],
      () => [call.finish()],
    ],
    records: 9,
  },
  {
    name: 'load more (JavaScript: browser)',
    path: '/catalog',
    prompt: 'Return every product of the catalog.',
    parameters: [],
    plan: [
      (o) => [call.click(refOf(o, /button "Load more"/))],
      (o) => [call.click(refOf(o, /button "Load more"/))],
      () => [call.extract()],
      () => [call.finish()],
    ],
    records: 9,
  },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function scriptModel(s: Stack, task: Task, delayMs = 0): void {
  scriptBuildModel(s, task.plan, task.parameters, { delayMs });
}

async function until(s: Stack, path: string, done: (body: any) => boolean): Promise<any> {
  return waitFor(
    async () => {
      const r = await s.api('GET', path);
      return done(r.body) ? r.body : undefined;
    },
    120_000,
    path,
    10,
  );
}

async function agentRun(s: Stack, task: Task, delayMs: number): Promise<{ ms: number; tokens: number; records: number }> {
  scriptModel(s, task, delayMs);
  const t0 = performance.now();
  const sent = await s.api('POST', '/v1/agent/extract', { url: `${s.site.url}${task.path}`, prompt: task.prompt, attributes: ATTRIBUTES });
  const body = await until(s, `/v1/agent/extract/${sent.body.task_id}`, (b) => b.status === 'completed' || b.status === 'failed');
  const ms = performance.now() - t0;
  if (body.status !== 'completed') throw new Error(`agent task failed: ${body.error}`);
  const { rows } = await s.engine.db.query<{ usage: { inputTokens: number; outputTokens: number } }>('SELECT usage FROM tasks WHERE id = $1', [
    sent.body.task_id,
  ]);
  return { ms, tokens: rows[0].usage.inputTokens + rows[0].usage.outputTokens, records: body.data.length };
}

async function replayRun(
  s: Stack,
  scraperId: string,
  parameters: Record<string, unknown> | undefined,
): Promise<{ ms: number; tokens: number; records: number }> {
  s.model.reset();
  const t0 = performance.now();
  const sent = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, ...(parameters ? { parameters } : {}) });
  const body = await until(s, `/v1/scrapers/run_async/${sent.body.run_id}`, (b) => ['completed', 'completed_partial', 'failed'].includes(b.status));
  const ms = performance.now() - t0;
  if (body.status !== 'completed') throw new Error(`replay failed: ${JSON.stringify(body.errors)}`);
  const chat = s.model.chatRequests().length;
  if (chat) throw new Error(`the replay made ${chat} model calls`);
  return { ms, tokens: 0, records: (Object.values(body.data)[0] as unknown[]).length };
}

export async function run(): Promise<void> {
  const s = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' } } });
  try {
    addAgentPages(s.site);
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(2))
        .join(', ');
    console.log(`load average at the start: ${load()}`);
    console.log(`rounds: ${ROUNDS} (medians; ${SLOW_ROUNDS} with the slow model); model: scripted (instant), and +${MODEL_SECONDS} s per model call`);
    console.log(
      `task | driver | agent ms (instant model) | agent ms (model at ${MODEL_SECONDS} s/call) | agent tokens | agent model calls | replay ms | replay tokens | ratio (instant) | ratio (${MODEL_SECONDS} s/call)`,
    );
    for (const task of TASKS) {
      scriptModel(s, task);
      const gen = await s.api('POST', '/v1/agent/generate', { url: `${s.site.url}${task.path}`, prompt: task.prompt, attributes: ATTRIBUTES });
      const built = await until(s, `/v1/agent/${gen.body.template_id}`, (b) => b.status === 'ready' || b.status === 'failed');
      if (built.status !== 'ready') throw new Error(`build failed: ${built.error}`);
      const params = task.parameters.length ? {} : undefined;
      await agentRun(s, task, 0); // warm-up: browser launch, JIT
      await replayRun(s, built.template_id, params);
      const agent: number[] = [];
      const slow: number[] = [];
      const replay: number[] = [];
      let tokens = 0;
      let calls = 0;
      for (let r = 0; r < ROUNDS; r++) {
        s.model.reset();
        const a = await agentRun(s, task, 0);
        calls = s.model.chatRequests().length;
        agent.push(a.ms);
        tokens = a.tokens;
        const p = await replayRun(s, built.template_id, params);
        if (p.records !== a.records || a.records !== task.records)
          throw new Error(`records differ: agent ${a.records}, replay ${p.records}, expected ${task.records}`);
        replay.push(p.ms);
      }
      for (let r = 0; r < SLOW_ROUNDS; r++) slow.push((await agentRun(s, task, MODEL_SECONDS * 1000)).ms);
      const [am, sm, rm] = [median(agent), median(slow), median(replay)];
      const { rows } = await s.engine.db.query<{ driver: string }>(
        'SELECT driver FROM run_items i JOIN runs r ON r.id = i.run_id WHERE r.scraper_id = $1 LIMIT 1',
        [built.template_id],
      );
      console.log(
        `${task.name} | ${rows[0]?.driver} | ${am.toFixed(0)} | ${sm.toFixed(0)} | ${tokens} | ${calls} | ${rm.toFixed(0)} | 0 | ${(am / rm).toFixed(1)}x | ${(sm / rm).toFixed(1)}x`,
      );
    }
    console.log(`load average at the end: ${load()}`);
  } finally {
    await s.close();
  }
}
