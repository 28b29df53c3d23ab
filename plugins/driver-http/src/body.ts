// Reads a response body: decompressed as it streams in, stopped as soon as it passes maxBytes.
import { Transform, Writable } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { GleanerError } from '@gleaner/core/plugin';

// Tolerate a truncated compressed stream as browsers and curl do: keep what was decoded.
const ZLIB_OPTS = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_OPTS = { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

/** Content-Encoding `deflate` is zlib-wrapped by the RFC, but some servers send raw deflate. */
function autoInflate(): Transform {
  let inner: zlib.Inflate | zlib.InflateRaw | undefined;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (!inner) {
        const zlibHeader = (chunk[0] & 0x0f) === 8 && (chunk.length < 2 || ((chunk[0] << 8) | chunk[1]) % 31 === 0);
        inner = zlibHeader ? zlib.createInflate(ZLIB_OPTS) : zlib.createInflateRaw(ZLIB_OPTS);
        inner.on('data', (d: Buffer) => t.push(d));
        inner.on('error', (e) => t.destroy(e));
      }
      inner.write(chunk, () => cb());
    },
    flush(cb) {
      if (!inner) return cb();
      inner.once('end', () => cb());
      inner.end();
    },
    destroy(err, cb) {
      inner?.destroy();
      cb(err);
    },
  });
  return t;
}

function decoderFor(coding: string): Transform | null {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(ZLIB_OPTS);
    case 'deflate':
      return autoInflate();
    case 'br':
      return zlib.createBrotliDecompress(BROTLI_OPTS);
    case 'identity':
    case '':
      return null;
    default:
      throw new GleanerError('UNSUPPORTED_CONTENT', `the page uses content-encoding "${coding}", which Gleaner cannot decode`);
  }
}

/** The decoders for a Content-Encoding header, in the order to apply them (last coding first). */
export function decodersFor(contentEncoding: string | undefined): Transform[] {
  const codings = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase());
  return codings
    .reverse()
    .map(decoderFor)
    .filter((d): d is Transform => d !== null);
}

export function tooLarge(maxBytes: number, url: string): GleanerError {
  return new GleanerError('FETCH_TOO_LARGE', `the page is larger than fetch.maxBytes (${maxBytes} bytes): ${url}`, { details: { maxBytes } });
}

export interface ReadBodyOptions {
  contentEncoding?: string;
  maxBytes: number;
  signal: AbortSignal;
  url: string;
}

/**
 * Reads the whole body, counting decompressed bytes; past `maxBytes` the transfer is cut
 * (FETCH_TOO_LARGE). Compressed bytes are capped too, so a stalled decoder cannot buffer forever.
 */
export async function readBody(body: Readable, opts: ReadBodyOptions): Promise<Buffer> {
  const decoders = decodersFor(opts.contentEncoding);
  const chunks: Buffer[] = [];
  let raw = 0;
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      raw += chunk.length;
      if (raw > opts.maxBytes) cb(tooLarge(opts.maxBytes, opts.url));
      else cb(null, chunk);
    },
  });
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > opts.maxBytes) return cb(tooLarge(opts.maxBytes, opts.url));
      chunks.push(chunk);
      cb();
    },
  });
  await pipeline([body, counter, ...decoders, sink], { signal: opts.signal });
  return Buffer.concat(chunks, size);
}
