// Agent figures per fixture task and driver: steps taken, model input tokens, wall time, the model's
// own time, and the agent's overhead per step (wall time minus model time, divided by steps) — for
// the plain-HTTP interaction path (driver-http on linkedom, plain-HTML tasks only), Playwright and
// Selenium. The scripted model answers at once, so the overhead is what the agent itself costs:
// observing (outline + snapshot + reduction), acting, settling, and the queue-free loop.
import os from 'node:os';
import { runAgent, type AgentRunResult } from '@gleaner/core/internal';
import { startStack, type Stack } from '../support/stack.ts';
import { addAgentPages } from '../support/agent-site.ts';
import { agentScript } from '../support/agent-script.ts';
import { SCENARIOS } from '../support/agent-scenarios.ts';

const ROUNDS = Number(process.env.AGENT_BENCH_ROUNDS ?? 3);
const ATTRIBUTES = [
  { name: 'name', description: 'product name', type: 'string' as const },
  { name: 'price', description: '', type: 'number' as const },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function once(s: Stack, path: string, prompt: string, plan: (typeof SCENARIOS)[number]['plan']): Promise<{ r: AgentRunResult; ms: number }> {
  s.model.reset();
  s.model.script(agentScript(plan).script);
  const started = performance.now();
  const r = await runAgent(s.engine.context, { url: `${s.site.url}${path}`, goal: { prompt, attributes: ATTRIBUTES } });
  return { r, ms: performance.now() - started };
}

export async function run(): Promise<void> {
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, ${os.cpus().length} CPUs, ${ROUNDS} rounds per task (median shown; round 0 warms up)`,
  );
  const paths: Array<{ label: string; config: Record<string, unknown>; plainOnly: boolean }> = [
    { label: 'http (linkedom)', config: { browser: { escalation: 'never' } }, plainOnly: true },
    { label: 'playwright', config: { browser: { driver: 'playwright', escalation: 'always' } }, plainOnly: false },
    { label: 'selenium', config: { browser: { driver: 'selenium', escalation: 'always' } }, plainOnly: false },
  ];
  console.log('driver            | task         | steps | input tokens | wall ms | model ms | overhead ms/step | records');
  for (const p of paths) {
    const s = await startStack({ config: p.config as never });
    try {
      addAgentPages(s.site);
      if (p.plainOnly && !s.engine.context.drivers.some((d) => d.capabilities.interaction)) {
        console.log(`${p.label.padEnd(17)} | (skipped: this build's http driver has no interaction)`);
        continue;
      }
      for (const sc of SCENARIOS.filter((x) => !p.plainOnly || x.plainHtml)) {
        const runs: Array<{ r: AgentRunResult; ms: number }> = [];
        for (let i = 0; i <= ROUNDS; i++) {
          const res = await once(s, sc.path, sc.prompt, sc.plan);
          if (i > 0) runs.push(res);
        }
        const last = runs.at(-1)!.r;
        const wall = median(runs.map((x) => x.ms));
        const model = median(runs.map((x) => x.r.modelMs));
        const perStep = median(runs.map((x) => (x.ms - x.r.modelMs) / Math.max(1, x.r.stepsUsed)));
        console.log(
          `${p.label.padEnd(17)} | ${sc.path.padEnd(12)} | ${String(last.stepsUsed).padStart(5)} | ${String(last.usage.inputTokens).padStart(12)} | ${wall.toFixed(0).padStart(7)} | ${model.toFixed(0).padStart(8)} | ${perStep.toFixed(0).padStart(16)} | ${last.records.length} (${last.driver})`,
        );
      }
    } finally {
      await s.close();
    }
  }
}
