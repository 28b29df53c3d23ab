/**
 * Replaying an agentic script without the model: one interactive session on the cheapest driver that
 * can run it (the plain-HTTP driver's interaction for a script recorded on plain pages, else the
 * browser), each step's target found again with resolveTarget on a fresh outline, each extract
 * step's recipe executed on the current page. A target that is gone, or an extract that finds
 * nothing where the build's page had records, is layout drift: the replay stops and says at which
 * step, with the page it was on (a heal starts from there).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { mergeRecords, type Attribute, type ExtractedRecord } from '../records/attributes.ts';
import type { OperationContext } from '../context.ts';
import { GleanerError } from '../errors.ts';
import { resolveProxy } from '../net/proxies.ts';
import { pluginApiAtLeast } from '../plugins/version.ts';
import { isInteractive, type Driver, type InteractiveSession, type LocalStorageState, type OutlineElement, type PageOutline } from '../plugins/driver.ts';
import { runRecipe, type Recipe } from '../recipes/index.ts';
import { describeStep, fillPlaceholders, RUN_URL_VARIABLE, type AgentScript, type ScriptStep } from './script.ts';
import { resolveTarget } from './targets.ts';
import type { StableTarget } from './types.ts';
import type { Cookie } from '../net/cookies.ts';
import type { TrustLog } from '../trust/provenance.ts';
import { mergeVisited, runVisit, type VisitedPage } from './visit.ts';

export interface ReplayInput {
  script: AgentScript;
  /** The run's URL: the `{{url}}` variable. */
  url: string;
  /** The run's parameters (defaults filled); null when the scraper has none. */
  parameters: Record<string, unknown> | null;
  attributes: Attribute[];
  signal?: AbortSignal;
  /**
   * Pages a paginate step reads, the one before its first click included (a run's max_pages);
   * absent, as many as the recording had (the build's replay).
   */
  maxPages?: number;
  /** The cookies the session starts with (a profile's). */
  cookies?: Cookie[];
  /** The local storage by origin the session starts with (a profile's). */
  localStorage?: LocalStorageState;
  /** Also return the session's cookies and local storage at the end (`ReplayResult.cookies`, to save a profile). */
  keepState?: boolean;
  /** `provenance: true` on a run: each extract step's records are traced here (their recipe rules). */
  trust?: TrustLog;
}

export interface ReplayPage {
  url: string;
  html: string;
  driver: string;
}

export interface ReplayResult {
  /** Every extract's records, merged (duplicates dropped). */
  records: ExtractedRecord[];
  /** The pages extracted from, in order (with what was read of them, for the snapshot archive). */
  pages: Array<{ url: string; records: number; html?: string; driver?: string; body?: Uint8Array; charset?: string }>;
  driver: string;
  /** Set when the layout changed: `layout changed: <step>: <what>`, and the page it happened on. */
  drift: { step: number; message: string; page: ReplayPage } | null;
  /** keepState: the session's cookies when the script ended. */
  cookies?: Cookie[];
  /** keepState: the session's local storage when the script ended (browsers). */
  localStorage?: LocalStorageState;
}

/** The driver a script replays on: plain HTTP with interaction when the script allows, else a browser. */
export function replayDriver(drivers: readonly Driver[], script: Pick<AgentScript, 'driver'>): Driver {
  const plain = drivers.find((d) => !d.capabilities.javascript && d.capabilities.interaction);
  const browser = drivers.find((d) => d.capabilities.javascript && d.capabilities.interaction);
  const chosen = script.driver === 'http' ? (plain ?? browser) : browser;
  if (!chosen) {
    throw new GleanerError(
      'DRIVER_UNAVAILABLE',
      script.driver === 'http'
        ? 'no driver with page interaction is configured to replay this agentic scraper'
        : 'this agentic scraper needs a browser driver (it was recorded on pages that need JavaScript), and none is configured',
    );
  }
  return chosen;
}

/** A whole-value placeholder (`{{start_url}}`) is used as is; placeholders inside a URL are encoded. */
function stepUrl(text: string, values: Record<string, unknown>): string {
  return /^\{\{\s*[\w-]+\s*\}\}$/.test(text.trim()) ? fillPlaceholders(text.trim(), values) : fillPlaceholders(text, values, encodeURIComponent);
}

class Drift extends Error {}

/** How long the page must stay quiet after it changed before the next step runs. */
const QUIET_MS = 100;
/** A pause before looking again when a wait for quiet failed early (the page was navigating). */
const POLL_MS = 15;
/** With a plugin API 1.0 driver (no quiet wait): the outline unchanged this long, polled this often. */
const OUTLINE_QUIET_MS = 150;
const OUTLINE_POLL_MS = 40;
/** Longest wait for an action's effect (a navigation, content loaded by a script). */
const SETTLE_MAX_MS = 5000;

const fingerprint = (o: PageOutline) => `${o.url}\n${o.elements.map((e) => `${e.role}:${e.name}`).join('|')}\n${o.text ?? ''}`;

/**
 * Waits until the page differs from `before` (its outline's fingerprint) and has then been quiet,
 * at most SETTLE_MAX_MS (the next step judges the page then). With a driver that can wait for quiet
 * (plugin API 1.1) the page itself watches: `waitFor({ quietMs, afterChange })` returns once the
 * document changed after the outline the action's target came from and then stayed unchanged, with
 * no request in flight, for QUIET_MS; a change that leaves the outline as it was (a pressed style)
 * is waited past. With a 1.0 driver, outlines are polled until one differs and then stays the same
 * for OUTLINE_QUIET_MS. Unlike waiting for network idle, this costs only as long as the page takes
 * to react. Returns the settled page's outline (null when the wait ran out), which the next step's
 * target lookup uses instead of taking one more.
 */
async function untilSettled(session: InteractiveSession, before: string, canQuiet: boolean, signal?: AbortSignal): Promise<PageOutline | null> {
  const deadline = Date.now() + SETTLE_MAX_MS;
  if (canQuiet) {
    while (Date.now() < deadline) {
      signal?.throwIfAborted();
      const waited = await session.waitFor({ quietMs: QUIET_MS, afterChange: true, timeoutMs: Math.max(1, deadline - Date.now()) }).then(
        () => true,
        () => false,
      );
      signal?.throwIfAborted();
      // This outline also restarts the page's change count: a later wait is for a change after it.
      const outline = await session.outline().catch(() => null);
      if (outline && fingerprint(outline) !== before) return outline;
      // The wait failed before its time (the page navigating under it): look again shortly.
      if (!waited) await sleep(POLL_MS);
    }
    return null;
  }
  let last = before;
  let since = Date.now();
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    const outline = await session.outline().catch(() => null);
    const now = outline ? fingerprint(outline) : null;
    if (now !== null && now !== before) {
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since >= OUTLINE_QUIET_MS) {
        return outline;
      }
    }
    await sleep(OUTLINE_POLL_MS);
  }
  return null;
}

/** A drift: the step it happened at and what changed. */
export interface ReplayDrift {
  step: number;
  message: string;
}

/**
 * One replay in progress: the session it runs on, the steps run so far and their records. `run`
 * can stop before a step and leave the page there (a heal hands that live page to the agent);
 * whoever opened it closes it.
 */
export class ScriptReplay {
  readonly driver: Driver;
  readonly #ctx: OperationContext;
  readonly #input: ReplayInput;
  readonly #session: InteractiveSession;
  readonly #values: Record<string, unknown>;
  readonly #perPage: ExtractedRecord[][] = [];
  /** The visits' detail pages (merged into the listing's records, as the agent's were). */
  readonly #visits: Array<{ listingUrl: string; pages: VisitedPage[] }> = [];
  readonly pages: ReplayResult['pages'] = [];
  #lastRecipe: Recipe | null = null;
  /** The next step to run. */
  #index = 0;
  /** The page as the last outline saw it: what an action's effect is judged against. */
  #before = '';
  /** The outline the last settle ended on, while no action has run since (the next lookup uses it). */
  #settled: PageOutline | null = null;
  /** The driver can wait for the page to be quiet (plugin API 1.1). */
  readonly #canQuiet: boolean;

  private constructor(ctx: OperationContext, input: ReplayInput, driver: Driver, session: InteractiveSession) {
    this.#ctx = ctx;
    this.#input = input;
    this.driver = driver;
    this.#session = session;
    this.#values = { ...input.parameters, [RUN_URL_VARIABLE]: input.url };
    this.#canQuiet = pluginApiAtLeast(driver, '1.1');
  }

  /** Opens a session on the script's replay driver. */
  static async open(ctx: OperationContext, input: ReplayInput): Promise<ScriptReplay> {
    const driver = replayDriver(ctx.drivers, input.script);
    const proxy = resolveProxy(ctx.config.network.defaultProxyCountry, ctx.config, { logger: ctx.logger });
    const session = await driver.openSession({ proxy, signal: input.signal, logger: ctx.logger, cookies: input.cookies, localStorage: input.localStorage });
    if (!isInteractive(session)) {
      await session.close();
      throw new GleanerError('DRIVER_UNAVAILABLE', `the ${driver.name} driver cannot interact with pages, which this agentic scraper needs`);
    }
    return new ScriptReplay(ctx, input, driver, session);
  }

  /** The live page (for the agent that continues from it). */
  get session(): InteractiveSession {
    return this.#session;
  }

  get records(): ExtractedRecord[] {
    const listing = mergeRecords(this.#perPage);
    return this.#visits.length ? mergeVisited(listing, this.#visits) : listing;
  }

  /** Runs the steps up to (not including) `end`. Throws driver and fetch errors; returns drift. */
  async run(end = this.#input.script.steps.length): Promise<ReplayDrift | null> {
    const steps = this.#input.script.steps;
    try {
      for (; this.#index < Math.min(end, steps.length); this.#index++) {
        this.#input.signal?.throwIfAborted();
        await this.#step(steps[this.#index]);
      }
      return null;
    } catch (err) {
      if (!(err instanceof Drift)) throw err;
      return { step: this.#index, message: err.message };
    }
  }

  /** What the replay produced; `drift` with the page it happened on. */
  async result(drift: ReplayDrift | null): Promise<ReplayResult> {
    const base: Omit<ReplayResult, 'drift'> = { records: this.records, pages: this.pages, driver: this.driver.name };
    if (!drift && this.#input.keepState) {
      const cookies = (await this.#session.snapshot().catch(() => null))?.cookies;
      if (cookies) base.cookies = cookies;
      const storage = await this.#session.localStorage?.().catch(() => undefined);
      if (storage) base.localStorage = storage;
    }
    if (!drift) return { ...base, drift: null };
    const snap = await this.#session.snapshot().catch(() => null);
    const page = { url: snap?.finalUrl ?? this.#input.url, html: snap?.html ?? '', driver: this.driver.name };
    return { ...base, drift: { ...drift, page } };
  }

  close(): Promise<void> {
    return this.#session.close();
  }

  /** The page's outline: the one the last settle ended on, else a new one. */
  async #outline(): Promise<PageOutline> {
    const settled = this.#settled;
    this.#settled = null;
    return settled ?? this.#session.outline();
  }

  async #find(target: StableTarget, st: ScriptStep): Promise<OutlineElement> {
    const outline = await this.#outline();
    this.#before = fingerprint(outline);
    const el = resolveTarget(outline, target);
    if (!el) throw new Drift(`layout changed: ${describeStep(st, this.#index)}: its target is gone`);
    return el;
  }

  /** Without JavaScript (the HTTP driver's interaction) an action's effect is complete when it returns. */
  async #settle(st: { changes?: boolean }): Promise<void> {
    if (this.driver.capabilities.javascript && st.changes !== false) {
      this.#settled = await untilSettled(this.#session, this.#before, this.#canQuiet, this.#input.signal);
    }
  }

  async #extract(recipe: Recipe): Promise<number> {
    const page = await this.#session.snapshot();
    const attributes = this.#input.attributes;
    const traced: Array<[ExtractedRecord, Record<string, number>]> = [];
    const trace = this.#input.trust ? (r: ExtractedRecord, rules: Record<string, number>) => traced.push([r, rules]) : undefined;
    const run = runRecipe(recipe, page.html, { url: page.finalUrl, attributes: attributes.length ? attributes : undefined, trace });
    this.#input.trust?.recipePage({ url: page.finalUrl, html: page.html }, recipe, traced, attributes);
    this.#perPage.push(run.records);
    this.pages.push({ url: page.finalUrl, records: run.records.length, html: page.html, driver: page.driver, body: page.body, charset: page.charset });
    return run.records.length;
  }

  async #step(st: ScriptStep): Promise<void> {
    const session = this.#session;
    const values = this.#values;
    const opts = { timeoutMs: this.#ctx.config.agent.actionTimeoutMs };
    switch (st.action) {
      case 'goto': {
        this.#settled = null;
        // The page is read when an extract step needs it: the navigation's outcome is enough here.
        const page = await session.goto(stepUrl(st.url, values), { content: false });
        if (page.status >= 400) {
          throw new GleanerError('FETCH_FAILED', `${page.finalUrl} answered HTTP ${page.status}`, {
            retryable: page.status >= 500 || page.status === 429,
            details: { status: page.status },
          });
        }
        return;
      }
      case 'click':
        await session.click((await this.#find(st.target, st)).ref, opts);
        return this.#settle(st);
      case 'type':
        await session.type((await this.#find(st.target, st)).ref, fillPlaceholders(st.value, values), { ...opts, clear: true, pressEnter: st.pressEnter });
        if (st.pressEnter) await this.#settle(st);
        return;
      case 'select':
        await session.select(
          (await this.#find(st.target, st)).ref,
          st.values.map((v) => fillPlaceholders(v, values)),
          opts,
        );
        return this.#settle(st);
      case 'scroll':
        if (st.target) await session.scroll({ selector: (await this.#find(st.target, st)).ref });
        else {
          this.#before = fingerprint(await this.#outline());
          await session.scroll(st.pixels !== undefined ? { pixels: st.pixels } : { to: st.to ?? 'bottom' });
        }
        return this.#settle(st);
      case 'wait':
        this.#settled = null;
        await session.waitFor({ ms: st.ms, timeoutMs: st.ms + opts.timeoutMs });
        return;
      case 'extract':
        this.#lastRecipe = st.recipe;
        if (!(await this.#extract(st.recipe)) && st.sampleRecords > 0) {
          throw new Drift(
            `layout changed: ${describeStep(st, this.#index)} found no records on ${this.pages.at(-1)!.url}, where the build's page gave ${st.sampleRecords}`,
          );
        }
        return;
      case 'visit': {
        this.#settled = null;
        const page = await session.snapshot();
        const out = await runVisit({
          ctx: this.#ctx,
          listing: { url: page.finalUrl, html: page.html },
          request: { links: st.links, followPagination: st.followPagination, maxItems: st.maxItems },
          attributes: this.#input.attributes,
          prompt: '',
          cookies: page.cookies ?? [],
          preferBrowser: this.driver.capabilities.javascript,
          signal: this.#input.signal ?? new AbortController().signal,
          recipe: st.recipe,
        });
        this.#visits.push({ listingUrl: page.finalUrl, pages: out.pages });
        // Each detail page read goes to the snapshot archive with the listing's.
        for (const p of out.pages) this.pages.push({ url: p.url, records: p.records.length, ...(p.document ? { ...p.document, driver: p.driver } : {}) });
        if (st.sampleRecords > 0 && !out.pages.some((p) => p.records.length)) {
          const failed = out.pages.find((p) => p.error);
          throw new Drift(
            `layout changed: ${describeStep(st, this.#index)} found no records on the ${out.pages.length} page${out.pages.length === 1 ? '' : 's'} it opened from ${page.finalUrl}${failed ? ` (e.g. ${failed.url}: ${failed.error})` : ''}, where the build's visit gave ${st.sampleRecords}`,
          );
        }
        return;
      }
      case 'paginate': {
        // The end of a list is not drift: a missing next control or an empty page stops paginating.
        // A run's max_pages counts the page before the first click.
        const more = this.#input.maxPages !== undefined ? this.#input.maxPages - 1 : st.pages;
        for (let p = 0; p < more; p++) {
          const outline = await this.#outline();
          const next = resolveTarget(outline, st.target);
          if (!next) break;
          this.#before = fingerprint(outline);
          await session.click(next.ref, opts);
          await this.#settle({});
          if (!(await this.#extract(this.#lastRecipe!))) break;
        }
        return;
      }
    }
  }
}

/**
 * Runs a script once, without any model call. Throws driver and fetch errors; returns drift. The
 * session is closed before it returns, or, given `deferClose`, handed its closing to await later
 * (a run item records its result while the browser context closes).
 */
export async function replayScript(ctx: OperationContext, input: ReplayInput, deferClose?: (closing: Promise<void>) => void): Promise<ReplayResult> {
  const replay = await ScriptReplay.open(ctx, input);
  try {
    return await replay.result(await replay.run());
  } finally {
    const closing = replay.close();
    if (deferClose) {
      // Handled here too: the caller may await it much later (after a heal), never unhandled.
      closing.catch(() => undefined);
      deferClose(closing);
    } else {
      await closing;
    }
  }
}
