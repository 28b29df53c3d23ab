// 500 browser pages through the engine (escalation "always", the Playwright pool, a small
// retireAfterPages so browsers are recycled): afterwards the Chromium processes and their memory
// are back to the baseline measured before the first page.
import { expect } from 'chai';
import { startStack, waitFor } from '../support/stack.ts';
import { descendants, isBrowser, memoryMb } from '../support/procs.ts';

const PAGES = Number(process.env.GLEANER_CHAOS_PAGES ?? 500);

const browserState = () => {
  const procs = descendants().filter(isBrowser);
  return { procs: procs.length, mb: procs.reduce((a, p) => a + memoryMb(p.pid), 0) };
};

describe(`chaos: ${PAGES} browser pages`, function () {
  this.timeout(1_800_000);

  it('leaves no Chromium process or memory behind', async () => {
    const baseline = browserState();
    // fetch.timeoutMs generous: on a loaded 2-core machine a page can take over the stack's 5 s.
    const s = await startStack({
      worker: false,
      config: { browser: { escalation: 'always', maxPages: 4, retireAfterPages: 100 }, fetch: { timeoutMs: 60_000 } },
    });
    let peak = baseline;
    try {
      s.model.script(() => ({ json: { records: [{ n: 1 }] } }));
      for (let i = 0; i < 10; i++) {
        s.site.page(
          `/b/${i}`,
          `<!doctype html><html><body><h1>Page ${i}</h1><p id="js"></p><script>document.getElementById('js').textContent = 'rendered ${i}';</script></body></html>`,
        );
      }
      const started = Date.now();
      let next = 0;
      let failed = 0;
      const reasons = new Map<string, number>();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = next++; i < PAGES; i = next++) {
            const res = await s.api('POST', '/v1/extractor/extract_markdown', { url: `${s.site.url}/b/${i % 10}` });
            if (res.status !== 200 || !String(res.body.data).includes(`rendered ${i % 10}`)) {
              failed++;
              const reason = `${res.status} ${res.status === 200 ? 'not rendered' : String(res.body?.code ?? res.text.slice(0, 80))}`;
              reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
            }
            if (i % 50 === 0) {
              const now = browserState();
              if (now.mb > peak.mb) peak = now;
              if (i % 100 === 0 || i < 3)
                console.log(`      page ${i} after ${((Date.now() - started) / 1000).toFixed(0)} s: ${now.procs} Chromium processes, ${now.mb.toFixed(0)} MB`);
            }
          }
        }),
      );
      const seconds = (Date.now() - started) / 1000;
      await s.close();
      await waitFor(() => (browserState().procs === baseline.procs ? true : undefined), 30_000, 'the Chromium processes to exit');
      const after = browserState();
      console.log(
        `      ${PAGES} browser pages in ${seconds.toFixed(0)} s (${(PAGES / seconds).toFixed(1)} pages/s), ${failed} failed ${JSON.stringify(Object.fromEntries(reasons))}; Chromium processes baseline ${baseline.procs} (${baseline.mb.toFixed(0)} MB), peak sample ${peak.procs} (${peak.mb.toFixed(0)} MB), after ${after.procs} (${after.mb.toFixed(0)} MB)`,
      );
      expect(failed).to.equal(0);
      expect(after.procs).to.equal(baseline.procs);
      expect(after.mb).to.be.at.most(baseline.mb + 1);
    } catch (err) {
      await s.close().catch(() => undefined);
      throw err;
    }
  });
});
