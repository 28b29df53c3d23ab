// Robust with imperfect models: the scripted model server's fault mode spoils ~30% of the answers
// (malformed tool-call JSON, unknown tools, missing refs, repeats, JSON in prose or a fence,
// truncated output, a tool call as text) and the agent, extraction and recipe generation still
// complete the fixture tasks through the API, on the OpenAI and the Ollama wire protocols: each
// fault meets its repair (a repair round, the error shown to the model, a retry, the loop breaker).
import { expect } from 'chai';
import { MODEL_FAULT_KINDS, type ModelFaultKind } from '@gleaner/testing';
import { checkCall } from '@gleaner/core/internal';
import { startStack, type Stack } from './support/stack.ts';
import { addAgentPages, PRODUCTS } from './support/agent-site.ts';
import { agentScript } from './support/agent-script.ts';
import { SCENARIOS } from './support/agent-scenarios.ts';
import { build, expected, names, runAndWait, runTask } from './support/agentic-api.ts';
import { scriptBuildModel } from './support/agentic-model.ts';
import { call, refOf } from './support/agent-script.ts';

const RATE = 0.3;

describe('tool-call arguments a small model got slightly wrong', () => {
  it('are mended where that is certain, and refused (the error goes to the model) where a value was cut off', () => {
    expect(checkCall({ name: 'click', arguments: {}, rawArguments: "{'ref':'e5'," })).to.deep.equal({ ok: true, action: { name: 'click', ref: 'e5' } });
    expect(checkCall({ name: 'navigate', arguments: {}, rawArguments: '```json\n{"url": "https://a.example/x"}\n```' })).to.deep.equal({
      ok: true,
      action: { name: 'navigate', url: 'https://a.example/x' },
    });
    const cut = checkCall({ name: 'navigate', arguments: {}, rawArguments: '{"url": "https://a.exa' });
    expect(cut).to.deep.equal({ ok: false, error: 'The arguments of navigate are not a JSON object: {"url": "https://a.exa' });
  });
});
const SEEDS = [11, 23, 37];

for (const provider of ['openai', 'ollama'] as const) {
  describe(`agent with an imperfect model (${Math.round(RATE * 100)}% of the answers spoiled, ${provider})`, function () {
    this.timeout(240_000);
    let s: Stack;
    const played = new Set<ModelFaultKind>();
    before(async () => {
      s = await startStack({ provider, config: { browser: { escalation: 'never' } } });
      addAgentPages(s.site);
    });
    after(() => s?.close());

    for (const sc of SCENARIOS.filter((x) => x.plainHtml)) {
      it(`${sc.title}: completes with every seed`, async () => {
        for (const seed of SEEDS) {
          s.model.reset();
          s.model.faults({ rate: RATE, seed });
          const script = agentScript(sc.plan);
          s.model.script(script.script);
          const done = await runTask(s, { url: `${s.site.url}${sc.path}`, prompt: sc.prompt });
          for (const f of s.model.playedFaults) played.add(f.kind);
          expect(done.status, `seed ${seed}: ${JSON.stringify(done)}`).to.equal('completed');
          expect(names(done.data), `seed ${seed}`).to.deep.equal(expected(sc.expect));
          // The script's plan was followed to its end: every fault was repaired, none skipped a step.
          expect(script.decisions, `seed ${seed}`).to.equal(sc.plan.length);
        }
      });
    }

    it('builds an agentic scraper (parameters, agent, recipes) and replays it without the model', async () => {
      for (const seed of SEEDS) {
        s.model.reset();
        s.model.faults({ rate: RATE, seed });
        const plan = [() => [call.extract()], (o: string) => [call.click(refOf(o, /link "Next page"/))], () => [call.extract()], () => [call.finish()]];
        scriptBuildModel(s, plan, []);
        const ready = await build(s, { url: `${s.site.url}/list?page=1`, prompt: 'Return the products of the first two pages.' });
        for (const f of s.model.playedFaults) played.add(f.kind);
        expect(ready.status, `seed ${seed}: ${ready.error}`).to.equal('ready');
        expect(names(ready.sample_data)).to.deep.equal(expected(PRODUCTS.slice(0, 6)));
        s.model.reset();
        s.model.faults(null);
        const run = await runAndWait(s, { template_id: ready.template_id, url: `${s.site.url}/list?page=2`, parameters: {} });
        expect(run.status).to.equal('completed');
        expect(s.model.chatRequests()).to.have.length(0);
      }
    });

    it('extracts through POST /v1/extract with spoiled answers (parsed through prose and fences, a repair round otherwise)', async () => {
      for (const seed of SEEDS) {
        s.model.reset();
        s.model.faults({ rate: 0.5, seed });
        s.model.script(() => ({ json: { records: [{ name: 'Red Kettle', price: 24.5 }] } }));
        const res = await s.api('POST', '/v1/extract', {
          url: `${s.site.url}/list?page=1`,
          attributes: [
            { name: 'name', type: 'string' },
            { name: 'price', type: 'number' },
          ],
        });
        for (const f of s.model.playedFaults) played.add(f.kind);
        expect(res.status, `seed ${seed}: ${res.text}`).to.equal(200);
        expect(res.body.data).to.deep.equal([{ name: 'Red Kettle', price: 24.5 }]);
      }
    });

    it('a model that repeats its extract after every page is told once per page, not stopped as a loop', async () => {
      s.model.reset();
      s.model.faults({ rate: 1, seed: 5, kinds: ['repeat'] });
      const sc = SCENARIOS.find((x) => x.path === '/list?page=1')!;
      const script = agentScript(sc.plan);
      s.model.script(script.script);
      const done = await runTask(s, { url: `${s.site.url}${sc.path}`, prompt: sc.prompt });
      for (const f of s.model.playedFaults) played.add(f.kind);
      expect(s.model.playedFaults.map((f) => f.kind)).to.deep.equal(['repeat', 'repeat', 'repeat']);
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(names(done.data)).to.deep.equal(expected(sc.expect));
      const { rows } = await s.engine.db.query<{ steps: any[] }>('SELECT steps FROM tasks WHERE id = $1', [done.task_id]);
      expect(rows[0].steps.filter((st) => st.effect === 'already extracted')).to.have.length(3);
    });

    it('played every kind of fault across these tasks', () => {
      expect([...played].sort()).to.deep.equal([...MODEL_FAULT_KINDS].sort());
    });
  });
}
