/**
 * The agent's tools: what the model may call, their argument schemas, and the checking of a call
 * into a typed action. A malformed call (unknown tool, missing or wrong argument) becomes an
 * error message for the model, never an exception: it costs a step and the loop goes on.
 */
import { repairJsonObject } from '../llm/json-output.ts';
import type { LlmTool, LlmToolCall } from '../plugins/llm.ts';
import type { AgentActionName } from './types.ts';
import { own } from '../own.ts';
import { VISIT_LIMITS } from './visit.ts';

export type AgentAction =
  | { name: 'navigate'; url: string }
  | { name: 'click'; ref: string }
  | { name: 'type'; ref: string; text: string; pressEnter: boolean; clear: boolean }
  | { name: 'select'; ref: string; values: string[] }
  | { name: 'scroll'; direction: 'down' | 'up' | 'bottom' | 'top'; ref?: string }
  | { name: 'wait'; seconds: number }
  | { name: 'back' }
  | { name: 'extract' }
  | { name: 'visit'; refs: string[]; similar: boolean; followPagination: boolean; maxItems: number }
  | { name: 'finish'; message: string };

const REF = { type: 'string', description: 'The element\'s ref from the observation, e.g. "e12".', pattern: '^e\\d+$' };

export const AGENT_TOOLS: LlmTool[] = [
  {
    name: 'navigate',
    description: 'Open a URL (absolute http(s), or relative to the current page). Prefer clicking links you can see.',
    parameters: { type: 'object', required: ['url'], properties: { url: { type: 'string' } }, additionalProperties: false },
  },
  {
    name: 'click',
    description: 'Click an element: a link, a button, a tab, a checkbox, a summary that opens details.',
    parameters: { type: 'object', required: ['ref'], properties: { ref: REF }, additionalProperties: false },
  },
  {
    name: 'type',
    description: 'Type text into a field. Set press_enter to submit the form after typing; clear replaces what the field holds.',
    parameters: {
      type: 'object',
      required: ['ref', 'text'],
      properties: { ref: REF, text: { type: 'string' }, press_enter: { type: 'boolean' }, clear: { type: 'boolean' } },
      additionalProperties: false,
    },
  },
  {
    name: 'select',
    description: 'Choose options of a <select> by value or visible label (several for a multiple select).',
    parameters: {
      type: 'object',
      required: ['ref', 'values'],
      properties: { ref: REF, values: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, minItems: 1 }] } },
      additionalProperties: false,
    },
  },
  {
    name: 'scroll',
    description:
      'Scroll the page (down or up by a screen, to the bottom or top) or bring an element into view (ref). Lazy pages load more when scrolled to the bottom.',
    parameters: {
      type: 'object',
      properties: { direction: { enum: ['down', 'up', 'bottom', 'top'] }, ref: REF },
      additionalProperties: false,
    },
  },
  {
    name: 'wait',
    description: 'Wait for the page to finish loading or updating (at most 10 seconds).',
    parameters: { type: 'object', properties: { seconds: { type: 'number', minimum: 0, maximum: 10 } }, additionalProperties: false },
  },
  { name: 'go_back', description: 'Go back to the previous page.', parameters: { type: 'object', properties: {}, additionalProperties: false } },
  {
    name: 'extract',
    description:
      'Extract the requested records from the page as it is now. Call it on every page that shows records you need (each page of results, after revealing hidden items); records are gathered across pages.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'visit',
    description:
      "Open the item pages a listing links to and extract the requested records from each (list -> detail), merged into the records: give the ref of one item link (or a few); every link on the page with the same URL shape is opened too (similar: false opens only these). follow_pagination also gathers such links on the listing's next pages. Use it when the data is on each item's own page, instead of opening the items one by one. The agent stays on this page.",
    parameters: {
      type: 'object',
      required: ['refs'],
      properties: {
        refs: { type: 'array', items: REF, minItems: 1, maxItems: 50 },
        similar: { type: 'boolean' },
        follow_pagination: { type: 'boolean' },
        max_items: { type: 'integer', minimum: 1, maximum: VISIT_LIMITS.items },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'finish',
    description: 'End the task once every record the user asked for has been extracted (or cannot be found); say briefly why.',
    parameters: { type: 'object', properties: { message: { type: 'string' } }, additionalProperties: false },
  },
];

const NAMES: Record<string, Exclude<AgentActionName, 'invalid'>> = {
  navigate: 'navigate',
  goto: 'navigate',
  open: 'navigate',
  click: 'click',
  type: 'type',
  fill: 'type',
  input: 'type',
  select: 'select',
  select_option: 'select',
  scroll: 'scroll',
  wait: 'wait',
  go_back: 'back',
  back: 'back',
  extract: 'extract',
  visit: 'visit',
  visit_links: 'visit',
  open_all: 'visit',
  finish: 'finish',
  done: 'finish',
};

/** A call checked into an action, or the message that tells the model what was wrong. */
export type CheckedCall = { ok: true; action: AgentAction } | { ok: false; error: string };

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}

function ref(args: Record<string, unknown>): string | null {
  const r = str(args.ref ?? args.element ?? args.target)?.trim() ?? null;
  if (!r) return null;
  if (/^\d+$/.test(r)) return `e${r}`; // "12" for "e12": a common slip of small models
  const m = /^\[?(e\d+)\]?$/i.exec(r);
  return m ? m[1].toLowerCase() : null;
}

/** Checks one tool call's name and arguments. */
export function checkCall(call: Pick<LlmToolCall, 'name' | 'arguments' | 'rawArguments'>): CheckedCall {
  const name = own(NAMES, call.name?.trim().toLowerCase() ?? '');
  const known = AGENT_TOOLS.map((t) => t.name).join(', ');
  if (!name) return { ok: false, error: `There is no tool "${String(call.name).slice(0, 60)}". Call one of: ${known}.` };
  // Arguments that are no JSON object are mended where that is certain (quotes, a trailing comma, braces left open).
  const mended = call.rawArguments === undefined ? null : repairJsonObject(call.rawArguments);
  if (call.rawArguments !== undefined && !mended)
    return { ok: false, error: `The arguments of ${call.name} are not a JSON object: ${call.rawArguments.slice(0, 200)}` };
  const args = mended ?? call.arguments ?? {};
  const needRef = (): CheckedCall | string =>
    ref(args) ?? { ok: false, error: `${call.name} needs "ref": the ref of an element in the observation, e.g. "e12".` };
  switch (name) {
    case 'navigate': {
      const url = str(args.url)?.trim();
      return url ? { ok: true, action: { name, url } } : { ok: false, error: 'navigate needs "url".' };
    }
    case 'click': {
      const r = needRef();
      return typeof r === 'string' ? { ok: true, action: { name, ref: r } } : r;
    }
    case 'type': {
      const r = needRef();
      if (typeof r !== 'string') return r;
      const text = str(args.text ?? args.value);
      if (text === null) return { ok: false, error: 'type needs "text".' };
      return { ok: true, action: { name, ref: r, text, pressEnter: args.press_enter === true || args.pressEnter === true, clear: args.clear === true } };
    }
    case 'select': {
      const r = needRef();
      if (typeof r !== 'string') return r;
      const raw = args.values ?? args.value;
      const values = (Array.isArray(raw) ? raw : [raw]).map(str).filter((v): v is string => v !== null && v !== '');
      return values.length
        ? { ok: true, action: { name, ref: r, values } }
        : { ok: false, error: 'select needs "values": one option value or label, or a list of them.' };
    }
    case 'scroll': {
      const direction = str(args.direction) ?? 'down';
      if (!['down', 'up', 'bottom', 'top'].includes(direction)) return { ok: false, error: 'scroll "direction" is one of down, up, bottom, top.' };
      const r = args.ref === undefined ? undefined : ref(args);
      if (r === null) return { ok: false, error: 'scroll "ref" must be an element ref such as "e12".' };
      return { ok: true, action: { name, direction: direction as 'down', ...(r ? { ref: r } : {}) } };
    }
    case 'wait': {
      const seconds = args.seconds === undefined ? 1 : Number(args.seconds);
      if (!Number.isFinite(seconds) || seconds < 0) return { ok: false, error: 'wait "seconds" must be a number from 0 to 10.' };
      return { ok: true, action: { name, seconds: Math.min(seconds, 10) } };
    }
    case 'back':
      return { ok: true, action: { name } };
    case 'extract':
      return { ok: true, action: { name } };
    case 'visit': {
      const raw = args.refs ?? args.ref ?? args.links;
      const list = (Array.isArray(raw) ? raw : [raw]).map((r) => ref({ ref: r }));
      if (!list.length || list.some((r) => r === null))
        return { ok: false, error: 'visit needs "refs": the refs of one or more item links in the observation, e.g. ["e12"].' };
      const max = args.max_items === undefined ? VISIT_LIMITS.items : Number(args.max_items);
      if (!Number.isInteger(max) || max < 1) return { ok: false, error: `visit "max_items" is a whole number from 1 to ${VISIT_LIMITS.items}.` };
      return {
        ok: true,
        action: {
          name,
          refs: [...new Set(list as string[])].slice(0, 50),
          similar: args.similar !== false,
          followPagination: args.follow_pagination === true || args.followPagination === true,
          maxItems: Math.min(max, VISIT_LIMITS.items),
        },
      };
    }
    case 'finish':
      return { ok: true, action: { name, message: str(args.message ?? args.reason)?.slice(0, 500) ?? '' } };
    default:
      return { ok: false, error: `There is no tool "${String(call.name).slice(0, 60)}". Call one of: ${known}.` };
  }
}

/**
 * The JSON-in-prompt form for models without native tool calls: one object per turn,
 * `{"tool": "<name>", "arguments": {...}}`, checked by the model client's schema (one repair round).
 */
export const DECISION_SCHEMA = {
  type: 'object',
  required: ['tool'],
  properties: {
    tool: { enum: AGENT_TOOLS.map((t) => t.name) },
    arguments: { type: 'object' },
  },
} as const;

/** The tool list as text, for the JSON-in-prompt fallback. */
export function describeTools(): string {
  return AGENT_TOOLS.map((t) => `- ${t.name}: ${t.description} Arguments: ${JSON.stringify((t.parameters as { properties?: unknown }).properties ?? {})}`).join(
    '\n',
  );
}

/** A short, stable text of an action (for loop detection and logs). */
export function actionKey(a: AgentAction): string {
  return JSON.stringify(a);
}
