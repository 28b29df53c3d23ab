/**
 * The in-page outline script (see page-scripts.ts for how drivers run it). Everything it needs lives
 * inside the function: drivers ship `outlinePage.toString()` into the page, so it may use DOM APIs
 * but nothing from this module's scope. Node strips the TypeScript types at load time, which leaves
 * valid JavaScript behind.
 */
import type { OutlineElement, PageOutline } from '../plugins/driver.ts';

export interface OutlineScriptOptions {
  /** Elements listed at most (default 200); the rest still appear as plain text. */
  maxElements?: number;
  /** Characters of `text`, about (default 6000; a cut-off text ends with `[…]`). */
  maxText?: number;
}

/**
 * IN-PAGE ONLY (run it through a driver, never in Node). Lists the visible interactive elements in
 * document order — `a[href]`, `button`, non-hidden `input`, `select`, `textarea`, `summary`, the
 * interactive ARIA roles, `[onclick]`, `[contenteditable]` — and renders the page as compact text
 * (headings as `#`, list items as `-`, elements inline as `[e3 button "Load more"]`).
 *
 * Refs (`e1`, `e2`, ...) are stamped on the elements as `data-gleaner-ref` and reused on later calls,
 * so they do not shift when the page grows; a counter on `window` keeps numbers of removed elements
 * from being handed out again. A ref resolves with `[data-gleaner-ref="eN"]` (`refSelector`), or
 * across frames with the `findRef` script.
 *
 * `selector` prefers stable attributes (a unique non-generated `#id`, `data-testid`, `name`,
 * `aria-label`, `href`, `placeholder`, `title`) and falls back to the shortest unique
 * `tag:nth-of-type(k)` path. Elements of same-origin iframes are included (refs stay unique across
 * frames); their selector is the iframe's selector, ` >>> `, and the selector inside the frame —
 * nested frames chain further (`splitFrameSelector` splits it). Shadow DOM is not entered.
 */
export function outlinePage(opts?: OutlineScriptOptions | null): PageOutline {
  const maxElements = opts?.maxElements ?? 200;
  const maxText = opts?.maxText ?? 6000;
  const INTERACTIVE =
    'a[href], button, input:not([type="hidden" i]), select, textarea, summary, [role="button"], [role="link"], ' +
    '[role="checkbox"], [role="tab"], [role="menuitem"], [role="option"], [role="combobox"], [role="textbox"], ' +
    '[onclick], [contenteditable]:not([contenteditable="false" i])';
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'meta', 'link', 'object', 'embed', 'canvas', 'video', 'audio']);
  const BLOCK = new Set([
    'address',
    'article',
    'aside',
    'blockquote',
    'br',
    'caption',
    'dd',
    'details',
    'dialog',
    'div',
    'dl',
    'dt',
    'fieldset',
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
    'p',
    'pre',
    'section',
    'table',
    'tr',
    'ul',
  ]);
  const win = window as unknown as { __gleanerNextRef?: number };
  let next = win.__gleanerNextRef ?? 1;
  for (const el of Array.from(document.querySelectorAll('[data-gleaner-ref]'))) {
    const m = /^e(\d+)$/.exec(el.getAttribute('data-gleaner-ref') ?? '');
    if (m) next = Math.max(next, Number(m[1]) + 1);
  }
  const seen = new Set<string>();
  const elements: OutlineElement[] = [];
  const lines: string[] = [];
  let line = '';
  let prefix = '';
  let textLen = 0;
  let textFull = false;

  const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const cap = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
  const quote = (v: string) => '"' + v.replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\a ') + '"';

  function emit(s: string): void {
    if (!textFull) line += s;
  }
  function flush(): void {
    const t = clean(line);
    line = '';
    if (!t || textFull) return;
    const out = prefix + t;
    prefix = '';
    if (textLen + out.length > maxText) {
      lines.push(cap(out, Math.max(1, maxText - textLen)));
      lines.push('[…]');
      textFull = true;
      return;
    }
    lines.push(out);
    textLen += out.length + 1;
  }

  function visible(el: Element): boolean {
    if (el.checkVisibility({ visibilityProperty: true })) return true;
    const view = el.ownerDocument.defaultView;
    return !!view && view.getComputedStyle(el).display === 'contents';
  }

  function stableId(id: string): boolean {
    return !/^\d|\d{4,}|:|^(ember|react|radix|headlessui|mui|yui|ext-gen|gwt|__)|(?=[0-9a-f]*\d)[0-9a-f]{8,}/i.test(id);
  }

  function selectorFor(el: Element, doc: Document): string {
    const unique = (sel: string) => {
      try {
        const all = doc.querySelectorAll(sel);
        return all.length === 1 && all[0] === el;
      } catch {
        return false;
      }
    };
    const tag = CSS.escape(el.localName);
    if (el.id && stableId(el.id) && unique('#' + CSS.escape(el.id))) return '#' + CSS.escape(el.id);
    for (const attr of ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy']) {
      const v = el.getAttribute(attr);
      if (!v) continue;
      if (unique(`[${attr}=${quote(v)}]`)) return `[${attr}=${quote(v)}]`;
      if (unique(`${tag}[${attr}=${quote(v)}]`)) return `${tag}[${attr}=${quote(v)}]`;
    }
    for (const attr of ['name', 'aria-label', 'href', 'placeholder', 'title', 'src']) {
      const v = el.getAttribute(attr);
      if (v && v.length <= 200 && unique(`${tag}[${attr}=${quote(v)}]`)) return `${tag}[${attr}=${quote(v)}]`;
    }
    let path = '';
    for (let cur: Element | null = el; cur; cur = cur.parentElement) {
      const node: Element = cur;
      let step = CSS.escape(node.localName);
      if (node !== el && node.id && stableId(node.id) && doc.querySelectorAll('#' + CSS.escape(node.id)).length === 1) {
        step = '#' + CSS.escape(node.id);
      } else if (node.parentElement) {
        const same = Array.from(node.parentElement.children).filter((c) => c.localName === node.localName);
        if (same.length > 1) step += `:nth-of-type(${same.indexOf(node) + 1})`;
      }
      path = path ? `${step} > ${path}` : step;
      if (unique(path)) return path;
    }
    return path;
  }

  function roleOf(el: Element): string {
    const explicit = clean(el.getAttribute('role')).split(' ')[0];
    if (explicit) return explicit;
    const tag = el.localName;
    if (tag === 'a') return 'link';
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') {
      const s = el as HTMLSelectElement;
      return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
    }
    if (tag === 'input') {
      const type = (el as HTMLInputElement).type;
      if (type === 'checkbox' || type === 'radio') return type;
      if (['button', 'submit', 'reset', 'image', 'file'].includes(type)) return 'button';
      if (type === 'range') return 'slider';
      if (type === 'number') return 'spinbutton';
      if (type === 'search') return 'searchbox';
      return 'textbox';
    }
    if ((el as HTMLElement).isContentEditable) return 'textbox';
    return 'clickable';
  }

  function nameOf(el: Element, doc: Document): string {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const t = clean(
        by
          .split(/\s+/)
          .map((id) => doc.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      if (t) return t;
    }
    const candidates: Array<string | null | undefined> = [el.getAttribute('aria-label')];
    const labels = (el as HTMLInputElement).labels;
    if (labels)
      candidates.push(
        Array.from(labels)
          .map((l) => l.innerText)
          .join(' '),
      );
    const tag = el.localName;
    const type = (el as HTMLInputElement).type;
    if (tag === 'input' && ['button', 'submit', 'reset'].includes(type)) candidates.push((el as HTMLInputElement).value);
    if (tag !== 'input' && tag !== 'select' && tag !== 'textarea') candidates.push((el as HTMLElement).innerText);
    candidates.push(el.getAttribute('placeholder'), el.getAttribute('title'), el.getAttribute('alt'), el.querySelector('img[alt]')?.getAttribute('alt'));
    if (tag === 'input' && type !== 'password') candidates.push((el as HTMLInputElement).value);
    for (const c of candidates) {
      const t = clean(c);
      if (t) return cap(t, 80);
    }
    return '';
  }

  function valueOf(el: Element): string | undefined {
    const tag = el.localName;
    if (tag === 'input') {
      const input = el as HTMLInputElement;
      if (input.type === 'checkbox' || input.type === 'radio') return input.checked ? 'checked' : 'unchecked';
      if (input.type === 'password' || ['button', 'submit', 'reset', 'image', 'file'].includes(input.type)) return undefined;
      return cap(input.value, 200);
    }
    if (tag === 'textarea') return cap((el as HTMLTextAreaElement).value, 200);
    if (tag === 'select')
      return cap(
        Array.from((el as HTMLSelectElement).selectedOptions)
          .map((o) => clean(o.label))
          .join(', '),
        200,
      );
    return undefined;
  }

  function describe(el: Element, framePrefix: string, doc: Document): OutlineElement | null {
    if (elements.length >= maxElements) return null;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return null;
    let ref = el.getAttribute('data-gleaner-ref');
    if (!ref || !/^e\d+$/.test(ref) || seen.has(ref)) {
      ref = 'e' + next++;
      el.setAttribute('data-gleaner-ref', ref);
    }
    seen.add(ref);
    const item: OutlineElement = { ref, role: roleOf(el), name: nameOf(el, doc), selector: framePrefix + selectorFor(el, doc), tag: el.localName };
    const value = valueOf(el);
    if (value !== undefined) item.value = value;
    if (el.localName === 'a' && (el as HTMLAnchorElement).href) item.href = (el as HTMLAnchorElement).href;
    elements.push(item);
    return item;
  }

  function walkFrame(frame: HTMLIFrameElement, framePrefix: string, doc: Document): void {
    let inner: Document | null = null;
    try {
      inner = frame.contentDocument;
    } catch {
      inner = null;
    }
    if (!inner?.body) return;
    flush();
    walk(inner.body, framePrefix + selectorFor(frame, doc) + ' >>> ', inner);
    flush();
  }

  function walk(parent: Node, framePrefix: string, doc: Document): void {
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (textFull && elements.length >= maxElements) return;
      if (child.nodeType === Node.TEXT_NODE) {
        emit((child as Text).data);
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const el = child as Element;
      const tag = el.localName;
      if (SKIP.has(tag) || !visible(el)) continue;
      if (tag === 'iframe') {
        walkFrame(el as HTMLIFrameElement, framePrefix, doc);
        continue;
      }
      const block = BLOCK.has(tag);
      if (block) {
        flush();
        if (/^h[1-6]$/.test(tag)) prefix = '#'.repeat(Number(tag[1])) + ' ';
        else if (tag === 'li') prefix = '- ';
      }
      const item = el.matches(INTERACTIVE) ? describe(el, framePrefix, doc) : null;
      if (item) {
        emit(` [${item.ref} ${item.role}${item.name ? ' ' + JSON.stringify(item.name) : ''}] `);
        // A clickable card can hold links and buttons of its own.
        if (el.querySelector(INTERACTIVE)) walk(el, framePrefix, doc);
      } else {
        walk(el, framePrefix, doc);
      }
      if (block) {
        flush();
        prefix = '';
      } else if (tag === 'td' || tag === 'th') {
        emit(' ');
      }
    }
  }

  walk(document.body ?? document.documentElement, '', document);
  flush();
  win.__gleanerNextRef = next;
  return { url: location.href, title: document.title, elements, text: lines.join('\n') };
}
