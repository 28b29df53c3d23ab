import { expect } from 'chai';
import {
  authenticateAccessToken,
  authenticateApiKey,
  createAccessToken,
  createApiKey,
  createDatabase,
  ensureOwner,
  findOwnerByName,
  getSigningSecret,
  migrate,
  revokeApiKey,
  silentLogger,
  type Database,
} from '@gleaner/core/internal';
import { TEST_DATABASE_URL, dropSchemas } from '../../../test/support/db.ts';
import { rejection } from '@gleaner/testing';

describe('auth: API keys, access tokens, signing secrets', () => {
  const schema = `t_auth_${Math.random().toString(36).slice(2, 8)}`;
  let db: Database;
  before(async () => {
    await migrate({ url: TEST_DATABASE_URL, schema, logger: silentLogger() });
    db = createDatabase({ url: TEST_DATABASE_URL, schema, logger: silentLogger() });
  });
  after(async () => {
    await db.close();
    await dropSchemas(TEST_DATABASE_URL, schema);
  });

  it('creates a key with a readable prefix and >=128 random bits, stored only as its SHA-256', async () => {
    const { key, prefix, owner } = await createApiKey(db, 'alice');
    expect(key).to.match(/^glk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
    expect(key.startsWith(`${prefix}_`)).to.equal(true);
    const { rows } = await db.query('SELECT prefix, key_hash FROM api_keys WHERE prefix = $1', [prefix]);
    expect(rows[0].key_hash).to.have.length(32);
    expect(JSON.stringify(rows)).to.not.contain(key.slice(prefix.length + 1));
    expect((await authenticateApiKey(db, key))?.id).to.equal(owner.id);
  });

  it('draws key secrets from the whole base62 alphabet, never repeating', async () => {
    const secrets = await Promise.all(Array.from({ length: 40 }, async () => (await createApiKey(db, 'entropy')).key.split('_')[2]));
    expect(new Set(secrets).size).to.equal(40);
    // 1,280 characters from a uniform 62-letter alphabet: missing more than a couple would mean a
    // narrower alphabet (hex, lower case), i.e. fewer than the ~190 bits a 32-character secret must carry.
    expect(new Set(secrets.join('')).size).to.be.at.least(60);
  });

  it('refuses unknown, malformed, tampered and revoked keys', async () => {
    const { key, prefix } = await createApiKey(db, 'bob');
    expect(await authenticateApiKey(db, '')).to.equal(null);
    expect(await authenticateApiKey(db, 'not-a-key')).to.equal(null);
    const tampered = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    expect(await authenticateApiKey(db, tampered)).to.equal(null);
    expect(await revokeApiKey(db, prefix)).to.equal(true);
    expect(await authenticateApiKey(db, key)).to.equal(null);
    expect(await revokeApiKey(db, prefix)).to.equal(false);
  });

  it('keeps owners apart: two owners, two keys, two identities', async () => {
    const a = await createApiKey(db, 'carol');
    const b = await createApiKey(db, 'dave');
    const again = await createApiKey(db, 'carol');
    expect((await authenticateApiKey(db, a.key))!.name).to.equal('carol');
    expect((await authenticateApiKey(db, b.key))!.name).to.equal('dave');
    expect(again.owner.id).to.equal(a.owner.id);
  });

  it('issues bearer tokens that stop working when they expire', async () => {
    const { token, expiresAt } = await createAccessToken(db, 'erin', 1);
    expect(token).to.match(/^glt_/);
    expect(expiresAt.getTime()).to.be.greaterThan(Date.now() - 1000);
    expect((await authenticateAccessToken(db, token))!.name).to.equal('erin');
    // An API key is not a token and vice versa.
    expect(await authenticateApiKey(db, token)).to.equal(null);
    await new Promise((r) => setTimeout(r, 1200));
    expect(await authenticateAccessToken(db, token)).to.equal(null);
  });

  it('gives each owner a stable Standard Webhooks signing secret; looking one up creates no owner', async () => {
    expect((await rejection(getSigningSecret(db, 'frank'))).code).to.equal('NOT_FOUND');
    expect(await findOwnerByName(db, 'frank')).to.equal(null);
    await ensureOwner(db, 'frank');
    await ensureOwner(db, 'grace');
    const s1 = await getSigningSecret(db, 'frank');
    const s2 = await getSigningSecret(db, 'frank');
    const other = await getSigningSecret(db, 'grace');
    expect(s1).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(s1.slice(6), 'base64')).to.have.length(32);
    expect(s2).to.equal(s1);
    expect(other).to.not.equal(s1);
  });
});
