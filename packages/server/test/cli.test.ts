import { expect } from 'chai';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticateApiKey, createDatabase, silentLogger } from '@gleaner/core/internal';
import { TEST_DATABASE_URL, dropSchemas } from '../../../test/support/db.ts';
import { freePort, runCli, startCli, waitForExit, waitForHttp } from '../../../test/support/process.ts';
import { findRunningEmbeddedPostgres } from '../src/embedded-postgres.ts';

describe('cli: gleaner commands against DATABASE_URL', () => {
  const schema = `t_cli_${Math.random().toString(36).slice(2, 8)}`;
  const env = { DATABASE_URL: TEST_DATABASE_URL, GLEANER_DB_SCHEMA: schema, GLEANER_JOBS_SCHEMA: `${schema}_jobs` };
  after(() => dropSchemas(TEST_DATABASE_URL, schema, `${schema}_jobs`));

  it('migrate, then keys create prints only a key that authenticates, and keys revoke revokes it', async () => {
    const migrated = await runCli(['migrate'], env);
    expect(migrated.code, migrated.stderr).to.equal(0);
    const created = await runCli(['keys', 'create', '--owner', 'alice'], env);
    expect(created.code, created.stderr).to.equal(0);
    expect(created.stdout).to.match(/^glk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}\n$/);
    const key = created.stdout.trim();
    const db = createDatabase({ url: TEST_DATABASE_URL, schema, logger: silentLogger() });
    try {
      expect((await authenticateApiKey(db, key))?.name).to.equal('alice');
      const revoked = await runCli(['keys', 'revoke', key.split('_').slice(0, 2).join('_')], env);
      expect(revoked.code, revoked.stderr).to.equal(0);
      expect(await authenticateApiKey(db, key)).to.equal(null);
    } finally {
      await db.close();
    }
    const again = await runCli(['keys', 'revoke', key.split('_').slice(0, 2).join('_')], env);
    expect(again.code).to.equal(2);
    expect(again.stderr).to.contain('no active API key');
  });

  it('tokens create and webhooks secret print one line each', async () => {
    const token = await runCli(['tokens', 'create', '--owner', 'alice', '--ttl', '60'], env);
    expect(token.code, token.stderr).to.equal(0);
    expect(token.stdout).to.match(/^glt_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}\n$/);
    const secret = await runCli(['webhooks', 'secret', '--owner', 'alice'], env);
    expect(secret.stdout).to.match(/^whsec_[A-Za-z0-9+/]+=*\n$/);
    const same = await runCli(['webhooks', 'secret', '--owner', 'alice'], env);
    expect(same.stdout).to.equal(secret.stdout);
  });

  it('explains bad usage and bad configuration on stderr with a non-zero exit', async () => {
    const noOwner = await runCli(['keys', 'create'], env);
    expect(noOwner.code).to.not.equal(0);
    expect(noOwner.stderr).to.contain("required option '--owner <name>'");
    const badEnv = await runCli(['keys', 'create', '--owner', 'x'], { ...env, GLEANER_PORT: 'eighty' });
    expect(badEnv.code).to.equal(1);
    expect(badEnv.stderr).to.contain('GLEANER_PORT="eighty"');
    expect(badEnv.stdout).to.equal('');
  });

  it('serve answers /readyz and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const child = startCli(['serve', '--port', String(port), '--agents-port', String(await freePort()), '--host', '127.0.0.1'], env);
    try {
      const res = await waitForHttp(`http://127.0.0.1:${port}/readyz`, 30_000, child);
      expect(await res.json()).to.deep.equal({ status: 'ok' });
      child.kill('SIGTERM');
      expect(await waitForExit(child, 20_000)).to.equal(0);
      expect(child.output()).to.contain('shutting down');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

describe('cli: the embedded Postgres default (no DATABASE_URL)', function () {
  this.timeout(120_000);
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'gleaner-e2e-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serve starts it, keys create shares it, SIGTERM stops it', async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    const env = { DATABASE_URL: undefined, GLEANER_DATA_DIR: dataDir, GLEANER_EMBEDDED_PG_PORT: String(pgPort) };
    const child = startCli(['serve', '--port', String(port), '--agents-port', String(await freePort()), '--host', '127.0.0.1'], env);
    try {
      await waitForHttp(`http://127.0.0.1:${port}/readyz`, 90_000, child);
      expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).to.equal(true);
      const running = await findRunningEmbeddedPostgres(dataDir);
      expect(running?.port).to.equal(pgPort);

      const created = await runCli(['keys', 'create', '--owner', 'alice'], env);
      expect(created.code, created.stderr).to.equal(0);
      const key = created.stdout.trim();
      // The CLI used the server's instance and left it running.
      expect((await findRunningEmbeddedPostgres(dataDir))?.pid).to.equal(running!.pid);
      const db = createDatabase({ url: running!.url, schema: 'gleaner', logger: silentLogger() });
      try {
        expect((await authenticateApiKey(db, key))?.name).to.equal('alice');
      } finally {
        await db.close();
      }
      child.kill('SIGTERM');
      expect(await waitForExit(child, 40_000)).to.equal(0);
      expect(await findRunningEmbeddedPostgres(dataDir)).to.equal(null);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
