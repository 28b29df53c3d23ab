/**
 * The browsing agent: observe -> decide -> act until the model calls finish or a budget ends.
 *
 * - Observe: the driver's outline (element refs), the reduced page text, the URL, and what the last
 *   action changed (see observe.ts).
 * - Decide: model tool calls (tools.ts) through the model client, so both providers and every
 *   retry/timeout rule apply; a model without native tool calls answers JSON in the prompt instead.
 *   A malformed call is answered with its error and costs a step.
 * - Act: the session's interaction methods; every action is recorded on a stable target (never the
 *   ref) with the value typed, so a replay needs no model.
 * - Budgets: steps, model tokens and wall time (config agent.*); the same action on an unchanged page
 *   is pointed out once and ends the run the next time. The caller's signal stops the browser, the
 *   model call in flight and the loop at once; the sessions are closed on every path.
 */
import { GleanerError, isGleanerError } from '../errors.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { mergeRecords, type ExtractedRecord } from '../records/attributes.ts';
import { addUsage, emptyUsage } from '../usage.ts';
import { extractWithModel } from '../extract/model-extract.ts';
import type { LlmMessage, LlmResult, LlmToolCall } from '../plugins/llm.ts';
import { refSelector } from '../browser/page-scripts.ts';
import type { OutlineElement } from '../plugins/driver.ts';
import { AgentPage, type ActionEffect } from './browse.ts';
import { domainAllowed, domainRefused } from './domains.ts';
import { describeEffect, renderObservation, type Observation } from './observe.ts';
import { stableTarget, resolveTarget } from './targets.ts';
import { AGENT_TOOLS, DECISION_SCHEMA, actionKey, checkCall, describeTools, type AgentAction } from './tools.ts';
import type { AgentBudgets, AgentExtraction, AgentOutcome, AgentRunInput, AgentRunResult, AgentVisit, RecordedAction, StableTarget } from './types.ts';
import { parseModelJson } from '../llm/json-output.ts';
import { agentSecrets } from './secret-typing.ts';
import { mergeVisited } from './visit.ts';
import { visitTool } from './visit-tool.ts';

export const AGENT_SYSTEM = [
  'You are a web browsing agent that gathers data for the user. Each turn you get the current page: its URL, its interactive elements (each with a ref such as [e12]) and its text.',
  'Act with the tools, one step at a time (typing and then clicking may go in one turn). Refer to elements by their ref from the latest page only.',
  'Call extract on every page that shows records the user wants (each page of results, after opening tabs, accordions or "load more"): extract reads the whole page, and records are gathered across pages without duplicates.',
  "When the data is on each item's own page (a listing links to the items), call visit with the ref of one item link (follow_pagination for every page of the listing) instead of opening the items one by one.",
  'Close cookie banners or pop-ups that hide the content. Do not invent data. Do not leave the site unless the task needs it.',
  'When everything asked for has been extracted, or it cannot be found, call finish with a short reason.',
].join('\n');

function goalText(input: AgentRunInput): string {
  const attrs = input.goal.attributes;
  const lines = [`Task: ${input.goal.prompt || 'Extract the records described below.'}`, `Start URL: ${input.url}`];
  if (attrs.length) lines.push('Each record has these attributes:', ...attrs.map((a) => `- ${a.name} (${a.type})${a.description ? `: ${a.description}` : ''}`));
  const secrets = agentSecrets(input.secrets).describe();
  if (secrets) lines.push(secrets);
  return lines.join('\n');
}

/** A model answer that stayed unusable through the client's repair round (its usage is counted). */
function badOutput(err: unknown): err is GleanerError {
  return isGleanerError(err) && err.code === 'MODEL_BAD_OUTPUT';
}

/** What an action should do to the page (how its effect is waited for, see AgentPage.settled). */
function effectOf(a: AgentAction): ActionEffect {
  if (a.name === 'type') return a.pressEnter ? 'change' : 'value';
  return a.name === 'scroll' || a.name === 'wait' ? 'maybe' : 'change';
}

export function agentBudgets(ctx: OperationContext, override?: Partial<AgentBudgets>): AgentBudgets {
  return {
    maxSteps: override?.maxSteps ?? ctx.config.agent.maxSteps,
    maxTokens: override?.maxTokens ?? ctx.config.agent.maxTokens,
    wallTimeMs: override?.wallTimeMs ?? ctx.config.agent.timeoutMs,
    ...(override?.maxTokensBy ? { maxTokensBy: override.maxTokensBy } : {}),
  };
}

interface Decision {
  calls: LlmToolCall[];
  /** The assistant turn to keep in the conversation. */
  assistant: LlmMessage;
  usage: LlmResult['usage'];
  /** Tool-call mode answers each call with a tool message; JSON mode with a user message. */
  mode: 'tools' | 'json';
}

/** Text answers of a tool-calling model that still hold a call as JSON. */
function callsFromText(text: string): LlmToolCall[] {
  const parsed = parseModelJson(text);
  if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) return [];
  const v = parsed.value as Record<string, unknown>;
  const name = v.tool ?? v.name ?? v.action;
  if (typeof name !== 'string') return [];
  const args = v.arguments ?? v.args ?? v.parameters ?? {};
  return [{ id: 'call_text', name, arguments: args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {} }];
}

export async function runAgent(ctx: OperationContext, input: AgentRunInput): Promise<AgentRunResult> {
  const model = requireModel(ctx);
  const budgets = agentBudgets(ctx, input.budgets);
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new GleanerError('AGENT_BUDGET_EXHAUSTED', `the agent ran out of wall time (${budgets.wallTimeMs} ms)`)),
    budgets.wallTimeMs,
  );
  const signal = input.signal ? AbortSignal.any([input.signal, deadline.signal]) : deadline.signal;
  const actionTimeoutMs = ctx.config.agent.actionTimeoutMs;
  const log = ctx.logger.child({ agent: input.url });
  const page = new AgentPage(ctx, {
    proxyCountry: input.proxyCountry,
    cookies: input.cookies,
    localStorage: input.localStorage,
    signal,
    preferBrowser: input.preferBrowser,
    actionTimeoutMs,
    adopt: input.startOn,
    settle: input.settle,
    allowedDomains: input.allowedDomains,
  });

  const steps: RecordedAction[] = [];
  const extractions: AgentExtraction[] = [];
  const visits: AgentVisit[] = [];
  const perPage: ExtractedRecord[][] = [];
  const usage = emptyUsage();
  let modelMs = 0;
  let stepsUsed = 0;
  let outcome: AgentOutcome | null = null;
  let message: string | undefined;
  let obs: Observation | null = null;

  const tokens = () => usage.inputTokens + usage.outputTokens;
  const secrets = agentSecrets(input.secrets);
  const hide = secrets.hide;
  const record = async (step: RecordedAction) => {
    steps.push(step);
    await input.onStep?.(step, steps.length - 1);
  };

  // The page as the agent sees it: a closed tab's panel is for it to click open, not to read.
  const extraction = { attributes: input.goal.attributes, prompt: input.goal.prompt, precision: false, signal, asShown: true };

  /** Extracts the current page (the extract tool, and the closing extraction of a run that found nothing). */
  async function extractHere(o: Observation): Promise<ExtractedRecord[]> {
    const started = Date.now();
    const html = hide(o.snapshot.html);
    const once = () => extractWithModel(ctx, { ...extraction, html, url: o.url });
    // An answer that stayed bad through its repair round is asked once more afresh (a small model's slip), then reported.
    const res = await once()
      .catch((err: unknown) => (badOutput(err) ? once() : Promise.reject(err)))
      .finally(() => (modelMs += Date.now() - started));
    addUsage(usage, res.usage);
    perPage.push(res.records);
    extractions.push({ step: steps.length, url: o.url, html, driver: page.driver, records: res.records, reduced: res.page });
    return res.records;
  }

  async function decide(messages: LlmMessage[], useTools: boolean): Promise<Decision> {
    const started = Date.now();
    try {
      if (useTools) {
        const res = await model.generate({ system: AGENT_SYSTEM, messages, tools: AGENT_TOOLS, toolChoice: 'auto', temperature: 0, signal });
        const calls = res.toolCalls.length ? res.toolCalls : callsFromText(res.text);
        const assistant: LlmMessage = res.toolCalls.length
          ? { role: 'assistant', content: res.text, toolCalls: res.toolCalls }
          : { role: 'assistant', content: res.text };
        return { calls, assistant, usage: res.usage, mode: res.toolCalls.length ? 'tools' : 'json' };
      }
      const res = await model.generateJson<{ tool: string; arguments?: Record<string, unknown> }>({
        system: `${AGENT_SYSTEM}\n\nTools:\n${describeTools()}\n\nAnswer each turn with one JSON object: {"tool": "<tool name>", "arguments": {...}}.`,
        messages,
        jsonSchema: { name: 'agent_action', schema: DECISION_SCHEMA as unknown as Record<string, unknown> },
        temperature: 0,
        signal,
      });
      return {
        calls: [{ id: 'call_json', name: res.json.tool, arguments: res.json.arguments ?? {} }],
        assistant: { role: 'assistant', content: res.text },
        usage: res.usage,
        mode: 'json',
      };
    } finally {
      modelMs += Date.now() - started;
    }
  }

  const byRef = (o: Observation, ref: string): OutlineElement | undefined => o.outline.elements.find((e) => e.ref === ref);

  /** Runs an element action; on NEEDS_BROWSER moves to the browser and tries the same target there. */
  async function onElement(o: Observation, ref: string, fn: (target: string) => Promise<void>): Promise<StableTarget> {
    const el = byRef(o, ref);
    if (!el) throw new GleanerError('BAD_REQUEST', `there is no element ${ref} on this page; use a ref from the latest element list`);
    const target = stableTarget(el);
    try {
      await fn(ref);
    } catch (err) {
      if (!(isGleanerError(err) && err.code === 'NEEDS_BROWSER') || !page.canEscalate) throw err;
      await page.escalate(o.url, err.message);
      const fresh = await page.observe();
      const again = resolveTarget(fresh.outline, target);
      if (!again) throw new GleanerError('BAD_REQUEST', `moved to a browser for this action (${err.message}) but the element is not on the page there`);
      await fn(again.ref);
    }
    return target;
  }

  async function act(a: AgentAction, o: Observation): Promise<Partial<RecordedAction>> {
    const t = { timeoutMs: actionTimeoutMs };
    const s = () => page.session;
    switch (a.name) {
      case 'navigate': {
        let url: string;
        try {
          url = new URL(a.url, o.url).href;
        } catch {
          throw new GleanerError('URL_INVALID', `"${a.url.slice(0, 200)}" is not a URL`);
        }
        const p = await page.goto(url);
        if (p.status >= 400) return { url, ok: false, error: `${url} answered HTTP ${p.status}` };
        return { url };
      }
      case 'click': {
        // A link out of allowed_domains is refused before it is followed.
        const href = byRef(o, a.ref)?.href;
        const link = href ? URL.parse(href, o.url) : null;
        if (link && /^https?:$/.test(link.protocol)) page.checkDomain(link.href);
        return { target: await onElement(o, a.ref, (r) => s().click(r, t)) };
      }
      case 'type':
        return {
          // A secret's placeholder is typed as its value (a TOTP code computed now); the step keeps the placeholder.
          target: await onElement(o, a.ref, (r) => s().type(r, secrets.fill(a.text), { ...t, clear: a.clear, pressEnter: a.pressEnter })),
          value: a.text,
          pressEnter: a.pressEnter || undefined,
        };
      case 'select':
        return { target: await onElement(o, a.ref, (r) => s().select(r, a.values, t)), value: a.values };
      case 'scroll': {
        if (a.ref) {
          const target = await onElement(o, a.ref, (r) => s().scroll({ selector: refSelector(r) }));
          return { target, scroll: { selector: target.selector } };
        }
        const opts = a.direction === 'bottom' || a.direction === 'top' ? { to: a.direction } : { pixels: a.direction === 'up' ? -800 : 800 };
        await s().scroll(opts);
        return { scroll: opts };
      }
      case 'wait': {
        const ms = Math.round(a.seconds * 1000);
        if (page.onBrowser)
          await s()
            .waitFor({ networkIdle: true, timeoutMs: Math.max(ms, 500) })
            .catch(() => s().waitFor({ ms: 0 }));
        else if (ms) await s().waitFor({ ms: Math.min(ms, 1000) });
        return { ms };
      }
      case 'back': {
        if (page.history.length < 2) throw new GleanerError('BAD_REQUEST', 'there is no previous page to go back to');
        page.history.pop();
        const url = page.history.pop()!;
        await page.goto(url);
        return { url };
      }
      case 'extract': {
        const records = await extractHere(o);
        return { records: records.length };
      }
      case 'visit': {
        const out = await visitTool({
          ctx,
          action: a,
          observation: o,
          page,
          input,
          step: steps.length,
          signal,
          canSpend: () => tokens() < budgets.maxTokens,
          hide,
        });
        addUsage(usage, out.usage);
        modelMs += out.modelMs;
        visits.push(out.visit);
        return out.result;
      }
      case 'finish':
        return { message: a.message };
    }
  }

  try {
    await page.start(input.url);
    obs = await page.observe();
    if (!page.onBrowser && page.canEscalate && obs.outline.elements.length === 0 && obs.text.trim().length < 200) {
      await page.escalate(obs.url, 'the page shows no elements and almost no text');
      obs = await page.observe();
    }
    const useTools = (await ctx.modelSpec())?.capabilities.tool_calls !== false;
    const history: LlmMessage[] = [{ role: 'user', content: goalText(input) }];
    const seen = new Map<string, number>();
    let warned = false;

    while (!outcome) {
      if (stepsUsed >= budgets.maxSteps) {
        outcome = 'budget';
        message = `The agent used all ${budgets.maxSteps} steps (agent.maxSteps) before finishing.`;
        break;
      }
      if (tokens() >= budgets.maxTokens) {
        outcome = 'budget';
        message = `The agent used ${tokens()} model tokens, its budget is ${budgets.maxTokens} (${budgets.maxTokensBy ?? 'agent.maxTokens'}).`;
        break;
      }
      const current: Observation = obs!;
      let decision: Decision;
      try {
        decision = await decide([...history, { role: 'user', content: `Current page:\n${hide(renderObservation(current))}` }], useTools);
      } catch (err) {
        if (!badOutput(err)) throw err;
        // JSON mode: an answer no repair made into a decision costs a step, and the model is told.
        addUsage(usage, (err.details as { usage?: LlmResult['usage'] } | undefined)?.usage ?? emptyUsage());
        stepsUsed++;
        await record({
          action: 'invalid',
          urlBefore: current.url,
          urlAfter: current.url,
          driver: page.driver,
          ok: false,
          error: err.message.slice(0, 500),
          durationMs: 0,
          inputTokens: 0,
          outputTokens: 0,
        });
        history.push({
          role: 'user',
          content: `Error: your answer was not a tool call as JSON (${err.message.slice(0, 300)}). Answer with one JSON object {"tool": ..., "arguments": {...}}.`,
        });
        continue;
      }
      addUsage(usage, decision.usage);
      history.push(decision.assistant);
      const calls = decision.calls.length ? decision.calls : [null];
      const replies: string[] = [];
      let changed = false;
      for (const [i, call] of calls.entries()) {
        const turnTokens = i === 0 ? decision.usage : { inputTokens: 0, outputTokens: 0 };
        const base = { urlBefore: current.url, driver: page.driver, inputTokens: turnTokens.inputTokens, outputTokens: turnTokens.outputTokens };
        const reply = (said: string) => {
          const text = hide(said);
          if (decision.mode === 'tools' && call) history.push({ role: 'tool', content: text, toolCallId: call.id, toolName: call.name });
          else replies.push(text);
        };
        if (changed || outcome || stepsUsed >= budgets.maxSteps) {
          reply(outcome ? 'Skipped: the task has ended.' : 'Skipped: the page changed before this call; decide again from the new page.');
          continue;
        }
        stepsUsed++;
        const checked = call ? checkCall(call) : { ok: false as const, error: 'Your answer called no tool. Call one of the tools (finish when done).' };
        if (!checked.ok) {
          await record({ action: 'invalid', ...base, urlAfter: current.url, ok: false, error: checked.error, durationMs: 0 });
          reply(`Error: ${checked.error}`);
          continue;
        }
        const a = checked.action;
        const key = `${current.fingerprint}|${actionKey(a)}`;
        const repeats = seen.get(key) ?? 0;
        seen.set(key, repeats + 1);
        if ((a.name === 'extract' || a.name === 'visit') && repeats > 0) {
          // Extracting the same unchanged page again gives nothing new: answered without a model call.
          await record({ action: a.name, ...base, urlAfter: current.url, ok: true, records: 0, effect: 'already extracted', durationMs: 0 });
          if (warned) {
            outcome = 'loop';
            message = 'The agent kept repeating an action that changed nothing; it was stopped.';
            reply('Stopped: repeated action.');
            continue;
          }
          warned = true;
          reply(
            a.name === 'visit'
              ? 'These links were already visited from this page; their records are kept. Move on or call finish.'
              : 'This page was already extracted as it is; records are kept. Move on (another page, more items) or call finish.',
          );
          continue;
        }
        const started = Date.now();
        let result: Partial<RecordedAction>;
        let error: string | undefined;
        try {
          result = await act(a, current);
          if (result.ok === false) error = result.error;
        } catch (err) {
          if (signal.aborted) throw signal.reason ?? err;
          if (isGleanerError(err) && (err.code === 'DRIVER_UNAVAILABLE' || (err.code.startsWith('MODEL_') && !badOutput(err)))) throw err;
          if (badOutput(err)) addUsage(usage, (err.details as { usage?: LlmResult['usage'] } | undefined)?.usage ?? emptyUsage());
          result = {};
          error = err instanceof Error ? err.message : String(err);
        }
        let effect: string | undefined = result.effect;
        let after: Observation = current;
        if (a.name !== 'extract' && a.name !== 'finish' && a.name !== 'visit') {
          after = await page.settled(current, error !== undefined ? 'maybe' : effectOf(a));
          if (input.allowedDomains && !domainAllowed(after.url, input.allowedDomains) && domainAllowed(current.url, input.allowedDomains)) {
            // A script took the page out of allowed_domains: back to where the action began, and the model is told.
            error = domainRefused(after.url, input.allowedDomains).message;
            await page.goto(current.url);
            after = await page.observe();
          }
          effect = describeEffect(current, after);
          if (after.fingerprint !== current.fingerprint) {
            changed = true;
            // The loop breaker's warning is about one stuck page: a page that moved on starts afresh.
            warned = false;
          }
        }
        const step: RecordedAction = {
          action: a.name,
          ...base,
          ...result,
          urlAfter: after.url,
          driver: page.driver,
          ok: error === undefined,
          durationMs: Date.now() - started,
        };
        if (error !== undefined) step.error = hide(error).slice(0, 500);
        if (effect) step.effect = effect;
        await record(step);
        obs = after;
        if (a.name === 'finish') {
          outcome = 'finished';
          reply('Finished.');
          continue;
        }
        let text =
          error !== undefined
            ? `Error: ${error}`
            : a.name === 'extract'
              ? `Extracted ${result.records} record${result.records === 1 ? '' : 's'} from this page.`
              : a.name === 'visit'
                ? ''
                : 'Done.';
        if (effect) text = `${text} ${effect}`.trim();
        if (repeats > 0 && !changed && a.name !== 'wait') {
          if (warned) {
            outcome = 'loop';
            message = 'The agent kept repeating an action that changed nothing; it was stopped.';
            reply(`${text} Stopped: the same action on an unchanged page again.`);
            continue;
          }
          warned = true;
          text += ' You already did exactly this on this page and it changed nothing: do something else, or call finish.';
        }
        reply(text);
      }
      if (replies.length) history.push({ role: 'user', content: replies.join('\n') });
    }

    // A run that finished without extracting anything still answers from the page it ended on.
    if (outcome === 'finished' && extractions.length === 0 && visits.length === 0 && obs) {
      const started = Date.now();
      const records = await extractHere(obs);
      await record({
        action: 'extract',
        urlBefore: obs.url,
        urlAfter: obs.url,
        driver: page.driver,
        ok: true,
        records: records.length,
        durationMs: Date.now() - started,
        inputTokens: 0,
        outputTokens: 0,
      });
    }
  } catch (err) {
    if (input.signal?.aborted) throw input.signal.reason ?? err;
    if (!deadline.signal.aborted) throw err;
    outcome = 'budget';
    message = `The agent ran out of wall time (agent.timeoutMs, ${budgets.wallTimeMs} ms) before finishing.`;
  } finally {
    clearTimeout(timer);
    // A profile to save keeps the browser's local storage (read before the page closes).
    if (input.keepState) await page.readLocalStorage().catch((err: Error) => log.warn({ err: err.message }, 'agent: reading the local storage failed'));
    const closing = page.close();
    if (input.deferClose) input.deferClose(closing);
    else await closing;
  }

  const records = visits.length ? mergeVisited(mergeRecords(perPage), visits) : mergeRecords(perPage);
  if (!records.length && !message) message = 'The agent found no records matching the request.';
  log.info({ outcome, steps: steps.length, stepsUsed, records: records.length, driver: page.driver, ...usage, modelMs }, 'agent run ended');
  return {
    records,
    steps,
    extractions,
    visits,
    usage,
    outcome: outcome ?? 'budget',
    ...(message ? { message } : {}),
    driver: page.driver,
    finalUrl: obs?.url ?? input.url,
    modelMs,
    stepsUsed,
    cookies: page.cookies,
    ...(input.keepState ? { localStorage: page.localStorage } : {}),
  };
}
