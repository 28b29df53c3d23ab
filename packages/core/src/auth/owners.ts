import { randomUUID } from 'node:crypto';
import { GleanerError } from '../errors.ts';
import type { Queryable } from '../store/db.ts';
import { newSigningSecret } from './secrets.ts';

export interface Owner {
  id: string;
  name: string;
}

const OWNER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$/;

export function assertOwnerName(name: string): void {
  if (!OWNER_NAME.test(name)) {
    throw new GleanerError('BAD_REQUEST', `invalid owner name "${name}": use 1-100 letters, digits, '.', '_', '@' or '-', starting with a letter or digit`);
  }
}

/** Inserts the owner (with a new signing secret) unless it exists; returns the row either way. */
async function upsertOwner(db: Queryable, name: string): Promise<Owner & { signing_secret: string }> {
  assertOwnerName(name);
  const { rows } = await db.query<Owner & { signing_secret: string }>(
    `INSERT INTO owners (id, name, signing_secret) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
     RETURNING id, name, signing_secret`,
    [randomUUID(), name, newSigningSecret()],
  );
  return rows[0];
}

/** Finds the owner by name, creating it (with its callback signing secret) when missing. */
export async function ensureOwner(db: Queryable, name: string): Promise<Owner> {
  const { id, name: ownerName } = await upsertOwner(db, name);
  return { id, name: ownerName };
}

export async function findOwnerByName(db: Queryable, name: string): Promise<Owner | null> {
  const { rows } = await db.query<Owner>('SELECT id, name FROM owners WHERE name = $1', [name]);
  return rows[0] ?? null;
}

/**
 * The owner's Standard Webhooks signing secret ("whsec_..."). A look-up: an unknown name answers
 * NOT_FOUND rather than creating an owner for a typo (owners come with their first key or token).
 */
export async function getSigningSecret(db: Queryable, ownerName: string): Promise<string> {
  const { rows } = await db.query<{ signing_secret: string }>('SELECT signing_secret FROM owners WHERE name = $1', [ownerName]);
  if (!rows[0])
    throw new GleanerError(
      'NOT_FOUND',
      `no owner named "${ownerName}": owners are created with their first API key or token (gleaner keys create --owner ${ownerName})`,
    );
  return rows[0].signing_secret;
}

export async function getSigningSecretById(db: Queryable, ownerId: string): Promise<string> {
  const { rows } = await db.query<{ signing_secret: string }>('SELECT signing_secret FROM owners WHERE id = $1', [ownerId]);
  if (!rows[0]) throw new GleanerError('NOT_FOUND', `owner ${ownerId} not found`);
  return rows[0].signing_secret;
}
