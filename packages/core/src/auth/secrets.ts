import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Unbiased random base62 string (each character carries log2(62) ≈ 5.95 bits). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(62)];
  return out;
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Compares a presented secret with a stored SHA-256 in constant time. */
export function matchesHash(presented: string, stored: Buffer): boolean {
  const digest = sha256(presented);
  return stored.length === digest.length && timingSafeEqual(digest, stored);
}

/** A Standard Webhooks signing secret: "whsec_" + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * A credential "<kind>_<id>_<secret>": the id part is a readable, non-secret lookup prefix
 * (8 base62 chars), the secret part 32 base62 chars (≈190 random bits).
 */
export function newCredential(kind: 'glk' | 'glt'): { value: string; prefix: string } {
  const prefix = `${kind}_${randomBase62(8)}`;
  return { value: `${prefix}_${randomBase62(32)}`, prefix };
}

/** The lookup prefix of a presented credential, or null when it is not of the expected shape. */
export function credentialPrefix(value: string, kind: 'glk' | 'glt'): string | null {
  const m = new RegExp(`^(${kind}_[0-9A-Za-z]{8})_[0-9A-Za-z]{32}$`).exec(value);
  return m ? m[1] : null;
}
