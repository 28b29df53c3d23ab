/**
 * The contract every model provider passes: the same behaviour through core's
 * model client, through the provider's real SDK, against the scripted model server.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { createModelClient, GleanerError } from '@gleaner/core/plugin';
import type { LlmProvider, ModelClient, ModelClientOptions } from '@gleaner/core/plugin';
import { startModelServer } from './model-server.ts';
import type { ModelServer, RecordedRequest, WireProtocol } from './model-server.ts';

export interface ProviderUnderTest {
  name: string;
  /** A provider of this kind talking to `url` (the server's root URL). */
  create(url: string, opts?: { model?: string; contextWindow?: number }): LlmProvider;
  /** The JSON Schema a chat request carried, where this protocol puts it. */
  sentSchema(req: RecordedRequest): unknown;
  /** The names of the tools a chat request offered. */
  sentToolNames(req: RecordedRequest): string[];
  /** The provider's wire format, when the scripted model server does not speak it yet (not OpenAI or Ollama). */
  protocol?: WireProtocol;
}

export interface ContractContext {
  server: ModelServer;
  client(opts?: Partial<ModelClientOptions> & { model?: string; contextWindow?: number }): ModelClient;
}

export const PRODUCT_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' }, price: { type: 'number' } },
  required: ['title', 'price'],
  additionalProperties: false,
};
export const PRODUCT = { title: 'Blue kettle', price: 24.5 };

const ask = { system: 'You extract product data.', messages: [{ role: 'user' as const, content: 'Page: Blue kettle, 24.50 EUR' }] };
const jsonAsk = { ...ask, jsonSchema: { name: 'product', schema: PRODUCT_SCHEMA } };

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the call to fail');
}

function lastUserText(req: RecordedRequest): string {
  const messages = (req.body.messages ?? []) as Array<{ role: string; content: string }>;
  return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
}

/** Registers the contract tests for one provider; `extra` adds that provider's own tests. */
export function describeProviderContract(target: ProviderUnderTest, extra?: (ctx: () => ContractContext) => void): void {
  describe(`${target.name} provider contract`, function () {
    this.timeout(15_000);
    let ctx: ContractContext;

    before(async () => {
      const server = await startModelServer({ protocols: target.protocol ? [target.protocol] : [] });
      ctx = {
        server,
        client: (opts = {}) =>
          createModelClient(target.create(server.url, { model: opts.model, contextWindow: opts.contextWindow }), {
            timeoutMs: 5_000,
            maxRetries: 2,
            concurrency: 4,
            baseDelayMs: 5,
            ...opts,
          }),
      };
    });
    beforeEach(() => ctx.server.reset());
    after(() => ctx.server.close());

    it('returns parsed JSON for a schema and sends the schema the protocol way', async () => {
      ctx.server.push({ json: PRODUCT });
      const result = await ctx.client().generateJson<typeof PRODUCT>(jsonAsk);
      expect(result.json).to.deep.equal(PRODUCT);
      expect(result.finishReason).to.equal('stop');
      const [req] = ctx.server.chatRequests();
      expect(target.sentSchema(req)).to.deep.equal(PRODUCT_SCHEMA);
      expect(JSON.stringify(req.body.messages)).to.contain('Blue kettle').and.contain('You extract product data.');
    });

    it('returns tool calls with their arguments', async () => {
      ctx.server.push({ toolCalls: [{ name: 'open_page', arguments: { url: 'https://example.com/p/1', wait: true } }] });
      const tools = [
        {
          name: 'open_page',
          description: 'Opens a page',
          parameters: { type: 'object', properties: { url: { type: 'string' }, wait: { type: 'boolean' } }, required: ['url'] },
        },
      ];
      const result = await ctx.client().generate({ ...ask, tools });
      expect(result.finishReason).to.equal('tool_calls');
      expect(result.toolCalls).to.have.length(1);
      expect(result.toolCalls[0]).to.include({ name: 'open_page' });
      expect(result.toolCalls[0].id).to.be.a('string').and.not.equal('');
      expect(result.toolCalls[0].arguments).to.deep.equal({ url: 'https://example.com/p/1', wait: true });
      expect(target.sentToolNames(ctx.server.chatRequests()[0])).to.deep.equal(['open_page']);
    });

    it('reports the usage tokens the server counted', async () => {
      ctx.server.push({ text: 'Hello there', usage: { inputTokens: 123, outputTokens: 45 } });
      const result = await ctx.client().generate(ask);
      expect(result.text).to.equal('Hello there');
      expect(result.usage).to.deep.equal({ inputTokens: 123, outputTokens: 45 });
    });

    it('retries a 429 after the Retry-After the server gave', async () => {
      ctx.server.push({ error: 429, message: 'slow down', retryAfter: 1 }, { json: PRODUCT });
      const result = await ctx.client().generateJson(jsonAsk);
      expect(result.json).to.deep.equal(PRODUCT);
      const [first, second] = ctx.server.chatRequests();
      expect(second.at - first.at).to.be.within(950, 1_800);
    });

    it('retries a 500 and then succeeds', async () => {
      ctx.server.push({ error: 500, message: 'boom' }, { json: PRODUCT });
      const result = await ctx.client().generateJson(jsonAsk);
      expect(result.json).to.deep.equal(PRODUCT);
      expect(ctx.server.chatRequests()).to.have.length(2);
    });

    it('gives up with MODEL_UNAVAILABLE when the 5xx persists', async () => {
      ctx.server.script(() => ({ error: 503, message: 'overloaded' }));
      const err = await rejection(ctx.client({ maxRetries: 2 }).generate(ask));
      expect(err).to.be.instanceOf(GleanerError).and.include({ code: 'MODEL_UNAVAILABLE' });
      expect(ctx.server.chatRequests()).to.have.length(3);
    });

    it('does not retry a 400 and answers MODEL_REQUEST_REJECTED', async () => {
      ctx.server.push({ error: 400, message: 'the prompt is too long' });
      const err = await rejection(ctx.client().generate(ask));
      expect(err).to.be.instanceOf(GleanerError).and.include({ code: 'MODEL_REQUEST_REJECTED' });
      expect(err.message).to.contain('the prompt is too long');
      expect(ctx.server.chatRequests()).to.have.length(1);
    });

    it('times out a hung answer and answers MODEL_TIMEOUT after the retries', async () => {
      ctx.server.script(() => ({ hang: true }));
      const started = Date.now();
      const err = await rejection(ctx.client({ timeoutMs: 200, maxRetries: 1 }).generate(ask));
      expect(err).to.be.instanceOf(GleanerError).and.include({ code: 'MODEL_TIMEOUT' });
      expect(ctx.server.chatRequests()).to.have.length(2);
      expect(Date.now() - started).to.be.within(390, 2_000);
    });

    it('answers MODEL_UNAVAILABLE when the server cannot be reached', async () => {
      const gone = await startModelServer();
      await gone.close();
      const client = createModelClient(target.create(gone.url), { timeoutMs: 2_000, maxRetries: 1, concurrency: 1, baseDelayMs: 5 });
      const err = await rejection(client.generate(ask));
      expect(err).to.be.instanceOf(GleanerError).and.include({ code: 'MODEL_UNAVAILABLE' });
    });

    it('repairs invalid JSON once, sending the problems back', async () => {
      ctx.server.push({ text: 'Sure! The product is a kettle.' }, { json: PRODUCT });
      const result = await ctx.client().generateJson(jsonAsk);
      expect(result.json).to.deep.equal(PRODUCT);
      const [, second] = ctx.server.chatRequests();
      expect(lastUserText(second)).to.contain('not valid JSON');
      expect(JSON.stringify(second.body.messages)).to.contain('Sure! The product is a kettle.');
      expect(result.usage.inputTokens).to.be.greaterThan(0);
    });

    it('repairs JSON that misses the schema, naming what is wrong', async () => {
      ctx.server.push({ json: { title: 'Blue kettle', colour: 'blue' } }, { json: PRODUCT });
      const result = await ctx.client().generateJson(jsonAsk);
      expect(result.json).to.deep.equal(PRODUCT);
      const text = lastUserText(ctx.server.chatRequests()[1]);
      expect(text).to.contain("must have required property 'price'").and.contain("'colour'");
    });

    it('answers MODEL_BAD_OUTPUT when the repaired answer is still wrong', async () => {
      ctx.server.push({ json: { title: 1 } }, { text: '{"title": "x", "price": "cheap"}' });
      const err = await rejection(ctx.client().generateJson(jsonAsk));
      expect(err).to.be.instanceOf(GleanerError).and.include({ code: 'MODEL_BAD_OUTPUT' });
      expect(ctx.server.chatRequests()).to.have.length(2);
    });

    it('keeps at most llm.concurrency calls in flight', async () => {
      ctx.server.script(() => ({ json: PRODUCT, delayMs: 120 }));
      const client = ctx.client({ concurrency: 2 });
      const results = await Promise.all(Array.from({ length: 5 }, () => client.generateJson(jsonAsk)));
      expect(results.map((r) => r.json)).to.deep.equal(Array(5).fill(PRODUCT));
      expect(ctx.server.maxInFlight).to.equal(2);
      expect(client.load()).to.deep.equal({ active: 0, queued: 0 });
    });

    it('stops a call in flight when the caller aborts', async () => {
      ctx.server.script(() => ({ hang: true }));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = Date.now();
      const err = await rejection(ctx.client({ timeoutMs: 10_000 }).generate({ ...ask, signal: controller.signal }));
      expect(err.name).to.equal('AbortError');
      expect(Date.now() - started).to.be.below(2_000);
      expect(ctx.server.chatRequests()).to.have.length(1);
      await waitFor(() => ctx.server.inFlight === 0);
    });

    it('stops waiting for a retry when the caller aborts', async () => {
      ctx.server.push({ error: 429, retryAfter: 30 }, { json: PRODUCT });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 150);
      const started = Date.now();
      const err = await rejection(ctx.client().generate({ ...jsonAsk, signal: controller.signal }));
      expect(err.name).to.equal('AbortError');
      expect(Date.now() - started).to.be.below(2_000);
      expect(ctx.server.chatRequests()).to.have.length(1);
    });

    it('describes the configured model', async () => {
      const [spec] = await ctx.client({ model: 'test-model' }).specs();
      expect(spec).to.include({ id: 'test-model', name: 'test-model', provider: target.name, context_window: 32768 });
      expect(spec.modalities.output).to.deep.equal(['text']);
      expect(spec.capabilities.structured_output).to.equal(true);
      const [overridden] = await ctx.client({ model: 'test-model', contextWindow: 4096 }).specs();
      expect(overridden.context_window).to.equal(4096);
      const [unknown] = await ctx.client({ model: 'no-such-model' }).specs();
      expect(unknown.context_window).to.equal(8192);
    });

    if (extra) extra(() => ctx);
  });
}

export async function waitFor(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(10);
  }
}
