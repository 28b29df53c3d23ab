import { expect } from 'chai';
import { buildChatRequest, keepAliveValue, readChatResponse } from '../src/request.ts';
import { buildSpec, contextLengthOf } from '../src/specs.ts';

const schema = { type: 'object', properties: { a: { type: 'string' } } };

describe('llm-ollama: request translation', () => {
  it('turns numeric keep_alive strings into seconds and keeps durations', () => {
    expect(keepAliveValue('5m')).to.equal('5m');
    expect(keepAliveValue('-1')).to.equal(-1);
    expect(keepAliveValue('300')).to.equal(300);
    expect(keepAliveValue('')).to.equal(undefined);
  });

  it('sends the schema as format, or in the system prompt when tools are offered', () => {
    const plain = buildChatRequest({ messages: [{ role: 'user', content: 'x' }], jsonSchema: { name: 'n', schema } }, { model: 'm' });
    expect(plain.format).to.deep.equal(schema);
    expect(plain.messages).to.deep.equal([{ role: 'user', content: 'x' }]);
    const withTools = buildChatRequest(
      { system: 'sys', messages: [{ role: 'user', content: 'x' }], jsonSchema: { name: 'n', schema }, tools: [{ name: 't', parameters: { type: 'object' } }] },
      { model: 'm' },
    );
    expect(withTools).to.not.have.property('format');
    expect(withTools.messages?.[0].content).to.contain('sys').and.contain(JSON.stringify(schema));
    expect(withTools.tools?.[0].function.name).to.equal('t');
  });

  it('sends tool turns with the tool name and numbers the calls it reads', () => {
    const req = buildChatRequest(
      {
        messages: [
          { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'click', arguments: { s: '#a' } }] },
          { role: 'tool', content: 'ok', toolCallId: 'call_0', toolName: 'click' },
        ],
      },
      { model: 'm' },
    );
    expect(req.messages).to.deep.equal([
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'click', arguments: { s: '#a' } } }] },
      { role: 'tool', content: 'ok', tool_name: 'click' },
    ]);
    const result = readChatResponse({
      model: 'm',
      created_at: new Date(),
      done: true,
      done_reason: 'stop',
      total_duration: 0,
      load_duration: 0,
      prompt_eval_count: 7,
      prompt_eval_duration: 0,
      eval_count: 3,
      eval_duration: 0,
      message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'a', arguments: {} } }, { function: { name: 'b', arguments: { x: 1 } } }] },
    });
    expect(result.toolCalls.map((c) => c.id)).to.deep.equal(['call_0', 'call_1']);
    expect(result).to.deep.include({ finishReason: 'tool_calls', usage: { inputTokens: 7, outputTokens: 3 } });
  });

  it('reads the context length of any architecture from /api/show', () => {
    expect(contextLengthOf({ 'general.architecture': 'qwen2', 'qwen2.context_length': 32768 })).to.equal(32768);
    expect(contextLengthOf({ 'gemma3.context_length': 131072 })).to.equal(131072);
    expect(contextLengthOf(undefined)).to.equal(undefined);
    expect(buildSpec('m', undefined, undefined)).to.deep.include({ context_window: 8192, max_output_tokens: null });
    expect(buildSpec('m', 2048, { modelInfo: { 'x.context_length': 9999 } }).context_window).to.equal(2048);
  });
});
