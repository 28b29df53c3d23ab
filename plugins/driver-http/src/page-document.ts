// The document of the last response, parsed with linkedom only when an interaction asks for it, and
// core's in-page scripts (outline, snapshot) run on it in a `node:vm` context whose globals are
// linkedom's window and document plus the shims of dom-shims.ts, so refs, selectors and text come out
// as the browser drivers' do.
import vm from 'node:vm';
import { Node as DomNode, parseHTML } from 'linkedom';
import { capOutline, scriptCall } from '@gleaner/core/plugin';
import type { PageOutline, PageScriptName } from '@gleaner/core/plugin';
import { computedStyle, cssEscape, installShims, invalidateStyles, setDocumentUrl } from './dom-shims.ts';

/** A script gets this long on a parsed document (it is our own code, but the page decides its size). */
const SCRIPT_TIMEOUT_MS = 5000;

/** The scripts compiled once per source (the calls the driver makes take constant arguments). */
const compiledScripts = new Map<string, vm.Script>();

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * linkedom's parser (htmlparser2) does not add the `<tbody>` the HTML parser implies around a table's
 * rows; browsers do, and outline selectors that path through a table must be the same.
 */
function impliedTableBodies(doc: Document): void {
  for (const table of Array.from(doc.querySelectorAll('table'))) {
    let body: Element | null = null;
    for (let child = table.firstChild; child;) {
      const next: ChildNode | null = child.nextSibling;
      const isRow = child.nodeType === 1 && (child as Element).localName === 'tr';
      const isSpace = child.nodeType === 3 && !(child as Text).data.trim();
      if (isRow) {
        if (!body) {
          body = doc.createElement('tbody');
          table.insertBefore(body, child);
        }
        body.appendChild(child);
      } else if (!(isSpace && body && next?.nodeType === 1 && (next as Element).localName === 'tr')) {
        body = null; // anything else between rows starts a new body (as the parser does)
      } else {
        body.appendChild(child);
      }
      child = next;
    }
  }
}

/** What `<noscript>` becomes in the parsed document: an element the outline walks (its script skips noscript). */
const NOSCRIPT = 'gleaner-noscript';

/**
 * Without JavaScript a browser shows what `<noscript>` holds (fallback links, a "Go" button next to a
 * select, "please enable JavaScript"): renamed, the outline lists and renders it. `html()` renames it back.
 */
function revealNoscript(doc: Document): void {
  for (const el of Array.from(doc.querySelectorAll('noscript'))) {
    const shown = doc.createElement(NOSCRIPT);
    for (const attr of Array.from(el.attributes)) shown.setAttribute(attr.name, attr.value);
    while (el.firstChild) shown.appendChild(el.firstChild);
    el.replaceWith(shown);
  }
}

export class PageDocument {
  readonly document: Document;
  readonly url: string;
  #context: vm.Context | undefined;
  #changed = false;

  /** Parses `html` (text/plain and JSON as a `<pre>`, as browsers show them) as the document at `url`, decoded from `charset`. */
  constructor(html: string, contentType: string, url: string, charset?: string) {
    installShims();
    const asText = `<!DOCTYPE html><html><head></head><body><pre>${escapeText(html)}</pre></body></html>`;
    const markup = contentType === '' || contentType.includes('html') ? html : asText;
    let document = parseHTML(markup).document as unknown as Document;
    // Markup without a single element ("OK", an empty body, JSON served as text/html) leaves linkedom
    // a document with no root, which every later read trips over: it is shown as text, as browsers do.
    if (!document.documentElement) document = parseHTML(asText).document as unknown as Document;
    this.document = document;
    impliedTableBodies(this.document);
    revealNoscript(this.document);
    this.url = url;
    setDocumentUrl(this.document, url, charset);
  }

  /**
   * The context the in-page scripts run in, with the globals a page offers them. Its global object is
   * the page's `window` (linkedom's own window writes through to Node's globalThis, so it is not used).
   */
  #vm(): vm.Context {
    if (!this.#context) {
      const getComputedStyle = (el: Element) => computedStyle(el);
      const win: Record<string, unknown> = {
        document: this.document,
        Node: DomNode,
        CSS: { escape: cssEscape },
        getComputedStyle,
        location: { href: this.url },
        XMLSerializer: class {
          serializeToString(node: Node): string {
            return String(node);
          }
        },
      };
      win.window = win;
      this.#context = vm.createContext(win);
      // The outline script reaches getComputedStyle through ownerDocument.defaultView too.
      Object.defineProperty(this.document, 'defaultView', { value: this.#context, configurable: true });
    }
    return this.#context;
  }

  /** Runs one of core's in-page scripts (`PAGE_SCRIPTS`) on this document. */
  run<T>(name: PageScriptName, arg?: unknown): T {
    const source = scriptCall(name, arg);
    let script = compiledScripts.get(source);
    if (!script) {
      script = new vm.Script(source, { filename: `gleaner-${name}.js` });
      compiledScripts.set(source, script);
    }
    return script.runInContext(this.#vm(), { timeout: SCRIPT_TIMEOUT_MS }) as T;
  }

  /** Set once an action changed the document (typed values, a toggled checkbox, an opened <details>). */
  get changed(): boolean {
    return this.#changed;
  }

  set changed(on: boolean) {
    this.#changed = on;
    if (on) invalidateStyles(this.document);
  }

  /** The outline, by the browsers' script, capped by core's capOutline (its ref stamps do not count as a change). */
  outline(): PageOutline {
    return capOutline(this.run('outline', {}));
  }

  /** The document serialized as it is now, without Gleaner's ref stamps (core's snapshotHtml). */
  html(): string {
    return this.run<string>('snapshotHtml', false).replace(new RegExp(`<(/?)${NOSCRIPT}\\b`, 'g'), '<$1noscript');
  }
}
