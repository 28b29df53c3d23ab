/**
 * Does a page fetched over plain HTTP need a browser? True for an app shell (scripts and almost no
 * text), a `<noscript>` asking for JavaScript, or a known JS-only marker. Cheap: regular
 * expressions over the raw HTML, no parse.
 */
import type { PageSnapshot } from '../plugins/driver.ts';

/** Below this many characters of visible body text a page with scripts counts as an app shell. */
const SHELL_TEXT_CHARS = 200;
/** A JS-only marker counts only on a page with less text than this (a server-rendered page may hold an empty widget mount). */
const MARKER_TEXT_CHARS = 1000;

const NOSCRIPT_PROMPT = /<noscript\b[^>]*>[\s\S]{0,2000}?(enable|turn on|activate|requires?|need)[\s\S]{0,80}?javascript[\s\S]*?<\/noscript>/i;

/** Empty mount points of client-side frameworks, and challenge pages that run in a browser only. */
const JS_ONLY_MARKERS: Array<[RegExp, string]> = [
  [/<div\s[^>]*id=["'](root|app|__next|__nuxt|svelte|main-app)["'][^>]*>\s*<\/div>/i, 'an empty app mount point'],
  [/<(app-root|ng-app)\b[^>]*>\s*<\/\1>/i, 'an empty Angular root'],
  [/cf-browser-verification|challenge-platform|Checking your browser before accessing/i, 'a browser check'],
];

function visibleText(html: string): string {
  const body = /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  return body
    .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Why the page needs a browser, or null when plain HTTP saw enough. Only HTML pages qualify. */
export function needsBrowser(page: Pick<PageSnapshot, 'html' | 'contentType'>): string | null {
  const type = page.contentType;
  if (type && type !== 'text/html' && type !== 'application/xhtml+xml') return null;
  const html = page.html;
  if (NOSCRIPT_PROMPT.test(html)) return 'the page asks for JavaScript in <noscript>';
  const text = visibleText(html).length;
  if (text < MARKER_TEXT_CHARS) {
    for (const [re, what] of JS_ONLY_MARKERS) if (re.test(html)) return `the page has ${what}`;
  }
  if (text < SHELL_TEXT_CHARS && /<script\b/i.test(html)) return 'the page is an app shell (scripts and almost no text)';
  return null;
}
