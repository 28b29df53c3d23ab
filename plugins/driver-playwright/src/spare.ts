// A page made ahead for the next session. A new context's first page starts a renderer process, the
// slowest part of opening a session (100-300 ms on an idle machine, over half a second on a busy
// one), so when a session ends the driver makes the next session's context and page while nothing
// waits for them. Only a session with the driver's defaults (no upstream proxy, the default user
// agent) takes it. It holds no pool lease (the pool's page counts and limits see only sessions), it
// belongs to the browser it was made on, and it is dropped when that browser is gone or replaced.
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
  /** Drops the spare; no new one is made after this. */
  close(): Promise<void>;
}

export async function disposePrepared(p: PreparedPage): Promise<void> {
  await p.context.close().catch(() => undefined);
  await p.proxy.close().catch(() => undefined);
}

export function createSparePage(make: (browser: Browser) => Promise<PreparedPage>, logger?: Logger): SparePage {
  let pending: Promise<PreparedPage | null> | null = null;
  let closed = false;
  return {
    prepare(browser) {
      if (pending || closed || !browser.isConnected()) return;
      pending = make(browser).then(
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
    },
    async take(browser) {
      const p = pending;
      pending = null;
      const got = p ? await p : null;
      if (!got) return null;
      if (closed || got.browser !== browser || !browser.isConnected() || got.page.isClosed()) {
        await disposePrepared(got);
        return null;
      }
      return got;
    },
    async close() {
      closed = true;
      const p = pending;
      pending = null;
      const got = p ? await p : null;
      if (got) await disposePrepared(got);
    },
  };
}
