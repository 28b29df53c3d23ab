// Finding the element an action names (an outline ref `e7` or a CSS selector) in the parsed document,
// and naming elements in error messages.
import { GleanerError, isRef, refSelector, splitFrameSelector } from '@gleaner/core/plugin';

/** The error that moves an agent task to a browser driver. */
export function needsBrowser(what: string): GleanerError {
  return new GleanerError('NEEDS_BROWSER', `${what}: this needs JavaScript, which the http driver does not run; use a browser driver (playwright or selenium)`);
}

/** `<button id="go" class="primary"> "Load more"`: tag, id or first classes, and a short text. */
export function describeElement(el: Element): string {
  let tag = el.localName;
  const id = el.getAttribute('id');
  if (id) tag += `#${id}`;
  else {
    const classes = (el.getAttribute('class') ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 2);
    if (classes.length) tag += `.${classes.join('.')}`;
  }
  for (const attr of ['type', 'role', 'href', 'name']) {
    const v = el.getAttribute(attr);
    if (v !== null) tag += ` ${attr}="${v.slice(0, 60)}"`;
  }
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim() || el.getAttribute('value') || el.getAttribute('aria-label') || '';
  return `<${tag}>${text ? ` ${JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text)}` : ''}`;
}

/**
 * The element a target names, or null when none matches. Targets inside iframes (`iframe >>> a`)
 * need a browser: the http driver does not load frames.
 */
export function findTarget(doc: Document, target: string): Element | null {
  const t = target.trim();
  if (!t) throw new GleanerError('BAD_REQUEST', 'an empty selector was given for a page action');
  if (splitFrameSelector(t).length > 1) throw needsBrowser(`${t} is inside an iframe`);
  try {
    return doc.querySelector(refSelector(t));
  } catch (err) {
    throw new GleanerError('BAD_REQUEST', `${t} is not a valid CSS selector or outline ref`, { cause: err });
  }
}

/** Like findTarget, but a target matching nothing is an error naming it. */
export function requireTarget(doc: Document, target: string, url: string): Element {
  const el = findTarget(doc, target);
  if (el) return el;
  if (isRef(target)) throw new GleanerError('BAD_REQUEST', `no element carries ref ${target.trim()} on ${url}; take a new outline`);
  throw new GleanerError('BAD_REQUEST', `no element matches ${target.trim()} on ${url} (the page as served, without JavaScript)`);
}
