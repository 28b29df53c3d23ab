import { randomUUID } from 'node:crypto';
import type { Queryable } from '../store/db.ts';
import { ensureOwner, type Owner } from './owners.ts';
import { credentialPrefix, matchesHash, newCredential, sha256 } from './secrets.ts';

export interface CreatedApiKey {
  /** The full key: shown once, never stored. */
  key: string;
  prefix: string;
  owner: Owner;
}

/** Creates an API key for the owner (created when missing). Only its SHA-256 is stored. */
export async function createApiKey(db: Queryable, ownerName: string): Promise<CreatedApiKey> {
  const owner = await ensureOwner(db, ownerName);
  const { value, prefix } = newCredential('glk');
  await db.query('INSERT INTO api_keys (id, owner_id, prefix, key_hash) VALUES ($1, $2, $3, $4)', [randomUUID(), owner.id, prefix, sha256(value)]);
  return { key: value, prefix, owner };
}

/** Revokes the key whose prefix (e.g. "glk_AbCd1234", or the whole key) is given. */
export async function revokeApiKey(db: Queryable, prefixOrKey: string): Promise<boolean> {
  const prefix = credentialPrefix(prefixOrKey, 'glk') ?? prefixOrKey;
  const { rowCount } = await db.query('UPDATE api_keys SET revoked_at = now() WHERE prefix = $1 AND revoked_at IS NULL', [prefix]);
  return (rowCount ?? 0) > 0;
}

/** The owner of a valid, unrevoked key, or null. The secret is compared in constant time. */
export async function authenticateApiKey(db: Queryable, key: string): Promise<Owner | null> {
  const prefix = credentialPrefix(key, 'glk');
  if (!prefix) return null;
  const { rows } = await db.query<{ id: string; key_hash: Buffer; revoked_at: Date | null; owner_id: string; owner_name: string; last_used_at: Date | null }>(
    `SELECT k.id, k.key_hash, k.revoked_at, k.last_used_at, o.id AS owner_id, o.name AS owner_name
       FROM api_keys k JOIN owners o ON o.id = k.owner_id WHERE k.prefix = $1`,
    [prefix],
  );
  const row = rows[0];
  if (!row || !matchesHash(key, row.key_hash) || row.revoked_at) return null;
  // Record use at most once a minute per key, so authentication stays a read on the hot path.
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
    await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [row.id]);
  }
  return { id: row.owner_id, name: row.owner_name };
}
