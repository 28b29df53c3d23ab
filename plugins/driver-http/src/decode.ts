// How a response's bytes become text (what a response is: core's content-type helpers).
import type { ContentKind } from '@gleaner/core/plugin';

/** The WHATWG encoding name for a label, or undefined when TextDecoder does not know it. */
export function encodingForLabel(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const l = label.trim().toLowerCase();
  if (l === 'x-user-defined') return 'windows-1252';
  try {
    return new TextDecoder(l).encoding;
  } catch {
    return undefined;
  }
}

const PRESCAN_BYTES = 4096;

/** `<meta charset>`, `<meta http-equiv="Content-Type" content="...; charset=...">` or an XML declaration. */
export function prescanCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PRESCAN_BYTES))
    .toString('latin1')
    .replace(/<!--[\s\S]*?-->/g, '');
  const xml = /^\s*<\?xml[^>]*\sencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head);
  const meta = /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  const label = meta?.[1] ?? xml?.[1];
  const enc = encodingForLabel(label);
  // A document cannot declare itself UTF-16 from inside (WHATWG "prescan": it means UTF-8).
  return enc?.startsWith('utf-16') ? 'utf-8' : enc;
}

/**
 * The encoding of a body: a byte-order mark first (as browsers do, it overrides the header), then
 * the Content-Type charset, then a `<meta>`/XML declaration in the first bytes, then UTF-8.
 */
export function detectEncoding(bytes: Uint8Array, headerCharset: string | undefined, kind: ContentKind): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  const fromHeader = encodingForLabel(headerCharset);
  if (fromHeader) return fromHeader;
  if (kind !== 'unsupported') {
    const declared = prescanCharset(bytes);
    if (declared) return declared;
  }
  return 'utf-8';
}

/** Decodes with the encoding (a BOM of that encoding is dropped; bad bytes become U+FFFD). */
export function decodeBody(bytes: Uint8Array, encoding: string): string {
  return new TextDecoder(encoding).decode(bytes);
}
