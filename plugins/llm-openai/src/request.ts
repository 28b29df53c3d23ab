/** Translation between core's LlmRequest/LlmResult and OpenAI's chat completions. */
import type { OpenAI } from 'openai';
import type { LlmJsonSchema, LlmFinishReason, LlmRequest, LlmResult, LlmToolCall } from '@gleaner/core/plugin';
import { isReasoningModel } from './specs.ts';

type Params = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
type Message = OpenAI.Chat.ChatCompletionMessageParam;

/**
 * How structured output is asked: the json_schema response format, else JSON mode with the schema
 * in the system prompt, else the prompt alone (servers that know neither).
 */
export type JsonMode = 'json_schema' | 'json_object' | 'prompt';

/**
 * Whether OpenAI's strict mode accepts the schema: every object lists all its properties as required
 * and forbids additional ones. Strict mode rejects other schemas with a 400, so they go non-strict.
 */
export function qualifiesForStrict(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(qualifiesForStrict);
  if (!schema || typeof schema !== 'object') return true;
  const s = schema as Record<string, unknown>;
  const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || 'properties' in s;
  if (isObject) {
    if (s.additionalProperties !== false) return false;
    const props = Object.keys((s.properties as Record<string, unknown>) ?? {});
    const required = Array.isArray(s.required) ? (s.required as string[]) : [];
    if (!props.every((p) => required.includes(p))) return false;
  }
  for (const key of ['properties', '$defs', 'definitions']) {
    const group = s[key];
    if (group && typeof group === 'object' && !Object.values(group).every(qualifiesForStrict)) return false;
  }
  for (const key of ['items', 'anyOf', 'allOf', 'oneOf', 'prefixItems']) {
    if (s[key] !== undefined && !qualifiesForStrict(s[key])) return false;
  }
  return true;
}

/** OpenAI's json_schema.name: letters, digits, '_' and '-', at most 64 characters. */
export function schemaName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'answer';
}

export function schemaInstruction(schema: LlmJsonSchema): string {
  return `Answer with one JSON value only (no prose, no Markdown fence) that matches this JSON Schema:\n${JSON.stringify(schema)}`;
}

export function buildParams(model: string, req: LlmRequest, mode: JsonMode): Params {
  const system = [req.system ?? ''];
  if (req.jsonSchema && mode !== 'json_schema') system.push(schemaInstruction(req.jsonSchema.schema));
  const systemText = system.filter(Boolean).join('\n\n');
  const messages: Message[] = systemText ? [{ role: 'system', content: systemText }] : [];
  for (const m of req.messages) {
    if (m.role === 'tool') {
      messages.push({ role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content });
    } else if (m.role === 'assistant' && m.toolCalls?.length) {
      messages.push({
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
      });
    } else {
      messages.push({ role: m.role, content: m.content });
    }
  }

  const params: Params = { model, messages };
  const reasoning = isReasoningModel(model);
  if (req.maxOutputTokens !== undefined) {
    if (reasoning) params.max_completion_tokens = req.maxOutputTokens;
    else params.max_tokens = req.maxOutputTokens;
  }
  if (req.temperature !== undefined && !reasoning) params.temperature = req.temperature;
  if (req.jsonSchema && mode === 'json_schema') {
    const schema = req.jsonSchema.schema;
    params.response_format = {
      type: 'json_schema',
      json_schema: {
        name: schemaName(req.jsonSchema.name),
        schema,
        strict: qualifiesForStrict(schema),
        ...(req.jsonSchema.description ? { description: req.jsonSchema.description } : {}),
      },
    };
  } else if (req.jsonSchema && mode === 'json_object') {
    params.response_format = { type: 'json_object' };
  }
  if (req.tools?.length) {
    params.tools = req.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, parameters: t.parameters, ...(t.description ? { description: t.description } : {}) },
    }));
    if (req.toolChoice) params.tool_choice = req.toolChoice;
  }
  return params;
}

function finishReason(reason: string | null | undefined, refused: boolean): LlmFinishReason {
  if (refused) return 'refusal';
  switch (reason) {
    case 'stop':
    case 'length':
    case 'tool_calls':
    case 'content_filter':
      return reason;
    case 'function_call':
      return 'tool_calls';
    default:
      return 'other';
  }
}

function parseArguments(text: string): Pick<LlmToolCall, 'arguments' | 'rawArguments'> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) return { arguments: value as Record<string, unknown> };
  } catch {
    /* fall through */
  }
  return { arguments: {}, rawArguments: text };
}

export function readCompletion(completion: OpenAI.Chat.ChatCompletion): LlmResult {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const refusal = message?.refusal ?? null;
  const toolCalls: LlmToolCall[] = [];
  for (const call of message?.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    toolCalls.push({ id: call.id, name: call.function.name, ...parseArguments(call.function.arguments) });
  }
  return {
    text: message?.content ?? refusal ?? '',
    toolCalls,
    usage: { inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 },
    finishReason: finishReason(choice?.finish_reason, Boolean(refusal) && !message?.content),
    model: completion.model,
  };
}
