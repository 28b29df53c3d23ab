// The fuzzer at full length: 10,000 requests over every endpoint of both listeners (the test suite
// runs a 1,000-request slice in test/fuzz.test.ts).
import { expect } from 'chai';
import { describeFinding, runFuzz } from '../support/fuzz.ts';
import { startFuzzTarget } from '../support/fuzz-stack.ts';
import { request } from '../support/http.ts';

const SEED = Number(process.env.GLEANER_FUZZ_SEED ?? 20_261_124);

describe('chaos: fuzzer, 10,000 requests', function () {
  this.timeout(1_800_000);

  it(`finds no 5xx, no malformed error body, nothing stored by a rejected request; the server stays healthy (seed ${SEED})`, async () => {
    const { stack, target } = await startFuzzTarget();
    try {
      const report = await runFuzz(target, 10_000, SEED);
      console.log(
        `      fuzz: ${report.requests} requests in ${(report.ms / 1000).toFixed(1)} s, ${report.routesHit.size} routes, statuses ${JSON.stringify(report.byStatus)}, findings ${report.findings.length}`,
      );
      expect(report.findings, report.findings.slice(0, 20).map(describeFinding).join('\n')).to.have.length(0);
      expect((await request(stack.url, 'GET', '/readyz')).status).to.equal(200);
      const res = await stack.api('POST', '/v1/extract', { url: target.targets.pageUrl, attributes: [{ name: 'title' }] });
      expect(res.status, res.text).to.equal(200);
    } finally {
      await stack.close();
    }
  });
});
