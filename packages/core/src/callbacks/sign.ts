/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com/): HMAC-SHA256 over
 * `${id}.${timestamp}.${body}` with the base64-decoded part of the owner's `whsec_...` secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

function secretKey(secret: string): Buffer {
  const raw = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(raw, 'base64');
  if (!key.length) throw new Error('webhook signing secret is empty (expected "whsec_<base64>")');
  return key;
}

function hmac(secret: string, id: string, timestamp: number | string, body: string | Uint8Array): Buffer {
  const mac = createHmac('sha256', secretKey(secret));
  mac.update(`${id}.${timestamp}.`);
  mac.update(body);
  return mac.digest();
}

/**
 * The `webhook-signature` value for one attempt: `v1,<base64 HMAC-SHA256>`.
 * @param secret the owner's signing secret, `whsec_<base64>` (the bare base64 is accepted too)
 * @param timestamp seconds since the epoch, as sent in `webhook-timestamp`
 * @param body the exact request body
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string | Uint8Array): string {
  return `v1,${hmac(secret, id, timestamp, body).toString('base64')}`;
}

/** Request headers as Node (`req.headers`) or fetch (`Headers`) present them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const rec = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : rec[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

/**
 * Checks a received callback: `webhook-id`, `webhook-timestamp` within `toleranceSeconds` of now,
 * and at least one `v1,` entry of the (space-separated) `webhook-signature` list matching.
 * Compares in constant time. Returns false on any missing header or mismatch.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  toleranceSeconds = 300,
  nowSeconds = Date.now() / 1000,
): boolean {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !ts || !signatures || !/^\d+$/.test(ts)) return false;
  if (Math.abs(nowSeconds - Number(ts)) > toleranceSeconds) return false;
  const expected = hmac(secret, id, ts, body);
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  return false;
}
