// Agent figures per fixture task and driver: steps taken, model input tokens, wall time, the model's
// own time, and the agent's overhead per step (wall time minus model time, divided by steps) — for
// the plain-HTTP interaction path (driver-http on linkedom, plain-HTML tasks only), Playwright and
// Selenium. The scripted model answers at once, so the overhead is what the agent itself costs:
// observing (outline + snapshot + reduction), acting, settling, and the queue-free loop. On the
// browsers each task runs both ways an action's effect can be waited for, rounds interleaved so
// that both see the same load: `reads` (the earlier network idle and repeated reads) and `quiet`
// (the page's own quiet wait, one round trip per observation, no re-read of an unchanged page, a
// navigation's document read once, the page closed while the result is recorded).
import os from 'node:os';
import { runAgent, type AgentRunResult, type SettleMode } from '@gleaner/core/internal';
import { startStack, type Stack } from '../support/stack.ts';
import { addAgentPages } from '../support/agent-site.ts';
import { agentScript } from '../support/agent-script.ts';
import { SCENARIOS } from '../support/agent-scenarios.ts';

const ROUNDS = Number(process.env.AGENT_BENCH_ROUNDS ?? 3);
/** AGENT_BENCH_DRIVERS=playwright,selenium and AGENT_BENCH_SETTLE=quiet narrow the run (e.g. to compare two checkouts in turns). */
const DRIVERS = process.env.AGENT_BENCH_DRIVERS?.split(',');
const SETTLE = process.env.AGENT_BENCH_SETTLE as SettleMode | undefined;
const ATTRIBUTES = [
  { name: 'name', description: 'product name', type: 'string' as const },
  { name: 'price', description: '', type: 'number' as const },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function once(s: Stack, sc: (typeof SCENARIOS)[number], settle?: SettleMode): Promise<{ r: AgentRunResult; ms: number }> {
  s.model.reset();
  s.model.script(agentScript(sc.plan).script);
  const started = performance.now();
  // As the agent task does, the browser page closes while the result is recorded (`quiet`); `reads` waits, as before.
  let closing: Promise<void> | undefined;
  const deferClose = settle === 'reads' ? undefined : (p: Promise<void>) => (closing = p);
  const r = await runAgent(s.engine.context, { url: `${s.site.url}${sc.path}`, goal: { prompt: sc.prompt, attributes: ATTRIBUTES }, settle, deferClose });
  const ms = performance.now() - started;
  await closing;
  if (r.records.length !== sc.expect.length) throw new Error(`${sc.path} (${settle ?? 'default'}): ${r.records.length} records, expected ${sc.expect.length}`);
  return { r, ms };
}

const perStep = (x: { r: AgentRunResult; ms: number }) => (x.ms - x.r.modelMs) / Math.max(1, x.r.stepsUsed);

export async function run(): Promise<void> {
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, ${os.cpus().length} CPUs, ${ROUNDS} rounds per task (median shown; round 0 warms up)`,
  );
  const paths: Array<{ label: string; config: Record<string, unknown>; plainOnly: boolean; modes: Array<SettleMode | undefined> }> = [
    { label: 'http (linkedom)', config: { browser: { escalation: 'never' } }, plainOnly: true, modes: [undefined] },
    { label: 'playwright', config: { browser: { driver: 'playwright', escalation: 'always' } }, plainOnly: false, modes: ['reads', 'quiet'] },
    { label: 'selenium', config: { browser: { driver: 'selenium', escalation: 'always' } }, plainOnly: false, modes: ['reads', 'quiet'] },
  ];
  console.log('driver            | settle | task         | steps | input tokens | wall ms | model ms | overhead ms/step | records');
  const summary: string[] = [];
  for (const p of paths.filter((x) => !DRIVERS || DRIVERS.some((d) => x.label.startsWith(d)))) {
    if (SETTLE && p.modes.includes(SETTLE)) p.modes = [SETTLE];
    const s = await startStack({ config: p.config as never });
    try {
      addAgentPages(s.site);
      if (p.plainOnly && !s.engine.context.drivers.some((d) => d.capabilities.interaction)) {
        console.log(`${p.label.padEnd(17)} | (skipped: this build's http driver has no interaction)`);
        continue;
      }
      const byMode = new Map(p.modes.map((m) => [m, [] as number[]]));
      for (const sc of SCENARIOS.filter((x) => !p.plainOnly || x.plainHtml)) {
        const runs = new Map(p.modes.map((m) => [m, [] as Array<{ r: AgentRunResult; ms: number }>]));
        for (let i = 0; i <= ROUNDS; i++) {
          for (const m of p.modes) {
            const res = await once(s, sc, m);
            if (i > 0) runs.get(m)!.push(res);
          }
        }
        for (const m of p.modes) {
          const rs = runs.get(m)!;
          const last = rs.at(-1)!.r;
          const step = median(rs.map(perStep));
          byMode.get(m)!.push(step);
          console.log(
            `${p.label.padEnd(17)} | ${(m ?? '-').padEnd(6)} | ${sc.path.padEnd(12)} | ${String(last.stepsUsed).padStart(5)} | ${String(last.usage.inputTokens).padStart(12)} | ${median(
              rs.map((x) => x.ms),
            )
              .toFixed(0)
              .padStart(7)} | ${median(rs.map((x) => x.r.modelMs))
              .toFixed(0)
              .padStart(8)} | ${step.toFixed(0).padStart(16)} | ${last.records.length} (${last.driver})`,
          );
        }
      }
      for (const m of p.modes) summary.push(`${p.label}${m ? ` (${m})` : ''}: median overhead over the tasks ${median(byMode.get(m)!).toFixed(0)} ms/step`);
    } finally {
      await s.close();
    }
  }
  console.log(summary.join('\n'));
  console.log(
    `load average at the end ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
