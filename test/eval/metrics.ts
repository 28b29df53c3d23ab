// The figures exactly as the corpora define them (docs/benchmarks.md): word F1 on lower-cased
// \w+ multisets, snippet presence after normalisation, product values in their usual forms.
import { decodeHTML } from 'entities';

const WORD = /[\p{L}\p{N}_]+/gu;

function bag(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of text.toLowerCase().match(WORD) ?? []) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

export type F1 = { f1: number; precision: number; recall: number };

/** Word multiset F1 of `pred` against `ref`; an empty reference scores 1 for an empty output, else 0. */
export function wordF1(pred: string, ref: string): F1 {
  const r = bag(ref);
  const p = bag(pred);
  let nr = 0;
  let np = 0;
  for (const c of r.values()) nr += c;
  for (const c of p.values()) np += c;
  if (nr === 0) return np === 0 ? { f1: 1, precision: 1, recall: 1 } : { f1: 0, precision: 0, recall: 1 };
  if (np === 0) return { f1: 0, precision: 1, recall: 0 };
  let overlap = 0;
  for (const [w, c] of p) overlap += Math.min(c, r.get(w) ?? 0);
  const precision = overlap / np;
  const recall = overlap / nr;
  return { f1: overlap ? (2 * precision * recall) / (precision + recall) : 0, precision, recall };
}

/** Markdown as plain text: link text kept, images and their URLs dropped, markup removed. */
export function markdownToText(md: string): string {
  return md
    .replace(/!\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, ' ')
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<https?:[^>\s]*>/g, ' ')
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
    .replace(/^\s{0,3}(?:#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, '')
    .replace(/\\([\\`*_{}\[\]()#+\-.!|~<>])/g, '$1')
    .replace(/(^|[^\p{L}\p{N}])_{1,3}(?=[^\s_])|(?<=[^\s_])_{1,3}(?=[^\p{L}\p{N}]|$)/gu, '$1 ')
    .replace(/[*`|~]+/g, ' ');
}

/**
 * The model input (reducePage's text) as plain text for the snippet checks: only the markup its writer
 * adds is removed — link and image syntax, the heading and list markers it writes at a line's start
 * (`# `, `- `, `1. `; not inside a code block, whose lines are the page's own), code fences, table pipes and separator rows, `~~` — so that the text compares like with like with the
 * page's visible text. The writer never writes emphasis, escapes, quote markers or HTML tags: an `*`,
 * `_`, `|`, `~`, a line's leading `* ` or `>` or `<commit>` in the model input is the page's own text, as in the visible text (markdownToText, for
 * the markdown endpoint's output, removes them).
 */
export function modelInputText(md: string): string {
  // (inside a code block the writer adds no marker: a `# comment` or `- item` there is the code's own)
  let code = false;
  const unmarked = md
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        code = !code;
        return ' ';
      }
      return code ? line : line.replace(/^\s{0,16}(?:#{1,6}|-|\d+\.)\s+/, '');
    })
    .join('\n');
  return unmarked
    .replace(/!\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, ' ')
    .replace(/\[((?:[^[\]]|\[[^[\]]*\])*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
    .replace(/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, '')
    .replace(/^\s*\|.*\|\s*$/gm, (row) => row.replace(/\|/g, ' '))
    .replace(/~~/g, '');
}

/** Both sides of a snippet comparison: entities decoded, NFKC, straight quotes and dashes, collapsed, folded. */
export function normalize(s: string): string {
  return decodeHTML(s)
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201a\u201b\u2032\u00b4`]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\s\u00a0\u200b]+/g, ' ')
    .trim()
    .toLowerCase();
}

export function hasSnippet(haystackNorm: string, snippet: string): boolean {
  const n = normalize(snippet);
  return n.length > 0 && haystackNorm.includes(n);
}

/** The usual written forms of a price: 1299.00, 1,299.00, 1.299,00, 1 299,00, 1299 (and as given). */
export function priceForms(value: string): string[] {
  const forms = new Set<string>([value.trim()]);
  const v = value.trim().replace(/[^\d.,]/g, '');
  let num: number | null = null;
  if (/^\d+$/.test(v)) num = Number(v);
  else if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(v) || /^\d+\.\d+$/.test(v)) num = Number(v.replace(/,/g, ''));
  else if (/^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/.test(v) || /^\d+,\d+$/.test(v)) num = Number(v.replace(/\./g, '').replace(',', '.'));
  if (num === null || !Number.isFinite(num)) return [...forms];
  const int = Math.floor(num);
  const cents = Math.round((num - int) * 100);
  const intPlain = String(int);
  const group = (sep: string) => intPlain.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  for (const ints of new Set([intPlain, group(','), group('.'), group(' '), group('\u00a0'), group("'")])) {
    for (const dec of ['.', ',']) {
      if (ints.includes(dec)) continue;
      forms.add(`${ints}${dec}${String(cents).padStart(2, '0')}`);
      if (cents % 10 === 0 && cents) forms.add(`${ints}${dec}${cents / 10}`);
    }
    if (cents === 0) forms.add(ints);
  }
  return [...forms].filter(Boolean);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a ground-truth value of `field` occurs in already-normalised text. */
export function valuePresent(field: string, value: string, textNorm: string): boolean {
  if (field === 'availability') {
    const v = value.toLowerCase();
    // As words: "Out of stock", schema.org/OutOfStock, "outofstock"; not inside an identifier such
    // as exports_desktop_outOfStockBuyBox (a widget's name says nothing about this product).
    if (v.includes('outofstock') || v.includes('out of stock')) return /(?<![\p{L}\p{N}_])out ?of ?stock(?![\p{L}\p{N}_])/u.test(textNorm);
    if (v.includes('instock') || v.includes('in stock')) return /(?<![\p{L}\p{N}_])in ?stock(?![\p{L}\p{N}_])/u.test(textNorm);
    return textNorm.includes(normalize(value));
  }
  if (field === 'price') {
    return priceForms(value).some((f) => new RegExp(`(?<![\\d.,])${escapeRe(normalize(f))}(?![\\d]|[.,]\\d)`).test(textNorm));
  }
  const n = normalize(value);
  return n.length > 0 && textNorm.includes(n);
}
