// The anchors measured in the same run (docs/benchmarks.md): Mozilla's Readability and defuddle,
// each on a jsdom Document of the page, their HTML output turned into plain text like every other.
import { Readability } from '@mozilla/readability';
import { Defuddle } from 'defuddle/node';
import { JSDOM, VirtualConsole } from 'jsdom';
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
