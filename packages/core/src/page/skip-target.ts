// The main content a page names through its skip link ("Skip to main content", `<a href="#main-content">`):
// the element that link jumps to, for pages without a `<main>` or `role="main"` landmark.
import type { Element } from 'domhandler';
import { textOf, type Tree } from './content-tree.ts';

/** A keyboard user's way past the page's header to its content: "Skip to main content", "Skip to content". */
const SKIP_TO_CONTENT = /^(?:skip|jump|go) (?:directly )?to (?:the )?(?:main )?(?:page )?content\b/;

/**
 * The element a "Skip to (main) content" link at the page's start points to (its `id` the link's
 * fragment), still counted, or -1: the page's own word for where its content starts, as a `<main>` is.
 */
export function skipTarget(t: Tree, body: number): number {
  let id: string | null = null;
  for (let i = body; i < t.els.length && id === null; i++) {
    const el = t.els[i];
    if (el.name !== 'a') continue;
    const href = el.attribs.href;
    if (href === undefined || !href.startsWith('#') || href.length < 2) continue;
    const text = textOf(el) || (el.attribs['aria-label'] ?? '').toLowerCase();
    if (SKIP_TO_CONTENT.test(text)) id = safeDecode(href.slice(1));
  }
  if (id === null) return -1;
  for (let i = body + 1; i < t.els.length; i++) {
    const el: Element = t.els[i];
    if (el.attribs.id !== id) continue;
    return t.gone[i] ? -1 : i;
  }
  return -1;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
