import { expect } from 'chai';
import { OpenAI } from 'openai';
import { Ollama } from 'ollama';
import { createModelClient, GleanerError, parseModelJson, retryAfterFromHeaders, silentLogger } from '@gleaner/core/internal';
import { createLimiter } from '../src/llm/limiter.ts';
import { backoffDelay } from '../src/llm/retry.ts';
import type { GleanerConfig } from '@gleaner/core/internal';
import { createOpenAiProvider } from '@gleaner/llm-openai';
import { createOllamaProvider } from '@gleaner/llm-ollama';
import { chooseProvider, createLlmFromConfig, listLlmSpecs } from '../../server/src/llm-provider.ts';
import { describeProviderContract, PRODUCT, PRODUCT_SCHEMA } from '@gleaner/testing';
import { startModelServer } from '@gleaner/testing';
import type { ModelServer } from '@gleaner/testing';

const ask = { messages: [{ role: 'user' as const, content: 'Page text' }] };

describeProviderContract(
  {
    name: 'openai',
    create: (url, opts = {}) =>
      createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${url}/v1`, model: opts.model ?? 'test-model', contextWindow: opts.contextWindow }),
    sentSchema: (req) => req.body.response_format?.json_schema?.schema,
    sentToolNames: (req) => (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name),
  },
  (ctx) => {
    it('sends json_schema strict only when the schema qualifies', async () => {
      const { server } = ctx();
      server.push({ json: PRODUCT }, { json: { title: 'x' } });
      const client = ctx().client();
      await client.generateJson({ ...ask, jsonSchema: { name: 'product page!', schema: PRODUCT_SCHEMA } });
      const loose = { type: 'object', properties: { title: { type: 'string' } } };
      await client.generateJson({ ...ask, jsonSchema: { name: 'loose', schema: loose } });
      const [strict, nonStrict] = server.chatRequests().map((r) => r.body.response_format);
      expect(strict).to.deep.equal({ type: 'json_schema', json_schema: { name: 'product_page_', schema: PRODUCT_SCHEMA, strict: true } });
      expect(nonStrict.json_schema.strict).to.equal(false);
      expect(server.chatRequests()[0].headers.authorization).to.equal('Bearer sk-test');
    });

    it('falls back to json_object with the schema in the prompt when json_schema is refused, and remembers', async () => {
      const { server } = ctx();
      server.push({ error: 400, message: "response_format 'json_schema' is not supported by this server" }, { json: PRODUCT }, { json: PRODUCT });
      const client = ctx().client();
      expect((await client.generateJson({ ...ask, jsonSchema: { name: 'product', schema: PRODUCT_SCHEMA } })).json).to.deep.equal(PRODUCT);
      expect((await client.generateJson({ ...ask, jsonSchema: { name: 'product', schema: PRODUCT_SCHEMA } })).json).to.deep.equal(PRODUCT);
      const [refused, fallback, remembered] = server.chatRequests().map((r) => r.body);
      expect(refused.response_format.type).to.equal('json_schema');
      expect(fallback.response_format).to.deep.equal({ type: 'json_object' });
      expect(fallback.messages[0].role).to.equal('system');
      expect(fallback.messages[0].content).to.contain(JSON.stringify(PRODUCT_SCHEMA));
      expect(remembered.response_format).to.deep.equal({ type: 'json_object' });
    });

    it('falls back for this call only when the server refuses one schema', async () => {
      const { server } = ctx();
      server.push({ error: 400, message: "Invalid schema for response_format 'product': bad" }, { json: PRODUCT }, { json: PRODUCT });
      const client = ctx().client();
      await client.generateJson({ ...ask, jsonSchema: { name: 'product', schema: PRODUCT_SCHEMA } });
      await client.generateJson({ ...ask, jsonSchema: { name: 'product', schema: PRODUCT_SCHEMA } });
      expect(server.chatRequests().map((r) => r.body.response_format.type)).to.deep.equal(['json_schema', 'json_object', 'json_schema']);
    });

    it('sends max_tokens and temperature, or max_completion_tokens for reasoning models', async () => {
      const { server } = ctx();
      server.push({ text: 'a' }, { text: 'b' });
      await ctx()
        .client()
        .generate({ ...ask, maxOutputTokens: 100, temperature: 0 });
      await ctx()
        .client({ model: 'o4-mini' })
        .generate({ ...ask, maxOutputTokens: 100, temperature: 0 });
      const [plain, reasoning] = server.chatRequests().map((r) => r.body);
      expect(plain).to.include({ max_tokens: 100, temperature: 0 });
      expect(reasoning).to.include({ max_completion_tokens: 100 }).and.not.have.property('temperature');
    });
  },
);

describeProviderContract(
  {
    name: 'ollama',
    create: (url, opts = {}) => createOllamaProvider({ host: url, model: opts.model ?? 'test-model', keepAlive: '10m', contextWindow: opts.contextWindow }),
    sentSchema: (req) => req.body.format,
    sentToolNames: (req) => (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name),
  },
  (ctx) => {
    it('sends keep_alive, stream false and the generation options', async () => {
      const { server } = ctx();
      server.push({ text: 'a' }, { text: 'b' });
      await ctx()
        .client()
        .generate({ ...ask, maxOutputTokens: 50, temperature: 0.2 });
      const seconds = createModelClient(createOllamaProvider({ host: server.url, model: 'test-model', keepAlive: '300', contextWindow: 16384 }), {
        timeoutMs: 2_000,
        maxRetries: 0,
        concurrency: 1,
      });
      await seconds.generate(ask);
      const [first, second] = server.chatRequests().map((r) => r.body);
      expect(first).to.include({ model: 'test-model', keep_alive: '10m', stream: false });
      expect(first.options).to.deep.equal({ num_predict: 50, temperature: 0.2 });
      expect(second).to.include({ keep_alive: 300 });
      expect(second.options).to.deep.equal({ num_ctx: 16384 });
    });
  },
);

describe('scripted model server', () => {
  let server: ModelServer;
  before(async () => {
    server = await startModelServer();
  });
  beforeEach(() => server.reset());
  after(() => server.close());

  it('streams OpenAI SSE chunks with usage', async () => {
    server.push({ text: 'streamed answer', usage: { inputTokens: 3, outputTokens: 2 } });
    const client = new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseUrl, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'test-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).to.equal('streamed answer');
    expect(usage).to.deep.include({ prompt_tokens: 3, completion_tokens: 2 });
  });

  it('streams Ollama NDJSON lines and lists models', async () => {
    server.push({ toolCalls: [{ name: 'click', arguments: { selector: '#next' } }] });
    const client = new Ollama({ host: server.url });
    const parts = await client.chat({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const calls: unknown[] = [];
    let done = false;
    for await (const part of parts) {
      calls.push(...(part.message.tool_calls ?? []));
      done ||= part.done;
    }
    expect(done).to.equal(true);
    expect(calls).to.deep.equal([{ function: { name: 'click', arguments: { selector: '#next' } } }]);
    expect((await client.list()).models.map((m) => m.name)).to.deep.equal(['test-model']);
  });
});

describe('model provider from configuration', () => {
  const base = {
    llm: { provider: '', model: '', timeoutMs: 1_000, maxRetries: 0, concurrency: 2, contextWindow: 0 },
    openai: { apiKey: '', baseUrl: '' },
    ollama: { host: 'http://127.0.0.1:11434', keepAlive: '5m' },
  } as unknown as GleanerConfig;
  const with_ = (patch: { llm?: object; openai?: object; ollama?: object }): GleanerConfig =>
    ({
      llm: { ...base.llm, ...patch.llm },
      openai: { ...base.openai, ...patch.openai },
      ollama: { ...base.ollama, ...patch.ollama },
    }) as unknown as GleanerConfig;

  it('chooses openai when a key or base URL is set, else ollama, with default models', () => {
    expect(chooseProvider(base)).to.equal('ollama');
    expect(chooseProvider(with_({ openai: { apiKey: 'sk' } }))).to.equal('openai');
    expect(chooseProvider(with_({ openai: { baseUrl: 'http://vllm:8000/v1' } }))).to.equal('openai');
    expect(chooseProvider(with_({ llm: { provider: 'ollama' }, openai: { apiKey: 'sk' } }))).to.equal('ollama');
    expect(createLlmFromConfig(base, silentLogger()).provider).to.include({ name: 'ollama', model: 'llama3.1' });
    expect(createLlmFromConfig(with_({ openai: { apiKey: 'sk' } }), silentLogger()).provider).to.include({ name: 'openai', model: 'gpt-4o-mini' });
    expect(createLlmFromConfig(with_({ openai: { apiKey: 'sk' }, llm: { model: 'gpt-4.1' } }), silentLogger()).provider?.model).to.equal('gpt-4.1');
  });

  it('has no provider when openai is asked for without key or base URL', () => {
    const setup = createLlmFromConfig(with_({ llm: { provider: 'openai' } }), silentLogger());
    expect(setup.provider).to.equal(null);
  });

  it('lists the specs of a reachable provider, and none (without throwing) of an unreachable one', async () => {
    const server = await startModelServer({ models: [{ name: 'llama3.1', contextLength: 131072, capabilities: ['completion', 'tools', 'vision'] }] });
    try {
      const specs = await createLlmFromConfig(with_({ ollama: { host: server.url } }), silentLogger()).listLlmSpecs();
      expect(specs).to.have.length(1);
      expect(specs[0]).to.include({ id: 'llama3.1', provider: 'ollama', context_window: 131072 });
      expect(specs[0].capabilities).to.include({ tool_calls: true, vision: true });
    } finally {
      await server.close();
    }
    const gone = await startModelServer();
    await gone.close();
    expect(await createLlmFromConfig(with_({ ollama: { host: gone.url } }), silentLogger()).listLlmSpecs()).to.deep.equal([]);
    expect(await createLlmFromConfig(with_({ openai: { baseUrl: `${gone.url}/v1` } }), silentLogger()).listLlmSpecs()).to.deep.equal([]);
    expect(await listLlmSpecs(null, silentLogger())).to.deep.equal([]);
  });
});

describe('model client building blocks', () => {
  it('reads Retry-After as seconds, HTTP date or retry-after-ms', () => {
    const h = (o: Record<string, string>) => new Headers(o);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterFromHeaders(h({ 'retry-after': '3' }), now)).to.equal(3000);
    expect(retryAfterFromHeaders(h({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).to.equal(5000);
    expect(retryAfterFromHeaders(h({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).to.equal(0);
    expect(retryAfterFromHeaders(h({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).to.equal(250);
    expect(retryAfterFromHeaders(h({ 'retry-after': 'soon' }), now)).to.equal(undefined);
    expect(retryAfterFromHeaders(h({}), now)).to.equal(undefined);
  });

  it('backs off exponentially with full jitter, capped', () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4].map((r) => backoffDelay(r, { ...opts, random: () => 0.999 }))).to.deep.equal([99, 199, 399, 799, 999]);
    expect(backoffDelay(3, { ...opts, random: () => 0 })).to.equal(0);
  });

  it('caps a long Retry-After at maxRetryAfterMs', async () => {
    const server = await startModelServer();
    try {
      server.push({ error: 429, retryAfter: 3600 }, { text: 'ok' });
      const client = createModelClient(createOllamaProvider({ host: server.url, model: 'test-model' }), {
        timeoutMs: 2_000,
        maxRetries: 1,
        concurrency: 1,
        maxRetryAfterMs: 200,
      });
      const started = Date.now();
      expect((await client.generate(ask)).text).to.equal('ok');
      expect(Date.now() - started).to.be.within(190, 1_500);
    } finally {
      await server.close();
    }
  });

  it('parses JSON wrapped in a Markdown fence or a sentence', () => {
    expect(parseModelJson('```json\n{"a": 1}\n```')).to.deep.equal({ ok: true, value: { a: 1 } });
    expect(parseModelJson('Here it is: [1, 2] - done')).to.deep.equal({ ok: true, value: [1, 2] });
    expect(parseModelJson('nothing here').ok).to.equal(false);
  });

  it('lets a queued call leave the limiter when its caller aborts', async () => {
    const limiter = createLimiter(1);
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const second = limiter.run(async () => 'ran', controller.signal);
    expect(limiter.queued).to.equal(1);
    controller.abort();
    const err = await second.catch((e: Error) => e);
    expect((err as Error).name).to.equal('AbortError');
    expect(limiter.queued).to.equal(0);
    release();
    await first;
    expect(await limiter.run(async () => 'free')).to.equal('free');
  });

  it('answers MODEL_REQUEST_REJECTED for an unknown Ollama model', async () => {
    const server = await startModelServer();
    try {
      server.push({ error: 404, message: "model 'nope' not found, try pulling it first" });
      const client = createModelClient(createOllamaProvider({ host: server.url, model: 'nope' }), { timeoutMs: 2_000, maxRetries: 3, concurrency: 1 });
      const err = await client.generate(ask).catch((e: Error) => e);
      expect(err).to.be.instanceOf(GleanerError).and.include({ code: 'MODEL_REQUEST_REJECTED' });
      expect((err as Error).message).to.contain('try pulling it first');
    } finally {
      await server.close();
    }
  });
});
