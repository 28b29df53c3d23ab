import { expect } from 'chai';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { CONFIG_FIELDS, GleanerError, loadConfig, redactConfig, type FieldSpec } from '@gleaner/core';

describe('config: loading and precedence', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gleaner-config-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function file(content: unknown): string {
    const path = join(dir, `c-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(content));
    return path;
  }

  it('gives the schema defaults when nothing is set', () => {
    const c = loadConfig({ env: {} });
    expect(c.server.port).to.equal(8080);
    expect(c.server.agentsPort).to.equal(8081);
    expect(c.runs.waitSeconds).to.equal(300);
    expect(c.network.allowNetworks).to.deep.equal([]);
    expect(c.database.url).to.equal('');
  });

  it('applies options > environment > file > defaults, field by field', () => {
    const path = file({ server: { port: 1111, agentsPort: 2222 }, runs: { waitSeconds: 7 }, log: { level: 'debug' } });
    const c = loadConfig({
      env: { GLEANER_CONFIG: path, GLEANER_PORT: '3333', GLEANER_AGENTS_PORT: '4444' },
      options: { server: { port: 5555 } },
    });
    expect(c.server.port).to.equal(5555); // options win over env and file
    expect(c.server.agentsPort).to.equal(4444); // env wins over file
    expect(c.runs.waitSeconds).to.equal(7); // file wins over default
    expect(c.log.level).to.equal('debug');
    expect(c.jobs.concurrency).to.equal(4); // default
  });

  it('parses typed environment values (integers, booleans, CIDR lists, JSON objects)', () => {
    const c = loadConfig({
      env: {
        GLEANER_WORKER: 'false',
        GLEANER_ALLOW_NETWORKS: '127.0.0.0/8, 10.0.0.0/8',
        GLEANER_PROXIES: '{"UnitedStates":"http://proxy:3128"}',
        GLEANER_JOB_POLLING_SECONDS: '0.5',
      },
    });
    expect(c.worker.enabled).to.equal(false);
    expect(c.network.allowNetworks).to.deep.equal(['127.0.0.0/8', '10.0.0.0/8']);
    expect(c.network.proxies).to.deep.equal({ UnitedStates: 'http://proxy:3128' });
    expect(c.jobs.pollingSeconds).to.equal(0.5);
  });

  it('rejects unknown keys in options and in the file, naming them', () => {
    expect(() => loadConfig({ env: {}, options: { server: { prot: 1 } } as never })).to.throw(GleanerError, /unknown key "server\.prot"/);
    const path = file({ sever: { port: 1 } });
    expect(() => loadConfig({ env: { GLEANER_CONFIG: path } })).to.throw(/unknown key "sever\.port"/);
  });

  it('rejects invalid values with the variable that set them', () => {
    try {
      loadConfig({ env: { GLEANER_PORT: 'eighty', GLEANER_LOG_LEVEL: 'loud' } });
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(GleanerError);
      expect((err as GleanerError).code).to.equal('CONFIG_INVALID');
      expect((err as Error).message)
        .to.contain('GLEANER_PORT="eighty"')
        .and.contain('GLEANER_LOG_LEVEL="loud"');
    }
  });

  it('reports an unreadable configuration file clearly', () => {
    expect(() => loadConfig({ env: { GLEANER_CONFIG: join(dir, 'missing.json') } })).to.throw(/cannot read configuration file/);
  });

  it('returns a deeply frozen object', () => {
    const c = loadConfig({ env: {} });
    expect(Object.isFrozen(c)).to.equal(true);
    expect(Object.isFrozen(c.server)).to.equal(true);
    expect(() => {
      (c.server as { port: number }).port = 1;
    }).to.throw(TypeError);
  });

  it('declares an environment variable for every field, each used once', () => {
    const envs = Object.values(CONFIG_FIELDS).map((f) => f.env);
    expect(envs.every((e) => /^[A-Z][A-Z0-9_]+$/.test(e))).to.equal(true);
    expect(new Set(envs).size).to.equal(envs.length);
  });
});

describe('config: settings declared by plugin packages', () => {
  const require = createRequire(import.meta.url);
  const declared = (pkg: string) => (JSON.parse(readFileSync(require.resolve(`${pkg}/settings.json`), 'utf8')) as { fields: Record<string, FieldSpec> }).fields;
  const coreSchema = JSON.parse(readFileSync(new URL('../src/config/schema.json', import.meta.url), 'utf8')) as { fields: Record<string, FieldSpec> };

  it("reads the known plugins' settings from their packages, not from core's schema", () => {
    const byPackage = {
      '@gleaner/llm-openai': ['openai.apiKey', 'openai.baseUrl'],
      '@gleaner/llm-ollama': ['ollama.host', 'ollama.keepAlive'],
      '@gleaner/driver-selenium': ['browser.seleniumUrl'],
    };
    for (const [pkg, paths] of Object.entries(byPackage)) {
      const fields = declared(pkg);
      expect(Object.keys(fields), pkg).to.deep.equal(paths);
      for (const path of paths) {
        expect(coreSchema.fields, path).to.not.have.property(path);
        expect(CONFIG_FIELDS[path], path).to.deep.equal(fields[path]);
      }
    }
    const c = loadConfig({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', GLEANER_SELENIUM_URL: 'http://grid:4444' } });
    expect(c.openai).to.deep.equal({ apiKey: '', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(c.ollama).to.deep.equal({ host: 'http://127.0.0.1:11434', keepAlive: '5m' });
    expect(c.browser.seleniumUrl).to.equal('http://grid:4444');
    expect(redactConfig(loadConfig({ env: { OPENAI_API_KEY: 'sk-secret' } })).openai).to.deep.equal({ apiKey: '***', baseUrl: '' });
  });

  it("reads a third-party plugin's declared settings like core's: environment, options, checks and defaults", () => {
    const settings: Record<string, FieldSpec> = {
      'acme.token': { type: 'string', env: 'ACME_TOKEN', default: '', secret: true, description: 'Token for the acme service.' },
      'acme.pages': { type: 'integer', env: 'ACME_PAGES', default: 3, minimum: 1, description: 'Pages per call.' },
    };
    const c = loadConfig({ env: { ACME_TOKEN: 'tok' }, settings }) as unknown as { acme: { token: string; pages: number } };
    expect(c.acme).to.deep.equal({ token: 'tok', pages: 3 });
    expect(redactConfig(c as never, settings).acme).to.deep.equal({ token: '***', pages: 3 });
    const fromOptions = loadConfig({ env: { ACME_PAGES: '5' }, options: { acme: { pages: 9 } } as never, settings }) as unknown as { acme: { pages: number } };
    expect(fromOptions.acme.pages).to.equal(9);
    expect(() => loadConfig({ env: { ACME_PAGES: '0' }, settings }))
      .to.throw(GleanerError, /ACME_PAGES="0"/)
      .with.property('code', 'CONFIG_INVALID');
    // Without the declaration the key is unknown, as any undeclared key is.
    expect(() => loadConfig({ env: {}, options: { acme: { pages: 9 } } as never })).to.throw(GleanerError, /unknown key "acme\.pages"/);
  });

  it('refuses a setting that is already declared', () => {
    const settings = { 'openai.apiKey': { type: 'string' as const, env: 'OTHER_KEY', default: '', description: 'again' } };
    expect(() => loadConfig({ env: {}, settings }))
      .to.throw(GleanerError, /openai\.apiKey.*already declared/)
      .with.property('code', 'CONFIG_INVALID');
  });
});
