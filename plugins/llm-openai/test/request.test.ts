import { expect } from 'chai';
import { LlmProviderError } from '@gleaner/core/plugin';
import { buildParams, qualifiesForStrict, readCompletion, schemaName } from '../src/request.ts';
import { isResponseFormatRejection } from '../src/errors.ts';
import { buildSpec, isReasoningModel, knownModel } from '../src/specs.ts';

describe('llm-openai: request translation', () => {
  it('sends strict only for schemas whose objects require every property and forbid others', () => {
    const item = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
    expect(qualifiesForStrict(item)).to.equal(true);
    expect(qualifiesForStrict({ type: 'array', items: item })).to.equal(true);
    expect(qualifiesForStrict({ ...item, required: [] })).to.equal(false);
    expect(qualifiesForStrict({ ...item, additionalProperties: true })).to.equal(false);
    const nested = { ...item, properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } };
    expect(qualifiesForStrict(nested)).to.equal(false);
    expect(qualifiesForStrict({ anyOf: [item, { type: 'null' }] })).to.equal(true);
    expect(qualifiesForStrict({ $defs: { x: { type: 'object', properties: {} } }, ...item })).to.equal(false);
  });

  it('sanitises schema names for json_schema.name', () => {
    expect(schemaName('product list (v2)')).to.equal('product_list__v2_');
    expect(schemaName('')).to.equal('answer');
    expect(schemaName('x'.repeat(80))).to.have.length(64);
  });

  it('sends tool turns back with their call ids', () => {
    const params = buildParams(
      'gpt-4o-mini',
      {
        system: 'sys',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'click', arguments: { selector: '#a' } }] },
          { role: 'tool', content: 'clicked', toolCallId: 'c1', toolName: 'click' },
        ],
        tools: [{ name: 'click', parameters: { type: 'object' } }],
        toolChoice: 'required',
      },
      'json_schema',
    );
    expect(params.messages).to.deep.equal([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'click', arguments: '{"selector":"#a"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'clicked' },
    ]);
    expect(params.tool_choice).to.equal('required');
  });

  it('reads refusals and malformed tool arguments without throwing', () => {
    const result = readCompletion({
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          logprobs: null,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{not json' } }],
          },
        },
      ],
    });
    expect(result.toolCalls[0]).to.deep.equal({ id: 'c', name: 'f', arguments: {}, rawArguments: '{not json' });
    expect(result.usage).to.deep.equal({ inputTokens: 0, outputTokens: 0 });
    const refused = readCompletion({
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: null, refusal: 'I cannot help' } }],
    });
    expect(refused).to.include({ text: 'I cannot help', finishReason: 'refusal' });
  });

  it('recognises a refused response_format, and only that', () => {
    const http = (status: number, message: string) => new LlmProviderError(message, { provider: 'openai', kind: 'http', status });
    expect(isResponseFormatRejection(http(400, "400 Unknown response_format type 'json_schema'"))).to.equal(true);
    expect(isResponseFormatRejection(http(400, '400 prompt too long'))).to.equal(false);
    expect(isResponseFormatRejection(http(500, 'response_format crashed'))).to.equal(false);
  });

  it('knows the common models by longest prefix, and falls back to 8192', () => {
    expect(knownModel('gpt-4o-mini-2024-07-18')?.contextWindow).to.equal(128_000);
    expect(knownModel('gpt-4.1-nano')?.contextWindow).to.equal(1_047_576);
    expect(knownModel('openai/gpt-4o')?.maxOutputTokens).to.equal(16_384);
    expect(knownModel('gpt-4o-audio-preview-x')).to.not.equal(undefined);
    expect(knownModel('llama-3-70b')).to.equal(undefined);
    expect(isReasoningModel('o3-mini')).to.equal(true);
    expect(isReasoningModel('gpt-4o')).to.equal(false);
    expect(buildSpec({ model: 'mistral-7b', official: false }).context_window).to.equal(8192);
    expect(buildSpec({ model: 'gpt-4o-mini', official: true }).pricing.input_per_million_tokens).to.equal(0.15);
    expect(buildSpec({ model: 'gpt-4o-mini', official: false }).pricing.input_per_million_tokens).to.equal(null);
  });
});
