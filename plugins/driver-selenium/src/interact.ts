// The interaction capabilities over WebDriver. Elements are found by CSS selector or by outline ref
// (`e7`, resolved in the page with the shared `findRef` script, frames included); the outline, the
// snapshot and scrolling run the shared page scripts, so both browser drivers see pages alike.
import { setTimeout as sleep } from 'node:timers/promises';
import { By, Key, error as wdError } from 'selenium-webdriver';
import type { WebDriver, WebElement } from 'selenium-webdriver';
import { GleanerError, PAGE_SCRIPTS, capOutline, isGleanerError, isRef, splitFrameSelector, waitUntilQuiet } from '@gleaner/core/plugin';
import type { ActionOptions, ClickPoint, PageOutline, QuietResult, ScrollOptions, ScrollResult, WaitForOptions } from '@gleaner/core/plugin';
import { actionError, actionTimeout } from './errors.ts';
import type { PageContext } from './page-context.ts';
import type { PageTracker } from './tracker.ts';

export interface InteractionsSettings {
  ctx: PageContext;
  tracker: PageTracker;
  /** Used when an action names no timeoutMs. */
  defaultTimeoutMs: number;
  signal?: AbortSignal;
}

/** What the page shows: for HTML the snapshot script's output, otherwise the visible text. */
export interface PageInfo {
  html?: string;
  text?: string;
  charset?: string;
  url: string;
}

/** The longest single in-page quiet wait (chromedriver's script timeout is 30 s). */
const QUIET_CALL_MS = 10_000;

// Errors that mean "not actionable yet": retried until the action's deadline.
const RETRYABLE = new Set([
  'ElementClickInterceptedError',
  'ElementNotInteractableError',
  'StaleElementReferenceError',
  'NoSuchElementError',
  'NoSuchFrameError',
]);
/** Lazy content after a scroll (as the Playwright driver): let handlers start requests, then wait for quiet, bounded. */
const SCROLL_KICKOFF_MS = 120;
const SCROLL_QUIET_MS = 100;
const SCROLL_MAX_WAIT_MS = 3_000;
/** How long a fast-path click waits for the page to acknowledge each mouse event (see #clickAtPoint). */
const INPUT_ANSWER_MS = 1_000;
/** Playwright's definition of network idle: no request for 500 ms. */
const NETWORK_IDLE_MS = 500;

/** An element that exists but cannot take the action yet (disabled): retried like WebDriver's own. */
function notYet(message: string): Error {
  return Object.assign(new Error(message), { name: 'ElementNotInteractableError' });
}

const SELECT_OPTIONS = `return ((el, values) => {
  if (!el || el.tagName !== 'SELECT') return { error: 'is a <' + (el ? el.tagName.toLowerCase() : '?') + '>, not a <select>' };
  if (el.disabled) return { retry: 'is disabled' };
  const options = Array.from(el.options);
  const picked = [];
  for (const v of values) {
    const o = options.find((x) => x.value === v) || options.find((x) => x.label === v || x.text.trim() === v);
    if (!o) return { error: 'has no option with the value or label ' + JSON.stringify(v) };
    if (o.disabled) return { error: 'has option ' + JSON.stringify(v) + ' disabled' };
    picked.push(o);
  }
  if (!el.multiple && picked.length > 1) return { error: 'accepts one value, not ' + picked.length };
  for (const o of options) o.selected = picked.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true };
})(arguments[0], arguments[1])`;

const PAGE_INFO = `return ((withHtml) => ({
  html: withHtml ? (${PAGE_SCRIPTS.snapshotHtml})() : null,
  text: withHtml ? null : (document.body ? document.body.innerText : (document.documentElement ? document.documentElement.textContent : '')),
  charset: document.characterSet ? document.characterSet.toLowerCase() : null,
  url: location.href,
}))(arguments[0])`;

export class Interactions {
  #s: InteractionsSettings;
  /** When the last action (or navigation) began: the quiet wait minds requests started since. */
  #actedAt = 0;
  /** True once the WebDriver session may be inside a frame (it starts in the top document). */
  #inFrame = false;

  constructor(settings: InteractionsSettings) {
    this.#s = settings;
  }

  /** Marks the start of an action or a navigation (requests older than it do not hold a quiet wait). */
  markAction(): void {
    this.#actedAt = Date.now();
  }

  get #wd(): WebDriver {
    return this.#s.ctx.wd;
  }

  /** The WebDriver session back in the top document; no round trip when it never left it. */
  async #top(): Promise<void> {
    if (!this.#inFrame) return;
    await this.#wd.switchTo().defaultContent();
    this.#inFrame = false;
  }

  /** Runs a shared page script (`PAGE_SCRIPTS.x`) in the top document with one argument. */
  async #run<T>(source: string, arg: unknown = null): Promise<T> {
    return this.#script<T>(`return (${source})(arguments[0])`, arg);
  }

  /**
   * executeScript, retried briefly while the page is between documents (a navigation the page
   * started itself destroys the context the script was sent to).
   */
  async #script<T>(script: string, ...args: unknown[]): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.#wd.executeScript(script, ...args)) as T;
      } catch (err) {
        const message = err instanceof Error ? err.message : '';
        const between = err instanceof wdError.WebDriverError && /context was destroyed|Cannot find context|navigat|document unloaded/i.test(message);
        if (!between || attempt >= 20) throw err;
        await sleep(100);
      }
    }
  }

  /** Runs `fn` with the session's signal honoured, and the WebDriver session back in the top document after. */
  async #act<T>(fn: () => Promise<T>): Promise<T> {
    const signal = this.#s.signal;
    signal?.throwIfAborted();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () =>
        reject(isGleanerError(signal?.reason) ? signal?.reason : new GleanerError('FETCH_TIMEOUT', 'the page action was aborted', { cause: signal?.reason }));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    try {
      return await Promise.race([fn(), aborted]);
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      await this.#top().catch(() => undefined);
    }
  }

  #deadline(opts?: ActionOptions): { at: number; ms: number } {
    const ms = opts?.timeoutMs ?? this.#s.defaultTimeoutMs;
    return { at: Date.now() + ms, ms };
  }

  /** One attempt to find `target`; on success the session is switched into the element's frame. */
  async #find(target: string): Promise<WebElement | null> {
    const wd = this.#wd;
    if (!target.trim()) throw actionError('an empty selector was given for a page action');
    await this.#top();
    const chain = isRef(target) ? await this.#run<string | null>(PAGE_SCRIPTS.findRef, target.trim()) : target;
    if (!chain) return null;
    const parts = splitFrameSelector(chain);
    try {
      for (const frame of parts.slice(0, -1)) {
        const [el] = await wd.findElements(By.css(frame));
        if (!el) return null;
        this.#inFrame = true;
        await wd.switchTo().frame(el);
      }
      const [el] = await wd.findElements(By.css(parts.at(-1) ?? chain));
      return el ?? null;
    } catch (err) {
      if (err instanceof wdError.InvalidSelectorError) throw new GleanerError('BAD_REQUEST', `"${target}" is not a valid CSS selector or element ref`);
      if (RETRYABLE.has((err as Error).name)) return null;
      throw err;
    }
  }

  /** Finds `target`, retrying until the deadline (the page may still be rendering it). */
  async #locate(target: string, deadline: { at: number; ms: number }): Promise<WebElement> {
    for (;;) {
      this.#s.signal?.throwIfAborted();
      const el = await this.#find(target);
      if (el) return el;
      if (Date.now() >= deadline.at) throw actionTimeout(`waiting for ${target}`, deadline.ms, 'no element matches it');
      await sleep(100);
    }
  }

  /** Retries `step` on a not-yet-actionable element until the deadline. */
  async #retrying(target: string, what: string, deadline: { at: number; ms: number }, step: (el: WebElement) => Promise<void>): Promise<void> {
    for (;;) {
      const el = await this.#locate(target, deadline);
      try {
        await this.#wd.executeScript('arguments[0].scrollIntoView({block: "center", inline: "nearest"})', el);
        await step(el);
        return;
      } catch (err) {
        if (!RETRYABLE.has((err as Error).name)) throw err;
        if (Date.now() >= deadline.at) {
          throw actionTimeout(`${what} ${target}`, deadline.ms, (err as Error).message.split('\n')[0]);
        }
        await sleep(100);
      }
    }
  }

  click(target: string, opts?: ActionOptions): Promise<void> {
    this.markAction();
    const deadline = this.#deadline(opts);
    return this.#act(async () => {
      if (await this.#clickAtPoint(target)) return;
      await this.#retrying(target, 'clicking', deadline, async (el) => {
        if (!(await el.isEnabled())) throw notYet(`${target} is disabled`);
        await el.click();
      });
    });
  }

  /**
   * The fast path of a click, as the Playwright driver's: core's `clickPoint` script finds the
   * target in the top document plainly clickable (visible, enabled, under its centre) and scrolls
   * it into view, then a real mouse click there through DevTools — one script and two input events
   * instead of WebDriver's find, scroll, enabled check and click. False (nothing done) when the
   * target is anything less certain: the WebDriver click, with its retries, does the job.
   */
  async #clickAtPoint(target: string): Promise<boolean> {
    if (!target.trim()) return false;
    const { cdp, sessionId } = this.#s.ctx;
    const point = await this.#run<ClickPoint | null>(PAGE_SCRIPTS.clickPoint, target).catch(() => null);
    if (!point || !Number.isFinite(point.x) || !Number.isFinite(point.y)) return false;
    // Each event is answered once the page has handled it; a handler that opens a dialog holds that
    // answer until WebDriver dismisses the dialog (at its next command): bounded.
    const mouse = async (type: string, extra: Record<string, unknown> = {}) => {
      const sent = cdp.send('Input.dispatchMouseEvent', { type, x: point.x, y: point.y, button: 'none', ...extra }, sessionId);
      sent.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([sent, new Promise((r) => (timer = setTimeout(r, INPUT_ANSWER_MS)))]).finally(() => clearTimeout(timer));
    };
    await mouse('mouseMoved');
    await mouse('mousePressed', { button: 'left', buttons: 1, clickCount: 1 });
    await mouse('mouseReleased', { button: 'left', buttons: 0, clickCount: 1 });
    return true;
  }

  type(target: string, text: string, opts?: ActionOptions & { clear?: boolean; pressEnter?: boolean }): Promise<void> {
    this.markAction();
    const deadline = this.#deadline(opts);
    return this.#act(async () => {
      if (text && text.length <= 500 && (await this.#run<boolean>(PAGE_SCRIPTS.focusField, { target, clear: opts?.clear === true }).catch(() => false))) {
        // The fast path, as the Playwright driver's: the field is focused (its value selected with
        // clear); all but the last character go in as one input event (what a paste does), the last
        // (and Enter) as real key events, so key handlers and autocompletes see the whole value.
        const chars = Array.from(text);
        const { cdp, sessionId } = this.#s.ctx;
        if (chars.length > 1) await cdp.send('Input.insertText', { text: chars.slice(0, -1).join('') }, sessionId);
        await this.#wd
          .actions()
          .sendKeys(chars.at(-1)! + (opts?.pressEnter ? Key.ENTER : ''))
          .perform();
        return;
      }
      await this.#retrying(target, 'typing into', deadline, async (el) => {
        if (opts?.clear) await el.clear();
        if (text) await el.sendKeys(text);
        if (opts?.pressEnter) await el.sendKeys(Key.ENTER);
      });
    });
  }

  select(target: string, values: string | string[], opts?: ActionOptions): Promise<void> {
    this.markAction();
    const deadline = this.#deadline(opts);
    const list = Array.isArray(values) ? values : [values];
    return this.#act(() =>
      this.#retrying(target, 'selecting in', deadline, async (el) => {
        const r = (await this.#wd.executeScript(SELECT_OPTIONS, el, list)) as { ok?: boolean; error?: string; retry?: string };
        if (r.retry) throw notYet(`${target} ${r.retry}`);
        if (r.error) throw actionError(`${target} ${r.error}`);
      }),
    );
  }

  scroll(opts: ScrollOptions): Promise<void> {
    this.markAction();
    return this.#act(async () => {
      let selector = opts.selector;
      if (selector && isRef(selector)) {
        selector = (await this.#run<string | null>(PAGE_SCRIPTS.findRef, selector.trim())) ?? undefined;
        if (!selector) throw actionError(`no element carries ref ${opts.selector} any more; take a new outline`);
      }
      const result = await this.#run<ScrollResult>(PAGE_SCRIPTS.scroll, { to: opts.to, selector, pixels: opts.pixels });
      if (!result.found) throw actionError(`no element matches ${opts.selector} to scroll to`);
      // Lazy loading: scroll handlers and observers start their requests within a frame or two;
      // then wait, bounded, until the network is quiet again.
      await sleep(SCROLL_KICKOFF_MS);
      await this.#s.tracker.waitNetworkIdle(SCROLL_QUIET_MS, SCROLL_MAX_WAIT_MS, this.#s.signal);
    });
  }

  waitFor(opts: WaitForOptions): Promise<void> {
    const deadline = this.#deadline(opts);
    return this.#act(async () => {
      if (opts.selector) {
        const state = opts.state ?? 'visible';
        for (;;) {
          this.#s.signal?.throwIfAborted();
          const el = await this.#find(opts.selector);
          let ok: boolean;
          try {
            const shown = el ? await el.isDisplayed() : false;
            ok = state === 'attached' ? el !== null : state === 'detached' ? el === null : state === 'visible' ? shown : !shown;
          } catch (err) {
            if (!RETRYABLE.has((err as Error).name)) throw err;
            ok = false;
          }
          if (ok) return;
          if (Date.now() >= deadline.at) throw actionTimeout(`waiting for ${opts.selector} to be ${state}`, deadline.ms);
          await this.#top();
          await sleep(100);
        }
      }
      if (opts.networkIdle) {
        const idle = await this.#s.tracker.waitNetworkIdle(NETWORK_IDLE_MS, deadline.ms, this.#s.signal);
        if (!idle) throw actionTimeout('waiting for network idle', deadline.ms, `${this.#s.tracker.inflight} requests still running`);
        return;
      }
      if (opts.quietMs !== undefined) return this.#quiet(Math.max(0, opts.quietMs), deadline, opts.afterChange === true);
      if (opts.ms) await sleep(Math.max(0, opts.ms));
    });
  }

  /**
   * Quiet (core's waitUntilQuiet): the shared `quiet` script (WebDriver waits for the promise it
   * returns, in calls of at most QUIET_CALL_MS, under chromedriver's script timeout), and no request
   * in flight that started since the last action (a long-lived connection opened before it does
   * not count).
   */
  #quiet(quietMs: number, deadline: { at: number; ms: number }, afterChange: boolean): Promise<void> {
    const tracker = this.#s.tracker;
    const since = this.#actedAt || Date.now();
    const what = `waiting for the page to ${afterChange ? 'change and ' : ''}be quiet for ${quietMs} ms`;
    return waitUntilQuiet({
      quietMs,
      timeoutMs: deadline.at - Date.now(),
      afterChange,
      callMaxMs: QUIET_CALL_MS,
      signal: this.#s.signal,
      timedOut: () => actionTimeout(what, deadline.ms, `${tracker.inflightSince(since)} requests still running`),
      busy: () => tracker.inflightSince(since),
      run: (arg) => this.#run<QuietResult>(PAGE_SCRIPTS.quiet, arg),
    });
  }

  outline(): Promise<PageOutline> {
    return this.#act(async () => capOutline(await this.#run<unknown>(PAGE_SCRIPTS.outline)));
  }

  /** The page as shown (top document); `withHtml` runs the snapshot script, else reads the text. */
  async pageInfo(withHtml: boolean): Promise<PageInfo> {
    await this.#top().catch(() => undefined);
    const r = await this.#script<{ html: string | null; text: string | null; charset: string | null; url: string }>(PAGE_INFO, withHtml);
    return { html: r.html ?? undefined, text: r.text ?? undefined, charset: r.charset ?? undefined, url: r.url };
  }
}
