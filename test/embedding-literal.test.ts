// docs/embedding.md followed literally, as a reader would: its shell blocks run as they are written
// (`make pack` in the checkout at ~/gleaner, a fresh `npm init`, `npm install` of the tarballs) in a
// home directory under the system temp directory, its TypeScript blocks go, in order, into
// service.ts, and its last command runs that file: the embedded Postgres (no DATABASE_URL), the
// plugins built from configuration, and a model reached through OPENAI_BASE_URL (the scripted model
// server). Only the environment is the test's: HOME, the npm cache, a free Postgres port, the model.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { startModelServer, type ModelServer } from '@gleaner/testing';
import { freePort } from './support/process.ts';
import { findRunningEmbeddedPostgres } from '../packages/server/src/embedded-postgres.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** The page's fenced blocks in order, as one bash script: shell lines as they are, TypeScript appended to service.ts. */
export function scriptOf(page: string): { script: string; shell: string[]; typescript: string[] } {
  const shell: string[] = [];
  const typescript: string[] = [];
  const parts: string[] = ['set -euo pipefail'];
  for (const m of page.matchAll(/```(sh|ts)\n([\s\S]*?)```/g)) {
    if (m[1] === 'sh') {
      shell.push(m[2]);
      parts.push(m[2]);
    } else {
      typescript.push(m[2]);
      parts.push(`cat >> service.ts <<'GLEANER_DOC_BLOCK'\n${m[2]}GLEANER_DOC_BLOCK`);
    }
  }
  return { script: parts.join('\n'), shell, typescript };
}

describe('docs/embedding.md, followed literally from a fresh npm project outside the workspace', function () {
  this.timeout(420_000);
  let home: string;
  let model: ModelServer;
  let out = '';

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'gleaner-embed-doc-'));
    // The embedded Postgres runs as a system user when the test runs as root: it must reach the data directory.
    chmodSync(home, 0o755);
    symlinkSync(root, join(home, 'gleaner'));
    model = await startModelServer();
    model.script([{ json: { records: [{ title: 'Blue kettle', price: 24.5 }] } }]);
    const { script } = scriptOf(readFileSync(join(root, 'docs/embedding.md'), 'utf8'));
    writeFileSync(join(home, 'follow-the-doc.sh'), script);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(DATABASE_URL|GLEANER_|OPENAI_|OLLAMA_|NODE_OPTIONS$)/.test(k)) env[k] = v;
    Object.assign(env, {
      HOME: home,
      XDG_DATA_HOME: '',
      // The npm cache `make setup` filled (HOME moved): the registry only for what it lacks.
      npm_config_cache: join(homedir(), '.npm'),
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      GLEANER_EMBEDDED_PG_PORT: String(await freePort()),
      OPENAI_BASE_URL: model.openaiBaseUrl,
      GLEANER_LLM_MODEL: 'test-model',
    });
    const result = await run('bash', [join(home, 'follow-the-doc.sh')], { cwd: home, env, timeout: 400_000, maxBuffer: 64 << 20 }).catch((err) => err);
    out = String(result.stdout ?? '');
    if (result instanceof Error)
      throw new Error(
        `the page's commands failed: ${result.message}\n${out.slice(-4000)}\n${String((result as { stderr?: string }).stderr ?? '').slice(-4000)}`,
      );
  });
  after(async () => {
    await model?.close();
    if (!home) return;
    // A run that failed half-way may leave its embedded Postgres up: stop it before removing its files.
    const left = await findRunningEmbeddedPostgres(join(home, '.local/share/gleaner')).catch(() => null);
    if (left) process.kill(left.pid, 'SIGQUIT');
    rmSync(home, { recursive: true, force: true });
  });

  it('installs from the tarballs into a CommonJS-by-default project the page turns into ES modules', () => {
    const manifest = JSON.parse(readFileSync(join(home, 'my-service/package.json'), 'utf8'));
    expect(manifest.type).to.equal('module');
    expect(manifest.dependencies['@gleaner/core']).to.match(/^file:/);
    expect(manifest.dependencies['@gleaner/server']).to.match(/^file:/);
    expect(manifest.dependencies.express).to.be.a('string');
  });

  it('runs every step of the service: embedded Postgres, plugins from configuration, the model via OPENAI_BASE_URL, its own job', () => {
    const steps = Object.fromEntries(
      out
        .split('\n')
        .filter((l) => l.startsWith('{"step"'))
        .map((l) => JSON.parse(l))
        .map((s) => [s.step, s]),
    );
    expect(steps['direct markdown']?.data, out.slice(-3000)).to.contain('Blue kettle').and.contain('24.50 EUR');
    expect(steps.extract, JSON.stringify(steps.extract)).to.deep.equal({ step: 'extract', data: [{ title: 'Blue kettle', price: 24.5 }] });
    expect(model.chatRequests().length).to.equal(1);
    expect(steps['mounted markdown']).to.include({ status: 200 });
    expect(steps['not signed in'].status).to.equal(401);
    expect(steps['invalid body'].status).to.equal(422);
    expect(steps['invalid body'].body.detail[0].loc).to.deep.equal(['body', 'url']);
    expect(steps.openapi.paths).to.be.greaterThan(10);
    expect(steps['own job'].who).to.equal('the embedding team');
    expect(steps.stopped.jobsSeen).to.equal(1);
  });

  it('kept the embedded Postgres in the documented data directory, and stopped it', async () => {
    const dataDir = join(home, '.local/share/gleaner');
    expect(readFileSync(join(dataDir, 'postgres', 'PG_VERSION'), 'utf8').trim()).to.match(/^\d+$/);
    expect(await findRunningEmbeddedPostgres(dataDir)).to.equal(null);
  });
});
