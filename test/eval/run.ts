// `make eval CORPORA=<dir>`: Gleaner's extraction measured on real pages with human-reviewed ground
// truth (docs/benchmarks.md), side by side with Readability and defuddle in the same run. Prints one
// report: markdown main content (word F1 by page type, snippets), what the model sees (tokens,
// snippets), product facts (standard and code mode), speed, and the issue's goals met or missed.
//
//   node test/eval/run.ts --corpora DIR [--limit N] [--types article,forum] [--ids 0001,0005]
//                         [--only wcxb|products] [--no-anchors] [--dump FILE.jsonl]
//                         [--workers N] [--speed-sample K] [--anchor-sample K] [--fill-anchors]
import { createHash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { countTokens, htmlToMarkdown, pageSkeleton, reducePage } from '@gleaner/core/internal';
import { anchorTexts, defuddle, readability, type AnchorTexts } from './anchors.ts';
import { loadProducts, loadWcxb, type ProductPage, type WcxbPage } from './corpora.ts';
import { htmlFacts, htmlToText } from './html-text.ts';
import { hasSnippet, markdownToText, modelInputText, normalize, valuePresent, wordF1, type F1 } from './metrics.ts';

const { values: args } = parseArgs({
  options: {
    corpora: { type: 'string' },
    limit: { type: 'string' },
    types: { type: 'string' },
    ids: { type: 'string' },
    only: { type: 'string' },
    'no-anchors': { type: 'boolean' },
    dump: { type: 'string' },
    workers: { type: 'string' },
    'speed-sample': { type: 'string' },
    'anchor-sample': { type: 'string' },
    'fill-anchors': { type: 'boolean' },
  },
});
if (!args.corpora) {
  console.error('usage: node test/eval/run.ts --corpora DIR   (or: make eval CORPORA=DIR)');
  process.exit(2);
}
const CORPORA = args.corpora;
const LIMIT = args.limit ? Number(args.limit) : undefined;
const ANCHORS = !args['no-anchors'];
/** Worker threads computing the anchors' outputs missing from the cache. */
const WORKERS = args.workers ? Number(args.workers) : Math.max(1, availableParallelism() - 1);
/** Every K-th page is the speed sample: the anchors run live on it, in this process, timed. */
const SPEED_SAMPLE = args['speed-sample'] ? Number(args['speed-sample']) : 8;
/** The anchors run on 1 page in K (every K-th page in id order: all seven types); 1 = every page. */
const ANCHOR_SAMPLE = args['anchor-sample'] ? Number(args['anchor-sample']) : 1;
/** The slowest pages of each conversion timed again alone at the end ("no page over 1 s"). */
const RETIME = 5;
const dump: string[] = [];

// Published figures (the corpus authors' WCXB dev-set word F1), labelled as such in the table.
const PUBLISHED: Record<string, { rs: number; traf: number }> = {
  all: { rs: 0.859, traf: 0.791 },
  article: { rs: 0.932, traf: 0.926 },
  documentation: { rs: 0.932, traf: 0.888 },
  service: { rs: 0.844, traf: 0.763 },
  forum: { rs: 0.808, traf: 0.585 },
  collection: { rs: 0.716, traf: 0.553 },
  listing: { rs: 0.707, traf: 0.589 },
  product: { rs: 0.641, traf: 0.567 },
};

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');
const ms = (x: number) => `${x.toFixed(0)} ms`;
const goals: string[] = [];
const goal = (ok: boolean, text: string) => goals.push(`${ok ? 'met   ' : 'MISSED'}  ${text}`);

/** Raw-HTML token counts are slow to compute and never change: cached under .bench/. */
const CACHE_FILE = new URL('../../.bench/eval-raw-tokens.json', import.meta.url);
const rawCache: Record<string, number> = existsSync(CACHE_FILE) ? JSON.parse(readFileSync(CACHE_FILE, 'utf8')) : {};
function rawTokens(html: string): number {
  const key = createHash('sha1').update(html).digest('hex');
  rawCache[key] ??= countTokens(html);
  return rawCache[key];
}

/** CPU time (ms) of the last timed() call: on a shared machine, wall time also counts other processes. */
let lastCpu = 0;
function timed<T>(f: () => T): [T, number] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = f();
  const t = performance.now() - t0;
  const c = process.cpuUsage(c0);
  lastCpu = (c.user + c.system) / 1000;
  return [r, t];
}
async function timedAsync<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, performance.now() - t0];
}

type SystemScore = F1 & { withIn: number; withN: number; withoutIn: number; withoutN: number; ms: number };
const SYSTEMS = ['gleaner main', 'gleaner page', 'readability', 'defuddle', 'visible text'] as const;
type System = (typeof SYSTEMS)[number];

function score(text: string, page: WcxbPage, t: number): SystemScore {
  const norm = normalize(text);
  return {
    ...wordF1(text, page.mainContent),
    withIn: page.with.filter((s) => hasSnippet(norm, s)).length,
    withN: page.with.length,
    withoutIn: page.without.filter((s) => hasSnippet(norm, s)).length,
    withoutN: page.without.length,
    ms: t,
  };
}

async function evalWcxb(): Promise<void> {
  const pages = loadWcxb(CORPORA, { limit: LIMIT, types: args.types?.split(','), ids: args.ids?.split(',') });
  const scores = new Map<System, { page: WcxbPage; s: SystemScore }[]>(SYSTEMS.map((s) => [s, []]));
  const model: { page: WcxbPage; tokens: number; raw: number; withIn: number; withCeil: number; withBoth: number; withoutIn: number; ms: number }[] = [];
  let bytes = 0;
  let anchors = new Map<string, AnchorTexts>();
  const anchored = new Set(pages.filter((_, i) => i % ANCHOR_SAMPLE === 0).map((p) => p.id));
  if (ANCHORS) {
    const t0 = performance.now();
    // With --fill-anchors, the pages of the 1-in-12 sample are computed first, then 1 in 6, then the rest.
    const rank = (i: number) => (i % 12 === 0 ? 0 : i % 6 === 0 ? 1 : 2);
    const order = args['fill-anchors']
      ? pages
          .map((p, i) => [p, rank(i)] as const)
          .sort((a, b) => a[1] - b[1])
          .map(([p]) => p)
      : pages.filter((p) => anchored.has(p.id));
    anchors = await anchorTexts(order, WORKERS, (done, todo) => {
      if (done % 25 === 0 || done === todo)
        process.stderr.write(`anchors: ${done}/${todo} pages computed (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
    });
    if (args['fill-anchors']) process.exit(0);
  }
  // The speed sample: Gleaner and the anchors timed on the same pages, one after the other.
  const sample = { bytes: 0, main: 0, readability: 0, defuddle: 0, n: 0, mainCpu: 0, readabilityCpu: 0 };
  const cpu = { main: { total: 0, worst: 0, id: '' }, reduce: { total: 0, worst: 0, id: '' } };
  /** CPU time per page (ms), to re-time the slowest pages alone at the end. */
  const perPage = { main: [] as { page: WcxbPage; ms: number }[], reduce: [] as { page: WcxbPage; ms: number }[] };
  let index = 0;
  for (const page of pages) {
    const inSample = ANCHORS && anchored.has(page.id) && index++ % SPEED_SAMPLE === 0;
    bytes += Buffer.byteLength(page.html);
    const [main, tMain] = timed(() => htmlToMarkdown(page.html, { url: page.url, onlyMainContent: true }));
    const mainCpu = lastCpu;
    cpu.main.total += lastCpu;
    perPage.main.push({ page, ms: lastCpu });
    if (lastCpu > cpu.main.worst) cpu.main = { ...cpu.main, worst: lastCpu, id: page.id };
    const [whole, tWhole] = timed(() => htmlToMarkdown(page.html, { url: page.url }));
    const visible = htmlToText(page.html);
    const row: Record<string, unknown> = { id: page.id, type: page.type };
    const add = (sys: System, text: string, t: number) => {
      const s = score(text, page, t);
      scores.get(sys)!.push({ page, s });
      row[sys] = { f1: +s.f1.toFixed(3), p: +s.precision.toFixed(3), r: +s.recall.toFixed(3), ms: +t.toFixed(1) };
    };
    add('gleaner main', markdownToText(main), tMain);
    add('gleaner page', markdownToText(whole), tWhole);
    add('visible text', visible, 0);
    if (ANCHORS && anchored.has(page.id)) {
      let { readability: rd, defuddle: df } = anchors.get(page.id)!;
      let tRd = NaN;
      let tDf = NaN;
      if (inSample) {
        [rd, tRd] = timed(() => readability(page.html, page.url));
        sample.readabilityCpu += lastCpu;
        sample.mainCpu += mainCpu;
        [df, tDf] = await timedAsync(() => defuddle(page.html, page.url));
        sample.n++;
        sample.bytes += Buffer.byteLength(page.html);
        sample.main += tMain;
        sample.readability += tRd;
        sample.defuddle += tDf;
      }
      add('readability', rd, tRd);
      add('defuddle', df, tDf);
    }
    // What the model sees in standard mode.
    const [reduced, tRed] = timed(() => reducePage(page.html, { url: page.url, mode: 'standard' }));
    cpu.reduce.total += lastCpu;
    perPage.reduce.push({ page, ms: lastCpu });
    if (lastCpu > cpu.reduce.worst) cpu.reduce = { ...cpu.reduce, worst: lastCpu, id: page.id };
    const inputNorm = normalize(modelInputText(reduced.text));
    const visNorm = normalize(visible);
    const ceil = page.with.filter((s) => hasSnippet(visNorm, s));
    const tokens = countTokens(reduced.text);
    if (args.dump)
      row.model = {
        tokens,
        raw: rawTokens(page.html),
        ms: +tRed.toFixed(1),
        missed: ceil.filter((s) => !hasSnippet(inputNorm, s)),
        leaked: page.without.filter((s) => hasSnippet(inputNorm, s)),
      };
    model.push({
      page,
      tokens,
      raw: rawTokens(page.html),
      withIn: page.with.filter((s) => hasSnippet(inputNorm, s)).length,
      withCeil: ceil.length,
      withBoth: ceil.filter((s) => hasSnippet(inputNorm, s)).length,
      withoutIn: page.without.filter((s) => hasSnippet(inputNorm, s)).length,
      ms: tRed,
    });
    if (args.dump) dump.push(JSON.stringify(row));
  }

  // Markdown main content.
  const types = [...new Set(pages.map((p) => p.type))].sort();
  const sampled = ANCHORS && ANCHOR_SAMPLE > 1;
  const shown = SYSTEMS.filter((s) => (ANCHORS && !sampled) || (s !== 'readability' && s !== 'defuddle'));
  console.log(`\n## Markdown main content — WCXB dev, ${pages.length} pages (word F1, mean over pages)\n`);
  console.log(`| page type | pages | ${shown.join(' | ')} | rs-trafilatura (published) | Trafilatura (published) |`);
  console.log(`|---|---|${shown.map(() => '---|').join('')}---|---|`);
  const f1Of = (sys: System, type?: string, onlyAnchored = false) =>
    mean(
      scores
        .get(sys)!
        .filter((x) => (!type || x.page.type === type) && (!onlyAnchored || anchored.has(x.page.id)))
        .map((x) => x.s.f1),
    );
  for (const type of [...types, undefined]) {
    const n = type ? pages.filter((p) => p.type === type).length : pages.length;
    const pub = PUBLISHED[type ?? 'all'];
    console.log(`| ${type ?? '**all**'} | ${n} | ${shown.map((s) => f3(f1Of(s, type))).join(' | ')} | ${f3(pub?.rs ?? NaN)} | ${f3(pub?.traf ?? NaN)} |`);
  }
  if (sampled) {
    const sys = ['gleaner main', 'readability', 'defuddle'] as const;
    console.log(`\nThe anchors on 1 page in ${ANCHOR_SAMPLE} (${anchored.size} pages, every type), Gleaner on the same pages:\n`);
    console.log(`| page type | pages | ${sys.join(' | ')} |`);
    console.log(`|---|---|---|---|---|`);
    for (const type of [...types, undefined]) {
      const n = pages.filter((p) => anchored.has(p.id) && (!type || p.type === type)).length;
      console.log(`| ${type ?? '**all**'} | ${n} | ${sys.map((s) => f3(f1Of(s, type, true))).join(' | ')} |`);
    }
  }
  console.log('');
  console.log(`| system | precision | recall | \`with\` present | \`without\` leaked |`);
  console.log(`|---|---|---|---|---|`);
  for (const s of SYSTEMS.filter((s) => ANCHORS || (s !== 'readability' && s !== 'defuddle'))) {
    const xs = scores.get(s)!.map((x) => x.s);
    const wi =
      xs.reduce((a, x) => a + x.withIn, 0) /
      Math.max(
        1,
        xs.reduce((a, x) => a + x.withN, 0),
      );
    const wo =
      xs.reduce((a, x) => a + x.withoutIn, 0) /
      Math.max(
        1,
        xs.reduce((a, x) => a + x.withoutN, 0),
      );
    console.log(`| ${s} | ${f3(mean(xs.map((x) => x.precision)))} | ${f3(mean(xs.map((x) => x.recall)))} | ${pct(wi)} | ${pct(wo)} |`);
  }
  const all = f1Of('gleaner main');
  goal(all >= 0.9, `markdown main content word F1 ≥ 0.90 overall: ${f3(all)}`);
  for (const t of ['product', 'collection', 'listing', 'forum'])
    if (types.includes(t)) goal(f1Of('gleaner main', t) >= 0.8, `markdown main content F1 ≥ 0.80 on ${t}: ${f3(f1Of('gleaner main', t))}`);
  if (ANCHORS) {
    const behind = types.filter((t) => f1Of('gleaner main', t, true) <= Math.max(f1Of('readability', t, true), f1Of('defuddle', t, true)));
    goal(
      behind.length === 0,
      `above Readability and defuddle on every page type${sampled ? ` (1 page in ${ANCHOR_SAMPLE})` : ''}${behind.length ? ` (behind on: ${behind.join(', ')})` : ''}`,
    );
  }

  // What the model sees.
  const red = mean(model.map((m) => 1 - m.tokens / Math.max(1, m.raw)));
  const withIn =
    model.reduce((a, m) => a + m.withIn, 0) /
    Math.max(
      1,
      pages.reduce((a, p) => a + p.with.length, 0),
    );
  const ceil =
    model.reduce((a, m) => a + m.withCeil, 0) /
    Math.max(
      1,
      pages.reduce((a, p) => a + p.with.length, 0),
    );
  const ofCeil =
    model.reduce((a, m) => a + m.withBoth, 0) /
    Math.max(
      1,
      model.reduce((a, m) => a + m.withCeil, 0),
    );
  const withoutN = pages.reduce((a, p) => a + p.without.length, 0);
  const withoutIn = model.reduce((a, m) => a + m.withoutIn, 0);
  const rdWithout = ANCHORS ? scores.get('readability')!.reduce((a, x) => a + x.s.withoutIn, 0) : NaN;
  console.log(`\n## What the model sees — standard mode (/v1/parse?details=true), WCXB dev, ${pages.length} pages\n`);
  console.log(`| figure | value |`);
  console.log(`|---|---|`);
  console.log(`| mean model-input tokens (o200k) | ${mean(model.map((m) => m.tokens)).toFixed(0)} |`);
  console.log(`| mean raw-HTML tokens | ${mean(model.map((m) => m.raw)).toFixed(0)} |`);
  console.log(`| fewer tokens than the raw HTML (mean over pages) | ${pct(red)} |`);
  console.log(`| \`with\` snippets in the model input | ${pct(withIn)} (the page's visible text holds ${pct(ceil)}) |`);
  console.log(`| of the \`with\` snippets the visible text holds | ${pct(ofCeil)} |`);
  console.log(
    `| \`without\` snippets in the model input | ${pct(withoutIn / Math.max(1, withoutN))} (${withoutIn}; Readability's output: ${Number.isFinite(rdWithout) ? rdWithout : '—'}) |`,
  );
  console.log('');
  console.log(`| page type | tokens | reduction | \`with\` of visible | \`without\` in |`);
  console.log(`|---|---|---|---|---|`);
  for (const t of types) {
    const ms2 = model.filter((m) => m.page.type === t);
    const c = ms2.reduce((a, m) => a + m.withCeil, 0);
    const wn = ms2.reduce((a, m) => a + m.page.without.length, 0);
    console.log(
      `| ${t} | ${mean(ms2.map((m) => m.tokens)).toFixed(0)} | ${pct(mean(ms2.map((m) => 1 - m.tokens / Math.max(1, m.raw))))} | ${pct(ms2.reduce((a, m) => a + m.withBoth, 0) / Math.max(1, c))} | ${pct(ms2.reduce((a, m) => a + m.withoutIn, 0) / Math.max(1, wn))} |`,
    );
  }
  goal(ofCeil >= 0.98, `model input keeps ≥ 98% of the \`with\` snippets the visible text holds: ${pct(ofCeil)}`);
  goal(red >= 0.95, `model input ≥ 95% fewer tokens than the raw HTML: ${pct(red)}`);
  if (ANCHORS) {
    // On the pages the anchors ran on (all of them, or the 1-in-K sample).
    const mine = model.filter((m) => anchored.has(m.page.id)).reduce((a, m) => a + m.withoutIn, 0);
    goal(mine < rdWithout, `fewer \`without\` snippets than Readability's output${sampled ? ` (1 page in ${ANCHOR_SAMPLE})` : ''}: ${mine} vs ${rdWithout}`);
  }

  // Speed.
  const mb = bytes / 1e6;
  const sum = (sys: System) => scores.get(sys)!.reduce((a, x) => a + x.s.ms, 0) / 1000;
  const worst = (sys: System) => scores.get(sys)!.reduce((a, x) => (x.s.ms > a.ms ? { ms: x.s.ms, id: x.page.id } : a), { ms: 0, id: '' });
  const redS = model.reduce((a, m) => a + m.ms, 0) / 1000;
  const redWorst = model.reduce((a, m) => (m.ms > a.ms ? { ms: m.ms, id: m.page.id } : a), { ms: 0, id: '' });
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
  console.log(`\n## Speed — ${mb.toFixed(1)} MB of HTML, one core (load average now ${load})\n`);
  console.log(`| conversion | MB/s | worst page | MB per CPU-second | worst page, CPU time |`);
  console.log(`|---|---|---|---|---|`);
  console.log(
    `| markdown, main content | ${(mb / sum('gleaner main')).toFixed(1)} | ${ms(worst('gleaner main').ms)} (${worst('gleaner main').id}) | ${(mb / (cpu.main.total / 1000)).toFixed(1)} | ${ms(cpu.main.worst)} (${cpu.main.id}) |`,
  );
  console.log(`| markdown, whole page | ${(mb / sum('gleaner page')).toFixed(1)} | ${ms(worst('gleaner page').ms)} (${worst('gleaner page').id}) |`);
  console.log(
    `| model-input reduction | ${(mb / redS).toFixed(1)} | ${ms(redWorst.ms)} (${redWorst.id}) | ${(mb / (cpu.reduce.total / 1000)).toFixed(1)} | ${ms(cpu.reduce.worst)} (${cpu.reduce.id}) |`,
  );
  if (ANCHORS && sample.n) {
    const smb = sample.bytes / 1e6;
    console.log(
      `\nThe anchors timed live on the speed sample (1 page in ${SPEED_SAMPLE}: ${sample.n} pages, ${smb.toFixed(1)} MB), right after Gleaner on each page:\n`,
    );
    console.log(`| conversion | MB/s | worst page |`);
    console.log(`|---|---|---|`);
    console.log(`| markdown, main content (Gleaner) | ${(smb / (sample.main / 1000)).toFixed(1)} | |`);
    console.log(
      `| Readability (jsdom + parse) | ${(smb / (sample.readability / 1000)).toFixed(1)} | ${ms(worst('readability').ms)} (${worst('readability').id}) |`,
    );
    console.log(`| defuddle (jsdom + parse) | ${(smb / (sample.defuddle / 1000)).toFixed(1)} | ${ms(worst('defuddle').ms)} (${worst('defuddle').id}) |`);
    const ratio = sample.readability / sample.main;
    const ratioCpu = sample.readabilityCpu / Math.max(1e-9, sample.mainCpu);
    goal(
      ratio >= 5,
      `markdown with main content ≥ 5× Readability's MB/s (speed sample, ${sample.n} pages): ${ratio.toFixed(1)}× wall time (${ratioCpu.toFixed(1)}× CPU time)`,
    );
  }
  // The process's CPU time also counts garbage collection of what ran before (jsdom's documents, on
  // the speed sample): the RETIME slowest pages of each conversion are timed again alone, three times,
  // and the median is their time. Judged on CPU time (wall time on a shared machine also counts the
  // other processes); both printed.
  const again = (list: { page: WcxbPage; ms: number }[], run: (p: WcxbPage) => unknown) => {
    let out = { ms: 0, id: '' };
    for (const { page } of [...list].sort((a, b) => b.ms - a.ms).slice(0, RETIME)) {
      const times = [0, 1, 2].map(() => (timed(() => run(page)), lastCpu)).sort((a, b) => a - b);
      if (times[1] > out.ms) out = { ms: times[1], id: page.id };
    }
    return out;
  };
  const mainAlone = again(perPage.main, (p) => htmlToMarkdown(p.html, { url: p.url, onlyMainContent: true }));
  const reduceAlone = again(perPage.reduce, (p) => reducePage(p.html, { url: p.url, mode: 'standard' }));
  console.log(
    `\nThe ${RETIME} slowest pages of each, timed again alone (median of 3, CPU time): markdown with main content ${ms(mainAlone.ms)} (${mainAlone.id}), model-input reduction ${ms(reduceAlone.ms)} (${reduceAlone.id}).`,
  );
  goal(
    mainAlone.ms < 1000 && reduceAlone.ms < 1000,
    `no page over 1 s (CPU time, slowest pages timed again alone): markdown ${ms(mainAlone.ms)}, reduction ${ms(reduceAlone.ms)} (in the run: ${ms(cpu.main.worst)}, ${ms(cpu.reduce.worst)}; wall: ${ms(worst('gleaner main').ms)}, ${ms(redWorst.ms)} at load ${load})`,
  );
}

const FIELDS = ['price', 'sku', 'brand', 'gtin', 'mpn', 'availability'];

function evalProducts(): void {
  const pages: ProductPage[] = loadProducts(CORPORA, { limit: LIMIT });
  const count = Object.fromEntries(FIELDS.map((f) => [f, { values: 0, html: 0, std: 0, code: 0 }]));
  const missing: string[] = [];
  const red = { std: [] as number[], code: [] as number[] };
  const inCodeOnly: string[] = [];
  for (const page of pages) {
    const raw = rawTokens(page.html);
    const htmlNorm = normalize(htmlFacts(page.html));
    const codeOnlyNorm = normalize(page.html);
    const reduced = reducePage(page.html, { url: page.url, mode: 'standard' });
    const skeleton = pageSkeleton(page.html);
    const stdNorm = normalize(markdownToText(reduced.text) + '\n' + reduced.text);
    const codeNorm = normalize(skeleton);
    red.std.push(1 - countTokens(reduced.text) / Math.max(1, raw));
    red.code.push(1 - countTokens(skeleton) / Math.max(1, raw));
    for (const f of FIELDS) {
      const vals = page.values[f];
      if (!vals?.length) continue;
      const c = count[f];
      c.values++;
      // A field counts once per page: present when any accepted value is.
      if (!vals.some((v) => valuePresent(f, v, htmlNorm))) {
        if (vals.some((v) => valuePresent(f, v, codeOnlyNorm))) inCodeOnly.push(`${page.id.slice(0, 12)} ${f}=${JSON.stringify(vals)}`);
        continue;
      }
      c.html++;
      const inStd = vals.some((v) => valuePresent(f, v, stdNorm));
      const inCode = vals.some((v) => valuePresent(f, v, codeNorm));
      if (inStd) c.std++;
      if (inCode) c.code++;
      if (!inStd || !inCode) missing.push(`${page.id.slice(0, 12)} ${f}=${JSON.stringify(vals)}${inStd ? '' : ' [standard]'}${inCode ? '' : ' [code]'}`);
      if (args.dump) dump.push(JSON.stringify({ product: page.id, field: f, values: vals, std: inStd, code: inCode }));
    }
  }
  console.log(`\n## Product facts — Zyte product benchmark, ${pages.length} pages\n`);
  console.log(`| field | ground-truth values | in the HTML | in the model input (standard) | in the page skeleton (code) |`);
  console.log(`|---|---|---|---|---|`);
  const tot = { values: 0, html: 0, std: 0, code: 0 };
  for (const f of FIELDS) {
    const c = count[f];
    for (const k of Object.keys(tot) as (keyof typeof tot)[]) tot[k] += c[k];
    console.log(`| ${f} | ${c.values} | ${c.html} | ${c.std} (${pct(c.std / Math.max(1, c.html))}) | ${c.code} (${pct(c.code / Math.max(1, c.html))}) |`);
    if (c.html) {
      goal(c.std / c.html >= 0.99, `product ${f}: ≥ 99% of the values in the HTML reach the model input: ${pct(c.std / c.html)}`);
      goal(c.code / c.html >= 0.99, `product ${f}: ≥ 99% of the values in the HTML shown in the page skeleton: ${pct(c.code / c.html)}`);
    }
  }
  console.log(
    `| **all** | ${tot.values} | ${tot.html} | ${tot.std} (${pct(tot.std / Math.max(1, tot.html))}) | ${tot.code} (${pct(tot.code / Math.max(1, tot.html))}) |`,
  );
  console.log('');
  console.log(`Fewer tokens than the raw HTML (mean over pages): standard ${pct(mean(red.std))}, code ${pct(mean(red.code))}.`);
  goal(mean(red.std) >= 0.95, `product pages: model input ≥ 95% fewer tokens than the raw HTML: ${pct(mean(red.std))}`);
  if (inCodeOnly.length)
    console.log(
      `\nNot counted as in the HTML: values found only in CSS, script code, comments or class/id/style/event attributes:\n${inCodeOnly.map((m) => `- ${m}`).join('\n')}`,
    );
  if (missing.length) console.log(`\nValues in the HTML that do not reach the model:\n${missing.map((m) => `- ${m}`).join('\n')}`);
}

console.log(`# Gleaner evaluation on real pages (${new Date().toISOString().slice(0, 10)}, node ${process.version})`);
const t0 = performance.now();
if (!args.only || args.only === 'wcxb') await evalWcxb();
if (!args.only || args.only === 'products') evalProducts();
console.log(`\n## Goals\n\n${goals.map((g) => `- ${g}`).join('\n')}`);
console.log(`\n(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
mkdirSync(new URL('../../.bench/', import.meta.url), { recursive: true });
writeFileSync(CACHE_FILE, JSON.stringify(rawCache));
if (args.dump) writeFileSync(args.dump, dump.join('\n') + '\n');
process.exit(0);
