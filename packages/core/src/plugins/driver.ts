/**
 * The driver plugin interface: a driver package exports one factory returning a
 * `Driver`. The driver is the long-lived part (connection pool, browser); a `DriverSession` is one
 * page for one job, always closed in `finally`.
 *
 * Every driver must pass every URL it navigates to — the first one and each redirect hop — through
 * the SSRF guard (`createSsrfGuard` in core) and connect only to the addresses the guard checked.
 */
import type { GleanerConfig } from '../config/types.ts';
import type { Logger } from '../log.ts';
import type { Cookie } from '../net/cookies.ts';
import type { Resolver, SsrfGuard } from '../net/ssrf.ts';

/**
 * The options every driver factory accepts (each driver adds its own): explicit options win over
 * `config`, which wins over the schema's defaults. Drivers read no environment variables themselves.
 */
export interface DriverOptions {
  /** The resolved configuration; `network.allowNetworks`, `fetch.*` (and for browsers `browser.*`) are read from it. */
  config?: {
    network?: Partial<GleanerConfig['network']>;
    fetch?: Partial<GleanerConfig['fetch']>;
    browser?: Partial<GleanerConfig['browser']>;
  };
  /** Overrides `network.allowNetworks`. */
  allowNetworks?: readonly string[];
  /** A guard to share with another driver; built from allowNetworks/resolver otherwise. */
  guard?: SsrfGuard;
  /** Replaces the system DNS resolver (tests). */
  resolver?: Resolver;
  logger?: Logger;
  /** Overrides `fetch.timeoutMs`. */
  timeoutMs?: number;
  /** Overrides `fetch.maxBytes`. */
  maxBytes?: number;
  /** Overrides `fetch.maxRedirects`. */
  maxRedirects?: number;
  /** Overrides `fetch.userAgent`. */
  userAgent?: string;
}

/** What a driver can do; callers pick a driver, and check a session's optional methods, by these. */
export interface DriverCapabilities {
  /** Runs the page's JavaScript (a browser). */
  javascript: boolean;
  /** Sessions implement click, type, select, scroll, waitFor, snapshot and outline. */
  interaction: boolean;
  /** Honours `DriverSessionOptions.proxy`. */
  proxy: boolean;
  /** Honours `DriverSessionOptions.cookies` and keeps Set-Cookie across navigations. */
  cookies: boolean;
}

export interface DriverTimeouts {
  /** Whole navigation, redirects included (default `fetch.timeoutMs`). */
  totalMs?: number;
  /** Until the response headers of one hop arrive. */
  headersMs?: number;
  /** Longest silence while the body arrives. */
  bodyMs?: number;
}

export interface DriverSessionOptions {
  /** A resolved proxy URL (see `resolveProxy`), or null/absent for a direct connection. */
  proxy?: string | null;
  /** Normalised cookies (`normalizeCookies`); cookies without a domain bind to the first URL's host. */
  cookies?: readonly Cookie[];
  /**
   * Local storage to start with, by origin (a profile's): written into an origin's storage before
   * that origin's first page script runs in the session (`localStorageInitScript`). Browsers only;
   * a driver without JavaScript ignores it.
   */
  localStorage?: Readonly<LocalStorageState>;
  /** Overrides `fetch.userAgent`. */
  userAgent?: string;
  timeouts?: DriverTimeouts;
  /** Largest body read, after decompression (default `fetch.maxBytes`). */
  maxBytes?: number;
  /** Redirects followed per navigation (default `fetch.maxRedirects`). */
  maxRedirects?: number;
  /** Aborts whatever the session is doing; a GleanerError reason is rethrown as is. */
  signal?: AbortSignal;
  logger?: Logger;
}

/** A page as a driver saw it. */
export interface PageSnapshot {
  /** The URL asked for. */
  requestedUrl: string;
  /** The URL after every redirect. */
  finalUrl: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", " (Set-Cookie with "\n"), as Playwright does. */
  headers: Record<string, string>;
  /** The media type without parameters, e.g. `text/html` ('' when the server sent none). */
  contentType: string;
  /** The character encoding the body was decoded with (WHATWG name), when known. */
  charset?: string;
  /** The document: HTML for HTML pages, the text itself for text/plain, JSON, XML. */
  html: string;
  /**
   * The bytes `html` was decoded from, as the server sent them (Content-Encoding undone), when the
   * driver has them and `html` is exactly their decoding (`charset`); absent for a rendered or changed
   * DOM. Optional: the snapshot archive keeps these bytes (byte-identical for pages not in UTF-8),
   * else `html` in UTF-8.
   */
  body?: Uint8Array;
  /** Every URL that answered with a redirect, in order (empty when there was none). */
  redirects: string[];
  /** The driver's name. */
  driver: string;
  /** The session's cookies after the navigation (when the driver supports cookies). */
  cookies?: Cookie[];
}

export interface GotoOptions {
  /** Aborts this navigation only (the session's signal still applies). */
  signal?: AbortSignal;
  referer?: string;
  /**
   * False: the caller needs the navigation's outcome (status, final URL, headers, redirects), not
   * the document — a browser driver may skip reading it, returning `html: ''` and no `cookies`
   * (plugin API 1.1; the agentic replay navigates so, then reads the page when it extracts). Errors
   * are those of a full goto, except those of reading the document (its size cap on the rendered
   * page is then checked by the next snapshot()). Default true.
   */
  content?: boolean;
}

export interface WaitForOptions {
  /** Wait for an element matching this CSS selector. */
  selector?: string;
  state?: 'attached' | 'visible' | 'hidden' | 'detached';
  /** Wait until the network has been idle (browsers). */
  networkIdle?: boolean;
  /**
   * Wait until the page has been quiet this long: no change to the document's content and no
   * request in flight that started since the last action or navigation (a long-lived connection
   * opened before it does not count; a page without scripts is quiet at once). Since
   * plugin API 1.1; a driver of API 1.0 does not know it (the caller checks `apiVersion`).
   */
  quietMs?: number;
  /**
   * With quietMs: first wait for the page to change since the last `outline()` (a navigation
   * counts), then for quiet counted from its last change — an action's effect, seen as it happens.
   * Times out (FETCH_TIMEOUT) when nothing changes within timeoutMs. A page without scripts
   * changed, if at all, when the action returned. Since plugin API 1.1.
   */
  afterChange?: boolean;
  /** Just wait this long (when neither selector, networkIdle nor quietMs is given). */
  ms?: number;
  timeoutMs?: number;
}

export interface ScrollOptions {
  to?: 'top' | 'bottom';
  /** Scroll this element into view. */
  selector?: string;
  /** Scroll by this many pixels (negative: up). */
  pixels?: number;
}

/** One interactive element of a page outline, addressable by `ref` or `selector`. */
export interface OutlineElement {
  ref: string;
  role: string;
  name: string;
  selector: string;
  tag?: string;
  value?: string;
  href?: string;
}

/** What an agent reads to decide its next step. */
export interface PageOutline {
  url: string;
  title: string;
  elements: OutlineElement[];
  /** A text rendering of the page (headings, text, the elements inline). */
  text?: string;
}

export interface ActionOptions {
  timeoutMs?: number;
}

/** One page for one job. */
export interface DriverSession {
  /** Navigates (following redirects, each hop guarded) and returns the page. */
  goto(url: string, opts?: GotoOptions): Promise<PageSnapshot>;
  /** Releases the page; safe to call twice. */
  close(): Promise<void>;

  // Optional interaction, present when `capabilities.interaction` is true (see `isInteractive`).
  click?(selector: string, opts?: ActionOptions): Promise<void>;
  type?(selector: string, text: string, opts?: ActionOptions & { clear?: boolean; pressEnter?: boolean }): Promise<void>;
  select?(selector: string, values: string | string[], opts?: ActionOptions): Promise<void>;
  scroll?(opts: ScrollOptions): Promise<void>;
  waitFor?(opts: WaitForOptions): Promise<void>;
  /** The current page (after interactions) without navigating. */
  snapshot?(): Promise<PageSnapshot>;
  outline?(): Promise<PageOutline>;
  /** The local storage the session holds now, by origin (browsers): what a profile saves. */
  localStorage?(): Promise<LocalStorageState>;
}

/** Local storage by origin (`https://shop.example`): each origin's keys and values. */
export type LocalStorageState = Record<string, Record<string, string>>;

/**
 * A script for a browser to run before every document's own scripts (Playwright's addInitScript,
 * DevTools' Page.addScriptToEvaluateOnNewDocument) that writes `state`'s items into the document's
 * origin once per tab: later documents of the origin keep what the page itself changed since.
 * Null when there is nothing to write.
 */
export function localStorageInitScript(state: Readonly<LocalStorageState> | undefined): string | null {
  const origins = Object.entries(state ?? {}).filter(([, items]) => Object.keys(items).length > 0);
  if (!origins.length) return null;
  const json = JSON.stringify(Object.fromEntries(origins)).replace(/</g, '\\u003c');
  return `(() => { try {
  const items = ${json}[location.origin];
  if (!items || sessionStorage.getItem('__gleaner_storage_set')) return;
  for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
  sessionStorage.setItem('__gleaner_storage_set', '1');
} catch {} })();`;
}

/** The local storage of the document a browser page shows, as a page script returning JSON. */
export const READ_LOCAL_STORAGE_SCRIPT = `(() => { try {
  const items = {};
  for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); items[k] = localStorage.getItem(k); }
  return JSON.stringify({ origin: location.origin, items });
} catch { return 'null'; } })()`;

/** A session whose interaction methods are all present. */
export type InteractiveSession = DriverSession & Required<Pick<DriverSession, 'click' | 'type' | 'select' | 'scroll' | 'waitFor' | 'snapshot' | 'outline'>>;

/** What a driver factory returns. */
export interface Driver {
  /** Stable name, e.g. `http`, `playwright`; reported in `PageSnapshot.driver`. */
  readonly name: string;
  /** The plugin API version the driver implements (`PLUGIN_API_VERSION` of the core it was built with). */
  readonly apiVersion: string;
  readonly capabilities: Readonly<DriverCapabilities>;
  openSession(opts?: DriverSessionOptions): Promise<DriverSession>;
  /** Closes every session and the resources behind them. */
  close(): Promise<void>;
}

/** A plugin package's factory, e.g. `createHttpDriver(opts)`. */
export type DriverFactory<Options> = (opts: Options) => Driver;

const INTERACTIONS = ['click', 'type', 'select', 'scroll', 'waitFor', 'snapshot', 'outline'] as const;

/** True when the session implements every interaction method. */
export function isInteractive(session: DriverSession): session is InteractiveSession {
  return INTERACTIONS.every((m) => typeof session[m] === 'function');
}
