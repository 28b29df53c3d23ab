// Scripting the agent's model on the scripted model server: decisions (chat requests that offer
// tools) come from a plan of steps that read the observation to find refs, as a real model would;
// extraction requests (structured output) are answered from the page text the request carries.
import type { ModelRequest as RecordedRequest, ScriptedToolCall, Step } from '@gleaner/testing';

/** The last user message of a chat request (the agent's current observation, or the page to extract). */
export function lastUser(req: RecordedRequest): string {
  const msgs = (req.body?.messages ?? []) as Array<{ role: string; content: string }>;
  return [...msgs].reverse().find((m) => m.role === 'user')?.content ?? '';
}

/** True for the agent's decisions: requests offering tools, or the JSON-in-prompt fallback. */
export function isDecision(req: RecordedRequest): boolean {
  if (Array.isArray(req.body?.tools) && req.body.tools.length) return true;
  const schemaName = req.api === 'openai' ? req.body?.response_format?.json_schema?.name : null;
  if (schemaName === 'agent_action') return true;
  return req.api === 'ollama' && JSON.stringify(req.body?.format ?? '').includes('"tool"');
}

/** The ref of the element whose line in the observation matches, e.g. refOf(obs, /button "Load more"/). */
export function refOf(observation: string, pattern: RegExp): string {
  const line = observation.split('\n').find((l) => /^\[e\d+\]/.test(l) && pattern.test(l));
  if (!line) throw new Error(`no element matching ${pattern} in the observation:\n${observation.slice(0, 1500)}`);
  return /^\[(e\d+)\]/.exec(line)![1];
}

/** Products as the fixture pages show them ("Product: Red Kettle — $24.5"), read from page text. */
export function productsIn(text: string): Array<{ name: string; price: number }> {
  const out: Array<{ name: string; price: number }> = [];
  for (const m of text.matchAll(/Product: ([^\n—]+?) — \$([\d.]+)/g)) out.push({ name: m[1].trim(), price: Number(m[2]) });
  return out;
}

/** One planned decision: tool calls chosen from the observation (or any scripted step). */
export type PlanStep = (observation: string) => ScriptedToolCall[] | Step;

export interface AgentScript {
  script: (req: RecordedRequest, index: number) => Step | Promise<Step>;
  /** Decisions answered so far. */
  readonly decisions: number;
  /** Extraction requests answered so far. */
  readonly extractions: number;
  /** Observations the model was shown, in order. */
  readonly observations: string[];
}

/**
 * A script for the model server: decisions follow `plan` (then finish), extractions return the
 * products on the page. `decisionDelayMs` holds every decision (for stop tests).
 */
export function agentScript(plan: PlanStep[], opts: { decisionDelayMs?: number; extract?: (pageText: string) => unknown[] } = {}): AgentScript {
  let decisions = 0;
  let extractions = 0;
  const observations: string[] = [];
  const extract = opts.extract ?? productsIn;
  return {
    get decisions() {
      return decisions;
    },
    get extractions() {
      return extractions;
    },
    observations,
    script: (req) => {
      if (!isDecision(req)) {
        extractions++;
        return { json: { records: extract(lastUser(req)) } };
      }
      const obs = lastUser(req);
      observations.push(obs);
      const step = plan[decisions++];
      const answer: Step = step
        ? (() => {
            const s = step(obs);
            return Array.isArray(s) ? { toolCalls: s } : s;
          })()
        : { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };
      if (opts.decisionDelayMs && !('error' in answer) && !('hang' in answer)) return { ...answer, delayMs: opts.decisionDelayMs };
      return answer;
    },
  };
}

/** Tool-call shorthands. */
export const call = {
  click: (ref: string): ScriptedToolCall => ({ name: 'click', arguments: { ref } }),
  type: (ref: string, text: string, pressEnter = false): ScriptedToolCall => ({ name: 'type', arguments: { ref, text, press_enter: pressEnter } }),
  navigate: (url: string): ScriptedToolCall => ({ name: 'navigate', arguments: { url } }),
  extract: (): ScriptedToolCall => ({ name: 'extract', arguments: {} }),
  finish: (message = 'done'): ScriptedToolCall => ({ name: 'finish', arguments: { message } }),
  scroll: (direction = 'down'): ScriptedToolCall => ({ name: 'scroll', arguments: { direction } }),
};
