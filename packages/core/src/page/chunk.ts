// Splits a reduced page into chunks that each fit a model's context budget. Lines are the atomic units
// (a table row, a list item or a paragraph is one line), so a table row or a markdown link is never
// cut; a chunk prefers to end before a heading or after a blank line when that keeps it at least half
// full. With `overlap`, a chunk that starts under a heading or inside a table repeats that heading and
// the table's header row, so the model keeps the context. One counting pass over the lines: linear.
import { countTokens, decodeTokens, encodeTokens } from './tokens.ts';

export type ChunkOptions = {
  /** Repeat the last heading and, inside a table, its header rows at the top of the next chunk (default true). */
  overlap?: boolean;
};

type Unit = { text: string; sep: string; cost: number };

const HEADING = /^#{1,6} /;
const TABLE_SEP = /^\|(?:\s*:?-{3,}:?\s*\|)+\s*$/;
/** A markdown link or image (also an image inside a link), a word, or a run of spaces. */
const SEGMENT = /\[!\[[^\]\n]{0,1000}\]\([^)\s]{0,2000}\)\]\([^)\s]{0,2000}\)|!?\[[^\]\n]{0,1000}\]\([^)\s]{0,2000}\)|\S+\s*|\s+/g;

export function chunkText(text: string, maxTokens: number, opts: ChunkOptions = {}): string[] {
  const budget = Math.max(1, Math.floor(maxTokens));
  if (!text) return [];
  const overlap = opts.overlap ?? true;
  const units: Unit[] = [];
  for (const line of text.split('\n')) {
    const sep = units.length ? '\n' : '';
    const cost = countTokens(line) + 1;
    if (cost <= budget) units.push({ text: line, sep, cost });
    else splitLong(line, sep, budget, units);
  }
  // Per unit: the last heading at or before it, and the first row of the table it belongs to.
  const n = units.length;
  const heading = new Int32Array(n).fill(-1);
  const tableStart = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const u = units[i];
    heading[i] = (u.sep === '\n' || i === 0) && HEADING.test(u.text) ? i : i > 0 ? heading[i - 1] : -1;
    if (u.sep === '\n' || i === 0) {
      if (u.text.startsWith('|')) tableStart[i] = i > 0 && tableStart[i - 1] !== -1 ? tableStart[i - 1] : i;
    } else if (i > 0) tableStart[i] = tableStart[i - 1];
  }

  const chunks: string[] = [];
  let start = 0;
  while (start < n) {
    const context = overlap ? contextFor(units, start, heading, tableStart, budget) : [];
    let used = 0;
    for (const c of context) used += units[c].cost;
    let end = start;
    let good = -1; // a preferred cut: before a heading or after a blank line
    let goodUsed = 0;
    while (end < n && used + units[end].cost <= budget) {
      const u = units[end];
      if (end > start && u.sep === '\n' && (HEADING.test(u.text) || units[end - 1].text.trim() === '')) {
        good = end;
        goodUsed = used;
      }
      used += u.cost;
      end++;
    }
    if (end === start) {
      // Even one unit does not fit next to the context: go without the context.
      if (context.length) {
        chunks.push(...finish(units, [], start, start + 1, budget));
        start++;
        continue;
      }
      end = start + 1;
    }
    if (end < n && good > start && goodUsed >= budget / 2) end = good;
    chunks.push(...finish(units, context, start, end, budget));
    start = end;
  }
  return chunks.filter((c) => c.trim() !== '');
}

/** The heading line, and a table's header and separator rows, that the chunk starting at `at` should repeat. */
function contextFor(units: Unit[], at: number, heading: Int32Array, tableStart: Int32Array, budget: number): number[] {
  const out: number[] = [];
  const h = at > 0 ? heading[at - 1] : -1;
  if (h !== -1 && heading[at] !== at) out.push(h);
  const t = tableStart[at];
  if (t !== -1 && t < at) {
    const sepRow = t + 1 < units.length && TABLE_SEP.test(units[t + 1].text) ? t + 1 : -1;
    if (at > t + 1 || sepRow === -1) {
      if (!out.includes(t)) out.push(t);
      if (sepRow !== -1 && sepRow < at) out.push(sepRow);
    }
  }
  let cost = 0;
  for (const c of out) cost += units[c].cost;
  return cost <= budget / 4 ? out : [];
}

/** Joins units [from, to) behind their context; re-splits in the rare case the real count is over. */
function finish(units: Unit[], context: number[], from: number, to: number, budget: number): string[] {
  let text = '';
  for (const c of context) text += (text ? '\n' : '') + units[c].text;
  for (let i = from; i < to; i++) text += (text ? (i === from ? '\n' : units[i].sep) : '') + units[i].text;
  if (to - from < 2 || countTokens(text) <= budget) return [text];
  const mid = (from + to) >> 1;
  return [...finish(units, context, from, mid, budget), ...finish(units, [], mid, to, budget)];
}

/** A line longer than the budget: split between links and words, and a giant word between tokens. */
function splitLong(line: string, sep: string, budget: number, out: Unit[]): void {
  let cur = '';
  let curCost = 0;
  let first = true;
  const push = (t: string, cost: number) => {
    out.push({ text: t, sep: first ? sep : '', cost: first ? cost + 1 : cost });
    first = false;
  };
  SEGMENT.lastIndex = 0;
  for (let m = SEGMENT.exec(line); m; m = SEGMENT.exec(line)) {
    const seg = m[0];
    const cost = countTokens(seg);
    if (curCost + cost <= budget - 1) {
      cur += seg;
      curCost += cost;
      continue;
    }
    if (cur) push(cur, curCost);
    cur = '';
    curCost = 0;
    if (cost <= budget - 1) {
      cur = seg;
      curCost = cost;
      continue;
    }
    const ids = encodeTokens(seg);
    const step = Math.max(1, budget - 1);
    for (let i = 0; i < ids.length; i += step) push(decodeTokens(ids.slice(i, i + step)), Math.min(step, ids.length - i));
  }
  if (cur) push(cur, curCost);
}
