/**
 * Does a page fetched over plain HTTP need a browser? True for an app shell (scripts and almost no
 * text), a `<noscript>` asking for JavaScript, or a known JS-only marker. Cheap and linear in the
 * page size: forward `indexOf` scans over the lower-cased HTML, no parse and no unbounded regular
 * expression (the input is whatever a site sends, up to `fetch.maxBytes`).
 */
import type { PageSnapshot } from '../plugins/driver.ts';

/** Below this many characters of visible body text a page with scripts counts as an app shell. */
const SHELL_TEXT_CHARS = 200;
/** A JS-only marker counts only on a page with less text than this (a server-rendered page may hold an empty widget mount). */
const MARKER_TEXT_CHARS = 1000;
/** Elements whose content is not visible text. */
const RAW_TEXT = ['script', 'style', 'noscript', 'template', 'svg'];
/** `<noscript>` blocks read, and characters read of each. */
const MAX_NOSCRIPTS = 20;
const NOSCRIPT_CHARS = 2000;
const JS_PROMPT = /(enable|turn on|activate|requires?|need)[^<]{0,80}javascript/;
const MOUNT_IDS = ['root', 'app', '__next', '__nuxt', 'svelte', 'main-app'];
const CHALLENGES = ['cf-browser-verification', 'challenge-platform', 'checking your browser before accessing'];

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;

function skipSpace(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** Visible characters of the body (whitespace runs count as one), counted up to `limit`. */
function visibleTextLength(lower: string, limit: number): number {
  const body = lower.indexOf('<body');
  let i = body === -1 ? 0 : body;
  let count = 0;
  let lastSpace = true;
  while (i < lower.length && count < limit) {
    const c = lower.charCodeAt(i);
    if (c === 60 /* < */) {
      if (lower.startsWith('<!--', i)) {
        const end = lower.indexOf('-->', i + 4);
        i = end === -1 ? lower.length : end + 3;
        continue;
      }
      const raw = RAW_TEXT.find((t) => lower.startsWith(t, i + 1) && !/[a-z0-9-]/.test(lower[i + 1 + t.length] ?? ''));
      if (raw) {
        const end = lower.indexOf(`</${raw}`, i + 1);
        i = end === -1 ? lower.length : end + raw.length + 2;
      }
      const close = lower.indexOf('>', i);
      i = close === -1 ? lower.length : close + 1;
      continue;
    }
    if (c === 38 /* & */) {
      // An entity is one character.
      const semi = lower.indexOf(';', i);
      if (semi !== -1 && semi - i <= 10) {
        count++;
        lastSpace = false;
        i = semi + 1;
        continue;
      }
    }
    if (isSpace(c)) {
      if (!lastSpace) count++;
      lastSpace = true;
    } else {
      count++;
      lastSpace = false;
    }
    i++;
  }
  return count;
}

function noscriptPrompt(lower: string): boolean {
  let from = 0;
  for (let n = 0; n < MAX_NOSCRIPTS; n++) {
    const start = lower.indexOf('<noscript', from);
    if (start === -1) return false;
    const end = lower.indexOf('</noscript', start);
    const stop = Math.min(end === -1 ? lower.length : end, start + NOSCRIPT_CHARS);
    const inner = lower.slice(lower.indexOf('>', start) + 1 || start, stop).replace(/<[^>]{0,200}>/g, ' ');
    if (JS_PROMPT.test(inner)) return true;
    from = stop;
  }
  return false;
}

/** An element `<tag ... id="name" ...>` immediately closed by `</tag>` (whitespace allowed). */
function emptyMount(lower: string): boolean {
  for (const id of MOUNT_IDS) {
    for (const attr of [`id="${id}"`, `id='${id}'`]) {
      let at = lower.indexOf(attr);
      for (let n = 0; at !== -1 && n < 5; n++, at = lower.indexOf(attr, at + 1)) {
        const open = lower.lastIndexOf('<', at);
        const close = lower.indexOf('>', at);
        if (open === -1 || close === -1 || at - open > 500) continue;
        if (lower.startsWith('<div', open) && lower.startsWith('</div', skipSpace(lower, close + 1))) return true;
      }
    }
  }
  return false;
}

function emptyAngularRoot(lower: string): boolean {
  for (const tag of ['app-root', 'ng-app']) {
    const open = lower.indexOf(`<${tag}`);
    if (open === -1) continue;
    const close = lower.indexOf('>', open);
    if (close !== -1 && lower.startsWith(`</${tag}`, skipSpace(lower, close + 1))) return true;
  }
  return false;
}

/** Why the page needs a browser, or null when plain HTTP saw enough. Only HTML pages qualify. */
export function needsBrowser(page: Pick<PageSnapshot, 'html' | 'contentType'>): string | null {
  const type = page.contentType;
  if (type && type !== 'text/html' && type !== 'application/xhtml+xml') return null;
  const lower = page.html.toLowerCase();
  if (noscriptPrompt(lower)) return 'the page asks for JavaScript in <noscript>';
  const text = visibleTextLength(lower, MARKER_TEXT_CHARS);
  if (text < MARKER_TEXT_CHARS) {
    if (emptyMount(lower)) return 'the page has an empty app mount point';
    if (emptyAngularRoot(lower)) return 'the page has an empty Angular root';
    if (CHALLENGES.some((c) => lower.includes(c))) return 'the page has a browser check';
  }
  if (text < SHELL_TEXT_CHARS && lower.includes('<script')) return 'the page is an app shell (scripts and almost no text)';
  return null;
}
