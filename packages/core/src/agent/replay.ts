/**
 * Replaying an agentic script without the model: one interactive session on the cheapest driver that
 * can run it (the plain-HTTP driver's interaction for a script recorded on plain pages, else the
 * browser), each step's target found again with resolveTarget on a fresh outline, each extract
 * step's recipe executed on the current page. A target that is gone, or an extract that finds
 * nothing where the build's page had records, is layout drift: the replay stops and says at which
 * step, with the page it was on (a heal starts from there).
 */
import { mergeRecords, type Attribute, type ExtractedRecord } from '../records/attributes.ts';
import type { OperationContext } from '../context.ts';
import { GleanerError } from '../errors.ts';
import { resolveProxy } from '../net/proxies.ts';
import { isInteractive, type Driver, type InteractiveSession, type OutlineElement, type PageOutline } from '../plugins/driver.ts';
import { runRecipe, type Recipe } from '../recipes/index.ts';
import { describeStep, fillPlaceholders, RUN_URL_VARIABLE, type AgentScript, type ScriptStep } from './script.ts';
import { resolveTarget } from './targets.ts';
import type { StableTarget } from './types.ts';

export interface ReplayInput {
  script: AgentScript;
  /** The run's URL: the `{{url}}` variable. */
  url: string;
  /** The run's parameters (defaults filled); null when the scraper has none. */
  parameters: Record<string, unknown> | null;
  attributes: Attribute[];
  signal?: AbortSignal;
}

export interface ReplayPage {
  url: string;
  html: string;
  driver: string;
}

export interface ReplayResult {
  /** Every extract's records, merged (duplicates dropped). */
  records: ExtractedRecord[];
  /** The pages extracted from, in order. */
  pages: Array<{ url: string; records: number }>;
  driver: string;
  /** Set when the layout changed: `layout changed: <step>: <what>`, and the page it happened on. */
  drift: { step: number; message: string; page: ReplayPage } | null;
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

/** How long the page must stay the same after it changed before the next step runs. */
const QUIET_MS = 150;
const POLL_MS = 40;
/** Longest wait for an action's effect (a navigation, content loaded by a script). */
const SETTLE_MAX_MS = 5000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const fingerprint = (o: PageOutline) => `${o.url}\n${o.elements.map((e) => `${e.role}:${e.name}`).join('|')}\n${o.text ?? ''}`;

/**
 * Waits until the page differs from `before` and has then stayed the same for QUIET_MS (or
 * SETTLE_MAX_MS passed; the next step judges the page then). Unlike waiting for network idle this
 * costs only as long as the page takes to react: a plain-HTTP page has changed by the time the action
 * returns. An outline that fails mid-navigation is just tried again.
 */
async function untilSettled(session: InteractiveSession, before: string, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + SETTLE_MAX_MS;
  let last = before;
  let since = Date.now();
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    const now = await session.outline().then(fingerprint, () => null);
    if (now !== null && now !== before) {
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since >= QUIET_MS) {
        return;
      }
    }
    await sleep(POLL_MS);
  }
}

/** Runs a script once, without any model call. Throws driver and fetch errors; returns drift. */
export async function replayScript(ctx: OperationContext, input: ReplayInput): Promise<ReplayResult> {
  const { script } = input;
  const driver = replayDriver(ctx.drivers, script);
  const values: Record<string, unknown> = { ...input.parameters, [RUN_URL_VARIABLE]: input.url };
  const actionTimeoutMs = ctx.config.agent.actionTimeoutMs;
  const proxy = resolveProxy(ctx.config.network.defaultProxyCountry, ctx.config, { logger: ctx.logger });
  const session = await driver.openSession({ proxy, signal: input.signal, logger: ctx.logger });
  const perPage: ExtractedRecord[][] = [];
  const pages: ReplayResult['pages'] = [];
  let lastRecipe: Recipe | null = null;
  let index = 0;
  try {
    if (!isInteractive(session))
      throw new GleanerError('DRIVER_UNAVAILABLE', `the ${driver.name} driver cannot interact with pages, which this agentic scraper needs`);
    // The page as the last outline saw it: what an action's effect is judged against.
    let before = '';
    const find = async (target: StableTarget, st: ScriptStep): Promise<OutlineElement> => {
      const outline = await session.outline();
      before = fingerprint(outline);
      const el = resolveTarget(outline, target);
      if (!el) throw new Drift(`layout changed: ${describeStep(st, index)}: its target is gone`);
      return el;
    };
    // Without JavaScript (the HTTP driver's interaction) an action's effect is complete when it returns.
    const settle = async (st: { changes?: boolean }) => {
      if (driver.capabilities.javascript && st.changes !== false) await untilSettled(session, before, input.signal);
    };
    const extract = async (recipe: Recipe): Promise<number> => {
      const page = await session.snapshot();
      const run = runRecipe(recipe, page.html, { url: page.finalUrl, attributes: input.attributes.length ? input.attributes : undefined });
      perPage.push(run.records);
      pages.push({ url: page.finalUrl, records: run.records.length });
      return run.records.length;
    };
    const opts = { timeoutMs: actionTimeoutMs };
    for (; index < script.steps.length; index++) {
      input.signal?.throwIfAborted();
      const st = script.steps[index];
      switch (st.action) {
        case 'goto': {
          const page = await session.goto(stepUrl(st.url, values));
          if (page.status >= 400) {
            throw new GleanerError('FETCH_FAILED', `${page.finalUrl} answered HTTP ${page.status}`, {
              retryable: page.status >= 500 || page.status === 429,
              details: { status: page.status },
            });
          }
          break;
        }
        case 'click':
          await session.click((await find(st.target, st)).ref, opts);
          await settle(st);
          break;
        case 'type':
          await session.type((await find(st.target, st)).ref, fillPlaceholders(st.value, values), { ...opts, clear: true, pressEnter: st.pressEnter });
          if (st.pressEnter) await settle(st);
          break;
        case 'select':
          await session.select(
            (await find(st.target, st)).ref,
            st.values.map((v) => fillPlaceholders(v, values)),
            opts,
          );
          await settle(st);
          break;
        case 'scroll':
          if (st.target) await session.scroll({ selector: (await find(st.target, st)).ref });
          else {
            before = fingerprint(await session.outline());
            await session.scroll(st.pixels !== undefined ? { pixels: st.pixels } : { to: st.to ?? 'bottom' });
          }
          await settle(st);
          break;
        case 'wait':
          await session.waitFor({ ms: st.ms, timeoutMs: st.ms + actionTimeoutMs });
          break;
        case 'extract':
          lastRecipe = st.recipe;
          if (!(await extract(st.recipe)) && st.sampleRecords > 0) {
            throw new Drift(
              `layout changed: ${describeStep(st, index)} found no records on ${pages.at(-1)!.url}, where the build's page gave ${st.sampleRecords}`,
            );
          }
          break;
        case 'paginate':
          // The end of a list is not drift: a missing next control or an empty page stops paginating.
          for (let p = 0; p < st.pages; p++) {
            const outline = await session.outline();
            const next = resolveTarget(outline, st.target);
            if (!next) break;
            before = fingerprint(outline);
            await session.click(next.ref, opts);
            await settle({});
            if (!(await extract(lastRecipe!))) break;
          }
          break;
      }
    }
    return { records: mergeRecords(perPage), pages, driver: driver.name, drift: null };
  } catch (err) {
    if (!(err instanceof Drift)) throw err;
    const snap = isInteractive(session) ? await session.snapshot().catch(() => null) : null;
    const page = { url: snap?.finalUrl ?? input.url, html: snap?.html ?? '', driver: driver.name };
    return { records: mergeRecords(perPage), pages, driver: driver.name, drift: { step: index, message: err.message, page } };
  } finally {
    await session.close();
  }
}
