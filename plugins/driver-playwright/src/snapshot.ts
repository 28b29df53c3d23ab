// Builds a PageSnapshot from the main response and the page as it is rendered now.
import type { BrowserContext, Page, Response } from 'playwright-core';
import {
  FILTER_PROXY_BLOCKED_HEADER,
  FILTER_PROXY_ERROR_HEADER,
  GleanerError,
  charsetLabel,
  classifyMediaType,
  documentCall,
  parseContentType,
  showsDocument,
  sniffBinary,
} from '@gleaner/core/plugin';
import type { BlockedRequest, MediaType, PageDocument, PageSnapshot } from '@gleaner/core/plugin';
import { fromPlaywrightCookie } from './cookies.ts';
import { blocked, isClosedError, tooLarge, unsupported } from './errors.ts';
import { redirectChain } from './tracker.ts';

/**
 * `page.evaluate` that survives a navigation in progress (a click that submitted a form): when the
 * document goes away under it, it waits for the next one and tries once more.
 */
export async function evaluateStable<T>(page: Page, expression: string): Promise<T> {
  try {
    return (await page.evaluate(expression)) as T;
  } catch (err) {
    if (!/Execution context was destroyed|navigat/i.test(err instanceof Error ? err.message : '')) throw err;
    await page.waitForLoadState('domcontentloaded').catch(() => undefined);
    return (await page.evaluate(expression)) as T;
  }
}

function decode(bytes: Uint8Array, charset: string | undefined): { text: string; charset: string } {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset || 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return { text: decoder.decode(bytes), charset: decoder.encoding };
}

export interface SnapshotInput {
  driverName: string;
  page: Page;
  context: BrowserContext;
  /** The main frame's navigation response (null: none yet, e.g. a same-document navigation). */
  response: Response | null;
  /**
   * The main frame's latest navigation response now. When the page navigated by itself before or
   * while it was read (a script or meta refresh), the snapshot is taken again with that response,
   * so the status, headers and URL describe the HTML returned.
   */
  latest?: () => Response | null;
  requestedUrl: string;
  maxBytes: number;
  /** What the filtering proxy refused, to name a blocked main document. */
  blockedList: readonly BlockedRequest[];
  /** Inline same-origin iframes (snapshot()), or the document as it is (goto). */
  withFrames: boolean;
  /** False: the navigation's outcome only (`html: ''`, no cookies, the headers without a round trip). */
  content?: boolean;
}

/** Throws URL_BLOCKED / FETCH_FAILED when the main response is the filtering proxy's own answer. */
export async function checkProxyAnswer(res: Response, headers: Record<string, string>, list: readonly BlockedRequest[]): Promise<void> {
  if (headers[FILTER_PROXY_BLOCKED_HEADER]) {
    const url = res.url();
    const hit = [...list].reverse().find((b) => b.url === url);
    const reason = hit?.reason ?? (await res.text().catch(() => '')).trim();
    throw blocked({ url, reason: reason || `blocked: ${url}`, at: Date.now() });
  }
  if (headers[FILTER_PROXY_ERROR_HEADER]) {
    const text = (await res.text().catch(() => '')).trim();
    throw new GleanerError('FETCH_FAILED', `could not fetch ${res.url()}: ${text || `the proxy answered ${res.status()}`}`);
  }
}

/** The document itself: the text of a text response, or the rendered DOM of an HTML page. */
async function readDocument(i: SnapshotInput, kind: 'html' | 'text', media: MediaType, url: string): Promise<{ html: string; charset?: string }> {
  const res = i.response;
  if (kind === 'text' && res) {
    const body = await res.body();
    if (body.length > i.maxBytes) throw tooLarge(i.maxBytes, url);
    const { text, charset } = decode(body, media.charset);
    return { html: text, charset };
  }
  if (!media.type && res) {
    const binary = sniffBinary(await res.body().catch(() => Buffer.alloc(0)));
    if (binary) throw unsupported(url, `${binary} (by its content)`);
  }
  // The document and its charset in one main-world evaluation (no injected script, see documentCall).
  let doc: PageDocument | undefined;
  try {
    doc = await evaluateStable<PageDocument>(i.page, documentCall(i.withFrames));
  } catch (err) {
    if (isClosedError(err)) throw err;
  }
  // A page that broke the main world's built-ins for itself: Playwright's own serializer instead.
  if (typeof doc?.html !== 'string') doc = { html: await i.page.content(), charset: '' };
  // The rendered DOM is what the caller gets; its UTF-8 size stands in for the body size.
  if (Buffer.byteLength(doc.html) > i.maxBytes) throw tooLarge(i.maxBytes, url);
  return { html: doc.html, charset: media.charset?.toLowerCase() ?? charsetLabel(doc.charset) };
}

/**
 * True when the page now shows the document of `res`: not a redirect hop, a 204/205 (which leave
 * the page as it was), a failed or abandoned navigation, or a download (the page's URL is not its).
 */
function shows(page: Page, res: Response): boolean {
  return !res.request().failure() && showsDocument(res.status(), res.url(), page.url());
}

export async function buildSnapshot(i: SnapshotInput, again = 1): Promise<PageSnapshot> {
  const res = i.response;
  // headers() needs no round trip (it lacks only Set-Cookie and the like, fetched below).
  const quick = res?.headers() ?? {};
  if (res) await checkProxyAnswer(res, quick, i.blockedList);
  const media = parseContentType(quick['content-type']);
  const kind = media.type ? classifyMediaType(media.type) : 'html';
  const url = res?.url() ?? i.page.url();
  if (kind === 'unsupported') throw unsupported(url, media.type);
  // Independent round trips to the browser, in parallel (none for the outcome alone).
  const [headers, doc, stored] =
    i.content === false
      ? [quick, { html: '', charset: media.charset?.toLowerCase() }, null]
      : await Promise.all([res ? res.allHeaders() : Promise.resolve({}), readDocument(i, kind, media, url), i.context.cookies()]);
  const now = i.latest?.() ?? null;
  if (now && now !== res && again > 0 && shows(i.page, now)) return buildSnapshot({ ...i, response: now }, again - 1);
  const pageUrl = i.page.url();
  // Keep a fragment (or a pushState change) the page shows, when it is the same document.
  const finalUrl = res && pageUrl.split('#')[0] !== res.url().split('#')[0] && !i.withFrames ? res.url() : pageUrl;
  const snap: PageSnapshot = {
    requestedUrl: i.requestedUrl,
    finalUrl,
    status: res?.status() ?? 200,
    headers,
    contentType: media.type,
    html: doc.html,
    redirects: res ? redirectChain(res.request()) : [],
    driver: i.driverName,
  };
  if (stored) snap.cookies = stored.map(fromPlaywrightCookie);
  if (doc.charset) snap.charset = doc.charset;
  return snap;
}
