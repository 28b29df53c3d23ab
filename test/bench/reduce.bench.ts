// Page reduction and markdown figures on the fixture corpus (test/support/corpus.ts): model input
// tokens vs raw HTML tokens (o200k), the share of target facts that survive reduction, reduction
// throughput, and markdown throughput next to turndown's (scripts/styles removed) measured in this run.
import TurndownService from 'turndown';
import { htmlToMarkdown as mdreamRaw } from 'mdream';
import { countTokens, htmlToMarkdown, reducePage, siteRelativeUrl } from '@gleaner/core/internal';
import { buildCorpus, type CorpusPage } from '../support/corpus.ts';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Median over `reps` runs (after one warm-up) of wall time and of process CPU time, in ms. */
function measure(reps: number, f: () => void): { wall: number; cpu: number } {
  f();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < reps; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    f();
    walls.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
  }
  const mid = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1];
  return { wall: mid(walls), cpu: mid(cpus) };
}

function rate(mb: number, t: { wall: number; cpu: number }): string {
  return `${(mb / (t.wall / 1000)).toFixed(1)} MB/s (${(mb / (t.cpu / 1000)).toFixed(1)} MB per CPU-second)`;
}

export async function run(): Promise<void> {
  const corpus: CorpusPage[] = buildCorpus();
  const mb = corpus.reduce((a, p) => a + Buffer.byteLength(p.html), 0) / 1e6;
  const biggest = corpus.reduce((a, p) => (p.html.length > a.html.length ? p : a));
  console.log(
    `corpus: ${corpus.length} pages, ${mb.toFixed(2)} MB (largest ${(Buffer.byteLength(biggest.html) / 1e6).toFixed(2)} MB), ` +
      `${corpus.reduce((a, p) => a + p.facts.length, 0)} target facts`,
  );

  // Tokens and facts, per kind and in all.
  const kinds = new Map<string, { raw: number; reduced: number; md: number; facts: number; kept: number; pages: number }>();
  const missing: string[] = [];
  let precisionTokens = 0;
  let precisionKept = 0;
  for (const p of corpus) {
    const r = reducePage(p.html, { url: p.url, mode: 'standard' });
    const k = kinds.get(p.kind) ?? { raw: 0, reduced: 0, md: 0, facts: 0, kept: 0, pages: 0 };
    k.pages++;
    k.raw += countTokens(p.html);
    k.reduced += countTokens(r.text);
    k.md += countTokens(htmlToMarkdown(p.html, { url: p.url }));
    k.facts += p.facts.length;
    const pr = reducePage(p.html, { url: p.url, mode: 'precision' }).text;
    precisionTokens += countTokens(pr);
    precisionKept += p.facts.filter((f) => pr.includes(f)).length;
    for (const f of p.facts) {
      if (r.text.includes(siteRelativeUrl(f, p.url)))
        k.kept++; // a URL on the page's site is written from its root
      else if (missing.length < 5) missing.push(`${p.name}: ${f}`);
    }
    kinds.set(p.kind, k);
  }
  const all = { raw: 0, reduced: 0, md: 0, facts: 0, kept: 0 };
  console.log('kind      pages   raw HTML tok  reduced tok  reduction  markdown tok  facts kept');
  for (const [kind, k] of kinds) {
    for (const key of ['raw', 'reduced', 'md', 'facts', 'kept'] as const) all[key] += k[key];
    console.log(
      `${kind.padEnd(9)} ${String(k.pages).padStart(5)} ${String(k.raw).padStart(14)} ${String(k.reduced).padStart(12)} ` +
        `${pct(1 - k.reduced / k.raw).padStart(10)} ${String(k.md).padStart(13)} ${`${k.kept}/${k.facts}`.padStart(11)}`,
    );
  }
  const reduction = 1 - all.reduced / all.raw;
  const kept = all.kept / all.facts;
  console.log(
    `model input tokens: ${all.raw} raw HTML -> ${all.reduced} reduced (${pct(reduction)} fewer; markdown endpoint: ${pct(1 - all.md / all.raw)} fewer)`,
  );
  console.log(`target facts kept: ${all.kept}/${all.facts} = ${pct(kept)}${missing.length ? `; missing e.g. ${missing.join(' | ')}` : ''}`);
  console.log(
    `precision mode: ${precisionTokens} tokens (${pct(1 - precisionTokens / all.raw)} fewer than raw HTML), facts kept ${pct(precisionKept / all.facts)}`,
  );
  console.log(`goal >= 95% fewer tokens with >= 98% facts: ${reduction >= 0.95 && kept >= 0.98 ? 'met' : 'NOT met'}`);

  // Throughput.
  const reduceStd = measure(5, () => {
    for (const p of corpus) reducePage(p.html, { url: p.url, mode: 'standard' });
  });
  const reducePrec = measure(5, () => {
    for (const p of corpus) reducePage(p.html, { url: p.url, mode: 'precision' });
  });
  const big = measure(5, () => reducePage(biggest.html, { url: biggest.url, mode: 'standard' }));
  console.log(
    `reduction throughput: standard ${rate(mb, reduceStd)}; precision ${rate(mb, reducePrec)}; ` +
      `${(Buffer.byteLength(biggest.html) / 1e6).toFixed(1)} MB page in ${big.wall.toFixed(0)} ms`,
  );

  const ours = measure(9, () => {
    for (const p of corpus) htmlToMarkdown(p.html, { url: p.url });
  });
  const plain = measure(9, () => {
    for (const p of corpus) mdreamRaw(p.html, { origin: p.url });
  });
  const td = new TurndownService();
  td.remove(['script', 'style']);
  const turndown = measure(5, () => {
    for (const p of corpus) td.turndown(p.html);
  });
  const ratio = turndown.wall / ours.wall;
  console.log(`markdown throughput: htmlToMarkdown ${rate(mb, ours)}; turndown 7.2.5 (script/style removed) ${rate(mb, turndown)}`);
  console.log(
    `  ratio ${ratio.toFixed(1)}x turndown (per CPU-second ${(turndown.cpu / ours.cpu).toFixed(1)}x); ` +
      `for reference plain mdream on the raw page, no main-first or cleaning: ${rate(mb, plain)} = ${(turndown.wall / plain.wall).toFixed(1)}x`,
  );
  console.log(`goal markdown >= 25x turndown: ${ratio >= 25 ? 'met' : `NOT met (${ratio.toFixed(1)}x, ${pct(1 - ratio / 25)} short)`}`);
}
