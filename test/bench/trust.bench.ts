// The cost of provenance and the grounding check per page, on the corpus listings (50 cards of four
// fields each, and the 2 MB catalog of 440): a whole extraction through POST /v1/parse with
// provenance: true (the scripted model answers at once, so the extraction is as cheap as it gets and
// the share is an upper bound), and the grounding and provenance work alone on the same page and
// records (TrustLog.modelPage + withProvenance). The extraction without them is the difference.
// Runs: a recipe for the listing cards executed on each page as a run item does, without and with
// provenance (the rule trace, TrustLog.recipePage and withProvenance).
import { TrustLog, coerceRecord, normalizeAttributes, reducePage, runRecipe, withProvenance } from '@gleaner/core/internal';
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
    runsProvenance(corpus);
  } finally {
    await s.close();
  }
}

// The corpus listing cards as a scraper's recipe reads them.
const CARD_RECIPE = {
  version: 1 as const,
  container: { selector: 'li.product-card' },
  fields: {
    name: { selector: 'h3 a', read: 'text' as const },
    price: { selector: 'p.price', read: 'text' as const, transforms: [{ op: 'number' as const }] },
    url: { selector: 'h3 a', read: 'attr' as const, attr: 'href' },
    image: { selector: 'img', read: 'attr' as const, attr: 'data-src' },
  },
};

/** A run item's recipe execution per listing page, without and with provenance (medians of 25, taken in turn). */
function runsProvenance(corpus: ReturnType<typeof trustCorpus>): void {
  let plainTotal = 0;
  let tracedTotal = 0;
  for (const tp of corpus) {
    const attributes = normalizeAttributes(tp.attributes);
    const opts = { url: tp.url, attributes };
    const plain: number[] = [];
    const traced: number[] = [];
    for (let i = 0; i <= 25; i++) {
      let t0 = performance.now();
      const records = runRecipe(CARD_RECIPE, tp.page.html, opts).records;
      if (i > 0) plain.push(performance.now() - t0);
      t0 = performance.now();
      const log = new TrustLog('keep');
      const rules: Array<[Record<string, unknown>, Record<string, number>]> = [];
      const run = runRecipe(CARD_RECIPE, tp.page.html, { ...opts, trace: (r, x) => rules.push([r, x]) });
      log.recipePage({ url: tp.url, html: tp.page.html }, CARD_RECIPE, rules, attributes);
      withProvenance(run.records, log);
      if (i > 0) traced.push(performance.now() - t0);
      if (run.records.length !== records.length || !records.length) throw new Error(`${tp.page.name}: the recipe read ${records.length} records`);
    }
    const a = median(plain);
    const b = median(traced);
    plainTotal += a;
    tracedTotal += b;
    console.log(`run ${tp.page.name.padEnd(15)} recipe ${a.toFixed(1)} ms, with provenance ${b.toFixed(1)} ms = +${((100 * (b - a)) / a).toFixed(1)}%`);
  }
  console.log(
    `runs, all listings: +${((100 * (tracedTotal - plainTotal)) / plainTotal).toFixed(1)}% (${plainTotal.toFixed(1)} -> ${tracedTotal.toFixed(1)} ms)`,
  );
}
