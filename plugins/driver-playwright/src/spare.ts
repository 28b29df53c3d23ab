// A page made ahead for the next session. A new context's first page starts a renderer process, the
// slowest part of opening a session (100-300 ms on an idle machine, over half a second on a busy
// one), so the driver makes the next session's context and page ahead: when a session closes, or a
// second after its first page loaded when it is still open then (so a lone short session never
// shares the CPU with a renderer starting). While sessions follow one another closely (a session
// found no spare ready: it waited for one being made, or made its own; and no spare has waited
// unused for a second since), it is made as soon as the running session's first page has loaded,
// so that it is ready when that session closes. Only a session with the driver's defaults (no
// upstream proxy, the default user agent) takes it. It holds no pool lease (the pool's page counts
// and limits see only sessions), it belongs to the browser it was made on, and it is dropped when
// that browser is gone or replaced.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FilterProxy, Logger } from '@gleaner/core/plugin';

export interface PreparedPage {
  browser: Browser;
  proxy: FilterProxy;
  context: BrowserContext;
  page: Page;
}

export interface SparePage {
  /** Starts making a spare on `browser` unless one exists or is being made. */
  prepare(browser: Browser): void;
  /** The spare when it is on `browser` and alive (waiting for one being made), else null. */
  take(browser: Browser): Promise<PreparedPage | null>;
  /**
   * True while sessions follow one another closely: a take found no spare ready (it waited for one
   * being made, or there was none), and no spare has been left unused for IDLE_MS since.
   */
  readonly behind: boolean;
  /** Drops the spare; no new one is made after this. */
  close(): Promise<void>;
}

export async function disposePrepared(p: PreparedPage): Promise<void> {
  await p.context.close().catch(() => undefined);
  await p.proxy.close().catch(() => undefined);
}

/** How long a spare is left ready, unused, before sessions count as no longer following one another. */
const IDLE_MS = 1000;
/** Longest wait for a spare still being made on the session's own browser (else a page is made anew). */
const TAKE_WAIT_MS = 5000;

export function createSparePage(make: (browser: Browser) => Promise<PreparedPage>, logger?: Logger): SparePage {
  let pending: { browser: Browser; page: Promise<PreparedPage | null>; readyAt: number } | null = null;
  let closed = false;
  let behind = false;
  /** Disposes of a spare nobody will take, whenever it is made (never waited on: its browser may hang). */
  const drop = (p: Promise<PreparedPage | null>) => void p.then((got) => got && disposePrepared(got));
  return {
    prepare(browser) {
      if (pending || closed || !browser.isConnected()) return;
      const page = make(browser).then(
        (p) => {
          // The browser may close under an idle spare (retired): its filtering proxy goes with it.
          p.context.once('close', () => void p.proxy.close().catch(() => undefined));
          return p;
        },
        (err: Error) => {
          logger?.debug({ err: err.message }, 'playwright: making a spare page failed');
          return null;
        },
      );
      const made = { browser, page, readyAt: 0 };
      void page.then(() => (made.readyAt = Date.now()));
      pending = made;
    },
    get behind() {
      return behind;
    },
    async take(browser) {
      const p = pending;
      pending = null;
      // Sessions follow one another closely while no spare is found ready, and until one has been
      // ready for a while (the first spare found ready just in time keeps them so).
      behind = !p?.readyAt || (behind && Date.now() - p.readyAt < IDLE_MS);
      if (!p) return null;
      if (p.browser !== browser || !browser.isConnected()) {
        drop(p.page);
        return null;
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), TAKE_WAIT_MS)));
      const got = await Promise.race([p.page, late]).finally(() => clearTimeout(timer));
      if (got === 'late') {
        drop(p.page);
        return null;
      }
      if (!got) return null;
      if (closed || !browser.isConnected() || got.page.isClosed()) {
        await disposePrepared(got);
        return null;
      }
      return got;
    },
    async close() {
      closed = true;
      const p = pending;
      pending = null;
      if (p) drop(p.page);
    },
  };
}
