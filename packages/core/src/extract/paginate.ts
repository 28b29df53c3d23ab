/**
 * Finding the next page: rel=next, then links and buttons whose text or label says "next";
 * the model only when those fail. The page is parsed once (htmlparser2 + css-select, as recipes
 * do) and shared by both steps.
 */
import { selectAll, selectOne } from 'css-select';
import { attrOf, parseHtmlDocument, visibleText, type AnyNode, type Document, type Element } from '../recipes/dom.ts';
import type { OperationContext } from '../context.ts';
import { addUsage, type ModelUsage } from '../usage.ts';

const NEXT_TEXT = /^(next|next page|next ›|next »|next →|older|older posts|more results|suivant|weiter|siguiente|›|»|→|>|>>)$/i;

/** A page parsed for its links. */
export interface LinkPage {
  doc: Document;
  url: string;
  /** The URL relative links resolve against (the page URL or its `<base href>`). */
  base: string;
}

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

export function linkPage(html: string, url: string): LinkPage {
  const doc = parseHtmlDocument(html);
  const baseEl = selectOne<AnyNode, Element>('base[href]', doc);
  return { doc, url, base: absolute(baseEl ? attrOf(baseEl, 'href') : null, url) ?? url };
}

function enclosingLink(el: Element): Element | null {
  for (let node = el.parent; node; node = node.parent) {
    if ((node as Element).name === 'a') return node as Element;
  }
  return null;
}

/** The next page's URL by markup alone, or null. */
export function findNextPageUrl(page: LinkPage): string | null {
  const { doc, base } = page;
  for (const el of selectAll<AnyNode, Element>('link[rel~="next"], a[rel~="next"]', doc)) {
    const next = absolute(attrOf(el, 'href'), base);
    if (next) return next;
  }
  for (const el of selectAll<AnyNode, Element>('a[href]', doc)) {
    const text = visibleText(el);
    const label = `${attrOf(el, 'aria-label') ?? ''} ${attrOf(el, 'title') ?? ''}`.trim();
    const cls = `${attrOf(el, 'class') ?? ''} ${attrOf(el, 'id') ?? ''}`;
    if (NEXT_TEXT.test(text) || /\bnext( page)?\b/i.test(label) || /(^|[\s_-])(next|pagination-next|next-page)([\s_-]|$)/i.test(cls)) {
      const next = absolute(attrOf(el, 'href'), base);
      if (next) return next;
    }
  }
  // A button or form pointing at the next page (data-href / formaction).
  for (const el of selectAll<AnyNode, Element>('button, [role="button"]', doc)) {
    const text = visibleText(el);
    if (NEXT_TEXT.test(text) || /\bnext\b/i.test(attrOf(el, 'aria-label') ?? '')) {
      const link = enclosingLink(el);
      const next = absolute(attrOf(el, 'data-href') ?? attrOf(el, 'formaction') ?? (link ? attrOf(link, 'href') : null), base);
      if (next) return next;
    }
  }
  return null;
}

/** Links that look like page navigation, for the model to choose from. */
function candidateLinks(page: LinkPage): Array<{ text: string; url: string }> {
  const out: Array<{ text: string; url: string }> = [];
  for (const el of selectAll<AnyNode, Element>('a[href]', page.doc)) {
    const text = visibleText(el).slice(0, 60);
    const href = absolute(attrOf(el, 'href'), page.base);
    if (!href || href === page.url) continue;
    if (/page|p=|offset|start=|\/\d+\/?$/i.test(href) || /^\d+$/.test(text) || /page|more|next/i.test(text)) out.push({ text, url: href });
    if (out.length >= 60) break;
  }
  return out;
}

/** Asks the model which link leads to the next page of results; null when none does. */
export async function askModelForNextPage(ctx: OperationContext, page: LinkPage, usage: ModelUsage, signal?: AbortSignal): Promise<string | null> {
  if (!ctx.model) return null;
  const links = candidateLinks(page);
  if (!links.length) return null;
  const res = await ctx.model.generateJson<{ next_url: string | null }>({
    system:
      'You find pagination on web pages. Answer with JSON {"next_url": "..."} naming the link to the NEXT page of the same list, or {"next_url": null} when there is none.',
    messages: [{ role: 'user', content: `Current page: ${page.url}\nLinks:\n${links.map((l) => `- [${l.text}](${l.url})`).join('\n')}` }],
    jsonSchema: {
      name: 'next_page',
      schema: { type: 'object', properties: { next_url: { type: ['string', 'null'] } }, required: ['next_url'], additionalProperties: false },
    },
    temperature: 0,
    signal,
  });
  addUsage(usage, res.usage);
  const next = res.json.next_url;
  return next && links.some((l) => l.url === next) ? next : null;
}
