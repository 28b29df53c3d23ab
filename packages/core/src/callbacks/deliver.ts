/**
 * One callback attempt: a signed JSON POST through the SSRF guard, no redirects followed, bounded
 * in time, reading only a few hundred bytes of an error answer for the message.
 */
import http from 'node:http';
import https from 'node:https';
import { GleanerError } from '../errors.ts';
import type { SsrfGuard } from '../net/ssrf.ts';
import { signWebhook } from './sign.ts';

export const CALLBACK_USER_AGENT = 'Gleaner-Webhooks/0.1';
/** How much of a non-2xx answer is kept for the error message. */
const ERROR_BODY_BYTES = 512;

export interface DeliverInput {
  url: string;
  /** The `webhook-id`, the same on every attempt. */
  id: string;
  /** The exact JSON text to send and sign. */
  body: string;
  /** The owner's `whsec_...` signing secret. */
  secret: string;
  timeoutMs: number;
  guard: SsrfGuard;
  /** Aborts the attempt (worker shutdown, job expiry). */
  signal?: AbortSignal;
}

export interface DeliveryAttempt {
  ok: boolean;
  /** HTTP status of the answer, or null when none came (blocked, refused, timed out). */
  status: number | null;
  /** Why the attempt failed (absent when ok). */
  error?: GleanerError;
  /** The `webhook-timestamp` sent (seconds). */
  timestamp: number;
  ms: number;
}

/** Makes one delivery attempt. Never throws: the outcome says whether and why it failed. */
export async function deliverCallback(input: DeliverInput): Promise<DeliveryAttempt> {
  const started = Date.now();
  const timestamp = Math.floor(started / 1000);
  const done = (status: number | null, error?: GleanerError): DeliveryAttempt => ({
    ok: !error,
    status,
    timestamp,
    ms: Date.now() - started,
    ...(error ? { error } : {}),
  });
  let url: URL;
  try {
    url = input.guard.checkUrl(input.url);
  } catch (err) {
    return done(null, asError(err, input.url));
  }
  const payload = Buffer.from(input.body, 'utf8');
  const headers = {
    'content-type': 'application/json',
    'content-length': String(payload.length),
    'user-agent': CALLBACK_USER_AGENT,
    'webhook-id': input.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(input.secret, input.id, timestamp, payload),
  };
  try {
    const { status, text } = await post(url, headers, payload, input);
    if (status >= 200 && status < 300) return done(status);
    const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
    const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    const message = `callback to ${url.host} answered ${status}${redirect}${excerpt ? `: ${excerpt}` : ''}`;
    return done(status, new GleanerError('FETCH_FAILED', message, { details: { status } }));
  } catch (err) {
    return done(null, asError(err, url.host));
  }
}

function post(url: URL, headers: Record<string, string>, payload: Buffer, input: DeliverInput): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = url.protocol === 'https:' ? https.request : http.request;
    let settled = false;
    const finish = (err: unknown, value?: { status: number; text: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onAbort);
      req.destroy();
      if (err) reject(err);
      else resolve(value!);
    };
    const req = request(url, {
      method: 'POST',
      headers,
      // A fresh connection per attempt, resolved and checked by the guard (DNS rebinding safe).
      agent: false,
      lookup: input.guard.lookup,
    });
    const timer = setTimeout(() => {
      finish(new GleanerError('FETCH_TIMEOUT', `callback to ${url.host} got no answer within ${input.timeoutMs} ms`));
    }, input.timeoutMs);
    const onAbort = () => finish(new GleanerError('JOB_ABORTED', `callback to ${url.host} was interrupted`, { cause: input.signal?.reason }));
    if (input.signal?.aborted) return onAbort();
    input.signal?.addEventListener('abort', onAbort, { once: true });

    req.on('error', (err) => finish(err));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      // A 2xx needs no body; an error answer's first bytes go into the message.
      if (status >= 200 && status < 300) return finish(null, { status, text: '' });
      const chunks: Buffer[] = [];
      let size = 0;
      const keep = () => finish(null, { status, text: Buffer.concat(chunks).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= ERROR_BODY_BYTES) keep();
      });
      res.on('end', keep);
      res.on('error', keep);
      res.on('aborted', keep);
    });
    req.end(payload);
  });
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function asError(err: unknown, host: string): GleanerError {
  if (err instanceof GleanerError) return err;
  const e = err as NodeJS.ErrnoException;
  const code = e?.code ?? '';
  const why = NETWORK_WORDS[code] ?? e?.message ?? String(err);
  const timedOut = code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
  return new GleanerError(
    timedOut ? 'FETCH_TIMEOUT' : 'FETCH_FAILED',
    `callback to ${host} failed: ${why}${code && !NETWORK_WORDS[code] ? ` (${code})` : ''}`,
    { cause: err },
  );
}
