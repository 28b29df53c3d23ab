/**
 * Finding the next page: rel=next, then links and buttons whose text or label says "next";
 * the model only when those fail. Works on the raw HTML with linkedom.
 */
import { parseHTML } from 'linkedom';
import type { OperationContext } from './context.ts';
import type { ModelUsage } from './model-extract.ts';
import { addUsage } from './model-extract.ts';

const NEXT_TEXT = /^(next|next page|next ›|next »|next →|older|older posts|more results|suivant|weiter|siguiente|›|»|→|>|>>)$/i;

function absolute(href: string | null | undefined, base: string): string | null {
  if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return null;
  try {
    const u = new URL(href, base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

/** The next page's URL by markup alone, or null. */
export function findNextPageUrl(html: string, url: string): string | null {
  const { document } = parseHTML(html);
  const base = absolute(document.querySelector('base[href]')?.getAttribute('href'), url) ?? url;
  for (const el of document.querySelectorAll('link[rel~="next"], a[rel~="next"]')) {
    const next = absolute(el.getAttribute('href'), base);
    if (next) return next;
  }
  for (const el of document.querySelectorAll('a[href]')) {
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    const label = `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''}`.trim();
    const cls = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
    if (NEXT_TEXT.test(text) || /\bnext( page)?\b/i.test(label) || /(^|[\s_-])(next|pagination-next|next-page)([\s_-]|$)/i.test(cls)) {
      const next = absolute(el.getAttribute('href'), base);
      if (next) return next;
    }
  }
  // A button or form pointing at the next page (data-href / formaction).
  for (const el of document.querySelectorAll('button, [role="button"]')) {
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    const label = el.getAttribute('aria-label') ?? '';
    if (NEXT_TEXT.test(text) || /\bnext\b/i.test(label)) {
      const next = absolute(el.getAttribute('data-href') ?? el.getAttribute('formaction') ?? el.closest('a')?.getAttribute('href'), base);
      if (next) return next;
    }
  }
  return null;
}

/** Links that look like page navigation, for the model to choose from. */
function candidateLinks(html: string, url: string): Array<{ text: string; url: string }> {
  const { document } = parseHTML(html);
  const out: Array<{ text: string; url: string }> = [];
  for (const el of document.querySelectorAll('a[href]')) {
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
    const href = absolute(el.getAttribute('href'), url);
    if (!href || href === url) continue;
    if (/page|p=|offset|start=|\/\d+\/?$/i.test(href) || /^\d+$/.test(text) || /page|more|next/i.test(text)) out.push({ text, url: href });
    if (out.length >= 60) break;
  }
  return out;
}

/** Asks the model which link leads to the next page of results; null when none does. */
export async function askModelForNextPage(ctx: OperationContext, html: string, url: string, usage: ModelUsage, signal?: AbortSignal): Promise<string | null> {
  if (!ctx.model) return null;
  const links = candidateLinks(html, url);
  if (!links.length) return null;
  const res = await ctx.model.generateJson<{ next_url: string | null }>({
    system: 'You find pagination on web pages. Answer with JSON {"next_url": "..."} naming the link to the NEXT page of the same list, or {"next_url": null} when there is none.',
    messages: [{ role: 'user', content: `Current page: ${url}\nLinks:\n${links.map((l) => `- [${l.text}](${l.url})`).join('\n')}` }],
    jsonSchema: { name: 'next_page', schema: { type: 'object', properties: { next_url: { type: ['string', 'null'] } }, required: ['next_url'], additionalProperties: false } },
    temperature: 0,
    signal,
  });
  addUsage(usage, res.usage);
  const next = res.json.next_url;
  return next && links.some((l) => l.url === next) ? next : null;
}
