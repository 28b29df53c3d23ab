/**
 * Encryption at rest for browser profiles and secret parameters: AES-256-GCM under the key of
 * auth.secretsKey (GLEANER_SECRETS_KEY: 32 bytes as 64 hex digits or base64). A sealed value is the
 * text `v1.<iv>.<tag>.<ciphertext>` (base64url parts; a fresh 12-byte IV each time), so it can sit
 * in a text or JSON column. Without a key, using a profile or a secret is refused with a message
 * naming the setting; a value sealed under another key cannot be opened (there is no key rotation:
 * changing the key means importing the profiles and secrets again).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { GleanerError } from '../errors.ts';
import type { GleanerConfig } from '../config/types.ts';

const PREFIX = 'v1';

/** The 32-byte key of the configuration, or a SECRETS_KEY_MISSING error naming the setting. */
export function secretsKey(config: Pick<GleanerConfig, 'auth'>, use = 'profiles and secret parameters'): Buffer {
  const raw = config.auth.secretsKey.trim();
  if (!raw) {
    throw new GleanerError(
      'SECRETS_KEY_MISSING',
      `${use} are stored encrypted, and the server has no key: set auth.secretsKey (GLEANER_SECRETS_KEY) to 32 random bytes (e.g. \`openssl rand -base64 32\`) and restart`,
    );
  }
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32)
    throw new GleanerError(
      'SECRETS_KEY_MISSING',
      'auth.secretsKey (GLEANER_SECRETS_KEY) must be 32 bytes, as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)',
    );
  return key;
}

/** Whether the configuration has a secrets key (without checking its shape). */
export function hasSecretsKey(config: Pick<GleanerConfig, 'auth'>): boolean {
  return config.auth.secretsKey.trim() !== '';
}

/** Encrypts a JSON value. */
export function seal(config: Pick<GleanerConfig, 'auth'>, value: unknown, use?: string): string {
  const key = secretsKey(config, use);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [PREFIX, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** Decrypts a value made by seal(); a wrong key or a damaged value is SECRETS_KEY_MISSING. */
export function unseal<T = unknown>(config: Pick<GleanerConfig, 'auth'>, sealed: string, use?: string): T {
  const key = secretsKey(config, use);
  const [prefix, iv, tag, body] = sealed.split('.');
  try {
    if (prefix !== PREFIX || !iv || !tag || body === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    return JSON.parse(text) as T;
  } catch {
    throw new GleanerError(
      'SECRETS_KEY_MISSING',
      'a stored profile or secret cannot be decrypted with auth.secretsKey (GLEANER_SECRETS_KEY): the key changed since it was stored; store it again',
    );
  }
}

/** True for a value seal() made. */
export function isSealed(v: unknown): v is string {
  return typeof v === 'string' && /^v1\.[\w-]+\.[\w-]+\.[\w-]*$/.test(v);
}
