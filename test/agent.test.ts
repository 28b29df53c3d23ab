// The one-shot browsing agent through the HTTP API: interactive fixture pages (search form, load
// more, tabs, accordion, pagination by clicking, a cookie banner), the scripted model playing the
// agent through both SDKs (OpenAI tools, Ollama tools, and the JSON-in-prompt fallback), both
// browser drivers; stop, budgets, loops, blocked navigation, failures and callbacks.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startInteractiveHttpStack, startStack, waitFor, type Stack, type StackOptions } from './support/stack.ts';
import { addAgentPages, PRODUCTS } from './support/agent-site.ts';
import { agentScript, call, refOf, type PlanStep } from './support/agent-script.ts';
import { SCENARIOS } from './support/agent-scenarios.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';
import { request } from './support/http.ts';
import { testSchemas } from './support/db.ts';
import { rejection } from '@gleaner/testing';
import { ATTRIBUTES, runTask } from './support/agentic-api.ts';
import { createEngine, silentLogger } from '@gleaner/core/internal';
import { createOpenAiProvider } from '@gleaner/llm-openai';

const names = (data: Array<{ name: string }>) => data.map((r) => r.name).sort();
const expected = (...ps: typeof PRODUCTS) => ps.map((p) => p.name).sort();
const TERMINAL = ['completed', 'failed', 'stopped'];

function scenarioSuite(label: string, opts: StackOptions, only?: string[]): void {
  describe(`agent scenarios: ${label}`, function () {
    this.timeout(180_000);
    let s: Stack;
    before(async () => {
      s = await startStack(opts);
      addAgentPages(s.site);
    });
    after(() => s?.close());
    for (const sc of SCENARIOS.filter((x) => !only || only.includes(x.path))) {
      it(sc.title, async () => {
        s.model.reset();
        const script = agentScript(sc.plan);
        s.model.script(script.script);
        const done = await runTask(s, { url: `${s.site.url}${sc.path}`, prompt: sc.prompt });
        expect(done.status, JSON.stringify(done)).to.equal('completed');
        expect(names(done.data)).to.deep.equal(expected(...sc.expect));
        // The status carries the steps summary: every planned action, in order, each on its target.
        expect(done.steps.map((st: any) => st.action)).to.include('extract');
        expect(done.steps.every((st: any) => st.ok)).to.equal(true);
        expect(script.decisions).to.equal(sc.plan.length);
      });
    }
  });
}

scenarioSuite('playwright + openai tools', { provider: 'openai', config: { browser: { driver: 'playwright', escalation: 'always' } } });
scenarioSuite('selenium + ollama tools', { provider: 'ollama', config: { browser: { driver: 'selenium', escalation: 'always' } } }, [
  '/catalog',
  '/shop',
  '/banner',
]);

describe('agent on plain HTML without a browser (driver-http interaction), escalating when a page needs JavaScript', function () {
  this.timeout(180_000);
  let s: Stack;
  before(async function () {
    const stack = await startInteractiveHttpStack();
    if (!stack) this.skip(); // this build's http driver has no interaction
    s = stack!;
    addAgentPages(s.site);
  });
  after(() => s?.close());

  const driverOf = async (taskId: string) =>
    (await s.engine.db.query<{ driver: string; steps: any[] }>('SELECT driver, steps FROM tasks WHERE id = $1', [taskId])).rows[0];

  for (const sc of SCENARIOS.filter((x) => x.plainHtml)) {
    it(`${sc.title}, on the http driver only`, async () => {
      s.model.reset();
      const script = agentScript(sc.plan);
      s.model.script(script.script);
      const done = await runTask(s, { url: `${s.site.url}${sc.path}`, prompt: sc.prompt });
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(names(done.data)).to.deep.equal(expected(...sc.expect));
      const row = await driverOf(done.task_id);
      expect(row.driver).to.equal('http');
      expect(row.steps.every((st) => st.driver === 'http')).to.equal(true);
    });
  }

  it('moves to the browser when a click needs JavaScript, and clicks the same target there', async () => {
    s.model.reset();
    const sc = SCENARIOS.find((x) => x.path === '/catalog')!;
    s.model.script(agentScript(sc.plan).script);
    const done = await runTask(s, { url: `${s.site.url}${sc.path}`, prompt: sc.prompt });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data)).to.deep.equal(expected(...sc.expect));
    const row = await driverOf(done.task_id);
    expect(row.driver).to.equal('playwright');
    expect(row.steps[0]).to.include({ action: 'click', driver: 'playwright', ok: true });
    expect(row.steps[0].target.name).to.equal('Load more');
  });
});

describe('agent tasks: lifecycle, budgets and failures (playwright)', function () {
  this.timeout(180_000);
  let s: Stack;
  before(async () => {
    s = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' } } });
    addAgentPages(s.site);
  });
  after(() => s?.close());
  beforeEach(() => s.model.reset());

  it('records every action on a stable target (never a ref) and the values typed', async () => {
    const script = agentScript(SCENARIOS[0].plan);
    s.model.script(script.script);
    const done = await runTask(s, { url: `${s.site.url}/shop`, prompt: 'find kettles' });
    expect(done.status).to.equal('completed');
    const { rows } = await s.engine.db.query<{ steps: any[]; usage: any; credits_charged: string }>(
      'SELECT steps, usage, credits_charged FROM tasks WHERE id = $1',
      [done.task_id],
    );
    const typed = rows[0].steps[0];
    expect(typed).to.include({ action: 'type', value: 'kettle', pressEnter: true, ok: true });
    expect(typed.target.selector).to.equal('#q');
    expect(JSON.stringify(typed.target)).not.to.match(/e\d+"/);
    expect(typed.urlAfter).to.equal(`${s.site.url}/shop/search?q=kettle`);
    expect(rows[0].usage.inputTokens).to.be.greaterThan(0);
    expect(Number(rows[0].credits_charged)).to.be.greaterThan(0);
    // The model saw refs and the reduced page text, not raw HTML.
    expect(script.observations[0]).to.match(/\[e\d+\] searchbox/);
    expect(script.observations[0]).not.to.contain('<form');
  });

  it('answers a malformed tool call with its error, counts it as a step and carries on', async () => {
    const script = agentScript([
      () => [{ name: 'click', arguments: { nothing: true } }],
      () => [{ name: 'teleport', arguments: {} }],
      () => [call.extract()],
      () => [call.finish()],
    ]);
    s.model.script(script.script);
    const done = await runTask(s, { url: `${s.site.url}/list?page=2`, prompt: 'products' });
    expect(done.status).to.equal('completed');
    expect(names(done.data)).to.deep.equal(expected(...PRODUCTS.slice(3, 6)));
    expect(done.steps.slice(0, 2).map((st: any) => [st.action, st.ok])).to.deep.equal([
      ['invalid', false],
      ['invalid', false],
    ]);
    expect(done.steps[1].error).to.match(/no tool "teleport"/);
    // The error went back to the model as the tool's result.
    const second = s.model.chatRequests()[1].body.messages;
    expect(second.find((m: any) => m.role === 'tool').content).to.match(/click needs "ref"/);
  });

  it('stops a running task at once: the model call in flight is cancelled, the task stays stopped, no callback', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const script = agentScript([(o) => [call.click(refOf(o, /button "Load more"/))], () => [call.extract()]], { decisionDelayMs: 30_000 });
      s.model.script(script.script);
      const sent = await s.api('POST', '/v1/agent/extract', {
        url: `${s.site.url}/catalog`,
        prompt: 'all',
        attributes: ATTRIBUTES,
        callback_url: receiver.url,
      });
      await waitFor(() => s.model.inFlight > 0, 30_000, 'the first decision to be asked');
      const stopped = await s.api('POST', `/v1/agent/extract/${sent.body.task_id}/stop`);
      expect(stopped.status).to.equal(200);
      expect(stopped.body).to.deep.equal({ task_id: sent.body.task_id, status: 'stopped' });
      await waitFor(() => s.model.inFlight === 0, 5_000, 'the model call to be cancelled');
      const again = await s.api('POST', `/v1/agent/extract/${sent.body.task_id}/stop`);
      expect(again.body).to.deep.equal({ task_id: sent.body.task_id, status: 'not_running' });
      await new Promise((r) => setTimeout(r, 1500));
      const status = await s.api('GET', `/v1/agent/extract/${sent.body.task_id}`);
      expect(status.body.status).to.equal('stopped');
      expect(status.body).not.to.have.property('data');
      expect(script.decisions).to.equal(1);
      expect(receiver.received).to.have.length(0);
    } finally {
      await receiver.close();
    }
  });

  it('answers not_running for a finished task and leaves its status unchanged; cross-owner ids are 404', async () => {
    s.model.script(agentScript([() => [call.extract()]]).script);
    const done = await runTask(s, { url: `${s.site.url}/list`, prompt: 'products' });
    expect(done.status).to.equal('completed');
    const stop = await s.api('POST', `/v1/agent/extract/${done.task_id}/stop`);
    expect(stop.body).to.deep.equal({ task_id: done.task_id, status: 'not_running' });
    expect((await s.api('GET', `/v1/agent/extract/${done.task_id}`)).body.status).to.equal('completed');
    const bob = (await s.engine.createApiKey('bob')).key;
    for (const [method, path] of [
      ['GET', `/v1/agent/extract/${done.task_id}`],
      ['POST', `/v1/agent/extract/${done.task_id}/stop`],
    ]) {
      const r = await request(s.url, method, path, { headers: { 'X-API-KEY': bob } });
      expect(r.status, path).to.equal(404);
      expect(r.body.code).to.equal('NOT_FOUND');
    }
    // An extract_async task id is not an agent task.
    expect((await s.api('GET', '/v1/agent/extract/00000000-0000-0000-0000-000000000000')).status).to.equal(404);
  });

  it('fails with a message when the step budget runs out before any record', async () => {
    const script = agentScript(Array.from({ length: 10 }, () => () => [{ name: 'wait', arguments: { seconds: 0 } }]));
    s.model.script(script.script);
    const local = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' }, agent: { maxSteps: 3 } } });
    try {
      addAgentPages(local.site);
      local.model.script(script.script);
      const done = await runTask(local, { url: `${local.site.url}/catalog`, prompt: 'all' });
      expect(done.status).to.equal('failed');
      expect(done.error).to.match(/all 3 steps \(agent.maxSteps\)/);
      expect(done.steps).to.have.length(3);
      expect(script.decisions).to.equal(3);
    } finally {
      await local.close();
    }
  });

  it('keeps the records gathered so far, with a message, when the budget runs out after extracting', async () => {
    const local = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' }, agent: { maxSteps: 2 } } });
    try {
      addAgentPages(local.site);
      local.model.script(agentScript([() => [call.extract()], (o) => [call.click(refOf(o, /link "Next page"/))], () => [call.extract()]]).script);
      const done = await runTask(local, { url: `${local.site.url}/list?page=1`, prompt: 'all' });
      expect(done.status).to.equal('completed');
      expect(names(done.data)).to.deep.equal(expected(...PRODUCTS.slice(0, 3)));
      expect(done.message).to.match(/all 2 steps/);
    } finally {
      await local.close();
    }
  });

  it('ends on the token budget: every model call counts', async () => {
    const local = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' }, agent: { maxTokens: 5000 } } });
    try {
      addAgentPages(local.site);
      const heavy = (o: string) => ({ toolCalls: [call.click(refOf(o, /link "Next page"/))], usage: { inputTokens: 3000, outputTokens: 10 } });
      local.model.script(agentScript([heavy, heavy, heavy, heavy]).script);
      const done = await runTask(local, { url: `${local.site.url}/list?page=1`, prompt: 'all' });
      expect(done.status).to.equal('failed');
      expect(done.error).to.match(/6020 model tokens, its budget is 5000 \(agent.maxTokens\)/);
      expect(done.steps).to.have.length(2);
    } finally {
      await local.close();
    }
  });

  it('ends on the wall-time budget without waiting for the model call in flight', async () => {
    const local = await startStack({ provider: 'openai', config: { browser: { driver: 'playwright' }, agent: { timeoutMs: 3000 } } });
    try {
      addAgentPages(local.site);
      local.model.script(agentScript([() => [call.extract()]], { decisionDelayMs: 30_000 }).script);
      const started = Date.now();
      const done = await runTask(local, { url: `${local.site.url}/list?page=1`, prompt: 'all' });
      expect(done.status).to.equal('failed');
      expect(done.error).to.match(/ran out of wall time \(agent.timeoutMs, 3000 ms\)/);
      expect(Date.now() - started).to.be.below(20_000);
      await waitFor(() => local.model.inFlight === 0, 5000, 'the model call to be abandoned');
    } finally {
      await local.close();
    }
  });

  it('detects a loop (the same action on an unchanged page), warns the model once, then stops', async () => {
    const script = agentScript(Array.from({ length: 10 }, () => (o: string) => [call.click(refOf(o, /button "Try again"/))]));
    s.model.script(script.script);
    const done = await runTask(s, { url: `${s.site.url}/stuck`, prompt: 'find the products' });
    expect(done.status).to.equal('failed');
    expect(done.error).to.match(/kept repeating an action that changed nothing/);
    expect(script.decisions).to.equal(3);
    const warned = s.model
      .chatRequests()[2]
      .body.messages.filter((m: any) => m.role === 'tool')
      .at(-1).content;
    expect(warned).to.match(/You already did exactly this/);
  });

  it('refuses navigation to a blocked address; nothing reaches it and the agent carries on', async () => {
    const canary = await startCanary('127.0.0.2');
    const local = await startStack({ provider: 'openai', config: { network: { allowNetworks: ['127.0.0.1/32'] }, browser: { driver: 'playwright' } } });
    try {
      addAgentPages(local.site);
      local.model.script(agentScript([() => [call.navigate(`${canary.url}/secret`)], () => [call.extract()], () => [call.finish()]]).script);
      const done = await runTask(local, { url: `${local.site.url}/list`, prompt: 'products' });
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(done.steps[0]).to.include({ action: 'navigate', ok: false });
      expect(done.steps[0].error).to.match(/127\.0\.0\.2/);
      expect(canary.connections()).to.equal(0);
      expect(names(done.data)).to.deep.equal(expected(...PRODUCTS.slice(0, 3)));
    } finally {
      await local.close();
      await canary.close();
    }
  });

  it('fails naming the URL and status when the start page answers 404, and when the host is unreachable', async () => {
    s.model.script(agentScript([]).script);
    const gone = await runTask(s, { url: `${s.site.url}/gone`, prompt: 'x' });
    expect(gone.status).to.equal('failed');
    expect(gone.error).to.contain(`${s.site.url}/gone answered HTTP 404`);
    const closedPort = await freePort();
    const down = await runTask(s, { url: `http://127.0.0.1:${closedPort}/`, prompt: 'x' });
    expect(down.status).to.equal('failed');
    expect(down.error).to.match(/127\.0\.0\.1/);
    expect(s.model.chatRequests()).to.have.length(0);
  });

  it('posts the status body to callback_url, signed, once completed', async () => {
    const receiver = await startWebhookReceiver();
    try {
      s.model.script(agentScript([() => [call.extract()], () => [call.finish()]]).script);
      const sent = await s.api('POST', '/v1/agent/extract', {
        url: `${s.site.url}/list`,
        prompt: 'products',
        attributes: ATTRIBUTES,
        callback_url: receiver.url,
      });
      const hook = await waitFor(() => receiver.received[0], 60_000, 'the callback');
      const status = await s.api('GET', `/v1/agent/extract/${sent.body.task_id}`);
      expect(JSON.parse(hook.body)).to.deep.equal(status.body);
      expect(status.body.status).to.equal('completed');
      expect(hook.headers['webhook-signature']).to.match(/^v1,/);
    } finally {
      await receiver.close();
    }
  });

  it('validates the request: url and prompt required, attributes in the three shapes', async () => {
    const r = await s.api('POST', '/v1/agent/extract', { url: 'not a url' });
    expect(r.status).to.equal(422);
    const locs = r.body.detail.map((d: any) => d.loc.join('.'));
    expect(locs).to.include('body.prompt');
    const bad = await s.api('POST', '/v1/agent/extract', { url: 'ftp://x', prompt: 'p' });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail[0].loc).to.deep.equal(['body', 'url']);
    for (const attributes of [null, { name: 'the name' }, { name: { type: 'string' } }]) {
      s.model.script(agentScript([() => [call.extract()]], { extract: () => [{ name: 'x' }] }).script);
      const ok = await s.api('POST', '/v1/agent/extract', { url: `${s.site.url}/list`, prompt: 'p', attributes, source: 'n8n' });
      expect(ok.status, JSON.stringify(attributes)).to.equal(202);
      await waitFor(async () => TERMINAL.includes((await s.api('GET', `/v1/agent/extract/${ok.body.task_id}`)).body.status), 60_000, 'task end');
    }
  });
});

describe('agent tasks: the JSON-in-prompt fallback for models without tool calls (ollama)', function () {
  this.timeout(120_000);
  it('plays the agent through structured output when the model has no tools capability', async () => {
    // The scripted Ollama server reports the model's capabilities without "tools".
    const s = await startStack({
      provider: 'ollama',
      models: [{ name: 'test-model', contextLength: 32768, capabilities: ['completion'] }],
      config: { browser: { driver: 'playwright' } },
    });
    try {
      addAgentPages(s.site);
      const plan: PlanStep[] = [
        (o) => ({ json: { tool: 'click', arguments: { ref: refOf(o, /button "Load more"/) } } }),
        () => ({ text: 'not json at all' }),
        () => ({ json: { tool: 'extract' } }),
        () => ({ json: { tool: 'finish', arguments: {} } }),
      ];
      const script = agentScript(plan);
      s.model.script(script.script);
      const done = await runTask(s, { url: `${s.site.url}/catalog`, prompt: 'all' });
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(names(done.data)).to.deep.equal(expected(...PRODUCTS.slice(0, 6)));
    } finally {
      await s.close();
    }
  });
});

describe('agent tasks without a model or a browser', function () {
  this.timeout(60_000);
  it('answers MODEL_NOT_CONFIGURED at once when no model is configured (nothing is queued)', async () => {
    const schemas = testSchemas();
    const engine = createEngine({ config: schemas.config, logger: silentLogger(), drivers: [], llm: null });
    try {
      await engine.start();
      const owner = (await engine.createApiKey('carol')).owner;
      const err = await rejection(engine.agent.submit(owner, { url: 'https://example.com/', prompt: 'p' }));
      expect(err).to.include({ code: 'MODEL_NOT_CONFIGURED' });
      expect((await engine.db.query('SELECT count(*)::int AS n FROM tasks')).rows[0].n).to.equal(0);
    } finally {
      await engine.stop();
      await schemas.drop();
    }
  });
  it('answers DRIVER_UNAVAILABLE at once when no driver can interact with pages (nothing is queued)', async () => {
    const schemas = testSchemas();
    const llm = createOpenAiProvider({ model: 'test-model', apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1' });
    const engine = createEngine({ config: schemas.config, logger: silentLogger(), drivers: [], llm });
    try {
      await engine.start();
      const owner = (await engine.createApiKey('dave')).owner;
      const err = await rejection(engine.agent.submit(owner, { url: 'https://example.com/', prompt: 'p' }));
      expect(err).to.include({ code: 'DRIVER_UNAVAILABLE' });
      expect(err.message).to.match(/needs a driver that can interact/);
      expect((await engine.db.query('SELECT count(*)::int AS n FROM tasks')).rows[0].n).to.equal(0);
    } finally {
      await engine.stop();
      await schemas.drop();
    }
  });
});

/** A server on another loopback address that counts connections (a refused request must leave 0). */
async function startCanary(host: string): Promise<{ url: string; connections(): number; close(): Promise<void> }> {
  let n = 0;
  const server = http.createServer((_q, res) => res.end('secret'));
  server.on('connection', () => n++);
  await new Promise<void>((r) => server.listen(0, host, r));
  return { url: `http://${host}:${(server.address() as AddressInfo).port}`, connections: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}
