/**
 * The agent's page: one interactive session at a time, on the cheapest driver that can do the job.
 * Plain HTML pages are browsed by a driver without JavaScript that still has interaction (driver-http
 * on linkedom); when a page needs JavaScript — the start page looks like an app shell, or an action
 * throws NEEDS_BROWSER — the task moves to the browser driver: the current URL is opened there with
 * the cookies gathered so far, and the action is tried again on the same stable target.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { GleanerError, isGleanerError } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import { needsBrowser } from '../extract/needs-browser.ts';
import type { Cookie } from '../net/cookies.ts';
import { resolveProxy } from '../net/proxies.ts';
import type { Driver, GotoOptions, InteractiveSession, LocalStorageState, PageOutline, PageSnapshot, WaitForOptions } from '../plugins/driver.ts';
import { isInteractive } from '../plugins/driver.ts';
import { observation, unreadableObservation, type Observation } from './observe.ts';
import { pluginApiAtLeast } from '../plugins/version.ts';
import { domainAllowed, domainRefused } from './domains.ts';
import type { SettleMode } from './types.ts';

/** See `settled()`: the earlier way (reads), for drivers without the quiet wait. */
const DOM_QUIET_MS = 200;
const SETTLE_READS = 5;
/** See `settled()`: the page's own quiet wait. */
const QUIET_MS = 100;
/** How long an action that should change the page is given to start changing it. */
const CHANGE_GRACE_MS = 500;
/** The longest wait for a changing page to go quiet (the model judges the page then). */
const SETTLE_MAX_MS = 2500;

/** An outline's content (URL, elements, text), to tell whether an action changed the page. */
const outlineKey = (o: PageOutline) => `${o.url}\n${o.elements.map((e) => `${e.role}|${e.name}|${e.value ?? ''}|${e.href ?? ''}`).join('\n')}\n${o.text}`;

/** What an action leads the settle to expect: a change (click, select, Enter), a changed value (typing), or maybe nothing (scroll, wait). */
export type ActionEffect = 'change' | 'value' | 'maybe';

export interface AgentPageOptions {
  proxyCountry?: string | null;
  cookies?: Cookie[];
  /** Local storage by origin each browser session starts with (a profile's). */
  localStorage?: LocalStorageState;
  signal: AbortSignal;
  preferBrowser?: boolean;
  actionTimeoutMs: number;
  /** A live page to start on instead of opening the start URL (borrowed: its owner closes it). */
  adopt?: { driver: Driver; session: InteractiveSession };
  /** See AgentRunInput.settle. */
  settle?: SettleMode;
  /** See AgentRunInput.allowedDomains. */
  allowedDomains?: string[] | null;
}

function pick(drivers: readonly Driver[]): { plain: Driver | null; browser: Driver | null } {
  const interactive = drivers.filter((d) => d.capabilities.interaction);
  return {
    plain: interactive.find((d) => !d.capabilities.javascript) ?? null,
    browser: interactive.find((d) => d.capabilities.javascript) ?? null,
  };
}

/** Whether the drivers can run an agent at all (some driver has interaction). */
export function canBrowse(drivers: readonly Driver[]): boolean {
  const { plain, browser } = pick(drivers);
  return plain !== null || browser !== null;
}

export class AgentPage {
  readonly #ctx: OperationContext;
  readonly #opts: AgentPageOptions;
  readonly #plain: Driver | null;
  readonly #browser: Driver | null;
  readonly #proxy: string | null;
  #driver: Driver | null = null;
  #session: InteractiveSession | null = null;
  #borrowed: InteractiveSession | null = null;
  #cookies: Cookie[];
  #localStorage: LocalStorageState;
  /** URLs visited, for go_back. */
  readonly history: string[] = [];

  constructor(ctx: OperationContext, opts: AgentPageOptions) {
    this.#ctx = ctx;
    this.#opts = opts;
    const { plain, browser } = pick(ctx.drivers);
    const mode = ctx.config.browser.escalation;
    this.#plain = plain;
    this.#browser = mode === 'never' && plain ? null : browser;
    if (!plain && !this.#browser) {
      throw new GleanerError(
        'DRIVER_UNAVAILABLE',
        'the agent needs a driver that can interact with pages (a browser driver such as playwright or selenium, or driver-http with interaction); none is configured',
      );
    }
    this.#proxy = resolveProxy(opts.proxyCountry ?? ctx.config.network.defaultProxyCountry, ctx.config, { logger: ctx.logger });
    this.#cookies = opts.cookies ?? [];
    this.#localStorage = { ...opts.localStorage };
    if (opts.adopt) {
      this.#driver = opts.adopt.driver;
      this.#session = this.#borrowed = opts.adopt.session;
    }
  }

  get driver(): string {
    return this.#driver?.name ?? (this.#plain ?? this.#browser)!.name;
  }

  get session(): InteractiveSession {
    if (!this.#session) throw new GleanerError('INTERNAL', 'the agent page has no session yet');
    return this.#session;
  }

  /** The cookies gathered so far: a visit's detail pages carry them, a profile saves them. */
  get cookies(): Cookie[] {
    return this.#cookies;
  }

  /** The local storage by origin: what the session started with, and what readLocalStorage() found since. */
  get localStorage(): LocalStorageState {
    return this.#localStorage;
  }

  /** Reads the browser's local storage now (a profile saves it); a driver without storage keeps what it had. */
  async readLocalStorage(): Promise<LocalStorageState> {
    const now = await this.#session?.localStorage?.();
    if (now) this.#localStorage = { ...this.#localStorage, ...now };
    return this.#localStorage;
  }

  /** True when the page can still move to a browser. */
  get canEscalate(): boolean {
    return this.#browser !== null && this.#driver !== this.#browser && this.#ctx.config.browser.escalation !== 'never';
  }

  get onBrowser(): boolean {
    return this.#driver?.capabilities.javascript === true;
  }

  async #open(driver: Driver): Promise<InteractiveSession> {
    await this.#closeSession();
    const s = await driver.openSession({
      proxy: this.#proxy,
      cookies: this.#cookies,
      localStorage: this.#localStorage,
      signal: this.#opts.signal,
      logger: this.#ctx.logger,
    });
    if (!isInteractive(s)) {
      await s.close();
      throw new GleanerError('DRIVER_UNAVAILABLE', `the ${driver.name} driver declares interaction but its sessions are not interactive`);
    }
    this.#driver = driver;
    this.#session = s;
    return s;
  }

  #checkStatus(page: PageSnapshot, url: string): PageSnapshot {
    if (page.cookies) this.#cookies = page.cookies;
    if (page.status >= 400) {
      throw new GleanerError('FETCH_FAILED', `${url} answered HTTP ${page.status}`, {
        retryable: page.status >= 500 || page.status === 429,
        details: { status: page.status, url },
      });
    }
    return page;
  }

  /** Opens the start page: on the plain driver first unless a browser is preferred or the page needs one. */
  async start(url: string): Promise<PageSnapshot> {
    if (this.#borrowed && this.#session === this.#borrowed) {
      // The adopted page is where the task goes on: it is not loaded again.
      const page = await this.#borrowed.snapshot();
      if (page.cookies) this.#cookies = page.cookies;
      this.history.push(page.finalUrl);
      return page;
    }
    const browserFirst = !this.#plain || (this.#browser !== null && (this.#opts.preferBrowser || this.#ctx.config.browser.escalation === 'always'));
    const first = browserFirst ? this.#browser! : this.#plain!;
    const s = await this.#open(first);
    const page = this.#checkStatus(await s.goto(url, this.#gotoOptions()), url);
    this.history.push(page.finalUrl);
    if (!first.capabilities.javascript && this.canEscalate) {
      const reason = needsBrowser(page);
      if (reason) return this.escalate(page.finalUrl, reason);
    }
    return page;
  }

  /** Moves to the browser driver on `url` (the page the plain driver was on). */
  async escalate(url: string, reason: string): Promise<PageSnapshot> {
    if (!this.canEscalate) throw new GleanerError('DRIVER_UNAVAILABLE', `this page needs a browser (${reason}) and no browser driver is configured`);
    this.#ctx.logger.info({ url, driver: this.#browser!.name, reason }, 'agent: moving to a browser');
    const s = await this.#open(this.#browser!);
    return this.#checkStatus(await s.goto(url, this.#gotoOptions()), url);
  }

  /** Navigates (every hop through the SSRF guard, as every goto). Error pages are the model's to judge. */
  async goto(url: string): Promise<PageSnapshot> {
    this.checkDomain(url);
    const page = await this.session.goto(url, this.#gotoOptions());
    if (page.cookies) this.#cookies = page.cookies;
    this.history.push(page.finalUrl);
    if (!this.onBrowser && this.canEscalate) {
      const reason = needsBrowser(page);
      if (reason) return this.escalate(page.finalUrl, reason);
    }
    return page;
  }

  /**
   * A browser that waits for quiet (plugin API 1.1) is asked for the navigation's outcome only: the
   * page is read by the observation that follows, not twice.
   */
  #gotoOptions(): GotoOptions {
    return this.onBrowser && this.settleMode === 'quiet' ? { content: false } : {};
  }

  /** Throws (for the model) when `url` is outside the task's allowed_domains. */
  checkDomain(url: string): void {
    const domains = this.#opts.allowedDomains;
    if (domains && !domainAllowed(url, domains)) throw domainRefused(url, domains);
  }

  /** How this page waits for an action's effect (the quiet wait where the driver has it). */
  get settleMode(): SettleMode {
    const quiet = this.#driver !== null && pluginApiAtLeast(this.#driver, '1.1');
    return quiet && this.#opts.settle !== 'reads' ? 'quiet' : 'reads';
  }

  /** A wait that reports how it ended (aborts still throw). */
  async #wait(o: WaitForOptions): Promise<'ok' | 'timeout' | 'error'> {
    try {
      await this.session.waitFor(o);
      return 'ok';
    } catch (err) {
      this.#opts.signal.throwIfAborted();
      return isGleanerError(err) && err.code === 'FETCH_TIMEOUT' ? 'timeout' : 'error';
    }
  }

  /**
   * The page after an action, once it has settled. On a browser with the quiet wait (plugin API
   * 1.1), the page itself watches (see `waitFor({quietMs, afterChange})`): an action expected to
   * change the page is given CHANGE_GRACE_MS to start changing it, then QUIET_MS without a change.
   * Past that, or for other actions, the page only has to be quiet (no change for QUIET_MS and no
   * request the action started in flight, such as a navigation on its way). Then, unless typing
   * changed a field's value (which no document change shows), the outline alone is read: when it
   * shows the page as the observation the action was chosen on (URL, elements, text), that
   * observation is the answer and the document is not read again. Without the quiet wait
   * ('reads'): the network idle (bounded), then the page read DOM_QUIET_MS apart until two reads
   * agree, at most SETTLE_READS.
   */
  async settled(before: Observation, effect: ActionEffect): Promise<Observation> {
    if (!this.onBrowser) return this.observe();
    if (this.settleMode === 'reads') return this.#settledByReads();
    const max = Math.min(SETTLE_MAX_MS, this.#opts.actionTimeoutMs);
    if (effect === 'change') {
      // 'ok': changed and quiet; 'error': the document went away under the wait (a navigation).
      const first = await this.#wait({ quietMs: QUIET_MS, afterChange: true, timeoutMs: CHANGE_GRACE_MS });
      if (first === 'ok') return this.observe();
      effect = first === 'error' ? 'value' : 'maybe';
    }
    // Quiet also means no request the action started still running (a navigation on its way).
    await this.#wait({ quietMs: QUIET_MS, timeoutMs: max });
    if (effect === 'value') return this.observe();
    // The outline alone tells whether anything changed (and restarts the page's change count).
    const outline = await this.session.outline().catch(() => null);
    if (outline?.text !== undefined && outlineKey(outline) === outlineKey(before.outline)) return { ...before, outline };
    return this.observe(outline ?? undefined);
  }

  async #settledByReads(): Promise<Observation> {
    await this.session.waitFor({ networkIdle: true, timeoutMs: Math.min(2000, this.#opts.actionTimeoutMs) }).catch(() => undefined);
    let last = await this.observe();
    for (let i = 1; i < SETTLE_READS; i++) {
      await sleep(DOM_QUIET_MS);
      const next = await this.observe();
      if (next.fingerprint === last.fingerprint) return next;
      last = next;
    }
    return last;
  }

  /**
   * The page as the agent sees it. A browser page in the middle of navigating can refuse to be read
   * for a moment: retried briefly. A page that still cannot be read is observed as unreadable (the
   * model is told why and goes on) rather than ending the task. `outlined`: an outline just taken.
   */
  async observe(outlined?: PageOutline): Promise<Observation> {
    let last: unknown;
    let url = this.history.at(-1) ?? '';
    for (let i = 0; i < 4; i++) {
      this.#opts.signal.throwIfAborted();
      try {
        const s = this.session;
        // One round trip where the driver waits for quiet (1.1): the outline and the document read together.
        const [outline, snapshot] =
          i === 0 && outlined
            ? [outlined, await s.snapshot()]
            : this.settleMode === 'quiet'
              ? await Promise.all([s.outline(), s.snapshot()])
              : [await s.outline(), await s.snapshot()];
        url = outline.url || url;
        if (snapshot.cookies) this.#cookies = snapshot.cookies;
        return observation(outline, snapshot);
      } catch (err) {
        if (this.#opts.signal.aborted) throw err;
        if (isGleanerError(err) && err.code === 'DRIVER_UNAVAILABLE') throw err;
        last = err;
        await sleep(250 * (i + 1));
      }
    }
    const reason = last instanceof Error ? last.message : String(last);
    this.#ctx.logger.warn({ url, err: reason }, 'agent: the page could not be read');
    return unreadableObservation(url, reason, this.driver);
  }

  async #closeSession(): Promise<void> {
    const s = this.#session;
    this.#session = null;
    if (s === this.#borrowed) return;
    await s?.close().catch((err: Error) => this.#ctx.logger.warn({ err: err.message }, 'agent: closing a session failed'));
  }

  async close(): Promise<void> {
    await this.#closeSession();
  }
}
