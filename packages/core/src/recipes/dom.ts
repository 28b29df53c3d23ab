/**
 * The page as recipes see it: one htmlparser2 + domhandler tree (the parser linkedom itself uses,
 * about five times faster than building linkedom's DOM, as measured for this module), queried with css-select
 * (the selector engine behind linkedom's querySelectorAll), so selectors mean the same in both.
 */
import { Parser } from 'htmlparser2';
import { DomHandler, isTag, isText, hasChildren } from 'domhandler';
import type { AnyNode, Document, Element } from 'domhandler';
import { getInnerHTML } from 'domutils';
import { parseJsonLd } from '../page/structured.ts';

export type { AnyNode, Document, Element };

export function parseHtmlDocument(html: string): Document {
  const handler = new DomHandler(undefined, { withStartIndices: false, withEndIndices: false });
  const parser = new Parser(handler, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.end(html);
  return handler.root;
}

/** Elements whose content is never visible text. */
export const INVISIBLE_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object', 'canvas']);

/** Elements that break text into separate words (so "<p>a</p><p>b</p>" reads "a b", not "ab"). */
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'option',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
  'img',
  'button',
  'label',
  'select',
  'textarea',
  'input',
]);

function collectText(node: AnyNode, out: string[]): void {
  if (isText(node)) {
    out.push(node.data);
    return;
  }
  if (isTag(node)) {
    if (INVISIBLE_TAGS.has(node.name)) return;
    if (node.name === 'br') {
      out.push(' ');
      return;
    }
    const block = BLOCK_TAGS.has(node.name);
    if (block) out.push(' ');
    for (const child of node.children) collectText(child, out);
    if (block) out.push(' ');
    return;
  }
  if (hasChildren(node)) for (const child of node.children) collectText(child, out);
}

/** The visible text of a node with whitespace collapsed (what a reader sees, roughly innerText). */
export function visibleText(node: AnyNode): string {
  const out: string[] = [];
  collectText(node, out);
  return collapse(out.join(''));
}

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function innerHtml(node: AnyNode): string {
  return getInnerHTML(node).trim();
}

export function attrOf(el: AnyNode, name: string): string | null {
  if (!isTag(el)) return null;
  const v = el.attribs[name.toLowerCase()];
  return v === undefined ? null : v;
}

/** The URL relative links resolve against: the page URL, or its `<base href>`. */
export function documentBaseUrl(doc: Document, pageUrl: string, findBase: (doc: Document) => Element | null): string {
  const base = findBase(doc);
  const href = base ? attrOf(base, 'href') : null;
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

// ---- JSON-LD ---------------------------------------------------------------------------------------

const jsonLdCache = new WeakMap<Element, unknown[]>();

/**
 * The JSON-LD objects of `scripts` (elements `script[type="application/ld+json"]`): each block, the
 * items of a top-level array, then the items of each `@graph`, in document order.
 */
export function jsonLdRoots(scripts: Element[]): unknown[] {
  const roots: unknown[] = [];
  for (const script of scripts) {
    let items = jsonLdCache.get(script);
    if (!items) {
      items = [];
      const value = parseJsonLd(script.children.map((c) => (isText(c) ? c.data : '')).join(''));
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
        items.push(item);
        const graph = item && typeof item === 'object' ? (item as Record<string, unknown>)['@graph'] : undefined;
        if (Array.isArray(graph)) items.push(...graph);
      }
      jsonLdCache.set(script, items);
    }
    roots.push(...items);
  }
  return roots;
}

type Step = { key: string } | { index: number } | { wildcard: true } | { filter: [string, string] };

const pathCache = new Map<string, Step[]>();

/** Parses a JSON-LD path (`offers.price`, `@graph[0].name`, `[@type=Product].sku`, `image[*]`). */
export function parseJsonPath(path: string): Step[] {
  const cached = pathCache.get(path);
  if (cached) return cached;
  const steps: Step[] = [];
  const re = /\[(\d+|\*|[^\]=]+=[^\]]*)\]|\.?([^.[\]]+)/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < path.length && (m = re.exec(path))) {
    at = re.lastIndex;
    if (m[2] !== undefined) steps.push({ key: m[2].trim() });
    else if (m[1] === '*') steps.push({ wildcard: true });
    else if (/^\d+$/.test(m[1])) steps.push({ index: Number(m[1]) });
    else {
      const eq = m[1].indexOf('=');
      steps.push({
        filter: [
          m[1].slice(0, eq).trim(),
          m[1]
            .slice(eq + 1)
            .trim()
            .replace(/^["']|["']$/g, ''),
        ],
      });
    }
  }
  if (at !== path.length || steps.length === 0) throw new Error(`"${path}" is not a JSON-LD path (use keys, [n], [*] and [key=value], e.g. offers.price)`);
  if (pathCache.size > 1000) pathCache.clear();
  pathCache.set(path, steps);
  return steps;
}

function matchesFilter(v: unknown, [key, want]: [string, string]): boolean {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const got = (v as Record<string, unknown>)[key];
  const norm = (x: unknown): string =>
    String(x)
      .replace(/^https?:\/\/schema\.org\//, '')
      .toLowerCase();
  return Array.isArray(got) ? got.some((g) => norm(g) === norm(want)) : got !== undefined && norm(got) === norm(want);
}

/**
 * Every value the path reaches, in order. `start` is the list of JSON-LD roots (or one record's
 * object); a key applied to a list maps over it, so `name` on the roots is every root's name.
 */
export function evalJsonPath(start: unknown, steps: Step[]): unknown[] {
  let current: unknown[] = [start];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if ('key' in step) {
        for (const item of Array.isArray(v) ? v : [v]) {
          if (item && typeof item === 'object' && step.key in item) next.push((item as Record<string, unknown>)[step.key]);
        }
      } else if ('index' in step) {
        if (Array.isArray(v) && step.index < v.length) next.push(v[step.index]);
        else if (!Array.isArray(v) && step.index === 0 && v !== undefined) next.push(v);
      } else if ('wildcard' in step) {
        next.push(...(Array.isArray(v) ? v : [v]));
      } else {
        for (const item of Array.isArray(v) ? v : [v]) if (matchesFilter(item, step.filter)) next.push(item);
      }
    }
    current = next;
  }
  return current
    .map((v) => (v && typeof v === 'object' && !Array.isArray(v) && '@value' in v ? (v as Record<string, unknown>)['@value'] : v))
    .filter((v) => v !== undefined && v !== null);
}
