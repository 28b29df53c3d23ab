import { expect } from 'chai';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_FIELDS, GleanerError, loadConfig } from '@gleaner/core';

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
