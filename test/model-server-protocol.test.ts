// The scripted model server learns a wire protocol it does not speak (as a provider for another API
// would teach it): its routes, a scripted step on the wire, its error body; the script, delays and
// recording stay the server's.
import { expect } from 'chai';
import { startModelServer, type ModelServer, type WireProtocol } from '@gleaner/testing';

/** A made-up "messages" API: POST /v2/messages answers {output: [{text}], tokens: {in, out}}. */
const messagesApi: WireProtocol = {
  name: 'messages',
  matches: (method, path) => path.startsWith('/v2/'),
  isChat: (req) => req.method === 'POST' && req.path === '/v2/messages',
  answer: (step, { usage, model }) => ({
    body: JSON.stringify({
      model,
      output: [{ text: 'json' in step ? JSON.stringify(step.json) : 'text' in step ? step.text : '' }],
      tokens: { in: usage.inputTokens, out: usage.outputTokens },
    }),
  }),
  errorBody: (status, message) => ({ failure: { status, message } }),
  route: (req, models) => (req.path === '/v2/models' ? { body: JSON.stringify({ names: models.map((m) => m.name) }) } : null),
};

describe('scripted model server: a provider-supplied wire protocol', () => {
  let server: ModelServer;
  before(async () => {
    server = await startModelServer({ protocols: [messagesApi] });
  });
  after(() => server.close());

  const post = (body: unknown) => fetch(`${server.url}/v2/messages`, { method: 'POST', body: JSON.stringify(body) });

  it('answers its chat requests with the scripted steps, in its own format, and records them under its name', async () => {
    server.script([{ json: { title: 'Blue kettle' }, usage: { inputTokens: 7, outputTokens: 3 } }, { text: 'plain' }]);
    const first = await (await post({ model: 'test-model', prompt: 'x' })).json();
    expect(first).to.deep.equal({ model: 'test-model', output: [{ text: '{"title":"Blue kettle"}' }], tokens: { in: 7, out: 3 } });
    expect((await (await post({ model: 'test-model' })).json()).output[0].text).to.equal('plain');
    expect(server.chatRequests().map((r) => r.api)).to.deep.equal(['messages', 'messages']);
  });

  it('sends scripted errors with its own error body and the Retry-After header', async () => {
    server.script([{ error: 429, message: 'slow down', retryAfter: 2 }]);
    const res = await post({ model: 'test-model' });
    expect(res.status).to.equal(429);
    expect(res.headers.get('retry-after')).to.equal('2');
    expect(await res.json()).to.deep.equal({ failure: { status: 429, message: 'slow down' } });
  });

  it('serves its other routes, answers unknown ones with its 404 body, and leaves OpenAI and Ollama as they were', async () => {
    expect(await (await fetch(`${server.url}/v2/models`)).json()).to.deep.equal({ names: ['test-model'] });
    const missing = await fetch(`${server.url}/v2/nothing`);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({ failure: { status: 404, message: 'no route GET /v2/nothing' } });
    const models = (await (await fetch(`${server.openaiBaseUrl}/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).to.deep.equal(['test-model']);
  });
});
