// Token counting with a real tokenizer: OpenAI's o200k_base via gpt-tokenizer (pure JS). The encoding
// (a few MB of ranks) is loaded on first use, once. Special-token strings such as "<|endoftext|>"
// in page text are counted as ordinary text, never rejected.
import { createRequire } from 'node:module';

type Encoding = {
  countTokens(text: string, opts?: object): number;
  encode(text: string, opts?: object): number[];
  decode(tokens: Iterable<number>): string;
};

const load = createRequire(import.meta.url);
const PLAIN = { disallowedSpecial: new Set<string>() };
/** Pieces longer than this are counted in slices: BPE on one huge unbroken run is superlinear. */
const MAX_RUN = 2000;
let enc: Encoding | null = null;

function encoding(): Encoding {
  enc ??= load('gpt-tokenizer/encoding/o200k_base') as Encoding;
  return enc;
}

/** o200k_base token count of `text`. Linear in its length (long unbroken runs are counted in slices). */
export function countTokens(text: string): number {
  if (!text) return 0;
  const e = encoding();
  if (text.length < MAX_RUN) return e.countTokens(text, PLAIN);
  let total = 0;
  let pos = 0; // start of the text not counted yet
  let run = 0; // start of the current run of non-space characters
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    if (i < n && text.charCodeAt(i) > 32) continue;
    if (i - run >= MAX_RUN) {
      if (run > pos) total += e.countTokens(text.slice(pos, run), PLAIN);
      for (let j = run; j < i; j += MAX_RUN) total += e.countTokens(text.slice(j, Math.min(i, j + MAX_RUN)), PLAIN);
      pos = i;
    }
    run = i + 1;
  }
  if (pos === 0) return e.countTokens(text, PLAIN);
  if (pos < n) total += e.countTokens(text.slice(pos), PLAIN);
  return total;
}

/** Token ids of `text` (o200k_base). */
export function encodeTokens(text: string): number[] {
  return text ? encoding().encode(text, PLAIN) : [];
}

/** Text of token ids (o200k_base). */
export function decodeTokens(tokens: number[]): string {
  return tokens.length ? encoding().decode(tokens) : '';
}
