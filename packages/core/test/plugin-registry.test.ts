// Core's table of known plugins (plugins/registry.ts): which packages the configuration names, each
// built by its package's `fromConfig` (the real workspace packages), and what happens when one is not
// installed. And createEngine using it for what it was not handed: built at start(), closed at stop().
import { expect } from 'chai';
import {
  chooseProvider,
  createEngine,
  GleanerError,
  KNOWN_PLUGINS,
  loadConfig,
  loadConfiguredPlugins,
  PROVIDER_PICKED_BY,
  providerChosen,
  silentLogger,
  type ConfigOptions,
} from '@gleaner/core';
import { testSchemas, type TestSchemas } from '../../../test/support/db.ts';

const logger = silentLogger();
const configOf = (options: ConfigOptions) => loadConfig({ env: {}, options });
const names = async (options: ConfigOptions, which = { drivers: true, llm: true }) => {
  const built = await loadConfiguredPlugins({ config: configOf(options), logger }, which);
  await built.close();
  return { drivers: built.drivers.map((d) => d.name), llm: built.llm && { name: built.llm.name, model: built.llm.model } };
};
/** An importer for which `absent` is not installed (Node's own error for a missing package). */
const without =
  (absent: string) =>
  (specifier: string): Promise<any> =>
    specifier === absent
      ? Promise.reject(Object.assign(new Error(`Cannot find package '${specifier}' imported from core`), { code: 'ERR_MODULE_NOT_FOUND' }))
      : import(specifier);

describe('plugins: the table of known plugins, built from configuration', () => {
  it('names a package for every driver and provider value the configuration schema allows', () => {
    expect(Object.keys(KNOWN_PLUGINS.driver).sort()).to.deep.equal(['http', 'playwright', 'selenium']);
    expect(Object.keys(KNOWN_PLUGINS.llm).sort()).to.deep.equal(['ollama', 'openai']);
  });

  it('chooses the provider as configured: OpenAI when a key or base URL is set, else Ollama; an explicit provider wins', () => {
    expect(chooseProvider(configOf({}))).to.equal('ollama');
    expect(chooseProvider(configOf({ openai: { apiKey: 'sk-x' } }))).to.equal('openai');
    expect(chooseProvider(configOf({ openai: { baseUrl: 'http://vllm:8000/v1' } }))).to.equal('openai');
    expect(chooseProvider(configOf({ llm: { provider: 'ollama' }, openai: { apiKey: 'sk-x' } }))).to.equal('ollama');
  });

  it("reads the plugins' settings that pick a provider by path, and copes when their package (and so the setting) is absent", () => {
    expect(PROVIDER_PICKED_BY.openai).to.deep.equal(['openai.apiKey', 'openai.baseUrl']);
    expect(providerChosen(configOf({}))).to.equal(false);
    expect(providerChosen(configOf({ openai: { baseUrl: 'http://vllm:8000/v1' } }))).to.equal(true);
    expect(providerChosen(configOf({ llm: { provider: 'ollama' } }))).to.equal(true);
    // A configuration without @gleaner/llm-openai's settings (the package not installed).
    const { openai: _absent, ...withoutOpenAi } = configOf({});
    expect(chooseProvider(withoutOpenAi)).to.equal('ollama');
    expect(providerChosen(withoutOpenAi)).to.equal(false);
  });

  it('builds the HTTP driver, the configured browser driver unless escalation is off, and the configured model', async () => {
    expect(await names({})).to.deep.equal({ drivers: ['http', 'playwright'], llm: { name: 'ollama', model: 'llama3.1' } });
    expect(await names({ browser: { driver: 'selenium' }, openai: { baseUrl: 'http://127.0.0.1:9/v1' }, llm: { model: 'qwen' } })).to.deep.equal({
      drivers: ['http', 'selenium'],
      llm: { name: 'openai', model: 'qwen' },
    });
    expect(await names({ browser: { escalation: 'never' }, openai: { apiKey: 'sk-x' } })).to.deep.equal({
      drivers: ['http'],
      llm: { name: 'openai', model: 'gpt-4o-mini' },
    });
    expect(await names({}, { drivers: false, llm: true })).to.deep.equal({ drivers: [], llm: { name: 'ollama', model: 'llama3.1' } });
  });

  it('leaves a provider out when its settings are missing (openai without a key or base URL)', async () => {
    expect((await names({ llm: { provider: 'openai' } })).llm).to.equal(null);
  });

  it('skips a package that is not installed with a warning, unless the configuration asked for it explicitly', async () => {
    const warned: string[] = [];
    const recording = Object.assign(Object.create(logger), { warn: (_o: unknown, msg: string) => void warned.push(msg) }) as typeof logger;
    const skipped = await loadConfiguredPlugins(
      { config: configOf({}), logger: recording },
      { drivers: true, llm: true },
      without('@gleaner/driver-playwright'),
    );
    await skipped.close();
    expect(skipped.drivers.map((d) => d.name)).to.deep.equal(['http']);
    expect(warned.join('\n')).to.contain('npm install @gleaner/driver-playwright');

    const explicit = configOf({ openai: { apiKey: 'sk-x' } });
    const err = await loadConfiguredPlugins({ config: explicit, logger }, { drivers: false, llm: true }, without('@gleaner/llm-openai')).catch(
      (e: GleanerError) => e,
    );
    expect(err).to.be.instanceOf(GleanerError);
    expect((err as GleanerError).code).to.equal('CONFIG_INVALID');
    expect((err as GleanerError).message).to.contain('npm install @gleaner/llm-openai');
  });

  describe('createEngine without drivers or a provider', () => {
    let t: TestSchemas;
    before(() => {
      t = testSchemas({ openai: { baseUrl: 'http://127.0.0.1:9/v1' }, browser: { escalation: 'never' } });
    });
    after(() => t.drop());

    it('builds the configured ones at start(), and closes them at stop()', async () => {
      const engine = createEngine({ config: t.config, logger });
      expect(engine.context.drivers).to.have.length(0);
      expect(engine.context.model).to.equal(null);
      await engine.start();
      expect(engine.context.drivers.map((d) => d.name)).to.deep.equal(['http']);
      expect(engine.context.model).to.not.equal(null);
      await engine.stop();
      expect(engine.context.drivers).to.have.length(0);
      expect(engine.context.model).to.equal(null);
    });

    it('builds nothing that it was handed, nor a provider handed as null', async () => {
      const engine = createEngine({ config: t.config, logger, drivers: [], llm: null });
      await engine.start();
      expect(engine.context.drivers).to.have.length(0);
      expect(engine.context.model).to.equal(null);
      await engine.stop();
    });
  });
});
