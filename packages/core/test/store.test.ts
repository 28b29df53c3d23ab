import { expect } from 'chai';
import pg from 'pg';
import { migrate, loadMigrations, silentLogger, createDatabase, GleanerError } from '@gleaner/core/internal';
import { TEST_DATABASE_URL, dropSchemas } from '../../../test/support/db.ts';

describe('store: migrations', () => {
  const schema = `t_mig_${Math.random().toString(36).slice(2, 8)}`;
  const logger = silentLogger();
  after(() => dropSchemas(TEST_DATABASE_URL, schema));

  it('applies every migration once, and nothing when run again', async () => {
    const first = await migrate({ url: TEST_DATABASE_URL, schema, logger });
    expect(first).to.deep.equal(loadMigrations().map((m) => `${m.id}_${m.name}`));
    const second = await migrate({ url: TEST_DATABASE_URL, schema, logger });
    expect(second).to.deep.equal([]);
  });

  it('is safe when several processes migrate a fresh schema at once', async () => {
    const fresh = `${schema}_c`;
    try {
      const results = await Promise.all(Array.from({ length: 5 }, () => migrate({ url: TEST_DATABASE_URL, schema: fresh, logger })));
      const applied = results.flat();
      expect(applied).to.have.length(loadMigrations().length); // each migration applied by exactly one of them
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM "${fresh}".schema_migrations`);
      await client.end();
      expect(rows[0].n).to.equal(loadMigrations().length);
    } finally {
      await dropSchemas(TEST_DATABASE_URL, fresh);
    }
  });

  it('rolls a failing migration back and names it', async () => {
    const broken = `${schema}_b`;
    try {
      const migrations = [
        { id: 1, name: 'ok', sql: 'CREATE TABLE a (x int)' },
        { id: 2, name: 'bad', sql: 'CREATE TABLE b (x int); SELECT * FROM nope' },
      ];
      let error: Error | null = null;
      await migrate({ url: TEST_DATABASE_URL, schema: broken, logger, migrations }).catch((e) => (error = e));
      expect(error!.message).to.match(/migration 2_bad failed: relation "nope" does not exist/);
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      const { rows } = await client.query(`SELECT to_regclass('"${broken}".b') AS b, to_regclass('"${broken}".a') AS a`);
      await client.end();
      expect(rows[0].a).to.not.equal(null);
      expect(rows[0].b).to.equal(null);
    } finally {
      await dropSchemas(TEST_DATABASE_URL, broken);
    }
  });

  it('answers DATABASE_UNAVAILABLE when Postgres cannot be reached', async () => {
    const db = createDatabase({ url: 'postgres://postgres@127.0.0.1:1/none', schema, logger, connectTimeoutMs: 500 });
    try {
      const err = await db.query('SELECT 1').catch((e) => e);
      expect(err).to.be.instanceOf(GleanerError);
      expect(err.code).to.equal('DATABASE_UNAVAILABLE');
      const ping = await db.ping(500).catch((e) => e);
      expect(ping.code).to.equal('DATABASE_UNAVAILABLE');
    } finally {
      await db.close();
    }
  });
});
