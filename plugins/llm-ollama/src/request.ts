/** Translation between core's LlmRequest/LlmResult and Ollama's /api/chat. */
import type { ChatRequest, ChatResponse, Message, Tool } from 'ollama';
import type { LlmFinishReason, LlmRequest, LlmResult, LlmToolCall } from '@gleaner/core/plugin';

/** Ollama's keep_alive: a duration ('5m', '1h') or a number of seconds (-1 keeps the model loaded). */
export function keepAliveValue(value: string | number | undefined): string | number | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'number') return value;
  return /^-?\d+$/.test(value.trim()) ? Number(value) : value; // Go's duration parser wants a unit
}

export interface ChatOptions {
  model: string;
  keepAlive?: string | number;
  /** Sent as options.num_ctx: Ollama otherwise runs with a small default window and truncates silently. */
  numCtx?: number;
}

export function buildChatRequest(req: LlmRequest, opts: ChatOptions): ChatRequest & { stream: false } {
  const tools = req.toolChoice === 'none' ? [] : (req.tools ?? []);
  const system = [req.system ?? ''];
  // A format grammar would keep the model from calling tools, so with tools the schema goes in the prompt.
  if (req.jsonSchema && tools.length)
    system.push(`When you answer without calling a tool, answer with JSON matching this JSON Schema:\n${JSON.stringify(req.jsonSchema.schema)}`);
  const systemText = system.filter(Boolean).join('\n\n');
  const messages: Message[] = systemText ? [{ role: 'system', content: systemText }] : [];
  for (const m of req.messages) {
    const message: Message = { role: m.role, content: m.content };
    if (m.role === 'tool' && m.toolName) message.tool_name = m.toolName;
    if (m.toolCalls?.length) message.tool_calls = m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
    messages.push(message);
  }
  const options: ChatRequest['options'] = {};
  if (req.maxOutputTokens !== undefined) options.num_predict = req.maxOutputTokens;
  if (req.temperature !== undefined) options.temperature = req.temperature;
  if (opts.numCtx && opts.numCtx > 0) options.num_ctx = opts.numCtx;

  const chat: ChatRequest & { stream: false } = { model: opts.model, messages, stream: false };
  if (req.jsonSchema && !tools.length) chat.format = req.jsonSchema.schema;
  if (tools.length) {
    chat.tools = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters as Tool['function']['parameters'] },
    }));
  }
  const keepAlive = keepAliveValue(opts.keepAlive);
  if (keepAlive !== undefined) chat.keep_alive = keepAlive;
  if (Object.keys(options).length) chat.options = options;
  return chat;
}

function finishReason(reason: string | undefined, toolCalls: number): LlmFinishReason {
  if (toolCalls > 0) return 'tool_calls';
  if (reason === 'stop' || reason === 'length') return reason;
  return reason ? 'other' : 'stop';
}

export function readChatResponse(res: ChatResponse): LlmResult {
  const toolCalls: LlmToolCall[] = (res.message?.tool_calls ?? []).map((c, i) => {
    const args: unknown = c.function.arguments;
    if (args && typeof args === 'object' && !Array.isArray(args)) return { id: `call_${i}`, name: c.function.name, arguments: args as Record<string, unknown> };
    return { id: `call_${i}`, name: c.function.name, arguments: {}, rawArguments: typeof args === 'string' ? args : JSON.stringify(args) };
  });
  return {
    text: res.message?.content ?? '',
    toolCalls,
    usage: { inputTokens: res.prompt_eval_count ?? 0, outputTokens: res.eval_count ?? 0 },
    finishReason: finishReason(res.done_reason, toolCalls.length),
    model: res.model,
  };
}
