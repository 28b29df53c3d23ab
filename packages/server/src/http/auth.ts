import type { Request } from 'express';
import { GleanerError, type Engine, type Owner } from '@gleaner/core';
import type { AuthKind } from './route.ts';

const KEY_MESSAGE = 'Missing or invalid API key: send a valid key in the X-API-KEY header (create one with `gleaner keys create --owner NAME`).';
const TOKEN_MESSAGE = 'Missing, invalid or expired access token: send "Authorization: Bearer <token>" (create one with `gleaner tokens create --owner NAME`).';

/** Resolves the caller; the same 401 for a missing, unknown, revoked or expired credential. */
export async function authenticate(engine: Engine, req: Request, kind: Exclude<AuthKind, 'none'>): Promise<Owner> {
  if (kind === 'apiKey') {
    const key = req.get('X-API-KEY')?.trim();
    const owner = key ? await engine.authenticateApiKey(key) : null;
    if (!owner) throw new GleanerError('UNAUTHORIZED', KEY_MESSAGE);
    return owner;
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.get('Authorization') ?? '');
  const owner = m ? await engine.authenticateAccessToken(m[1]) : null;
  if (!owner) throw new GleanerError('UNAUTHORIZED', TOKEN_MESSAGE, { details: { scheme: 'bearer' } });
  return owner;
}
