// What a response is (HTML, other text, or something we refuse) and how its bytes become text.

export type ContentKind = 'html' | 'text' | 'unsupported';

export interface MediaType {
  /** Lower-case `type/subtype`, '' when absent. */
  type: string;
  charset?: string;
}

/** Splits a Content-Type header into its media type and charset parameter. */
export function parseContentType(header: string | undefined): MediaType {
  if (!header) return { type: '' };
  const [type, ...params] = header.split(';');
  const out: MediaType = { type: type.trim().toLowerCase() };
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m) out.charset = m[1];
  }
  return out;
}

/**
 * HTML and XHTML are documents; other text (text/*, JSON, XML, JavaScript) passes through as text;
 * the rest (images, PDF, octet-stream, audio, video, archives, fonts) is refused.
 */
export function classifyMediaType(type: string): ContentKind {
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/')) return 'text';
  if (/^application\/(json|xml|javascript|x-javascript|ecmascript|x-www-form-urlencoded)$/.test(type)) return 'text';
  if (/^application\/[\w.+-]+\+(json|xml)$/.test(type)) return 'text';
  return 'unsupported';
}

const MAGIC: Array<[string, number[]]> = [
  ['application/pdf', [0x25, 0x50, 0x44, 0x46]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['application/zip', [0x50, 0x4b, 0x03, 0x04]],
  ['application/gzip', [0x1f, 0x8b]],
];

/** For a response without Content-Type: a binary signature or NUL bytes mean "not a page". */
export function sniffBinary(bytes: Uint8Array): string | undefined {
  for (const [type, sig] of MAGIC) if (sig.every((b, i) => bytes[i] === b)) return type;
  const head = bytes.subarray(0, 1024);
  // UTF-16 text has NULs too, but it starts with a BOM, which is checked first.
  if (!hasBom(bytes) && head.includes(0)) return 'application/octet-stream';
  return undefined;
}

function hasBom(b: Uint8Array): boolean {
  return (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) || (b[0] === 0xfe && b[1] === 0xff) || (b[0] === 0xff && b[1] === 0xfe);
}

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
