// Issue 23, item 1: with no model configured, decided once at start-up, every model-backed request
// answers 503 MODEL_NOT_CONFIGURED at once naming the settings; /v1/status reports the model, the
// browsers and the database separately; markdown and classic runs keep working.
import { expect } from 'chai';
import { pino } from 'pino';
import { insertScraper, loadConfig, type GleanerConfig, type Logger } from '@gleaner/core/internal';
import { decideModel, createLlmFromConfig, modelGuessed, ollamaAnswers } from '../packages/server/src/llm-provider.ts';
import { startStack, type Stack } from './support/stack.ts';
import { startModelServer } from '@gleaner/testing';

/** A logger whose lines are collected (JSON objects), to check what start-up says. */
function recordingLogger(): { logger: Logger; lines: any[] } {
  const lines: any[] = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { logger, lines };
}

describe('no model configured (issue 23 item 1)', () => {
  describe('the decision at start-up', () => {
    const DEFAULT_OLLAMA = 'http://127.0.0.1:11434';

    it('counts only what the user set: a provider, an OpenAI key or base URL, an OLLAMA_HOST of their own', () => {
      const config = (env: Record<string, string>) => loadConfig({ env });
      expect(modelGuessed(config({}))).to.equal(true);
      expect(modelGuessed(config({ OPENAI_API_KEY: 'sk-x' }))).to.equal(false);
      expect(modelGuessed(config({ OPENAI_BASE_URL: 'http://vllm:8000/v1' }))).to.equal(false);
      expect(modelGuessed(config({ OLLAMA_HOST: 'http://gpu:11434' }))).to.equal(false);
      expect(modelGuessed(config({ GLEANER_LLM_PROVIDER: 'ollama' }))).to.equal(false);
    });

    it('keeps the default Ollama only when it answers, and says in one log line which settings give a model', async function () {
      // Only meaningful where nothing listens at Ollama's default address (an Ollama here would answer).
      if (await ollamaAnswers(DEFAULT_OLLAMA, 500)) this.skip();
      const config: Readonly<GleanerConfig> = loadConfig({ env: {} });
      const { logger, lines } = recordingLogger();
      const started = Date.now();
      const guessed = createLlmFromConfig(config, logger).provider;
      expect(guessed).to.include({ name: 'ollama' }); // built from defaults...
      expect(await decideModel(config, guessed, logger)).to.equal(null); // ...and dropped: nobody answers
      expect(Date.now() - started).to.be.below(5_000);
      expect(lines).to.have.length(1);
      expect(lines[0].level).to.equal(40);
      for (const setting of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OLLAMA_HOST', 'MODEL_NOT_CONFIGURED', 'markdown']) expect(lines[0].msg).to.contain(setting);
    });

    it('keeps a configured provider without probing it, and says so in one line', async () => {
      const gone = await startModelServer();
      await gone.close(); // configured but down: requests fail with MODEL_UNAVAILABLE, not "not configured"
      const config = loadConfig({ env: { OLLAMA_HOST: gone.url } });
      const { logger, lines } = recordingLogger();
      const provider = createLlmFromConfig(config, logger).provider;
      expect(await decideModel(config, provider, logger)).to.equal(provider);
      expect(lines.map((l) => l.msg)).to.deep.equal(['model provider configured']);
    });

    it('probes an Ollama: yes when GET /api/tags answers, no when nothing listens', async () => {
      const server = await startModelServer();
      try {
        expect(await ollamaAnswers(server.url)).to.equal(true);
      } finally {
        await server.close();
      }
      expect(await ollamaAnswers(server.url, 500)).to.equal(false);
    });
  });

  describe('the API without a model', () => {
    let s: Stack;
    before(async () => {
      s = await startStack({ noModel: true });
      s.site.page('/shop', '<html><body><h1>Shop</h1><div class="card"><h2>Widget</h2><span class="price">3</span></div></body></html>');
    });
    after(() => s?.close());

    it('answers 503 MODEL_NOT_CONFIGURED at once, naming the settings, to every model-backed request; nothing is queued', async () => {
      const url = `${s.site.url}/shop`;
      const calls: Array<[string, unknown]> = [
        ['/v1/extractor/extract', { url, prompt: 'widgets' }],
        ['/v1/extractor/parse', { content: '<h1>Widget</h1>', prompt: 'widgets' }],
        ['/v1/extractor/extract_async', { url, prompt: 'widgets' }],
        ['/v1/agent/extract', { url, prompt: 'widgets' }],
        ['/v1/extractor/generate', { url, attributes: [{ name: 'name', type: 'string', description: 'widget name' }] }],
        ['/v1/agent/generate', { url, prompt: 'widgets' }],
      ];
      for (const [path, body] of calls) {
        const started = Date.now();
        const res = await s.api('POST', path, body);
        expect(res.status, `${path}: ${res.text}`).to.equal(503);
        expect(res.body.code).to.equal('MODEL_NOT_CONFIGURED');
        for (const setting of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OLLAMA_HOST']) expect(res.body.detail, path).to.contain(setting);
        expect(Date.now() - started, path).to.be.below(2_000);
      }
      expect(s.site.requests.filter((r) => r.path === '/shop')).to.have.length(0); // refused before fetching
      const { rows } = await s.engine.db.query<{ n: number }>(`SELECT (SELECT count(*) FROM tasks) + (SELECT count(*) FROM scrapers) AS n`);
      expect(Number(rows[0].n)).to.equal(0);
    });

    it('reports the model, the browsers and the database separately at /v1/status', async () => {
      const res = await s.api('GET', '/v1/status');
      expect(res.status).to.equal(200);
      expect(res.body.status).to.equal('ok');
      expect(res.body.database).to.deep.equal({ status: 'ok' });
      expect(res.body.model.status).to.equal('not_configured');
      expect(res.body.model.detail).to.contain('OPENAI_API_KEY').and.contain('OLLAMA_HOST');
      expect(res.body.browsers).to.have.property('status');
      expect((await s.api('GET', '/readyz')).body).to.deep.equal({ status: 'ok' });
    });

    it('still converts pages to markdown and runs classic scrapers', async () => {
      const md = await s.api('POST', '/v1/extractor/extract_markdown', { url: `${s.site.url}/shop` });
      expect(md.status, md.text).to.equal(200);
      expect(md.body.data).to.contain('Widget');
      const owner = (await s.engine.authenticateApiKey(s.key))!;
      const recipe = { version: 1, container: { selector: 'div.card' }, fields: { name: { selector: 'h2', read: 'text' } } } as const;
      const id = await s.engine.db.tx((tx) =>
        insertScraper(tx, {
          ownerId: owner.id,
          kind: 'extractor',
          url: `${s.site.url}/shop`,
          attributes: [{ name: 'name', type: 'string', description: '' }],
          recipe,
        }),
      );
      const run = await s.api('POST', '/v1/scrapers/run', { template_id: id, url: `${s.site.url}/shop` });
      expect(run.status, run.text).to.equal(200);
      expect(run.body.data).to.deep.equal([{ name: 'Widget' }]);
    });
  });

  describe('with a model', () => {
    let s: Stack;
    before(async () => {
      s = await startStack({ worker: false });
    });
    after(() => s?.close());

    it('reports the configured provider and model at /v1/status', async () => {
      const res = await s.api('GET', '/v1/status');
      expect(res.status).to.equal(200);
      expect(res.body.model).to.deep.equal({ status: 'configured', provider: 'openai', model: 'test-model' });
    });
  });
});
