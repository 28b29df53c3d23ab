// The cost of provenance and the grounding check per page, on the corpus listings (50 cards of four
// fields each, and the 2 MB catalog of 440): a whole extraction through POST /v1/parse with
// provenance: true (the scripted model answers at once, so the extraction is as cheap as it gets and
// the share is an upper bound), and the grounding and provenance work alone on the same page and
// records (TrustLog.modelPage + withProvenance). The extraction without them is the difference.
import { TrustLog, coerceRecord, normalizeAttributes, reducePage, withProvenance } from '@gleaner/core/internal';
import { startStack } from '../support/stack.ts';
import { corpusModel, trustCorpus } from '../support/trust-corpus.ts';

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];

export async function run(): Promise<void> {
  const corpus = trustCorpus().filter((p) => p.page.kind === 'listing' || p.page.kind === 'big');
  const s = await startStack({ worker: false });
  try {
    s.model.script(corpusModel(corpus, { invent: false }));
    let totalParse = 0;
    let totalTrust = 0;
    for (const tp of corpus) {
      const reps = tp.page.kind === 'big' ? 5 : 9;
      const body = { content: tp.page.html, url: tp.url, attributes: tp.attributes, provenance: true, grounding: 'flag' };
      const walls: number[] = [];
      for (let i = 0; i <= reps; i++) {
        const t0 = performance.now();
        const res = await s.api('POST', '/v1/parse', body);
        if (res.status !== 200) throw new Error(`${tp.page.name}: ${res.status} ${res.text.slice(0, 200)}`);
        if (i > 0) walls.push(performance.now() - t0); // the first is a warm-up
      }
      // The same work alone: check every value of the page's records against its reduced text.
      const attributes = normalizeAttributes(tp.attributes);
      const reduced = reducePage(tp.page.html, { url: tp.url, mode: 'standard' });
      const trust: number[] = [];
      for (let i = 0; i <= reps; i++) {
        const records = tp.records.map((r) => coerceRecord(r, attributes, tp.url));
        const t0 = performance.now();
        const log = new TrustLog('flag');
        log.modelPage({ url: tp.url, html: tp.page.html }, reduced, records, attributes);
        withProvenance(records, log);
        log.warnings(records);
        if (i > 0) trust.push(performance.now() - t0);
      }
      const parse = median(walls);
      const g = median(trust);
      totalParse += parse;
      totalTrust += g;
      console.log(
        `${tp.page.name.padEnd(15)} ${String(tp.records.length).padStart(3)} records x ${attributes.length} fields: extraction ${parse.toFixed(1)} ms, ` +
          `provenance + grounding ${g.toFixed(2)} ms = ${((100 * g) / (parse - g)).toFixed(1)}% of the extraction without them`,
      );
    }
    console.log(`all listings: ${((100 * totalTrust) / (totalParse - totalTrust)).toFixed(1)}% (${totalTrust.toFixed(1)} ms of ${totalParse.toFixed(1)} ms)`);
  } finally {
    await s.close();
  }
}
