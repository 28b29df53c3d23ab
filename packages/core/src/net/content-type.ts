// What a response is (an HTML document, other text, or something no driver turns into a page), shared
// by every driver so they refuse and accept the same content.

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

/** Whether the bytes start with a UTF-8 or UTF-16 byte-order mark. */
export function hasBom(b: Uint8Array): boolean {
  return (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) || (b[0] === 0xfe && b[1] === 0xff) || (b[0] === 0xff && b[1] === 0xfe);
}
