// What linkedom lacks for the outline script and the form code to see a page as a browser does:
// resolved `a.href`, input `type`/`checked`/`labels`, select `multiple`/`selectedOptions`, option
// `value`/`label`, `checkVisibility`, a non-empty box for rendered elements, `CSS.escape` and a
// `getComputedStyle` of display and visibility (inline styles and the page's `<style>` rules). The properties are defined once on linkedom's own classes
// (only this driver uses linkedom in the process). Form state lives in attributes (`value`,
// `checked`, `selected`, a textarea's text), so a serialized document shows what was typed.
import {
  Element as DomElement,
  HTMLAnchorElement,
  HTMLButtonElement,
  HTMLElement,
  HTMLInputElement,
  HTMLOptionElement,
  HTMLSelectElement,
  HTMLTextAreaElement,
  parseHTML,
} from 'linkedom';
import { closest, matches, querySelector, querySelectorAll } from './selectors.ts';
import { DocumentStyles, declarations } from './styles.ts';
import type { OwnStyle } from './styles.ts';

/** The URL each parsed document was fetched from (linkedom documents have none), its charset, and its base URL once known. */
const documentUrls = new WeakMap<object, { url: string; charset?: string; base?: string }>();

export function setDocumentUrl(doc: Document, url: string, charset?: string): void {
  documentUrls.set(doc, { url, charset });
}

/** The encoding the document was decoded with (WHATWG name), when known. */
export function documentCharset(doc: Document): string | undefined {
  return documentUrls.get(doc)?.charset;
}

export function documentUrl(doc: Document): string {
  return documentUrls.get(doc)?.url ?? 'about:blank';
}

/** The document's base URL: its first `<base href>` resolved against the document URL (looked up once). */
export function baseUrl(doc: Document): string {
  const entry = documentUrls.get(doc) ?? { url: 'about:blank' };
  if (entry.base === undefined) {
    entry.base = entry.url;
    const base = doc.querySelector('base[href]')?.getAttribute('href');
    if (base) {
      try {
        entry.base = new URL(base.trim(), entry.url).href;
      } catch {
        // an invalid <base> is ignored, as browsers do
      }
    }
  }
  return entry.base;
}

/** `attr` resolved against the document base; the attribute as is when it does not parse (as browsers). */
export function resolveAgainstBase(el: Element, raw: string): string {
  try {
    return new URL(raw.trim(), baseUrl(el.ownerDocument)).href;
  } catch {
    return raw;
  }
}

const INPUT_TYPES = new Set([
  'hidden',
  'text',
  'search',
  'tel',
  'url',
  'email',
  'password',
  'date',
  'month',
  'week',
  'time',
  'datetime-local',
  'number',
  'range',
  'color',
  'checkbox',
  'radio',
  'file',
  'submit',
  'image',
  'reset',
  'button',
]);

/** An input's type as the IDL attribute reports it: lower-case, `text` when absent or unknown. */
export function inputType(el: Element): string {
  const t = (el.getAttribute('type') ?? '').trim().toLowerCase();
  return INPUT_TYPES.has(t) ? t : 'text';
}

/** A button's type: `submit` unless `reset` or `button` is given. */
export function buttonType(el: Element): string {
  const t = (el.getAttribute('type') ?? '').trim().toLowerCase();
  return t === 'reset' || t === 'button' ? t : 'submit';
}

/** Each document's cascade of display/visibility (styles.ts), built on first use. */
const documentStyles = new WeakMap<Document, DocumentStyles>();

function ownStyle(el: Element): OwnStyle {
  const doc = el.ownerDocument;
  let styles = documentStyles.get(doc);
  if (!styles) {
    styles = new DocumentStyles(doc);
    documentStyles.set(doc, styles);
  }
  return styles.own(el);
}

/** After an action changed the document: styles are computed afresh (a rule may select `[open]`). */
export function invalidateStyles(doc: Document): void {
  documentStyles.get(doc)?.invalidate();
}

/** Not rendered by itself: hidden attribute, hidden input, `<template>`, display:none (inline or a `<style>` rule). */
function hiddenItself(el: Element, child: Element | null): boolean {
  const tag = el.localName;
  if (el.hasAttribute('hidden') && el.getAttribute('hidden')?.toLowerCase() !== 'until-found') return true;
  if (tag === 'template' || tag === 'head' || tag === 'script' || tag === 'style') return true;
  if (tag === 'input' && inputType(el) === 'hidden') return true;
  if (tag === 'dialog' && !el.hasAttribute('open')) return true;
  // A closed <details> renders its first <summary> only.
  if (tag === 'details' && child && !el.hasAttribute('open') && !(child.localName === 'summary' && el.querySelector(':scope > summary') === child)) return true;
  return ownStyle(el).display === 'none';
}

/** `visibility` as inherited from the nearest element that sets it. */
function inheritedVisibility(el: Element): string {
  for (let cur: Element | null = el; cur; cur = cur.parentElement) {
    const v = ownStyle(cur).visibility;
    if (v) return v;
  }
  return 'visible';
}

/** Rendered: neither it nor an ancestor is hidden (see hiddenItself); with visibilityProperty, not visibility:hidden. */
export function isRendered(el: Element, opts?: { visibilityProperty?: boolean }): boolean {
  let child: Element | null = null;
  for (let cur: Element | null = el; cur; child = cur, cur = cur.parentElement) {
    if (hiddenItself(cur, child)) return false;
  }
  if (opts?.visibilityProperty || (opts as { checkVisibilityCSS?: boolean } | undefined)?.checkVisibilityCSS) {
    const v = inheritedVisibility(el);
    if (v === 'hidden' || v === 'collapse') return false;
  }
  return true;
}

/** What the outline script reads from getComputedStyle (display, visibility, overflowY). */
export function computedStyle(el: Element): { display: string; visibility: string; overflowY: string; getPropertyValue(name: string): string } {
  const inline = declarations(el.getAttribute('style') ?? '');
  const display = isRendered(el) ? (ownStyle(el).display ?? 'block') : 'none';
  const style = { display, visibility: inheritedVisibility(el), overflowY: inline.get('overflow-y')?.value ?? inline.get('overflow')?.value ?? 'visible' };
  return { ...style, getPropertyValue: (name: string) => (name === 'display' || name === 'visibility' ? style[name] : (inline.get(name)?.value ?? '')) };
}

/**
 * A 1×1 box for what is rendered, 0×0 otherwise: the outline script skips empty boxes, and in a
 * browser every rendered element has one (an empty inline link still has a line's height).
 */
function boxOf(el: Element): DOMRect {
  const size = isRendered(el) ? 1 : 0;
  return { x: 0, y: 0, top: 0, left: 0, bottom: size, right: size, width: size, height: size, toJSON: () => ({}) } as DOMRect;
}

const SKIP_TEXT = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'desc']);
const BLOCK_TEXT =
  /^(address|article|aside|blockquote|br|dd|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tr|ul)$/;

/** innerText: the rendered text (no scripts, nothing hidden), spaces collapsed. */
function renderedText(el: Element): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) parts.push((c as Text).data);
      else if (c.nodeType === 1) {
        const e = c as Element;
        if (SKIP_TEXT.has(e.localName) || hiddenItself(e, null)) continue;
        const block = BLOCK_TEXT.test(e.localName);
        if (block) parts.push('\n');
        walk(e);
        if (block) parts.push('\n');
      }
    }
  };
  walk(el);
  return parts
    .join('')
    .replace(/[ \t\r\f]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}

/** An input's value: its `value` attribute, else the type's default (`on`, a range's midpoint, black). */
export function inputValue(el: Element): string {
  const v = el.getAttribute('value');
  if (v !== null) return v;
  const type = inputType(el);
  if (type === 'checkbox' || type === 'radio') return 'on';
  if (type === 'color') return '#000000';
  if (type === 'range') {
    const min = Number(el.getAttribute('min') ?? '') || 0;
    const max = Number(el.getAttribute('max') ?? '') || 100;
    return String(max < min ? min : min + (max - min) / 2);
  }
  return '';
}

/** The labels of a form control: `<label for=id>` and an enclosing `<label>` without `for`. */
function labelsOf(el: Element): Element[] {
  const out: Element[] = [];
  const id = el.getAttribute('id');
  const doc = el.ownerDocument;
  for (const label of Array.from(doc.querySelectorAll('label'))) {
    const forId = label.getAttribute('for');
    if (forId !== null ? id !== null && forId === id : firstLabelable(label) === el) out.push(label);
  }
  return out;
}

const LABELABLE = 'button, input:not([type="hidden" i]), meter, output, progress, select, textarea';

/** A label's control: the element its `for` names, else its first labelable descendant. */
export function firstLabelable(label: Element): Element | null {
  const forId = label.getAttribute('for');
  if (forId !== null) {
    const target = label.ownerDocument.getElementById(forId);
    return target && target.matches(LABELABLE) ? target : null;
  }
  return label.querySelector(LABELABLE);
}

/** A select's options, optgroups included, in order. */
export function optionsOf(select: Element): Element[] {
  return Array.from(select.querySelectorAll('option'));
}

/** An option's value: its `value` attribute, else its text with spaces collapsed. */
export function optionValue(option: Element): string {
  return option.getAttribute('value') ?? (option.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export function optionLabel(option: Element): string {
  return option.getAttribute('label') || (option.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export function isMultiple(select: Element): boolean {
  return select.hasAttribute('multiple');
}

/**
 * The selected options: those with `selected`; a single-choice drop-down without one shows its
 * first enabled option as selected (the "selectedness setting" of the HTML spec).
 */
export function selectedOptions(select: Element): Element[] {
  const options = optionsOf(select);
  const picked = options.filter((o) => o.hasAttribute('selected'));
  if (isMultiple(select)) return picked;
  if (picked.length) return [picked[picked.length - 1]];
  const size = Number(select.getAttribute('size') ?? 0);
  if (size > 1) return [];
  const first = options.find((o) => !o.hasAttribute('disabled'));
  return first ? [first] : [];
}

/** CSS.escape, per CSSOM (serialize an identifier). */
export function cssEscape(value: string): string {
  const s = String(value);
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s.charAt(i);
    const code = s.charCodeAt(i);
    if (code === 0) out += '\uFFFD';
    else if (
      (code >= 0x1 && code <= 0x1f) ||
      code === 0x7f ||
      (i === 0 && code >= 0x30 && code <= 0x39) ||
      (i === 1 && code >= 0x30 && code <= 0x39 && s.charCodeAt(0) === 0x2d)
    ) {
      out += `\\${code.toString(16)} `;
    } else if (i === 0 && s.length === 1 && code === 0x2d) out += `\\${ch}`;
    else if (code >= 0x80 || code === 0x2d || code === 0x5f || /[0-9A-Za-z]/.test(ch)) out += ch;
    else out += `\\${ch}`;
  }
  return out;
}

function define(proto: object, props: Record<string, PropertyDescriptor>): void {
  for (const [name, desc] of Object.entries(props)) Object.defineProperty(proto, name, { configurable: true, ...desc });
}

let installed = false;

/** Installs the properties on linkedom's classes (once). */
export function installShims(): void {
  if (installed) return;
  installed = true;
  // Selectors compiled once (selectors.ts), on elements and on documents.
  const query = {
    querySelector: {
      value(this: Node, sel: string) {
        return querySelector(this, String(sel));
      },
    },
    querySelectorAll: {
      value(this: Node, sel: string) {
        return querySelectorAll(this, String(sel));
      },
    },
  };
  define(Object.getPrototypeOf(parseHTML('<html></html>').document), query);
  define(DomElement.prototype, {
    ...query,
    matches: {
      value(this: Element, sel: string) {
        return matches(this, String(sel));
      },
    },
    closest: {
      value(this: Element, sel: string) {
        return closest(this, String(sel));
      },
    },
  });
  // On Element (not only HTMLElement): MathML and foreign elements are walked too.
  define(DomElement.prototype, {
    checkVisibility: {
      value(this: Element, opts?: { visibilityProperty?: boolean }) {
        return isRendered(this, opts);
      },
    },
    getBoundingClientRect: {
      value(this: Element) {
        return boxOf(this);
      },
    },
  });
  define(HTMLElement.prototype, {
    innerText: {
      get(this: Element) {
        return renderedText(this);
      },
    },
    isContentEditable: {
      get(this: Element) {
        const holder = this.closest('[contenteditable]');
        return !!holder && (holder.getAttribute('contenteditable') ?? '').toLowerCase() !== 'false';
      },
    },
  });
  define(HTMLAnchorElement.prototype, {
    href: {
      get(this: Element) {
        const raw = this.getAttribute('href');
        return raw === null ? '' : resolveAgainstBase(this, raw);
      },
    },
  });
  const labels = {
    get(this: Element) {
      return labelsOf(this);
    },
  };
  define(HTMLInputElement.prototype, {
    type: {
      get(this: Element) {
        return inputType(this);
      },
    },
    checked: {
      get(this: Element) {
        return this.hasAttribute('checked');
      },
      set(this: Element, on: boolean) {
        if (on) this.setAttribute('checked', '');
        else this.removeAttribute('checked');
      },
    },
    value: {
      get(this: Element) {
        return inputValue(this);
      },
      set(this: Element, v: string) {
        this.setAttribute('value', String(v));
      },
    },
    labels,
  });
  define(HTMLTextAreaElement.prototype, { labels });
  define(HTMLButtonElement.prototype, {
    labels,
    type: {
      get(this: Element) {
        return buttonType(this);
      },
    },
  });
  define(HTMLSelectElement.prototype, {
    labels,
    multiple: {
      get(this: Element) {
        return isMultiple(this);
      },
    },
    size: {
      get(this: Element) {
        return Number(this.getAttribute('size') ?? 0) || 0;
      },
    },
    selectedOptions: {
      get(this: Element) {
        return selectedOptions(this);
      },
    },
    value: {
      get(this: Element) {
        const o = selectedOptions(this)[0];
        return o ? optionValue(o) : '';
      },
    },
  });
  define(HTMLOptionElement.prototype, {
    value: {
      get(this: Element) {
        return optionValue(this);
      },
      set(this: Element, v: string) {
        this.setAttribute('value', String(v));
      },
    },
    label: {
      get(this: Element) {
        return optionLabel(this);
      },
    },
  });
}
