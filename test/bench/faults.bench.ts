// What an imperfect model costs: the plain-HTML agent tasks (driver-http, no browser) with the
// scripted model well-behaved and with the fault mode spoiling 30% of the answers (seeds 1-8), on
// both wire protocols: model calls, tokens (input + output) and steps per task, and how many tasks
// still completed with the expected records.
import os from 'node:os';
import { runAgent } from '@gleaner/core/internal';
import { startStack } from '../support/stack.ts';
import { addAgentPages } from '../support/agent-site.ts';
import { agentScript } from '../support/agent-script.ts';
import { SCENARIOS } from '../support/agent-scenarios.ts';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
const RATE = 0.3;
const ATTRIBUTES = [
  { name: 'name', description: 'product name', type: 'string' as const },
  { name: 'price', description: '', type: 'number' as const },
];

export async function run(): Promise<void> {
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; ${SEEDS.length} seeds per task at ${RATE * 100}% spoiled answers`,
  );
  console.log('provider | task         | faults | tasks ok | model calls | tokens  | steps | faults played');
  for (const provider of ['openai', 'ollama'] as const) {
    const s = await startStack({ provider, config: { browser: { escalation: 'never' } } });
    try {
      addAgentPages(s.site);
      for (const sc of SCENARIOS.filter((x) => x.plainHtml)) {
        for (const rate of [0, RATE]) {
          let ok = 0;
          let calls = 0;
          let tokens = 0;
          let steps = 0;
          let played = 0;
          for (const seed of rate ? SEEDS : [0]) {
            s.model.reset();
            s.model.faults(rate ? { rate, seed } : null);
            s.model.script(agentScript(sc.plan).script);
            const r = await runAgent(s.engine.context, { url: `${s.site.url}${sc.path}`, goal: { prompt: sc.prompt, attributes: ATTRIBUTES } });
            if (r.records.length === sc.expect.length) ok++;
            calls += s.model.chatRequests().length;
            tokens += r.usage.inputTokens + r.usage.outputTokens;
            steps += r.stepsUsed;
            played += s.model.playedFaults.length;
          }
          const n = rate ? SEEDS.length : 1;
          console.log(
            `${provider.padEnd(8)} | ${sc.path.padEnd(12)} | ${rate ? '30%  ' : 'none '}  | ${`${ok}/${n}`.padStart(8)} | ${(calls / n).toFixed(1).padStart(11)} | ${(tokens / n).toFixed(0).padStart(7)} | ${(steps / n).toFixed(1).padStart(5)} | ${(played / n).toFixed(1)}`,
          );
        }
      }
    } finally {
      await s.close();
    }
  }
}
