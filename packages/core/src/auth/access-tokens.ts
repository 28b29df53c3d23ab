import { randomUUID } from 'node:crypto';
import type { Queryable } from '../store/db.ts';
import { ensureOwner, type Owner } from './owners.ts';
import { credentialPrefix, matchesHash, newCredential, sha256 } from './secrets.ts';

export interface CreatedAccessToken {
  token: string;
  prefix: string;
  owner: Owner;
  expiresAt: Date;
}

/** Creates a bearer access token valid for ttlSeconds (for endpoints that take a bearer token). */
export async function createAccessToken(db: Queryable, ownerName: string, ttlSeconds: number): Promise<CreatedAccessToken> {
  const owner = await ensureOwner(db, ownerName);
  const { value, prefix } = newCredential('glt');
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO access_tokens (id, owner_id, prefix, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5)) RETURNING expires_at`,
    [randomUUID(), owner.id, prefix, sha256(value), ttlSeconds],
  );
  return { token: value, prefix, owner, expiresAt: rows[0].expires_at };
}

/** The owner of a valid, unexpired, unrevoked token, or null. */
export async function authenticateAccessToken(db: Queryable, token: string): Promise<Owner | null> {
  const prefix = credentialPrefix(token, 'glt');
  if (!prefix) return null;
  const { rows } = await db.query<{ token_hash: Buffer; live: boolean; owner_id: string; owner_name: string }>(
    `SELECT t.token_hash, (t.revoked_at IS NULL AND t.expires_at > now()) AS live, o.id AS owner_id, o.name AS owner_name
       FROM access_tokens t JOIN owners o ON o.id = t.owner_id WHERE t.prefix = $1`,
    [prefix],
  );
  const row = rows[0];
  if (!row || !matchesHash(token, row.token_hash) || !row.live) return null;
  return { id: row.owner_id, name: row.owner_name };
}

export async function revokeAccessToken(db: Queryable, prefixOrToken: string): Promise<boolean> {
  const prefix = credentialPrefix(prefixOrToken, 'glt') ?? prefixOrToken;
  const { rowCount } = await db.query('UPDATE access_tokens SET revoked_at = now() WHERE prefix = $1 AND revoked_at IS NULL', [prefix]);
  return (rowCount ?? 0) > 0;
}
