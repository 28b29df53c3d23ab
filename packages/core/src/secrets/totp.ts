/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC of the 30-second time step
 * under the shared seed, dynamically truncated to 6 digits (the common authenticator setting).
 * Seeds are given in base32 (RFC 4648), as sign-up pages show them; spaces and padding are ignored.
 */
import { createHmac } from 'node:crypto';
import { GleanerError } from '../errors.ts';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Decodes base32 (case-insensitive; spaces, dashes and `=` padding ignored). */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  if (!clean || /[^A-Z2-7]/.test(clean)) throw new GleanerError('BAD_REQUEST', 'a TOTP seed must be base32 (letters A-Z and digits 2-7)');
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const ch of clean) {
    acc = (acc << 5) | BASE32.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >>> bits) & 0xff);
    }
  }
  return Buffer.from(out);
}

export interface TotpOptions {
  /** Unix time in milliseconds (default: now). */
  time?: number;
  /** Seconds per step (default 30). */
  period?: number;
  /** Digits of the code (default 6). */
  digits?: number;
  algorithm?: 'sha1' | 'sha256' | 'sha512';
}

/** The HOTP value (RFC 4226) of `counter` under `key`. */
export function hotp(key: Buffer, counter: number, digits = 6, algorithm: TotpOptions['algorithm'] = 'sha1'): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(msg).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const bin = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(bin % 10 ** digits).padStart(digits, '0');
}

/** The TOTP code (RFC 6238) of a raw key at `time`. */
export function totpFromKey(key: Buffer, opts: TotpOptions = {}): string {
  const counter = Math.floor((opts.time ?? Date.now()) / 1000 / (opts.period ?? 30));
  return hotp(key, counter, opts.digits ?? 6, opts.algorithm ?? 'sha1');
}

/** The TOTP code of a base32 seed at `time` (now by default): 6 digits, 30-second steps, SHA-1. */
export function totp(seed: string, opts: TotpOptions = {}): string {
  return totpFromKey(base32Decode(seed), opts);
}
