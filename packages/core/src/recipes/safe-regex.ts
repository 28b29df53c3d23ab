/**
 * Regular expressions written by a model run inside our process, and JavaScript's backtracking
 * engine cannot be interrupted cheaply. So a pattern is refused up front when its worst case is worse
 * than quadratic: nested quantifiers and alternation inside an unbounded repetition (exponential),
 * backreferences, and chains of adjacent unbounded quantifiers that can match the same characters
 * (`\d+\d+`, `.*\s+`: polynomial). Inputs are capped at {@link REGEX_INPUT_LIMIT} characters, so an
 * accepted pattern does at most a few tens of millions of steps.
 */

export const REGEX_INPUT_LIMIT = 5_000;

/** Repetitions above this count are treated as unbounded. */
const UNBOUNDED = 50;

interface SetAtom {
  kind: 'set';
  src: string;
}
interface GroupAtom {
  kind: 'group';
  alts: Item[][];
  look: boolean;
}
interface AssertAtom {
  kind: 'assert';
}
type Atom = SetAtom | GroupAtom | AssertAtom;
interface Item {
  atom: Atom;
  min: number;
  max: number;
}

const SAMPLE = [
  '\t',
  '\n',
  '\r',
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
  '\u00a0',
  'é',
  'ß',
  '€',
  '中',
  '\u2019',
  '\u2013',
  '\u200b',
];

class Unsafe extends Error {}

function parse(src: string): Item[][] {
  let i = 0;
  const alternation = (): Item[][] => {
    const alts: Item[][] = [[]];
    while (i < src.length && src[i] !== ')') {
      if (src[i] === '|') {
        i++;
        alts.push([]);
        continue;
      }
      const atom = parseAtom();
      const [min, max] = atom.kind === 'assert' ? [1, 1] : quantifier();
      alts[alts.length - 1].push({ atom, min, max });
    }
    return alts;
  };
  const quantifier = (): [number, number] => {
    let q: [number, number] = [1, 1];
    const c = src[i];
    if (c === '*') q = [0, Infinity];
    else if (c === '+') q = [1, Infinity];
    else if (c === '?') q = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (!m) return q;
      q = [Number(m[1]), m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3])];
      i += m[0].length - 1;
    } else return q;
    i++;
    if (src[i] === '?') i++; // lazy: same worst case
    return q;
  };
  const parseAtom = (): Atom => {
    const start = i;
    const c = src[i++];
    if (c === '^' || c === '$') return { kind: 'assert' };
    if (c === '(') {
      let look = false;
      if (src.startsWith('?:', i)) i += 2;
      else if (src.startsWith('?=', i) || src.startsWith('?!', i)) {
        i += 2;
        look = true;
      } else if (src.startsWith('?<=', i) || src.startsWith('?<!', i)) {
        i += 3;
        look = true;
      } else if (src.startsWith('?<', i)) i = src.indexOf('>', i) + 1;
      const alts = alternation();
      i++; // ')'
      return { kind: 'group', alts, look };
    }
    if (c === '[') {
      if (src[i] === '^') i++;
      if (src[i] === ']') i++;
      while (i < src.length && src[i] !== ']') i += src[i] === '\\' ? 2 : 1;
      i++;
      return { kind: 'set', src: src.slice(start, i) };
    }
    if (c === '\\') {
      const e = src[i++];
      if (/[1-9]/.test(e) || (e === 'k' && src[i] === '<')) throw new Unsafe('backreferences are not allowed');
      if (e === 'b' || e === 'B') return { kind: 'assert' };
      if ((e === 'p' || e === 'P') && src[i] === '{') i = src.indexOf('}', i) + 1;
      else if (e === 'u' && src[i] === '{') i = src.indexOf('}', i) + 1;
      else if (e === 'u') i += 4;
      else if (e === 'x') i += 2;
      else if (e === 'c') i += 1;
      return { kind: 'set', src: src.slice(start, i) };
    }
    return { kind: 'set', src: c };
  };
  const alts = alternation();
  if (i < src.length) throw new Unsafe('unbalanced parenthesis');
  return alts;
}

const isVariable = (it: Item): boolean => it.max > it.min;
const isUnbounded = (it: Item): boolean => it.max > UNBOUNDED;

function walk(alts: Item[][], visit: (it: Item) => void): void {
  for (const seq of alts) {
    for (const it of seq) {
      visit(it);
      if (it.atom.kind === 'group') walk(it.atom.alts, visit);
    }
  }
}

function checkNesting(alts: Item[][]): void {
  walk(alts, (it) => {
    if (it.atom.kind !== 'group' || it.max <= 1) return;
    if (isUnbounded(it) && it.atom.alts.length > 1) {
      throw new Unsafe('alternation inside a repeated group can backtrack exponentially; use a character class such as [\\s,]+');
    }
    walk(it.atom.alts, (inner) => {
      if (isVariable(inner)) throw new Unsafe('nested quantifiers such as (a+)+ can backtrack exponentially');
    });
  });
}

/** Which sample characters an item can consume (a group: the union of its parts). */
function charSet(atom: Atom, flags: string, cache: Map<string, Set<number>>): Set<number> {
  if (atom.kind === 'assert') return new Set();
  if (atom.kind === 'group') {
    const out = new Set<number>();
    if (atom.look) return out;
    walk(atom.alts, (it) => {
      if (it.atom.kind === 'set') for (const n of charSet(it.atom, flags, cache)) out.add(n);
    });
    return out;
  }
  let set = cache.get(atom.src);
  if (!set) {
    set = new Set();
    let re: RegExp | null = null;
    try {
      re = new RegExp(`^(?:${atom.src})$`, flags);
    } catch {
      re = null;
    }
    SAMPLE.forEach((ch, n) => {
      if (!re || re.test(ch)) set!.add(n);
    });
    cache.set(atom.src, set);
  }
  return set;
}

const overlaps = (a: Set<number>, b: Set<number>): boolean => [...a].some((n) => b.has(n));

/** Flattens groups taken at most once with one alternative (`(\d+)`, `(?:\.\d+)?`) into their parent sequence. */
function flatten(seq: Item[]): Item[] {
  return seq.flatMap((it) => {
    if (it.atom.kind !== 'group' || it.atom.look || it.max !== 1 || it.atom.alts.length !== 1) return [it];
    const optional = it.min === 0;
    return flatten(it.atom.alts[0]).map((inner) => (optional ? { ...inner, min: 0 } : inner));
  });
}

/**
 * The longest chain of unbounded quantifiers in one sequence where each can take characters the
 * previous one could also take, with no mandatory delimiter between them: the degree of the
 * polynomial backtracking the sequence can cause.
 */
function chainDegree(seq: Item[], flags: string, cache: Map<string, Set<number>>): number {
  const items = flatten(seq);
  const sets = items.map((it) => charSet(it.atom, flags, cache));
  const chain = items.map(() => 0);
  let best = 0;
  items.forEach((it, k) => {
    if (it.atom.kind === 'group') {
      for (const alt of it.atom.alts) best = Math.max(best, chainDegree(alt, flags, cache));
    }
    if (!isUnbounded(it)) return;
    chain[k] = Math.max(chain[k], 1);
    for (let j = k + 1; j < items.length; j++) {
      const next = items[j];
      if (isUnbounded(next) && overlaps(sets[k], sets[j])) chain[j] = Math.max(chain[j], chain[k] + 1);
      const consumes = next.min >= 1 && sets[j].size > 0;
      if (consumes && !overlaps(sets[k], sets[j])) break;
    }
    best = Math.max(best, chain[k]);
  });
  return best;
}

/**
 * Compiles a model-written pattern, or throws an Error saying why it is refused (syntax, length,
 * or a backtracking risk). `flags` may hold i, m, s and u; `g` is added by callers that need it.
 */
export function compileSafeRegex(pattern: string, flags = '', maxLength = 200): RegExp {
  if (pattern.length > maxLength) throw new Error(`the pattern is longer than ${maxLength} characters`);
  if (!/^[imsu]*$/.test(flags)) throw new Error(`unsupported regex flags "${flags}" (use i, m, s, u)`);
  let re: RegExp;
  try {
    re = new RegExp(pattern, flags);
  } catch (err) {
    throw new Error(`invalid regular expression: ${(err as Error).message}`);
  }
  try {
    const alts = parse(pattern);
    checkNesting(alts);
    const cache = new Map<string, Set<number>>();
    const anchored = alts.length === 1 && alts[0][0]?.atom.kind === 'assert' && pattern.startsWith('^') && !flags.includes('m');
    const degree = Math.max(...alts.map((seq) => chainDegree(seq, flags, cache))) + (anchored ? 0 : 1);
    if (degree > 2) {
      throw new Unsafe(
        'adjacent quantifiers that can match the same characters (like \\d+\\d+ or .*\\s+) backtrack polynomially; separate them with a delimiter or use one quantifier',
      );
    }
  } catch (err) {
    if (err instanceof Unsafe) throw new Error(`unsafe regular expression: ${err.message}`);
    throw err;
  }
  return re;
}
