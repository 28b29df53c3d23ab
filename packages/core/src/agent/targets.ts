/**
 * Stable targets: an element as the agent chose it, described so a later replay (without the model)
 * can find it again on a fresh load of the page, whatever refs the outline hands out then.
 */
import type { OutlineElement, PageOutline } from '../plugins/driver.ts';
import type { StableTarget } from './types.ts';

/** The stable target of an outline element (its ref is deliberately left out). */
export function stableTarget(el: OutlineElement): StableTarget {
  const t: StableTarget = { selector: el.selector, role: el.role, name: el.name };
  if (el.tag) t.tag = el.tag;
  if (el.href) t.href = el.href;
  return t;
}

const norm = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Finds a recorded target in a fresh outline: the element whose selector is the recorded one; else
 * the only element with the same role and accessible name (and tag, when recorded); else the only
 * link to the same href. Returns the element, or null when the target is gone or ambiguous (the
 * layout changed).
 */
export function resolveTarget(outline: PageOutline, target: StableTarget): OutlineElement | null {
  const bySelector = outline.elements.filter((e) => e.selector === target.selector);
  if (bySelector.length === 1) return bySelector[0];
  const name = norm(target.name);
  if (name) {
    const byName = outline.elements.filter((e) => e.role === target.role && norm(e.name) === name && (!target.tag || !e.tag || e.tag === target.tag));
    if (byName.length === 1) return byName[0];
  }
  if (target.href) {
    const byHref = outline.elements.filter((e) => e.href === target.href);
    if (byHref.length === 1) return byHref[0];
  }
  return null;
}
