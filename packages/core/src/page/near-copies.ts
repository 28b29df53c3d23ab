// Near copies inside the main content (copies.ts): a block printing nearly the words of an earlier one
// (a guide printed twice with a word changed, a tab repeating the description with small edits, a
// responsive layout's variant of a block with its lines broken otherwise), to be left out: the first
// copy is kept. Exact copies are copies.ts's own rules.
import type { AnyNode, Element } from 'domhandler';
import type { Tree } from './content-tree.ts';

/** A block with fewer words than this is not compared (a card's line, a label). */
const MIN_WORDS = 20;
/** A block with less text than this (characters, without spaces) is not read (fewer than MIN_WORDS words, likely). */
const MIN_TEXT = 60;
/** A block with more text than this (characters, without spaces) is not compared (a bound on the work). */
const MAX_TEXT = 6000;
/** Two blocks are near copies when the words they share (counted with repeats) are at least this share of the longer one's. */
const SAME = 0.8;
/** Each block is indexed under this many of its words (those of least hash: two near copies likely share one). */
const KEYS = 4;
/** At most this many blocks are kept under one key, and compared per block (bounds on the work). */
const PER_KEY = 8;
const MAX_CANDIDATES = 16;

type Bag = { words: Map<string, number>; n: number; keys: string[] };

/** The words a block is indexed under: the KEYS of least hash. */
function keysOf(words: Map<string, number>): string[] {
  return [...words.keys()]
    .map((w) => [hash(w), w] as const)
    .sort((a, b) => a[0] - b[0])
    .slice(0, KEYS)
    .map((x) => x[1]);
}

/** Whether bags `a` and `b` share at least SAME of the longer one's words (counted with repeats). */
function near(a: Bag, b: Bag): boolean {
  const most = Math.max(a.n, b.n);
  if (Math.min(a.n, b.n) < SAME * most) return false;
  // (a's words missing from b, counted until they are too many)
  const allowed = a.n - SAME * most;
  let missing = 0;
  for (const [w, c] of a.words) {
    missing += Math.max(0, c - (b.words.get(w) ?? 0));
    if (missing > allowed) return false;
  }
  return true;
}

/** FNV-1a hash of a word. */
function hash(w: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Whether every figure (a word holding a digit) of the shorter bag is in the longer one: a copy keeps
 * its figures; a variant of a block gives other ones (the minimum and the recommended system
 * requirements, a card's other price).
 */
function sameFigures(a: Bag, b: Bag): boolean {
  const [short, long] = a.n <= b.n ? [a, b] : [b, a];
  for (const w of short.words.keys()) if (/\d/.test(w) && !long.words.has(w)) return false;
  return true;
}

/** The words of blocks seen so far, for near-copy checks, indexed by a few words each. */
export class NearCopies {
  private readonly bags = new Map<number, Bag>();
  private readonly byKey = new Map<string, number[]>();
  private readonly t: Tree;
  constructor(t: Tree) {
    this.t = t;
  }

  /** The words of element `i` (lower-cased, repeats counted), leaving out dropped parts; null when too few. */
  private bag(i: number): Bag | null {
    const cached = this.bags.get(i);
    if (cached) return cached;
    const words = new Map<string, number>();
    let n = 0;
    const stack: AnyNode[] = [this.t.els[i]];
    while (stack.length) {
      const c = stack.pop()!;
      if (c.type === 'text') {
        for (const w of c.data.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
          words.set(w, (words.get(w) ?? 0) + 1);
          n++;
        }
      } else if (c.type === 'tag') {
        const k = this.t.index.get(c as Element);
        if (k === undefined || this.t.gone[k]) continue;
        const kids = (c as Element).children;
        for (let j = kids.length - 1; j >= 0; j--) stack.push(kids[j]);
      }
    }
    if (n < MIN_WORDS) return null;
    const bag = { words, n, keys: keysOf(words) };
    this.bags.set(i, bag);
    return bag;
  }

  /** Whether block `i` (its text `s`, as copies.ts reads it) nearly repeats a block already seen (added) that `like` accepts. */
  repeats(i: number, s: string, like: (a: number) => boolean): boolean {
    if (s.length > MAX_TEXT || s.length < MIN_TEXT) return false;
    const bag = this.bag(i);
    if (!bag) return false;
    const tried = new Set<number>();
    for (const key of bag.keys) {
      for (const a of this.byKey.get(key) ?? []) {
        if (tried.has(a) || tried.size >= MAX_CANDIDATES) continue;
        tried.add(a);
        const other = this.bags.get(a)!;
        if (near(bag, other) && sameFigures(bag, other) && like(a)) return true;
      }
    }
    return false;
  }

  /** Block `i` (its text `s`) is done: later blocks are compared with it. */
  add(i: number, s: string): void {
    if (s.length > MAX_TEXT || s.length < MIN_TEXT) return;
    const bag = this.bag(i);
    if (!bag) return;
    for (const key of bag.keys) {
      let list = this.byKey.get(key);
      if (!list) this.byKey.set(key, (list = []));
      list.push(i);
      if (list.length > PER_KEY) list.shift();
    }
  }
}
