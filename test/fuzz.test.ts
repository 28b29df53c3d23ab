// Issue 16: a 1,000-request slice of the seeded fuzzer (`make chaos` runs 10,000). Every endpoint of
// both listeners; no 5xx, 422s in the documented shape, nothing stored by a rejected request, and
// the server healthy afterwards. GLEANER_FUZZ_SEED replays a run.
import { expect } from 'chai';
import { describeFinding, runFuzz } from './support/fuzz.ts';
import { startFuzzTarget } from './support/fuzz-stack.ts';
import { request } from './support/http.ts';
import type { Stack } from './support/stack.ts';

const SEED = Number(process.env.GLEANER_FUZZ_SEED ?? 16_016);

describe('fuzzer: every endpoint of both listeners, 1,000 requests', function () {
  this.timeout(600_000);
  let stack: Stack;
  let target: Awaited<ReturnType<typeof startFuzzTarget>>['target'];
  before(async () => {
    ({ stack, target } = await startFuzzTarget());
  });
  after(async () => {
    await stack?.close();
  });

  it(`finds no 5xx, no malformed error body and nothing stored by a rejected request (seed ${SEED})`, async () => {
    const report = await runFuzz(target, 1_000, SEED);
    const kinds = new Map<string, string>();
    for (const f of report.findings) if (!kinds.has(f.problem.slice(0, 40))) kinds.set(f.problem.slice(0, 40), describeFinding(f));
    const detail = [...kinds.values()].slice(0, 15).join('\n');
    expect(report.findings, `seed ${SEED}:\n${detail}`).to.have.length(0);
    expect(report.requests).to.equal(1_000);
    // Both listeners and most routes were reached, and most requests got past authentication.
    const routes = [
      ...target.routes.api.map((r) => `api ${r.method.toUpperCase()} ${r.path}`),
      ...target.routes.legacy.map((r) => `legacy ${r.method.toUpperCase()} ${r.path}`),
    ];
    const missed = routes.filter((r) => !report.routesHit.has(r));
    expect(missed.length, `routes never fuzzed: ${missed.join(', ')}`).to.be.lessThan(routes.length / 10);
    expect(report.byStatus[422] ?? 0).to.be.greaterThan(100);
    expect((report.byStatus[200] ?? 0) + (report.byStatus[202] ?? 0)).to.be.greaterThan(50);
  });

  it('leaves the server healthy: /readyz, a list and a real extraction still answer', async () => {
    expect((await request(stack.url, 'GET', '/readyz')).status).to.equal(200);
    expect((await request(stack.agentsUrl, 'GET', '/readyz')).status).to.equal(200);
    expect((await stack.api('GET', '/v1/scrapers')).status).to.equal(200);
    // The fuzzer may have set budgets through PUT /v1/settings (a 402 would then be right): clear them.
    const cleared = { grounding_policy: null, daily_credits: null, monthly_credits: null, daily_tokens: null, monthly_tokens: null };
    expect((await stack.api('PUT', '/v1/settings', cleared)).status).to.equal(200);
    const res = await stack.api('POST', '/v1/extract', { url: target.targets.pageUrl, attributes: [{ name: 'title' }] });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.deep.equal([{ title: 'Widget 1' }]);
  });
});
