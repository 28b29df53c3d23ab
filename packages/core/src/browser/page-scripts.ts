/**
 * Scripts the browser drivers run inside the page, shared so that Playwright and Selenium outline,
 * snapshot and scroll a page identically. Each script is a self-contained function (DOM APIs only,
 * nothing from module scope); Node strips the TypeScript types at load time, so `fn.toString()` is
 * valid JavaScript. Run them as:
 *
 * - Playwright: `page.evaluate(scriptCall('outline', opts))`, or `page.evaluate(outlinePage, opts)`.
 * - Selenium: `driver.executeScript('return (' + PAGE_SCRIPTS.outline + ')(arguments[0])', opts)`.
 *
 * Addressing elements: an agent names an element by ref (`e7`, from `outlinePage`) or by CSS
 * selector. A ref in the top document is `refSelector('e7')` = `[data-gleaner-ref="e7"]`; a ref may
 * also live in a same-origin iframe, so drivers resolve refs with the `findRef` script, which returns
 * a frame chain. A frame chain is `iframeSelector >>> ... >>> elementSelector` (the outline's
 * selectors for elements in frames look the same); `splitFrameSelector` splits it, and the driver
 * enters each frame in turn. ` >>> ` is Gleaner's notation, never handed to a selector engine as is.
 */
import { outlinePage } from './outline-script.ts';
import type { OutlineElement, PageOutline } from '../plugins/driver.ts';

export { outlinePage } from './outline-script.ts';
export type { OutlineScriptOptions } from './outline-script.ts';

/** The separator between frame selectors in a frame chain. */
export const FRAME_SEPARATOR = ' >>> ';

/**
 * IN-PAGE ONLY. The page as HTML: `<!DOCTYPE ...>` (when the page has one) plus the live
 * `documentElement.outerHTML`, with each same-origin iframe (nested ones too) replaced, in a clone,
 * by `<div data-gleaner-iframe="<frame URL>">` holding the frame body's content (unless
 * `inlineFrames` is false). Cross-origin iframes stay as they are. Gleaner's own
 * `data-gleaner-ref`/`data-gleaner-frame` stamps are removed. With `inlineFrames` false and no
 * stamps on the page, this is the document serialized as it is (what Playwright's `page.content()`
 * returns, without loading Playwright's injected script into the page).
 */
export function snapshotHtml(inlineFrames = true): string {
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  const root = document.documentElement;
  if (!root) return doctype;
  if (!inlineFrames && !document.querySelector('[data-gleaner-ref], [data-gleaner-frame]')) return doctype + root.outerHTML;
  function inline(doc: Document): HTMLElement {
    const clone = doc.documentElement.cloneNode(true) as HTMLElement;
    const originals = inlineFrames ? Array.from(doc.querySelectorAll('iframe')) : [];
    const copies = Array.from(clone.querySelectorAll('iframe'));
    originals.forEach((frame, i) => {
      let inner: Document | null = null;
      try {
        inner = frame.contentDocument;
      } catch {
        inner = null;
      }
      const copy = copies[i];
      if (!inner?.documentElement || !copy) return;
      const div = doc.createElement('div');
      div.setAttribute('data-gleaner-iframe', inner.URL);
      const body = inline(inner).querySelector('body');
      while (body?.firstChild) div.appendChild(body.firstChild);
      copy.replaceWith(div);
    });
    for (const el of Array.from(clone.querySelectorAll('[data-gleaner-ref], [data-gleaner-frame]'))) {
      el.removeAttribute('data-gleaner-ref');
      el.removeAttribute('data-gleaner-frame');
    }
    return clone;
  }
  return doctype + inline(document).outerHTML;
}

/** What `scrollPage` reports. */
export interface ScrollResult {
  /** scrollHeight of the scrolled box before and right after scrolling (lazy content comes later). */
  before: number;
  after: number;
  /** Scroll position afterwards, and whether it is at the bottom. */
  y: number;
  atBottom: boolean;
  /** False when `selector` matched nothing (nothing was scrolled). */
  found: boolean;
}

/**
 * IN-PAGE ONLY. Scrolls an element into view (`selector`, a frame chain allowed), to the top or
 * bottom, or by `pixels` (default: most of a viewport down). Pages whose document does not scroll
 * (an app with its own scrolling box) scroll their largest scrollable box instead. The driver then
 * waits, bounded, for lazy content (network idle, or `domSize()` growing).
 */
export function scrollPage(opts?: { to?: 'top' | 'bottom'; selector?: string; pixels?: number } | null): ScrollResult {
  const o = opts ?? {};
  let box: Element = document.scrollingElement ?? document.documentElement;
  if (box.scrollHeight <= box.clientHeight + 1) {
    let best = 0;
    for (const el of Array.from(document.querySelectorAll('*'))) {
      if (el.scrollHeight <= el.clientHeight + 1 || el.clientHeight < 50) continue;
      const overflow = getComputedStyle(el).overflowY;
      const area = el.clientHeight * el.clientWidth;
      if ((overflow === 'auto' || overflow === 'scroll') && area > best) {
        best = area;
        box = el;
      }
    }
  }
  const before = box.scrollHeight;
  let found = true;
  if (o.selector) {
    const parts = o.selector.split(/\s*>>>\s*/);
    let doc: Document | null = document;
    let target: Element | null = null;
    for (let i = 0; i < parts.length && doc; i++) {
      target = doc.querySelector(parts[i]);
      doc = i < parts.length - 1 ? ((target as HTMLIFrameElement | null)?.contentDocument ?? null) : doc;
    }
    if (target && doc) target.scrollIntoView({ block: 'center', inline: 'nearest' });
    else found = false;
  } else if (o.to === 'top') {
    box.scrollTop = 0;
  } else if (o.to === 'bottom') {
    box.scrollTop = box.scrollHeight;
  } else {
    box.scrollTop += o.pixels ?? Math.round(Math.min(box.clientHeight, window.innerHeight) * 0.9);
  }
  const y = Math.round(box.scrollTop);
  return { before, after: box.scrollHeight, y, atBottom: y + box.clientHeight >= box.scrollHeight - 2, found };
}

/** What `quietPage` takes. */
export interface QuietArgs {
  quietMs: number;
  maxMs: number;
  afterChange?: boolean;
}

/** What `quietPage` resolves to. */
export interface QuietResult {
  /** True when the document went `quietMs` without a change; false when `maxMs` ran out first. */
  quiet: boolean;
}

/** The document's change count, kept on `window` (see `changeRecorder`). */
export interface ChangeRecorder {
  /** Changes since the recorder was installed or last restarted. */
  count: number;
  /** `performance.now()` of the last change (of the install, before any). */
  last: number;
  observer: MutationObserver;
}

/**
 * IN-PAGE ONLY. The top document's change recorder, installed on first use (one per document, so
 * a navigation starts without one): a MutationObserver counting elements added or removed, text
 * edited, and changes to the attributes that show, hide or open things (`hidden`, `open`, `class`,
 * `disabled`, `aria-hidden`, `aria-expanded`, `aria-selected`, `aria-busy`). Style changes are left
 * out, so an animation does not count; so are the outline's own `data-gleaner-*` stamps. `restart`
 * sets the count to 0 (`PAGE_SCRIPTS.outline` does, after outlining). Returns the recorder and
 * whether this call installed it; null where there is no MutationObserver (no scripts run).
 */
export function changeRecorder(restart: boolean): [ChangeRecorder, boolean] | null {
  if (typeof MutationObserver !== 'function') return null;
  const w = window as unknown as { __gleanerChanges?: ChangeRecorder };
  let rec = w.__gleanerChanges;
  const created = !rec;
  if (!rec) {
    const r: ChangeRecorder = { count: 0, last: performance.now(), observer: null as unknown as MutationObserver };
    r.observer = new MutationObserver((records) => {
      r.count += records.length;
      r.last = performance.now();
    });
    r.observer.observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['hidden', 'open', 'class', 'disabled', 'aria-hidden', 'aria-expanded', 'aria-selected', 'aria-busy'],
    });
    rec = w.__gleanerChanges = r;
  }
  if (restart) {
    rec.observer.takeRecords();
    rec.count = 0;
  }
  return [rec, created];
}

/**
 * IN-PAGE ONLY (as `PAGE_SCRIPTS.quiet`, which hands it `changeRecorder(false)`). Resolves once the
 * top document has gone `quietMs` without a change (as `changeRecorder` counts them), or when
 * `maxMs` has passed. Drivers add their own condition (no request in flight).
 *
 * `afterChange`: first wait for the document to change since the last `PAGE_SCRIPTS.outline`
 * (which restarts the count; a recorder this call installed means the document is newer than that
 * outline, i.e. the page navigated), then for quiet counted from the last change. An action's
 * effect is seen as soon as it happens, not at the next poll. Once that change has happened, a
 * document that has finished loading and shows no sign of scripts — no script element, frame,
 * plugin object, event-handler attribute, `javascript:` URL, meta refresh or shadow root, and no
 * script, fetch or XHR among the resources it loaded — is quiet at once: nothing but another action
 * can change it (a plain link followed, a `<details>` opened).
 */
export function quietPage(opts: QuietArgs, recorded: [ChangeRecorder, boolean] | null): Promise<QuietResult> {
  const start = performance.now();
  if (!recorded) return Promise.resolve({ quiet: true });
  const [rec, created] = recorded;
  /** Whether the document has nothing that runs scripts (looked at once it is parsed; null: not yet). */
  let scriptless: boolean | null = null;
  const inert = (): boolean => {
    if (scriptless === null && document.readyState !== 'loading') {
      try {
        const risky =
          'script, iframe, frame, object, embed, meta[http-equiv="refresh" i], [href^="javascript:" i], [action^="javascript:" i], [formaction^="javascript:" i], [src^="javascript:" i]';
        scriptless = !document.querySelector(risky) && document.getElementsByTagName('*').length <= 20000;
        // A script that removed itself still shows by what it loaded or fetched.
        if (scriptless)
          scriptless = !performance
            .getEntriesByType('resource')
            .some((e) => /^(script|fetch|xmlhttprequest|beacon)$/.test((e as PerformanceResourceTiming).initiatorType));
        if (scriptless) {
          const walker = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT);
          for (let n = walker.nextNode() as Element | null; n && scriptless; n = walker.nextNode() as Element | null) {
            if (n.shadowRoot) scriptless = false;
            for (let i = 0; i < n.attributes.length && scriptless; i++) if (/^on/i.test(n.attributes[i].name)) scriptless = false;
          }
        }
      } catch {
        // a page that broke the DOM's built-ins for itself has scripts
        scriptless = false;
      }
    }
    return scriptless === true && document.readyState === 'complete';
  };
  return new Promise((resolve) => {
    const check = () => {
      // Changes not yet handed to the observer's callback (made in this very task).
      for (const _ of rec.observer.takeRecords()) {
        rec.count++;
        rec.last = performance.now();
      }
      const now = performance.now();
      // Without afterChange, quiet counts from this call; with it, from the last change after the outline.
      const changed = !opts.afterChange || created || rec.count > 0;
      const since = opts.afterChange ? rec.last : Math.max(start, rec.last);
      const settled = changed && opts.afterChange === true && inert();
      const quiet = (changed && now - since >= opts.quietMs) || settled;
      if (quiet || now - start >= opts.maxMs) {
        resolve({ quiet });
      } else {
        // A document without scripts still loading (its images) is looked at again soon.
        const next = changed ? Math.max(4, Math.min(opts.quietMs - (now - since), opts.maxMs - (now - start))) : 4;
        setTimeout(check, changed && opts.afterChange && scriptless ? Math.min(next, 10) : next);
      }
    };
    check();
  });
}

/** IN-PAGE ONLY. Number of elements in the top document (to notice that content was added). */
export function domSize(): number {
  return document.getElementsByTagName('*').length;
}

/**
 * IN-PAGE ONLY. Where ref `eN` lives: `[data-gleaner-ref="eN"]` in the top document, or a frame
 * chain through same-origin iframes (each iframe stamped `data-gleaner-frame="fN"` to name it), or
 * null when no element carries the ref.
 */
export function findRef(ref: string): string | null {
  const own = `[data-gleaner-ref="${ref.replace(/[\\"]/g, '\\$&')}"]`;
  const win = window as unknown as { __gleanerNextFrame?: number };
  function search(doc: Document): string | null {
    if (doc.querySelector(own)) return own;
    for (const frame of Array.from(doc.querySelectorAll('iframe'))) {
      let inner: Document | null = null;
      try {
        inner = frame.contentDocument;
      } catch {
        inner = null;
      }
      const found = inner ? search(inner) : null;
      if (!found) continue;
      let name = frame.getAttribute('data-gleaner-frame');
      if (!name) {
        win.__gleanerNextFrame = (win.__gleanerNextFrame ?? 0) + 1;
        name = 'f' + win.__gleanerNextFrame;
        frame.setAttribute('data-gleaner-frame', name);
      }
      return `iframe[data-gleaner-frame="${name}"] >>> ${found}`;
    }
    return null;
  }
  return search(document);
}

/** A point to click at, in the top document's viewport (CSS pixels). */
export interface ClickPoint {
  x: number;
  y: number;
}

/**
 * IN-PAGE ONLY. The fast path of a click: the target (a ref, or a CSS selector) in the top document,
 * scrolled into view, enabled, visible, and itself (or a descendant) the element under its centre —
 * then the centre, where the driver clicks with a real mouse click in one step. Anything less
 * certain (a frame chain, no such element, covered, disabled, not rendered yet) is null, and the
 * driver's full click (locating, waiting, actionability checks) does the job.
 */
export function clickPoint(target: string): ClickPoint | null {
  const t = target.trim();
  if (window.top !== window || t.includes('>>>')) return null;
  const sel = /^e\d+$/.test(t) ? `[data-gleaner-ref="${t}"]` : t;
  let el: Element | null;
  try {
    el = document.querySelector(sel);
  } catch {
    return null;
  }
  if (!el || (el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') return null;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = el.getBoundingClientRect();
  const st = getComputedStyle(el);
  if (r.width < 1 || r.height < 1 || st.visibility !== 'visible' || st.pointerEvents === 'none') return null;
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return hit && (hit === el || el.contains(hit)) ? { x, y } : null;
}

/**
 * IN-PAGE ONLY. The fast path of typing: the target (a ref, or a CSS selector) in the top document,
 * a visible, enabled, writable `<input>` of a text kind or `<textarea>`, focused with the caret at
 * the end of its value (or, with `clear`, its whole value selected, so that what is typed replaces
 * it); true when so. Anything else is false and the driver's full typing does the job.
 */
export function focusField(args: { target: string; clear?: boolean }): boolean {
  const t = args.target.trim();
  if (window.top !== window || t.includes('>>>')) return false;
  const sel = /^e\d+$/.test(t) ? `[data-gleaner-ref="${t}"]` : t;
  let el: Element | null;
  try {
    el = document.querySelector(sel);
  } catch {
    return false;
  }
  const textual = /^(?:text|search|email|url|tel|password|number|)$/;
  const field =
    el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && textual.test((el.getAttribute('type') ?? '').toLowerCase()))
      ? (el as HTMLInputElement | HTMLTextAreaElement)
      : null;
  if (!field || field.disabled || field.readOnly) return false;
  field.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
  const r = field.getBoundingClientRect();
  if (r.width < 1 || r.height < 1 || getComputedStyle(field).visibility !== 'visible') return false;
  field.focus();
  if (document.activeElement !== field) return false;
  try {
    if (args.clear) field.select();
    else field.setSelectionRange(field.value.length, field.value.length);
  } catch {
    // input types without a selection (email, number): the caret stays where focus put it
    if (args.clear) return false;
  }
  return true;
}

/** The in-page scripts as JavaScript source, for drivers that send source text. */
export const PAGE_SCRIPTS = {
  /**
   * The outline, then the change recorder restarted (changes after this outline are an action's);
   * a page whose own MutationObserver is broken still gets its outline.
   */
  outline: `((opts) => { const outline = (${outlinePage.toString()})(opts); try { (${changeRecorder.toString()})(true); } catch {} return outline; })`,
  snapshotHtml: snapshotHtml.toString(),
  scroll: scrollPage.toString(),
  domSize: domSize.toString(),
  findRef: findRef.toString(),
  clickPoint: clickPoint.toString(),
  focusField: focusField.toString(),
  quiet: `((opts) => { let rec = null; try { rec = (${changeRecorder.toString()})(false); } catch {} return (${quietPage.toString()})(opts, rec); })`,
} as const;

export type PageScriptName = keyof typeof PAGE_SCRIPTS;

/** A JavaScript expression calling script `name` with `arg` (JSON), e.g. for `page.evaluate(expr)`. */
export function scriptCall(name: PageScriptName, arg?: unknown): string {
  return `(${PAGE_SCRIPTS[name]})(${arg === undefined ? '' : JSON.stringify(arg)})`;
}

/** What `documentCall` evaluates to. */
export interface PageDocument {
  /** `snapshotHtml(inlineFrames)`. */
  html: string;
  /** `document.characterSet`, lower-cased. */
  charset: string;
}

/**
 * One expression reading the document and its charset in a single round trip (a `PageDocument`).
 * The drivers read the page this way rather than through Playwright's `page.content()`, which first
 * compiles Playwright's whole injected script in a fresh isolated world of every new page.
 */
export function documentCall(inlineFrames: boolean): string {
  return `({ html: ${scriptCall('snapshotHtml', inlineFrames)}, charset: String(document.characterSet || '').toLowerCase() })`;
}

const REF = /^e\d+$/;

/** True when `target` is an outline ref such as `e7`. */
export function isRef(target: string): boolean {
  return REF.test(target.trim());
}

/** A ref (`e7`) as the attribute selector `[data-gleaner-ref="e7"]` (top document); anything else as is. */
export function refSelector(target: string): string {
  return isRef(target) ? `[data-gleaner-ref="${target.trim()}"]` : target;
}

/** A frame chain (`iframe#f >>> button`) as its parts: the frame selectors, then the element's. */
export function splitFrameSelector(selector: string): string[] {
  return selector
    .split(FRAME_SEPARATOR.trim())
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Node-side bounds of an outline: the page runs the outline script, so a hostile page can return anything. */
export const OUTLINE_LIMITS = Object.freeze({ elements: 200, text: 6000, field: 500 });

/**
 * Re-checks an outline a page returned: keeps well-formed elements only, at most
 * `OUTLINE_LIMITS.elements`, strings cut to their bounds. Drivers call it on every outline.
 */
export function capOutline(raw: unknown): PageOutline {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const str = (v: unknown, max: number = OUTLINE_LIMITS.field) => (typeof v === 'string' ? v.slice(0, max) : '');
  const elements = (Array.isArray(o.elements) ? o.elements : [])
    .filter((e): e is Record<string, unknown> => !!e && typeof e === 'object' && typeof (e as Record<string, unknown>).ref === 'string')
    .slice(0, OUTLINE_LIMITS.elements)
    .map((e) => {
      const el: OutlineElement = { ref: str(e.ref, 16), role: str(e.role, 40), name: str(e.name), selector: str(e.selector) };
      if (typeof e.tag === 'string') el.tag = str(e.tag, 40);
      if (typeof e.value === 'string') el.value = str(e.value);
      if (typeof e.href === 'string') el.href = str(e.href, 2000);
      return el;
    });
  const out: PageOutline = { url: str(o.url, 4000), title: str(o.title), elements };
  if (typeof o.text === 'string') out.text = o.text.slice(0, OUTLINE_LIMITS.text);
  return out;
}
