/**
 * The text a model read, indexed for the grounding check: the text itself (verbatim search), two
 * normalised copies with a map back to the original offsets (`loose`: Unicode compatibility forms,
 * case, quotes, dashes and whitespace runs; `compact`: also without whitespace and markdown marks),
 * and the numbers it holds. Built once per page, lazily; every search is a linear `indexOf`.
 */
import { parseNumber } from '../records/attributes.ts';

export interface Normalised {
  text: string;
  /** map[i]: the original offset of normalised character i; map[text.length]: the original length. */
  map: Int32Array;
}

const QUOTES: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2033': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
};
const SPACE = /[\s\u00a0\u2000-\u200b\u202f\u205f\u3000]/;
// Markdown marks the reducer writes around text; values never carry them meaningfully.
const MARKS = new Set(['*', '_', '`', '|', '\\', '#', '>']);

/** `s` normalised: NFKC, lower case, quotes and dashes unified; whitespace runs become one space (loose) or vanish (compact). */
export function normalise(s: string, compact: boolean): Normalised {
  const out: string[] = [];
  const map: number[] = [];
  let space = true; // drop leading whitespace
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (SPACE.test(c)) {
      if (!compact && !space) {
        out.push(' ');
        map.push(i);
      }
      space = true;
      continue;
    }
    if (compact && MARKS.has(c)) continue;
    space = false;
    const mapped = QUOTES[c] ?? (c.charCodeAt(0) < 128 ? c.toLowerCase() : c.normalize('NFKC').toLowerCase());
    for (const ch of mapped) {
      out.push(ch);
      map.push(i);
    }
  }
  if (!compact && out.at(-1) === ' ') {
    out.pop();
    map.pop();
  }
  map.push(s.length);
  return { text: out.join(''), map: Int32Array.from(map) };
}

/** Digits with separators (1,299.00 / 1.299,99 / 12 500), optionally signed. */
const NUMBER_TOKEN = /[-+]?\d(?:[\d,.'\u00a0\u202f]*\d)?/g;

export class PageText {
  private looseText?: Normalised;
  private compactText?: Normalised;
  private numberIndex?: Map<number, [number, number]>;
  private sectionStarts?: Array<['json-ld' | 'microdata' | 'meta', number]>;

  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  get loose(): Normalised {
    return (this.looseText ??= normalise(this.text, false));
  }

  get compact(): Normalised {
    return (this.compactText ??= normalise(this.text, true));
  }

  /** Where the reducer's appendices start (-1: absent), last first: a span after one is in it. */
  sections(): Array<['json-ld' | 'microdata' | 'meta', number]> {
    return (this.sectionStarts ??= [
      ['meta', this.text.lastIndexOf('\n\n## Meta\n')],
      ['microdata', this.text.lastIndexOf('\n\n## Microdata\n')],
      ['json-ld', this.text.lastIndexOf('\n\n## JSON-LD\n')],
    ]);
  }

  /** First span of `value` in the text, exactly as written. */
  findVerbatim(value: string): [number, number] | null {
    const at = this.text.indexOf(value);
    return at === -1 ? null : [at, at + value.length];
  }

  /** First span of the number `value` ("1299", "4.6") where it stands as a whole number, not inside a longer one. */
  findVerbatimNumber(value: string): [number, number] | null {
    const digit = (i: number) => i >= 0 && i < this.text.length && /[\d]/.test(this.text[i]);
    for (let at = this.text.indexOf(value); at !== -1; at = this.text.indexOf(value, at + 1)) {
      const end = at + value.length;
      const before = digit(at - 1) || ((this.text[at - 1] === '.' || this.text[at - 1] === ',') && digit(at - 2));
      const after = digit(end) || ((this.text[end] === '.' || this.text[end] === ',') && digit(end + 1));
      if (!before && !after) return [at, end];
    }
    return null;
  }

  /** First span of `value` in a normalised copy, as original offsets. */
  findNormalised(value: string, compact: boolean): [number, number] | null {
    const target = compact ? this.compact : this.loose;
    const needle = normalise(value, compact).text;
    if (!needle) return null;
    const at = target.text.indexOf(needle);
    if (at === -1) return null;
    const end = at + needle.length;
    // The end is just after the last matched character's original position.
    return [target.map[at], target.map[end - 1] + 1];
  }

  /** The numbers the text holds (each token, and each part of a token split at commas or spaces), first span each. */
  numbers(): Map<number, [number, number]> {
    if (this.numberIndex) return this.numberIndex;
    const index = new Map<number, [number, number]>();
    const add = (s: string, start: number) => {
      const n = parseNumber(s);
      if (n !== null && !index.has(n)) index.set(n, [start, start + s.length]);
    };
    for (const m of this.text.matchAll(NUMBER_TOKEN)) {
      add(m[0], m.index);
      // "1,2,3" or "10 20" hold several numbers as well as one reading of the whole.
      if (/[,\s\u00a0\u202f']/.test(m[0])) for (const p of m[0].matchAll(/[-+]?\d+(?:\.\d+)?/g)) add(p[0], m.index + p.index);
    }
    this.numberIndex = index;
    return index;
  }
}
