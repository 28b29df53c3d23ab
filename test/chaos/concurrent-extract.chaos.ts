// 200 synchronous extractions at once against the scripted model: none fails; p50/p95 printed.
import { expect } from 'chai';
import { startStack } from '../support/stack.ts';

describe('chaos: 200 concurrent synchronous extractions', function () {
  this.timeout(600_000);

  it('answers every one with its records', async () => {
    const s = await startStack({ worker: false, config: { database: { poolMax: 20 }, llm: { concurrency: 50 } } });
    try {
      s.site.page('/c', '<!doctype html><html><body><h1>Widgets</h1><div class="card"><h2>Widget 1</h2><b>1.10 EUR</b></div></body></html>');
      s.model.script(() => ({ json: { records: [{ name: 'Widget 1', price: '1.10 EUR' }] } }));
      const times: number[] = [];
      const started = Date.now();
      const results = await Promise.all(
        Array.from({ length: 200 }, async () => {
          const t0 = performance.now();
          const res = await s.api('POST', '/v1/extract', {
            url: `${s.site.url}/c`,
            attributes: [
              { name: 'name', type: 'string' },
              { name: 'price', type: 'number' },
            ],
          });
          times.push(performance.now() - t0);
          return res;
        }),
      );
      const wall = Date.now() - started;
      times.sort((a, b) => a - b);
      const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
      const errors = results.filter((r) => r.status !== 200);
      console.log(
        `      200 concurrent /v1/extract: ${errors.length} errors, p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms, wall ${wall} ms`,
      );
      expect(errors.map((r) => `${r.status} ${r.text.slice(0, 200)}`)).to.deep.equal([]);
      for (const r of results) expect(r.body.data).to.deep.equal([{ name: 'Widget 1', price: 1.1 }]);
    } finally {
      await s.close();
    }
  });
});
