// The interaction half of a session: click, type, select, scroll, waitFor, outline. Targets are an
// outline ref (`e7`) or a CSS selector, either possibly inside same-origin iframes (`iframe >>> a`).
// The in-page work (outline, scroll, ref lookup) uses core's shared page scripts, so the Selenium
// driver sees pages the same way.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { GleanerError, capOutline, isRef, refSelector, scriptCall, splitFrameSelector, waitUntilQuiet } from '@gleaner/core/plugin';
import type { ActionOptions, ClickPoint, PageOutline, QuietResult, ScrollOptions, ScrollResult, WaitForOptions } from '@gleaner/core/plugin';
import { actionError } from './errors.ts';
import { evaluateStable } from './snapshot.ts';
import type { NetworkTracker } from './tracker.ts';

/** Lazy content after a scroll: how long to let handlers start requests, how quiet counts as done, the cap. */
const SCROLL_KICKOFF_MS = 120;
const SCROLL_QUIET_MS = 100;
const SCROLL_MAX_WAIT_MS = 3000;
/** Network idle for waitFor({networkIdle}): no request for this long (Playwright's own definition). */
const IDLE_QUIET_MS = 500;
/** How long past its own limit an in-page quiet wait may take before it counts as stalled. */
const QUIET_GRACE_MS = 1000;

export interface InteractionSettings {
  page: Page;
  tracker: NetworkTracker;
  defaultTimeoutMs: number;
  /** The session's wrapper: refuses calls on a closed session and maps aborts. */
  guardCall<T>(what: string, fn: () => Promise<T>): Promise<T>;
}

export class Interactions {
  readonly #s: InteractionSettings;
  /** When the last action (or navigation) began: the quiet wait minds requests started since. */
  #actedAt = 0;

  constructor(settings: InteractionSettings) {
    this.#s = settings;
  }

  /** A ref's frame chain (null when no element carries it), or the selector itself. */
  async #chain(target: string): Promise<string | null> {
    const t = target.trim();
    if (!t) throw new GleanerError('BAD_REQUEST', 'an empty selector was given for a page action');
    if (!isRef(t)) return t;
    return evaluateStable<string | null>(this.#s.page, scriptCall('findRef', t));
  }

  /** A Playwright locator for a target, entering same-origin iframes along its frame chain. */
  async #locate(target: string): Promise<Locator> {
    const chain = await this.#chain(target);
    // A ref nobody carries (the page changed since the outline) still makes a locator that waits.
    const parts = splitFrameSelector(chain ?? refSelector(target));
    let scope: Page | FrameLocator = this.#s.page;
    for (const frame of parts.slice(0, -1)) scope = scope.frameLocator(frame);
    return scope.locator(parts.at(-1) ?? target).first();
  }

  async #act(what: string, timeoutMs: number, fn: () => Promise<void>): Promise<void> {
    await this.#s.guardCall(what, async () => {
      try {
        await fn();
      } catch (err) {
        throw actionError(err, what, timeoutMs);
      }
    });
  }

  /** Marks the start of an action or a navigation (requests older than it do not hold a quiet wait). */
  markAction(): void {
    this.#actedAt = Date.now();
  }

  #timeout(opts?: ActionOptions): number {
    return opts?.timeoutMs ?? this.#s.defaultTimeoutMs;
  }

  click(target: string, opts?: ActionOptions): Promise<void> {
    const timeout = this.#timeout(opts);
    this.markAction();
    return this.#act(`clicking ${target}`, timeout, async () => {
      const point = await this.#clickPoint(target);
      if (point) await this.#s.page.mouse.click(point.x, point.y);
      else await (await this.#locate(target)).click({ timeout });
    });
  }

  /**
   * The fast path of a click (core's `clickPoint` script, one evaluation): when the target is in the
   * top document, visible, enabled and itself (or a descendant) under its centre, a real mouse click
   * there — without Playwright's locator, whose first use on each page injects its selector engine
   * (a few hundred ms on a busy machine). Anything less certain (frames, shadow DOM, covered,
   * disabled, not yet rendered) returns null and the locator's click, with its waiting and
   * actionability checks, does the job.
   */
  async #clickPoint(target: string): Promise<ClickPoint | null> {
    if (!target.trim()) return null;
    return evaluateStable<ClickPoint | null>(this.#s.page, scriptCall('clickPoint', target)).catch(() => null);
  }

  type(target: string, text: string, opts?: ActionOptions & { clear?: boolean; pressEnter?: boolean }): Promise<void> {
    const timeout = this.#timeout(opts);
    this.markAction();
    return this.#act(`typing into ${target}`, timeout, async () => {
      if (text && text.length <= 500 && (await this.#focusField(target, opts?.clear === true))) {
        // The fast path (no locator): the field is focused, the keystrokes go to it as below.
        const chars = Array.from(text);
        const keyboard = this.#s.page.keyboard;
        if (chars.length > 1) await keyboard.insertText(chars.slice(0, -1).join(''));
        await keyboard.type(chars.at(-1)!);
        if (opts?.pressEnter) await keyboard.press('Enter');
        return;
      }
      const el = await this.#locate(target);
      if (opts?.clear) {
        await el.fill('', { timeout });
      } else {
        await el.focus({ timeout });
        // Keystrokes go after what the field holds (focus alone may leave the caret anywhere).
        await el.evaluate((node) => {
          const f = node as HTMLInputElement;
          try {
            if (typeof f.setSelectionRange === 'function' && typeof f.value === 'string') f.setSelectionRange(f.value.length, f.value.length);
          } catch {
            // input types without a selection (email, number) ignore this
          }
        });
      }
      // Long text is filled at once. Otherwise all but the last character go in as one input event
      // (what a paste does) and the last as real key events, so autocompletes and key handlers run
      // on the whole value: four browser round trips instead of three per character.
      if (text.length > 500) await el.fill(opts?.clear ? text : `${await el.inputValue({ timeout })}${text}`, { timeout });
      else if (text) {
        const chars = Array.from(text);
        if (chars.length > 1) await this.#s.page.keyboard.insertText(chars.slice(0, -1).join(''));
        await el.pressSequentially(chars.at(-1)!, { timeout });
      }
      if (opts?.pressEnter) await el.press('Enter', { timeout });
    });
  }

  /** Core's `focusField` script (one evaluation): true when the target is a plain field, now focused. */
  async #focusField(target: string, clear: boolean): Promise<boolean> {
    if (!target.trim()) return false;
    return evaluateStable<boolean>(this.#s.page, scriptCall('focusField', { target, clear })).catch(() => false);
  }

  select(target: string, values: string | string[], opts?: ActionOptions): Promise<void> {
    const timeout = this.#timeout(opts);
    this.markAction();
    const list = Array.isArray(values) ? values : [values];
    return this.#act(`selecting ${JSON.stringify(list)} in ${target}`, timeout, async () => {
      await (await this.#locate(target)).selectOption(list, { timeout });
    });
  }

  scroll(opts: ScrollOptions): Promise<void> {
    this.markAction();
    const what = opts.selector ? `scrolling to ${opts.selector}` : opts.to ? `scrolling to the ${opts.to}` : `scrolling by ${opts.pixels ?? 'a screen'}`;
    return this.#act(what, SCROLL_MAX_WAIT_MS, async () => {
      const page = this.#s.page;
      let selector: string | undefined;
      if (opts.selector) {
        const chain = await this.#chain(opts.selector);
        if (!chain) throw new GleanerError('BAD_REQUEST', `no element carries ref ${opts.selector} any more; take a new outline`);
        selector = chain;
      }
      const result = await evaluateStable<ScrollResult>(page, scriptCall('scroll', { to: opts.to, selector, pixels: opts.pixels }));
      if (!result.found) throw new GleanerError('BAD_REQUEST', `no element matches ${opts.selector} to scroll to`);
      // Lazy loading: scroll handlers and observers start their requests within a frame or two;
      // then wait, bounded, until the network is quiet again.
      await sleep(SCROLL_KICKOFF_MS);
      await this.#s.tracker.idle(SCROLL_QUIET_MS, SCROLL_MAX_WAIT_MS);
    });
  }

  waitFor(opts: WaitForOptions): Promise<void> {
    const timeout = opts.timeoutMs ?? this.#s.defaultTimeoutMs;
    if (opts.selector) {
      const state = opts.state ?? 'visible';
      return this.#act(`waiting for ${opts.selector} to be ${state}`, timeout, async () => {
        await (await this.#locate(opts.selector as string)).waitFor({ state, timeout });
      });
    }
    if (opts.networkIdle) {
      return this.#act('waiting for network idle', timeout, async () => {
        if (!(await this.#s.tracker.idle(IDLE_QUIET_MS, timeout))) {
          throw new GleanerError(
            'FETCH_TIMEOUT',
            `timed out after ${timeout} ms waiting for network idle (${this.#s.tracker.inflight} requests still running)`,
          );
        }
      });
    }
    if (opts.quietMs !== undefined) {
      const quietMs = Math.max(0, opts.quietMs);
      const what = `waiting for the page to ${opts.afterChange ? 'change and ' : ''}be quiet for ${quietMs} ms`;
      return this.#act(what, timeout, () => this.#quiet(quietMs, timeout, opts.afterChange === true, what));
    }
    const ms = Math.max(0, opts.ms ?? 0);
    return this.#act(`waiting ${ms} ms`, ms, () => sleep(ms));
  }

  /**
   * Quiet (core's waitUntilQuiet): the shared `quiet` script, also bounded here (a page that stalls
   * its own timers cannot hold it), and no request in flight that started since the last action (a
   * long-lived connection opened before it, such as an event stream, does not count).
   */
  #quiet(quietMs: number, timeout: number, afterChange: boolean, what: string): Promise<void> {
    const page = this.#s.page;
    const tracker = this.#s.tracker;
    const since = this.#actedAt || Date.now();
    const timedOut = () => new GleanerError('FETCH_TIMEOUT', `timed out after ${timeout} ms ${what} (${tracker.inflightSince(since)} requests still running)`);
    return waitUntilQuiet({
      quietMs,
      timeoutMs: timeout,
      afterChange,
      timedOut,
      busy: () => tracker.inflightSince(since),
      run: async (arg) => {
        let timer: NodeJS.Timeout | undefined;
        const stalled = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), arg.maxMs + QUIET_GRACE_MS)));
        const waiting = evaluateStable<QuietResult>(page, scriptCall('quiet', arg));
        waiting.catch(() => undefined);
        const r = await Promise.race([waiting, stalled]).finally(() => clearTimeout(timer));
        if (!r) throw timedOut();
        return r;
      },
    });
  }

  outline(): Promise<PageOutline> {
    return this.#s.guardCall('outlining the page', async () => {
      try {
        return capOutline(await evaluateStable<unknown>(this.#s.page, scriptCall('outline', {})));
      } catch (err) {
        throw actionError(err, 'outlining the page', this.#s.defaultTimeoutMs);
      }
    });
  }
}
