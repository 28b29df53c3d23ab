// List -> detail over 3 listing pages and 30 product pages ("for each product in this category, its
// SKU and weight"): the agent with the visit tool (one decision; the model reads 2 product pages, a
// recipe the other 28; one page of another layout falls back to the model) against a naive agent
// that opens each product page and extracts it with the model. Model calls, tokens and wall time,
// with the scripted model answering every call after MODEL_MS (a fast hosted model's latency), on
// the http driver (linkedom) and on Playwright.
import os from 'node:os';
import { runAgent } from '@gleaner/core/internal';
import { startStack } from '../support/stack.ts';
import { agentScript, call, refOf, type PlanStep } from '../support/agent-script.ts';
import { isRecipeRequest } from '../support/agentic-model.ts';
import { DETAIL_ATTRIBUTES, DETAIL_RECIPE, LISTING_PAGES, addShop, detailRecords, items } from '../support/visit-site.ts';
import type { ModelRequest as RecordedRequest, Step } from '@gleaner/testing';

const MODEL_MS = 300;
const PROMPT = 'For each product in this category, its SKU and weight.';

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export async function run(): Promise<void> {
  console.log(`load average ${load()}; every model answer after ${MODEL_MS} ms; 3 listing pages, 30 product pages (1 of another layout)`);
  console.log('driver     | agent | records | model calls | tokens  | wall ms | model ms');
  for (const [driver, config] of [
    ['http', { browser: { escalation: 'never' } }],
    ['playwright', { browser: { driver: 'playwright', escalation: 'always' } }],
  ] as const) {
    const s = await startStack({ config: { ...config, politeness: { concurrency: 4, delayMs: 0 } } });
    try {
      addShop(s.site);
      const start = `${s.site.url}/category/kettles?page=1`;
      const visitPlan: PlanStep[] = [(o) => [{ name: 'visit', arguments: { refs: [refOf(o, /link "Kettle 01"/)], follow_pagination: true } }]];
      // The naive agent: every listing page, and on each every product page opened and extracted by the model.
      const naivePlan: PlanStep[] = [];
      for (let p = 1; p <= LISTING_PAGES; p++) {
        if (p > 1) naivePlan.push(() => [call.navigate(`${s.site.url}/category/kettles?page=${p}`)]);
        for (const it of items('kettles').slice((p - 1) * 10, p * 10))
          naivePlan.push(
            () => [call.navigate(`/product/${it.slug}`)],
            () => [call.extract()],
          );
      }
      for (const [name, plan] of [
        ['visit', visitPlan],
        ['naive', naivePlan],
      ] as const) {
        s.model.reset();
        const agent = agentScript(plan, { extract: detailRecords });
        s.model.script(async (req: RecordedRequest, i): Promise<Step> => {
          const step = isRecipeRequest(req) ? { json: DETAIL_RECIPE } : await agent.script(req, i);
          return { ...step, delayMs: MODEL_MS } as Step;
        });
        const started = Date.now();
        const r = await runAgent(s.engine.context, {
          url: start,
          goal: { prompt: PROMPT, attributes: DETAIL_ATTRIBUTES },
          budgets: { maxSteps: 200, maxTokens: 10_000_000, wallTimeMs: 900_000 },
        });
        const wall = Date.now() - started;
        const complete = r.records.filter((x) => x.sku && x.weight).length;
        console.log(
          `${driver.padEnd(10)} | ${name} | ${`${complete}/30`.padStart(7)} | ${String(s.model.chatRequests().length).padStart(11)} | ${String(r.usage.inputTokens + r.usage.outputTokens).padStart(7)} | ${String(wall).padStart(7)} | ${String(r.modelMs).padStart(8)}`,
        );
      }
    } finally {
      await s.close();
    }
  }
  console.log(`load average after: ${load()}`);
}
