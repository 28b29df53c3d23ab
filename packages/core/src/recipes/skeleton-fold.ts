/**
 * Fitting a page skeleton that is too long into its budget by folding the parts that show the
 * fewest values for their size, instead of cutting its tail: on a long product page the
 * specification table near the end holds more facts per line than the marketing images and layout
 * wrappers above it, and a recipe needs its rows.
 */

/** One rendered line: its text (indented), its depth (lines below it with a greater depth are its
 * subtree) and how much it shows that a recipe may read (see `lineWorth`). */
export interface SkeletonLine {
  text: string;
  depth: number;
  worth: number;
}

/** Subtrees smaller than this many characters are not worth a fold marker of their own. */
const MIN_FOLD = 40;
/** A subtree more than this many times larger than the excess is folded only when nothing smaller does. */
const OVERSHOOT = 3;
/** A subtree holding more than this share of the page's worth is folded only when nothing else does. */
const MAJOR = 0.05;
/** The length of a fold marker, " (N lines folded)". */
const MARKER = 20;

/**
 * The lines as text, at most `maxChars` long when folding allows: subtrees are folded (their first
 * line kept with a count of what it held) in order of worth per character, lowest first.
 */
export function foldToFit(lines: SkeletonLine[], maxChars: number): string {
  const n = lines.length;
  const len = lines.map((l) => l.text.length + 1);
  let total = len.reduce((a, b) => a + b, 0);
  if (total <= maxChars) return lines.map((l) => l.text).join('\n');
  // end[i]: one past the last line of i's subtree.
  const end = new Int32Array(n);
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    while (stack.length && lines[stack[stack.length - 1]].depth >= lines[i].depth) end[stack.pop()!] = i;
    stack.push(i);
  }
  for (const i of stack) end[i] = n;
  // First, lines that show nothing and hold nothing (a wrapper's empty slot, a widget's id): gone
  // without a marker, longest first.
  const hidden = new Uint8Array(n);
  const bare: number[] = [];
  for (let i = 0; i < n; i++) if (end[i] === i + 1 && lines[i].worth === 0) bare.push(i);
  bare.sort((a, b) => len[b] - len[a]);
  for (const i of bare) {
    if (total <= maxChars) break;
    hidden[i] = 1;
    total -= len[i];
    len[i] = 0;
  }
  // parent[i]: the nearest line above i with a smaller depth; chars/worth: what i's subtree still shows.
  const parent = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < end[i]; j = end[j]) parent[j] = i;
  const chars = new Float64Array(n);
  const worth = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    const p = parent[i];
    if (p < 0) continue;
    chars[p] += chars[i] + len[i];
    worth[p] += worth[i] + lines[i].worth;
  }
  const density = (i: number): number => worth[i] / Math.max(1, chars[i]);
  // A min-heap of [density, line]; an entry whose density is no longer the line's is stale.
  const heap: [number, number][] = [];
  const up = (k: number): void => {
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (heap[p][0] <= heap[k][0]) break;
      [heap[p], heap[k]] = [heap[k], heap[p]];
      k = p;
    }
  };
  const pop = (): [number, number] => {
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < heap.length && heap[l][0] < heap[m][0]) m = l;
        if (r < heap.length && heap[r][0] < heap[m][0]) m = r;
        if (m === k) break;
        [heap[m], heap[k]] = [heap[k], heap[m]];
        k = m;
      }
    }
    return top;
  };
  // Candidates: a subtree folded under its first line, or a single line (a paragraph among a
  // product's facts) left out with a count on its parent. A leaf's density never changes.
  const leaf = (i: number): boolean => end[i] === i + 1;
  const offer = (i: number): void => {
    if (hidden[i] || (!leaf(i) && chars[i] < MIN_FOLD)) return;
    heap.push([leaf(i) ? lines[i].worth / len[i] : density(i), i]);
    up(heap.length - 1);
  };
  for (let i = 0; i < n; i++) offer(i);
  // folded[i]: lines folded under line i (its subtree, or single lines of its children).
  const folded = new Int32Array(n);
  const closed = new Uint8Array(n);
  const shrink = (from: number, lostChars: number, lostWorth: number): void => {
    for (let p = from; p >= 0; p = parent[p]) {
      chars[p] -= lostChars;
      worth[p] -= lostWorth;
      offer(p);
    }
  };
  // A subtree far larger than what is left to cut waits while smaller ones can do (folding the
  // buy box whole to save its last 300 characters would hide its price).
  const deferred: number[] = [];
  let allWorth = 0;
  for (const l of lines) allWorth += l.worth;
  let defer = true;
  for (;;) {
    if (total <= maxChars) break;
    if (!heap.length) {
      if (!defer || !deferred.length) break;
      defer = false;
      for (const i of deferred) offer(i);
      continue;
    }
    const [d, i] = pop();
    if (hidden[i] || closed[i]) continue;
    if (leaf(i)) {
      hidden[i] = 1;
      const p = parent[i];
      const marker = p >= 0 && folded[p] === 0 ? MARKER : 0;
      total -= len[i] - marker;
      if (p >= 0) folded[p]++;
      shrink(p, len[i] - marker, lines[i].worth);
      continue;
    }
    if (d !== density(i) || chars[i] < MIN_FOLD) continue;
    if (defer && (chars[i] > OVERSHOOT * (total - maxChars) + MIN_FOLD || worth[i] > MAJOR * allWorth)) {
      deferred.push(i);
      continue;
    }
    let count = folded[i];
    for (let j = i + 1; j < end[i]; j++) {
      if (!hidden[j]) count += 1 + folded[j];
      hidden[j] = 1;
    }
    // The subtree's lines go, a marker comes: what its ancestors show shrinks by as much.
    const lostChars = chars[i] - MARKER;
    const lostWorth = worth[i];
    total -= lostChars;
    folded[i] = count;
    closed[i] = 1;
    chars[i] = 0;
    worth[i] = 0;
    shrink(parent[i], lostChars, lostWorth);
  }
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    if (hidden[i]) continue;
    out.push(folded[i] ? `${lines[i].text} (${folded[i]} lines folded)` : lines[i].text);
  }
  return out.join('\n');
}
