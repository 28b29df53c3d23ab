// The bytes of form values: browsers encode a form in the page's character encoding (or the form's
// accept-charset), writing characters it cannot hold as `&#N;`. UTF-8 and windows-1252 (what the
// latin-1 and ASCII labels mean on the web) are done here; any other page encoding falls back to UTF-8.
import { encodingForLabel } from './decode.ts';

/** windows-1252's bytes 0x80–0x9F (the rest of 0x00–0xFF is latin-1 itself). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const CP1252 = new Map<number, number>([...CP1252_HIGH].map((ch, i) => [ch.codePointAt(0) as number, 0x80 + i]));

export type FormEncoder = (text: string) => Buffer;

const utf8: FormEncoder = (text) => Buffer.from(text, 'utf8');

function windows1252(text: string): Buffer {
  const bytes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    const mapped = CP1252.get(cp);
    if (mapped !== undefined) bytes.push(mapped);
    else if (cp < 0x80 || (cp >= 0xa0 && cp <= 0xff)) bytes.push(cp);
    else for (const c of `&#${cp};`) bytes.push(c.charCodeAt(0));
  }
  return Buffer.from(bytes);
}

/** The encoder for a form: its first accept-charset we can encode, else the document's charset. */
export function formEncoder(acceptCharset: string | null, documentCharset: string | undefined): FormEncoder {
  const labels = (acceptCharset ?? '').split(/[\s,]+/).filter(Boolean);
  const wanted = labels.map(encodingForLabel).find((e) => e === 'utf-8' || e === 'windows-1252') ?? encodingForLabel(documentCharset);
  return wanted === 'windows-1252' ? windows1252 : utf8;
}

/** application/x-www-form-urlencoded bytes as ASCII text: `*-._` and alphanumerics kept, space as `+`. */
export function percentEncode(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) {
    if ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2a || b === 0x2d || b === 0x2e || b === 0x5f)
      out += String.fromCharCode(b);
    else if (b === 0x20) out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
