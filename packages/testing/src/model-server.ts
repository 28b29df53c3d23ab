/**
 * The scripted model server: the only stand-in of the test suite (no model can be downloaded here).
 * It speaks the real wire protocols — OpenAI `POST /v1/chat/completions` (plain and SSE streaming),
 * `GET /v1/models`, Ollama `POST /api/chat` (plain and NDJSON streaming), `GET /api/tags`,
 * `POST /api/show` — and answers each chat request with the next scripted step. A provider for
 * another protocol teaches it its wire format with a `WireProtocol` (`startModelServer({ protocols })`):
 * which requests are its own, how a scripted step looks on the wire, and how an error does.
 * Production code never imports this file.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ModelFaults, type ModelFaultOptions, type PlayedFault } from './model-faults.ts';

export interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ScriptedToolCall {
  name: string;
  /** An object, or a string sent as-is (to script malformed arguments). */
  arguments: unknown;
  id?: string;
}

interface AnswerCommon {
  usage?: ScriptedUsage;
  /** Wait this long before answering (to hold requests in flight). */
  delayMs?: number;
  finishReason?: string;
}

/** One scripted answer of the server. */
export type Step =
  | (AnswerCommon & { json: unknown })
  | (AnswerCommon & { text: string })
  | (AnswerCommon & { toolCalls: ScriptedToolCall[]; text?: string })
  | { error: number; message?: string; retryAfter?: string | number; headers?: Record<string, string>; delayMs?: number }
  | { hang: true };

export type AnswerStep = Exclude<Step, { error: number } | { hang: true }>;

export interface RecordedRequest {
  /** `openai`, `ollama`, or the `name` of the WireProtocol that served it. */
  api: 'openai' | 'ollama' | (string & {});
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // The parsed JSON body as the SDK sent it (tests assert on its fields).
  body: any;
  /** Date.now() when the request arrived. */
  at: number;
}

/** A queue of steps, or a function choosing the step from the request (index counts chat requests). */
export type Script = Step[] | ((req: RecordedRequest, index: number) => Step | Promise<Step>);

export interface ScriptedModel {
  name: string;
  /** Reported as vLLM's `max_model_len` in /v1/models and as `<arch>.context_length` in /api/show. */
  contextLength?: number;
  /** Ollama capabilities in /api/show; default completion + tools. */
  capabilities?: string[];
}

export interface ModelServer {
  /** http://127.0.0.1:<port> — the Ollama host. */
  readonly url: string;
  /** url + '/v1' — the OpenAI base URL. */
  readonly openaiBaseUrl: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Only the chat requests (POST /v1/chat/completions and POST /api/chat). */
  chatRequests(): RecordedRequest[];
  /** Replaces the script. */
  script(script: Script): void;
  /** Appends steps to the queue (turns a function script into a queue). */
  push(...steps: Step[]): void;
  /**
   * Plays an imperfect model on top of the script (see model-faults.ts): a share of the answers is
   * spoiled (malformed tool-call JSON, unknown tools, missing refs, repeats, JSON in prose or a
   * fence, truncated output, a tool call as text). null turns it off.
   */
  faults(opts: ModelFaultOptions | null): void;
  /** The answers the fault mode spoiled since it was turned on (or since reset()). */
  readonly playedFaults: readonly PlayedFault[];
  /** Chat requests being answered right now, and the most seen at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Forgets requests, script and counters (between tests). */
  reset(): void;
  /** Stops listening and destroys every open socket (hung answers included). */
  close(): Promise<void>;
}

/** What a protocol answers: a status, headers, and the body whole (a string) or streamed in chunks. */
export interface WireAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: string | string[];
}

/**
 * Another model API's wire format, for a provider the built-in OpenAI and Ollama protocols do not
 * cover. The server gives it every request it `matches`; chat requests get the next scripted step
 * (errors, delays and hangs are handled by the server), other requests go to `route`.
 */
export interface WireProtocol {
  /** Recorded as `RecordedRequest.api`. */
  name: string;
  /** True for the requests this protocol serves (e.g. `POST /v1/messages`, `GET /v1/models`). */
  matches(method: string, path: string): boolean;
  /** True for chat requests (answered with the next scripted step). */
  isChat(req: RecordedRequest): boolean;
  /** A scripted answer (text, JSON or tool calls; `usage` is the step's or an estimate) on the wire. */
  answer(step: AnswerStep, ctx: { req: RecordedRequest; usage: ScriptedUsage; model: string }): WireAnswer;
  /** The JSON error body of this API for a scripted `{ error: status }` step or an unknown route. */
  errorBody(status: number, message: string): unknown;
  /** Answers a request that is not a chat (model lists, model details); default 404. */
  route?(req: RecordedRequest, models: readonly ScriptedModel[]): WireAnswer | null;
}

export interface ModelServerOptions {
  /** The models the list and detail endpoints report; default one `test-model` (32768 tokens). */
  models?: ScriptedModel[];
  /** Extra wire protocols, consulted before the built-in OpenAI and Ollama ones. */
  protocols?: WireProtocol[];
  /** Start with the fault mode on (see `ModelServer.faults`). */
  faults?: ModelFaultOptions;
}

const DEFAULT_MODELS: ScriptedModel[] = [{ name: 'test-model', contextLength: 32768 }];

export async function startModelServer(opts: ModelServerOptions = {}): Promise<ModelServer> {
  const models = opts.models ?? DEFAULT_MODELS;
  const protocols = opts.protocols ?? [];
  const requests: RecordedRequest[] = [];
  const chats = new WeakSet<RecordedRequest>();
  const sockets = new Set<Socket>();
  let queue: Step[] = [];
  let chooser: ((req: RecordedRequest, index: number) => Step | Promise<Step>) | null = null;
  let chatCount = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let faults: ModelFaults | null = opts.faults ? new ModelFaults(opts.faults) : null;

  const scripted = async (rec: RecordedRequest, index: number): Promise<Step> => {
    if (chooser) return chooser(rec, index);
    const step = queue.shift();
    return step ?? { error: 418, message: `the scripted model server has no step left for chat request #${index + 1}` };
  };
  const nextStep = async (rec: RecordedRequest): Promise<Step> => {
    const index = chatCount++;
    const kept = faults?.takeKept(rec);
    if (kept) return kept;
    const step = await scripted(rec, index);
    return faults && !('error' in step) && !('hang' in step) ? faults.answer(rec, step) : step;
  };

  const handleChat = async (rec: RecordedRequest, res: ServerResponse, protocol?: WireProtocol): Promise<void> => {
    chats.add(rec);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let closed = false;
    res.on('close', () => {
      closed = true;
      inFlight--;
    });
    const step = await nextStep(rec);
    if ('hang' in step) return; // answered only by close() or the client going away
    if (step.delayMs) await sleep(step.delayMs);
    if (closed) return; // the client went away (aborted) meanwhile
    const openai = rec.api === 'openai';
    if ('error' in step) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...step.headers };
      if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
      const message = step.message ?? `scripted error ${step.error}`;
      const body = protocol ? protocol.errorBody(step.error, message) : openai ? openAiError(step.error, message) : ollamaError(message);
      res.writeHead(step.error, headers).end(JSON.stringify(body));
      return;
    }
    const model = String(rec.body?.model ?? 'unknown');
    const usage = step.usage ?? defaultUsage(rec.body, step);
    if (protocol) return send(res, protocol.answer(step, { req: rec, usage, model }));
    const streaming = openai ? rec.body?.stream === true : rec.body?.stream !== false;
    if (!streaming) {
      const body = openai ? openAiAnswer(model, step, usage) : ollamaAnswer(model, step, usage);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    if (openai) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const withUsage = rec.body?.stream_options?.include_usage === true;
      for (const chunk of openAiStream(model, step, withUsage ? usage : undefined)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end('data: [DONE]\n\n');
    } else {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const line of ollamaStream(model, step, usage)) res.write(`${JSON.stringify(line)}\n`);
      res.end();
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      /* keep the raw text */
    }
    const path = (req.url ?? '/').split('?')[0];
    const rec: RecordedRequest = {
      api: path.startsWith('/api/') ? 'ollama' : 'openai',
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      at: Date.now(),
    };
    requests.push(rec);
    const protocol = protocols.find((p) => p.matches(rec.method, path));
    if (protocol) {
      rec.api = protocol.name;
      if (protocol.isChat(rec)) return handleChat(rec, res, protocol);
      const routeNotFound = `no route ${rec.method} ${path}`;
      return send(res, protocol.route?.(rec, models) ?? { status: 404, body: JSON.stringify(protocol.errorBody(404, routeNotFound)) });
    }
    const json = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    const route = `${rec.method} ${path}`;
    if (route === 'POST /v1/chat/completions' || route === 'POST /api/chat') return handleChat(rec, res);
    if (route === 'GET /v1/models') {
      return json(200, {
        object: 'list',
        data: models.map((m) => ({ id: m.name, object: 'model', created: 1700000000, owned_by: 'scripted', max_model_len: m.contextLength })),
      });
    }
    if (route === 'GET /api/tags') {
      return json(200, {
        models: models.map((m) => ({
          name: m.name,
          model: m.name,
          modified_at: new Date(0).toISOString(),
          size: 1,
          digest: 'sha256:0',
          details: ollamaDetails(),
        })),
      });
    }
    if (route === 'POST /api/show') {
      const name = String((body as { model?: string; name?: string })?.model ?? (body as { name?: string })?.name ?? '');
      const model = models.find((m) => m.name === name || m.name === name.replace(/:latest$/, ''));
      if (!model) return json(404, { error: `model '${name}' not found` });
      const info: Record<string, unknown> = { 'general.architecture': 'llama', 'general.parameter_count': 8e9 };
      if (model.contextLength) info['llama.context_length'] = model.contextLength;
      return json(200, {
        modelfile: '',
        parameters: '',
        template: '{{ .Prompt }}',
        details: ollamaDetails(),
        model_info: info,
        capabilities: model.capabilities ?? ['completion', 'tools'],
        modified_at: new Date(0).toISOString(),
      });
    }
    json(404, rec.api === 'openai' ? openAiError(404, `no route ${route}`) : ollamaError(`no route ${route}`));
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(err) }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => chats.has(r) || r.path === '/v1/chat/completions' || r.path === '/api/chat'),
    script(script) {
      if (Array.isArray(script)) {
        queue = [...script];
        chooser = null;
      } else {
        queue = [];
        chooser = script;
      }
    },
    push(...steps) {
      chooser = null;
      queue.push(...steps);
    },
    faults(o) {
      faults = o ? new ModelFaults(o) : null;
    },
    get playedFaults() {
      return faults?.played ?? [];
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    reset() {
      requests.length = 0;
      queue = [];
      chooser = null;
      chatCount = 0;
      maxInFlight = inFlight;
      faults?.reset();
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

/** Writes a protocol's answer: JSON unless it says otherwise, a string[] body chunk by chunk. */
function send(res: ServerResponse, answer: WireAnswer): void {
  res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
  if (typeof answer.body === 'string') {
    res.end(answer.body);
    return;
  }
  for (const chunk of answer.body) res.write(chunk);
  res.end();
}

function ollamaDetails(): Record<string, unknown> {
  return { parent_model: '', format: 'gguf', family: 'llama', families: ['llama'], parameter_size: '8B', quantization_level: 'Q4_K_M' };
}

function defaultUsage(body: unknown, step: AnswerStep): ScriptedUsage {
  const messages = (body as { messages?: unknown })?.messages ?? [];
  const out =
    'json' in step ? JSON.stringify(step.json) : 'text' in step && step.text ? step.text : JSON.stringify((step as { toolCalls?: unknown }).toolCalls ?? '');
  return { inputTokens: Math.ceil(JSON.stringify(messages).length / 4), outputTokens: Math.ceil(out.length / 4) };
}

// ---- wire formats -------------------------------------------------------------------------------

type Usage = ScriptedUsage;

function answerText(step: AnswerStep): string {
  if ('json' in step) return JSON.stringify(step.json);
  return step.text ?? '';
}

function toolCallsOf(step: AnswerStep): ScriptedToolCall[] {
  return 'toolCalls' in step ? step.toolCalls : [];
}

function finishOf(step: AnswerStep): string {
  return step.finishReason ?? (toolCallsOf(step).length ? 'tool_calls' : 'stop');
}

function openAiToolCalls(step: AnswerStep): unknown[] {
  return toolCallsOf(step).map((c, i) => ({
    id: c.id ?? `call_${i}`,
    type: 'function',
    function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
  }));
}

function openAiUsage(u: Usage): Record<string, number> {
  return { prompt_tokens: u.inputTokens, completion_tokens: u.outputTokens, total_tokens: u.inputTokens + u.outputTokens };
}

function openAiAnswer(model: string, step: AnswerStep, usage: Usage): unknown {
  const calls = openAiToolCalls(step);
  const text = answerText(step);
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: calls.length && !text ? null : text, refusal: null, ...(calls.length ? { tool_calls: calls } : {}) },
        logprobs: null,
        finish_reason: finishOf(step),
      },
    ],
    usage: openAiUsage(usage),
  };
}

/** SSE chunks: role, the content in a few pieces, tool calls, the finish reason, then usage if asked. */
function* openAiStream(model: string, step: AnswerStep, usage: Usage | undefined): Generator<unknown> {
  const base = { id: 'chatcmpl-stream', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: unknown, finish: string | null = null): unknown => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  yield chunk({ role: 'assistant', content: '' });
  for (const piece of pieces(answerText(step))) yield chunk({ content: piece });
  for (const [index, call] of openAiToolCalls(step).entries()) yield chunk({ tool_calls: [{ index, ...(call as object) }] });
  yield chunk({}, finishOf(step));
  if (usage) yield { ...base, choices: [], usage: openAiUsage(usage) };
}

function openAiError(status: number, message: string): unknown {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: null } };
}

function ollamaToolCalls(step: AnswerStep): unknown[] {
  return toolCallsOf(step).map((c) => ({
    function: { name: c.name, arguments: typeof c.arguments === 'string' ? safeParse(c.arguments) : c.arguments },
  }));
}

function ollamaFinal(model: string, step: AnswerStep, usage: Usage): Record<string, unknown> {
  return {
    model,
    created_at: new Date().toISOString(),
    done: true,
    done_reason: step.finishReason ?? 'stop',
    total_duration: 1000,
    load_duration: 10,
    prompt_eval_count: usage.inputTokens,
    prompt_eval_duration: 100,
    eval_count: usage.outputTokens,
    eval_duration: 500,
  };
}

function ollamaAnswer(model: string, step: AnswerStep, usage: Usage): unknown {
  const calls = ollamaToolCalls(step);
  return { ...ollamaFinal(model, step, usage), message: { role: 'assistant', content: answerText(step), ...(calls.length ? { tool_calls: calls } : {}) } };
}

/** NDJSON lines: the content in a few pieces, tool calls in their own message, then the done line. */
function* ollamaStream(model: string, step: AnswerStep, usage: Usage): Generator<unknown> {
  const at = new Date().toISOString();
  for (const piece of pieces(answerText(step))) yield { model, created_at: at, message: { role: 'assistant', content: piece }, done: false };
  const calls = ollamaToolCalls(step);
  if (calls.length) yield { model, created_at: at, message: { role: 'assistant', content: '', tool_calls: calls }, done: false };
  yield { ...ollamaFinal(model, step, usage), message: { role: 'assistant', content: '' } };
}

function ollamaError(message: string): unknown {
  return { error: message };
}

function pieces(text: string): string[] {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
