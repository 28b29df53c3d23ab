/**
 * What the agent sees of a page: the interactive elements of the driver's outline (by ref), the
 * reduced page text (the extraction reducer's markdown, cut to a token budget), the URL and title —
 * and a fingerprint to tell whether an action changed anything.
 */
import { createHash } from 'node:crypto';
import type { OutlineElement, PageOutline, PageSnapshot } from '../plugins/driver.ts';
import { reducePage } from '../page/reduce.ts';
import { countTokens, decodeTokens, encodeTokens } from '../page/tokens.ts';

export interface Observation {
  url: string;
  title: string;
  outline: PageOutline;
  snapshot: PageSnapshot;
  /** Reduced page text (markdown), before cutting. */
  text: string;
  /** Changes when the URL, the elements or the text change. */
  fingerprint: string;
}

/** Elements listed at most in one observation, and the page text's token budget. */
export const OBSERVE_LIMITS = Object.freeze({ elements: 150, textTokens: 2500, nameChars: 80 });

export function observation(outline: PageOutline, snapshot: PageSnapshot): Observation {
  const url = snapshot.finalUrl || outline.url;
  const reduced = reducePage(snapshot.html, { url, mode: 'standard', asShown: true });
  const elements = outline.elements.map((e) => `${e.role}|${e.name}|${e.value ?? ''}|${e.href ?? ''}`).join('\n');
  const fingerprint = createHash('sha1').update(`${url}\n${elements}\n${reduced.text}`).digest('hex');
  return { url, title: outline.title || reduced.title, outline, snapshot, text: reduced.text, fingerprint };
}

/**
 * The observation of a page the driver could not read (a document without a root, a renderer that
 * crashed): no elements and a text saying so, so that the model can go back or elsewhere instead of
 * the task failing.
 */
export function unreadableObservation(url: string, reason: string, driver: string): Observation {
  const text = `(This page could not be read: ${reason.slice(0, 300)}. Go back, navigate elsewhere, or call finish.)`;
  return {
    url,
    title: '',
    outline: { url, title: '', elements: [] },
    snapshot: { requestedUrl: url, finalUrl: url, status: 0, headers: {}, contentType: '', html: '', redirects: [], driver },
    text,
    fingerprint: createHash('sha1').update(`${url}\n${text}`).digest('hex'),
  };
}

function cut(s: string, n: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

function elementLine(e: OutlineElement): string {
  const parts = [`[${e.ref}]`, e.role || e.tag || 'element'];
  if (e.name) parts.push(JSON.stringify(cut(e.name, OBSERVE_LIMITS.nameChars)));
  if (e.value) parts.push(`value=${JSON.stringify(cut(e.value, 60))}`);
  if (e.href) parts.push(`-> ${cut(e.href, 120)}`);
  return parts.join(' ');
}

function cutToTokens(text: string, budget: number): { text: string; cut: boolean } {
  if (countTokens(text) <= budget) return { text, cut: false };
  return { text: decodeTokens(encodeTokens(text).slice(0, budget)), cut: true };
}

/** The observation as the model reads it. */
export function renderObservation(o: Observation, opts: { textTokens?: number } = {}): string {
  const shown = o.outline.elements.slice(0, OBSERVE_LIMITS.elements);
  const more = o.outline.elements.length - shown.length;
  const text = cutToTokens(o.text, opts.textTokens ?? OBSERVE_LIMITS.textTokens);
  const lines = [
    `URL: ${o.url}`,
    `Title: ${o.title || '(none)'}`,
    '',
    `Interactive elements (${o.outline.elements.length}):`,
    ...(shown.length ? shown.map(elementLine) : ['(none)']),
  ];
  if (more > 0) lines.push(`(${more} more elements not listed; scroll or act on the ones above)`);
  lines.push('', 'Page text:', text.text || '(empty)');
  if (text.cut) lines.push('[… the page text goes on; extract reads the whole page]');
  return lines.join('\n');
}

/** The effect of an action that changed nothing (replays skip waiting after such steps). */
export const NOTHING_CHANGED = 'Nothing changed on the page.';

/** What an action changed, in words the model can act on. */
export function describeEffect(before: Observation, after: Observation): string {
  if (before.url !== after.url) return `The page changed to ${after.url}.`;
  if (before.fingerprint === after.fingerprint) return NOTHING_CHANGED;
  const had = new Set(before.outline.elements.map((e) => e.ref));
  const added = after.outline.elements.filter((e) => !had.has(e.ref)).length;
  const now = new Set(after.outline.elements.map((e) => e.ref));
  const removed = before.outline.elements.filter((e) => !now.has(e.ref)).length;
  const grew = after.text.length - before.text.length;
  const parts = ['The page changed'];
  if (added || removed) parts.push(`${added} new element${added === 1 ? '' : 's'}, ${removed} gone`);
  if (grew) parts.push(`text ${grew > 0 ? 'grew' : 'shrank'} by ${Math.abs(grew)} characters`);
  return `${parts.join(': ')}.`;
}
