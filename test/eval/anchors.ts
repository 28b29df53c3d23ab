// The anchors measured in the same run (docs/benchmarks.md): Mozilla's Readability and defuddle,
// each on a jsdom Document of the page, their HTML output turned into plain text like every other.
// jsdom is slow (about 0.1–0.5 MB/s), so their outputs are cached under .bench/anchors/ (git-ignored),
// keyed by the packages' versions and a hash of the page, and missing ones are computed in worker
// threads (anchor-worker.ts). Their speed is always measured live, in the run, on a sample of pages.
import { Readability } from '@mozilla/readability';
import { Defuddle } from 'defuddle/node';
import { JSDOM, VirtualConsole } from 'jsdom';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { htmlToText } from './html-text.ts';

const quiet = new VirtualConsole();

function dom(html: string, url: string): JSDOM {
  return new JSDOM(html, { url: safeUrl(url), virtualConsole: quiet });
}

function safeUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return 'https://example.com/';
  }
}

/** Readability's article as plain text ('' when it finds none). Times include building the DOM. */
export function readability(html: string, url: string): string {
  const d = dom(html, url);
  try {
    const article = new Readability(d.window.document).parse();
    return article?.content ? htmlToText(article.content) : '';
  } finally {
    d.window.close();
  }
}

/** Pages are snapshots: defuddle's site extractors must never reach the network. */
const noFetch = (() => Promise.reject(new Error('the evaluation fetches nothing'))) as typeof fetch;

export async function defuddle(html: string, url: string): Promise<string> {
  const d = dom(html, url);
  // defuddle reports what it cannot parse on the console; the report is the evaluation's output.
  const saved = { log: console.log, warn: console.warn, error: console.error };
  console.log = console.warn = console.error = () => {};
  try {
    const res = await Defuddle(d, safeUrl(url), { useAsync: false, fetch: noFetch });
    return res?.content ? htmlToText(res.content) : '';
  } finally {
    Object.assign(console, saved);
    d.window.close();
  }
}

export type AnchorName = 'readability' | 'defuddle';
export type AnchorTexts = Record<AnchorName, string>;

/** A dev dependency's installed version (some packages do not export their package.json). */
const version = (pkg: string) =>
  (JSON.parse(readFileSync(new URL(`../../node_modules/${pkg}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;
/** What an anchor's output depends on besides the page: its package and the DOM it runs on. */
const VERSIONS: Record<AnchorName, string> = {
  readability: `readability-${version('@mozilla/readability')}-jsdom-${version('jsdom')}`,
  defuddle: `defuddle-${version('defuddle')}-jsdom-${version('jsdom')}`,
};
const CACHE_DIR = new URL('../../.bench/anchors/', import.meta.url);

function cacheFile(name: AnchorName, html: string, url: string): URL {
  const key = createHash('sha1').update(url).update('\0').update(html).digest('hex');
  return new URL(`${VERSIONS[name]}/${key}.txt`, CACHE_DIR);
}

export function cachedAnchor(name: AnchorName, html: string, url: string): string | undefined {
  const f = cacheFile(name, html, url);
  return existsSync(f) ? readFileSync(f, 'utf8') : undefined;
}

export function storeAnchor(name: AnchorName, html: string, url: string, text: string): void {
  const f = cacheFile(name, html, url);
  mkdirSync(new URL('.', f), { recursive: true });
  writeFileSync(f, text);
}

/**
 * Both anchors' outputs for every page, from the cache or computed in `workers` worker threads (and
 * then cached). `progress` is told of each page computed.
 */
export async function anchorTexts(
  pages: { id: string; html: string; url: string }[],
  workers: number,
  progress: (done: number, todo: number) => void,
): Promise<Map<string, AnchorTexts>> {
  const out = new Map<string, AnchorTexts>();
  const todo: typeof pages = [];
  for (const p of pages) {
    const rd = cachedAnchor('readability', p.html, p.url);
    const df = cachedAnchor('defuddle', p.html, p.url);
    if (rd !== undefined && df !== undefined) out.set(p.id, { readability: rd, defuddle: df });
    else todo.push(p);
  }
  if (!todo.length) return out;
  let next = 0;
  let done = 0;
  const run = () =>
    new Promise<void>((resolve, reject) => {
      const w = new Worker(new URL('./anchor-worker.ts', import.meta.url));
      const feed = () => {
        if (next >= todo.length) {
          void w.terminate().then(() => resolve());
          return;
        }
        const p = todo[next++];
        w.postMessage({ id: p.id, html: p.html, url: p.url });
      };
      w.on('message', (m: { id: string } & AnchorTexts) => {
        const p = pages.find((x) => x.id === m.id)!;
        storeAnchor('readability', p.html, p.url, m.readability);
        storeAnchor('defuddle', p.html, p.url, m.defuddle);
        out.set(m.id, { readability: m.readability, defuddle: m.defuddle });
        progress(++done, todo.length);
        feed();
      });
      w.on('error', reject);
      feed();
    });
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, todo.length)) }, run));
  return out;
}
