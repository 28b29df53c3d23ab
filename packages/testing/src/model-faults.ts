/**
 * The scripted model server's fault mode: the answers of an imperfect model (small local models
 * above all), played on top of a script. A share of the answers (`rate`, drawn from a seeded
 * generator so a run can be replayed) is spoiled in one of the ways such models spoil them — a tool
 * call whose arguments are not JSON, a tool that does not exist, a ref that is on no page, the
 * previous call again, JSON wrapped in prose or a Markdown fence, output cut off at the token limit,
 * a tool call written as text. When the fault leaves nothing usable (the client has to ask again:
 * a repair round, the agent's next turn), the scripted answer is kept for the next request of the
 * same kind, so the script goes on where it was; when the answer is all there, only badly wrapped
 * (prose, a fence, a call in the text), the client is expected to read it as it is.
 */
import type { AnswerStep, RecordedRequest, ScriptedToolCall } from './model-server.ts';

export const MODEL_FAULT_KINDS = [
  'malformed_arguments',
  'unknown_tool',
  'missing_ref',
  'repeat',
  'json_in_prose',
  'json_in_fence',
  'truncated',
  'call_as_text',
] as const;

export type ModelFaultKind = (typeof MODEL_FAULT_KINDS)[number];

/** Faults whose answer holds the scripted one, badly wrapped: the client reads it without asking again. */
const WRAPPED: ReadonlySet<ModelFaultKind> = new Set(['json_in_prose', 'json_in_fence', 'call_as_text']);

export interface ModelFaultOptions {
  /** The share of answers spoiled, 0..1 (e.g. 0.3). */
  rate: number;
  /** Seed of the generator that picks the answers and the faults (same seed, same faults). */
  seed?: number;
  /** The faults to play (default: all that fit an answer). */
  kinds?: readonly ModelFaultKind[];
  /** At most this many spoiled answers in a row for one kind of request (default 2): faults are intermittent. */
  maxInARow?: number;
}

/** One spoiled answer, as the fault mode's log keeps it. */
export interface PlayedFault {
  kind: ModelFaultKind;
  /** Which requests it was: `tools` (a tool-calling turn) or `json:<schema name>`. */
  request: string;
}

/** A small seeded generator (mulberry32): the faults of a run can be played again. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The kind of request, so that a kept answer goes to the next request that asks the same. */
export function requestKind(req: RecordedRequest): string {
  const body = req.body ?? {};
  if (Array.isArray(body.tools) && body.tools.length) return 'tools';
  const named = body.response_format?.json_schema?.name;
  if (typeof named === 'string') return `json:${named}`;
  if (body.format && typeof body.format === 'object') return `json:${Object.keys(body.format.properties ?? {}).join(',')}`;
  return 'text';
}

const asText = (step: AnswerStep): string | null => ('json' in step ? JSON.stringify(step.json) : 'text' in step && step.text ? step.text : null);

/** The faults that can spoil this answer. */
function fitting(step: AnswerStep, previous: ScriptedToolCall[] | undefined): ModelFaultKind[] {
  const calls = 'toolCalls' in step ? step.toolCalls : [];
  if (calls.length) {
    const kinds: ModelFaultKind[] = ['malformed_arguments', 'unknown_tool', 'call_as_text'];
    if (calls.some((c) => c.arguments && typeof c.arguments === 'object' && 'ref' in (c.arguments as object))) kinds.push('missing_ref');
    // A repeated extract or scroll is what small models do most; repeating a click that moved on would change the task itself.
    if (previous?.length && previous.every((c) => c.name === 'extract')) kinds.push('repeat');
    return kinds;
  }
  if (asText(step) !== null) return ['json_in_prose', 'json_in_fence', 'truncated'];
  return [];
}

function spoil(kind: ModelFaultKind, step: AnswerStep, previous: ScriptedToolCall[] | undefined): AnswerStep {
  const usage = step.usage ? { usage: step.usage } : {};
  const calls = 'toolCalls' in step ? step.toolCalls : [];
  const [first, ...rest] = calls;
  switch (kind) {
    case 'malformed_arguments': {
      // Cut off inside the first string value: what it said is lost, no mending gets it back.
      const json = JSON.stringify(first.arguments ?? {});
      const at = json.indexOf(':"');
      return { ...usage, toolCalls: [{ ...first, arguments: at >= 0 ? json.slice(0, at + 3) : '{"' }, ...rest] };
    }
    case 'unknown_tool':
      return { ...usage, toolCalls: [{ ...first, name: `${first.name}_element` }, ...rest] };
    case 'missing_ref':
      return {
        ...usage,
        toolCalls: calls.map((c) =>
          c.arguments && typeof c.arguments === 'object' && 'ref' in c.arguments ? { ...c, arguments: { ...c.arguments, ref: 'e9999' } } : c,
        ),
      };
    case 'repeat':
      return { ...usage, toolCalls: previous ?? calls };
    case 'call_as_text':
      // The Hermes/Qwen habit: the call in the content, in tags, with a sentence around it.
      return { ...usage, text: `I will use a tool now.\n<tool_call>\n${JSON.stringify({ name: first.name, arguments: first.arguments })}\n</tool_call>` };
    case 'json_in_prose':
      return { ...usage, text: `Sure! Here is the data you asked for:\n${asText(step)}\nLet me know if you need anything else.` };
    case 'json_in_fence':
      return { ...usage, text: `\`\`\`json\n${JSON.stringify(JSON.parse(asText(step) ?? 'null'), null, 2)}\n\`\`\`` };
    case 'truncated': {
      const text = asText(step) ?? '';
      return { ...usage, text: text.slice(0, Math.max(1, Math.floor(text.length * 0.6))), finishReason: 'length' };
    }
  }
}

/** The fault mode of one server: decides, per answer, whether and how to spoil it. */
export class ModelFaults {
  readonly #opts: Required<Omit<ModelFaultOptions, 'seed'>>;
  readonly #random: () => number;
  /** Scripted answers kept while a spoiled one stood in for them, by request kind. */
  readonly #kept = new Map<string, AnswerStep>();
  readonly #inARow = new Map<string, number>();
  #previousCalls: ScriptedToolCall[] | undefined;
  /** Every spoiled answer, in order. */
  readonly played: PlayedFault[] = [];

  constructor(opts: ModelFaultOptions) {
    this.#opts = { rate: opts.rate, kinds: opts.kinds ?? MODEL_FAULT_KINDS, maxInARow: opts.maxInARow ?? 2 };
    this.#random = generator(opts.seed ?? 1);
  }

  /** A scripted answer kept for this kind of request (it is then not asked of the script). */
  takeKept(req: RecordedRequest): AnswerStep | undefined {
    const kind = requestKind(req);
    const kept = this.#kept.get(kind);
    this.#kept.delete(kind);
    return kept;
  }

  /** The answer to send: `step` itself, or a spoiled version of it (then `step` is kept for the next such request). */
  answer(req: RecordedRequest, step: AnswerStep): AnswerStep {
    const kind = requestKind(req);
    const previous = this.#previousCalls;
    const row = this.#inARow.get(kind) ?? 0;
    const kinds = fitting(step, previous).filter((k) => this.#opts.kinds.includes(k));
    const draw = this.#random();
    if (!kinds.length || row >= this.#opts.maxInARow || draw >= this.#opts.rate) {
      this.#inARow.set(kind, 0);
      if ('toolCalls' in step) this.#previousCalls = step.toolCalls;
      return step;
    }
    const fault = kinds[Math.floor(this.#random() * kinds.length)];
    this.#inARow.set(kind, row + 1);
    if (!WRAPPED.has(fault)) this.#kept.set(kind, step);
    else if ('toolCalls' in step) this.#previousCalls = step.toolCalls;
    this.played.push({ kind: fault, request: kind });
    return spoil(fault, step, previous);
  }

  reset(): void {
    this.#kept.clear();
    this.#inARow.clear();
    this.#previousCalls = undefined;
    this.played.length = 0;
  }
}
