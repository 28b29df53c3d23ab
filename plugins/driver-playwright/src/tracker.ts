// Watches one page's network: requests in flight (for the short network-idle waits), the main frame's
// navigation responses (the status and headers a snapshot reports, also after a click navigated), and
// a hook the running goto() uses to stop early (too many redirects, the proxy refused the page).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page, Request, Response } from 'playwright-core';

/** What the running navigation wants to hear about. */
export interface NavigationObserver {
  onRequest(req: Request, redirects: string[]): void;
  onResponse(res: Response): void;
  onFailed(req: Request): void;
}

/** The URLs a navigation request was redirected from, oldest first. */
export function redirectChain(req: Request): string[] {
  const out: string[] = [];
  for (let r = req.redirectedFrom(); r; r = r.redirectedFrom()) out.unshift(r.url());
  return out;
}

export class NetworkTracker {
  readonly #page: Page;
  /** Requests in flight and when each started (Date.now()). */
  readonly #inflight = new Map<Request, number>();
  /** The main frame's latest navigation response. */
  lastMain: Response | null = null;
  observer: NavigationObserver | null = null;
  #detach: () => void;

  constructor(page: Page) {
    this.#page = page;
    const isMainNavigation = (req: Request): boolean => {
      if (!req.isNavigationRequest()) return false;
      try {
        return req.frame() === page.mainFrame();
      } catch {
        return false; // service-worker requests have no frame (and service workers are blocked)
      }
    };
    const onRequest = (req: Request) => {
      this.#inflight.set(req, Date.now());
      if (this.observer && isMainNavigation(req)) this.observer.onRequest(req, redirectChain(req));
    };
    const onResponse = (res: Response) => {
      const req = res.request();
      if (!isMainNavigation(req)) return;
      this.lastMain = res;
      this.observer?.onResponse(res);
    };
    const onDone = (req: Request) => {
      this.#inflight.delete(req);
    };
    const onFailed = (req: Request) => {
      this.#inflight.delete(req);
      if (this.observer && isMainNavigation(req)) this.observer.onFailed(req);
    };
    page.on('request', onRequest);
    page.on('response', onResponse);
    page.on('requestfinished', onDone);
    page.on('requestfailed', onFailed);
    this.#detach = () => {
      page.off('request', onRequest);
      page.off('response', onResponse);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onFailed);
    };
  }

  get inflight(): number {
    return this.#inflight.size;
  }

  /** Requests in flight that started at or after `since` (Date.now()). */
  inflightSince(since: number): number {
    let n = 0;
    for (const started of this.#inflight.values()) if (started >= since) n++;
    return n;
  }

  /**
   * Resolves true once no request has been in flight for `quietMs`, false when `maxMs` passes first.
   * Returns at once when the network is already quiet and `quietMs` is 0.
   */
  async idle(quietMs: number, maxMs: number): Promise<boolean> {
    const end = Date.now() + maxMs;
    let quietSince = this.#inflight.size === 0 ? Date.now() : 0;
    for (;;) {
      const now = Date.now();
      if (this.#inflight.size === 0) {
        if (!quietSince) quietSince = now;
        if (now - quietSince >= quietMs) return true;
      } else {
        quietSince = 0;
      }
      if (now >= end || this.#page.isClosed()) return false;
      await sleep(Math.min(25, Math.max(1, end - now)));
    }
  }

  detach(): void {
    this.#detach();
    this.#inflight.clear();
  }
}
