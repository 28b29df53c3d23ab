import { expect } from 'chai';
import { createEngine, GleanerError, PLUGIN_API_VERSION, type Driver, type LlmProvider } from '@gleaner/core';
import { testSchemas, type TestSchemas } from '../../../test/support/db.ts';

/** A driver that records whether it was closed; it never opens a page. */
function fakeDriver(apiVersion: string | undefined): Driver & { closed: number } {
  return {
    name: 'fake',
    apiVersion: apiVersion as string,
    capabilities: { javascript: false, interaction: false, proxy: false, cookies: false },
    openSession: () => Promise.reject(new GleanerError('DRIVER_UNAVAILABLE', 'fake')),
    closed: 0,
    async close() {
      this.closed++;
    },
  };
}

function fakeProvider(apiVersion: string): LlmProvider & { closed: number } {
  return {
    name: 'fake-llm',
    model: 'm',
    apiVersion,
    closed: 0,
    generate: () => Promise.reject(new Error('not called')),
    specs: () => [],
    async close() {
      this.closed++;
    },
  };
}

function refusal(fn: () => unknown): GleanerError {
  try {
    fn();
  } catch (err) {
    return err as GleanerError;
  }
  throw new Error('expected createEngine to refuse the plugin');
}

describe('plugins: API version and ownership', () => {
  let t: TestSchemas;
  before(() => {
    t = testSchemas();
  });
  after(() => t.drop());

  it('refuses a driver or provider of another plugin API major, or a newer minor, naming both versions', () => {
    expect(PLUGIN_API_VERSION).to.equal('1.3');
    for (const v of ['2.0', '0.9', '1.4']) {
      const err = refusal(() => createEngine({ config: t.config, drivers: [fakeDriver(v)] }));
      expect(err.code, v).to.equal('PLUGIN_INCOMPATIBLE');
      expect(err.message, v).to.contain(`driver "fake" implements plugin API ${v}`).and.contain('plugin API 1.3');
    }
    const llm = refusal(() => createEngine({ config: t.config, llm: fakeProvider('2.3') }));
    expect(llm.message).to.contain('model provider "fake-llm" implements plugin API 2.3').and.contain('1.3');
  });

  it('refuses a plugin that declares no version', () => {
    const err = refusal(() => createEngine({ config: t.config, drivers: [fakeDriver(undefined)] }));
    expect(err.code).to.equal('PLUGIN_INCOMPATIBLE');
    expect(err.message).to.contain('declares no plugin API version');
  });

  it('borrows the drivers and provider it is handed: stop() leaves them open for their owner', async () => {
    const driver = fakeDriver('1.0');
    const llm = fakeProvider('1.0');
    const engine = createEngine({ config: t.config, drivers: [driver], llm });
    await engine.start();
    await engine.stop();
    expect(driver.closed).to.equal(0);
    expect(llm.closed).to.equal(0);
  });
});
