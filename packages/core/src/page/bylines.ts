// An article's byline and dateline inside its main content (main-content.ts): who wrote it, when it
// was published or updated, how long it takes to read ("By Jane Doe", "Updated on October 21, 2025",
// "14 min read"). They are the page's metadata, not its text: the markdown leaves them out, as
// Readability and trafilatura do (the page's meta tags and JSON-LD carry the author and the dates
// into the response's metadata), and the model input keeps them, for a caller who asks for the
// author or the date. Found by what they say, whatever the markup: a block whose whole text is made
// of bylines, dates, reading times and their labels.
import { eachLive, elementChildren, HEADINGS, isAncestor, signature, subtreeEnd, textOf, type Tree } from './content-tree.ts';
import { ownBlock } from './labels.ts';

/** Such a block is this short (characters). */
const MAX = 120;
/** Inline elements, and the text beside one that makes it part of a sentence (characters). */
const INLINE = new Set(['span', 'i', 'em', 'b', 'strong', 'a', 'u', 'small', 'cite', 'mark', 'q', 'abbr', 'font']);
const SENTENCE = 40;
/** An article has a few (its byline, a date under its title, an update note); more are a list's. */
const MAX_BYLINES = 10;
/** Cards each holding a byline, this many or more: a list of posts, whose dates and authors are its text. */
const CARDS = 3;

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '\\d{1,2}(?:st|nd|rd|th)?';
const CLOCK = '(?:(?:at|@)\\s*)?\\d{1,2}:\\d\\d(?::\\d\\d)?\\s*(?:[ap]\\.?m\\.?)?(?:\\s*[a-z]{2,4}t)?';
/** A date: "December 19, 2025", "19 Dec 2025", "25.Jun.2019", "2025-12-19", "27/05/2024", "2 days ago"; a time may follow. */
const DATE = `(?:${MONTH}\\s*${DAY},?\\s*\\d{4}|${DAY}[\\s.-]*${MONTH}[\\s.,-]*\\d{4}|${MONTH}\\s+\\d{4}|\\d{4}-\\d\\d-\\d\\d|\\d{1,2}[/.]\\d{1,2}[/.]\\d{2,4}|(?:\\d+|an?)\\s+(?:minutes?|hours?|days?|weeks?|months?)\\s+ago|yesterday|today)(?:,?\\s*${CLOCK})?`;
/** A reading time: "14 min read", "17 minutes read", "2–3 minutes", "reading time: 5 min". */
const READ = '(?:(?:estimated\\s+)?reading\\s+time:?\\s*)?\\d+(?:\\s*[-–]\\s*\\d+)?\\s*(?:-\\s*)?(?:min(?:ute)?s?)\\.?(?:\\s+(?:read|reading))?';
/** A label before a date: "Last updated on:", "Published", "Posted". */
const WHEN = '(?:(?:last\\s+)?(?:updated|modified|published|posted|reviewed|written|date)(?:\\s+(?:on|at))?:?)';
/**
 * A label before a name: "By", "Posted by", "Written by" (not "Published by", a book's or a game's
 * publisher as often as an author: PUBLISHER).
 */
const BY = '(?:(?:posted|reviewed|edited|written|fact[-\\s]checked)\\s+)?by:?';
/** A name after "by": up to five words (a word may be an initial or carry a hyphen or apostrophe). */
const NAME = `[\\p{L}][\\p{L}.'’-]*(?:\\s+(?!${MONTH}\\s)(?:[\\p{L}][\\p{L}.'’-]*|&)){0,4}`;

const PART = new RegExp(`^(?:${DATE}|${READ}|${WHEN}(?:\\s*${DATE})?|${BY}(?:\\s*${NAME})?)`, 'iu');
/** A publisher's line: "Published by Hachette". */
const PUBLISHER = /\bpublished\s+by\b/i;
/** Separators between the parts. */
const SEP = /^[\s|·•,;:—–\-/]+/;
/** What makes a block a byline, not a stray label: a date, a reading time or a name after "by". */
const SIGN = new RegExp(`${DATE}|${READ}|\\bby:?\\s+\\p{L}`, 'iu');

/** Whether `s` (lower-cased, spaces collapsed) is made of byline parts only. */
export function isByline(s: string): boolean {
  if (!s || s.length > MAX || !SIGN.test(s) || PUBLISHER.test(s)) return false;
  let rest = s.replace(SEP, '');
  for (let guard = 0; rest && guard < 12; guard++) {
    const m = PART.exec(rest);
    if (!m || m[0] === '') return false;
    rest = rest.slice(m[0].length).replace(SEP, '');
  }
  return rest === '';
}

/**
 * The bylines inside an article's content `node`: the outermost elements (not headings) whose whole
 * text is bylines, dates and reading times. A sentence holding a date ("Published on 2025-12-19 in
 * Vol 7"), a heading ("By car"), a part of a sentence or a table's cell is not one; nor are they when
 * there are more than MAX_BYLINES.
 */
export function bylines(t: Tree, node: number): number[] {
  const out: number[] = [];
  eachLive(t, node, (i) => {
    const el = t.els[i];
    // (a table's dates are its data)
    if (el.name === 'table') return true;
    const chars = t.txt[i] + t.lnk[i];
    if (chars === 0 || chars > MAX) return false;
    if (HEADINGS.has(el.name) || !isByline(textOf(el).replace(/\u00a0/g, ' '))) return false;
    // (words of a sentence set in their own element, "Amanda Kramer's <em>By Design</em>", are no
    // byline: the largest element around it holding no other text stands beside the sentence's text,
    // or, inline, beside a sentence's worth of text)
    const k = ownBlock(t, node, i);
    if (k === -1) return true;
    const up = t.parent[k];
    if (INLINE.has(t.els[k].name) && up !== -1 && t.txt[up] + t.lnk[up] - chars > SENTENCE) return true;
    out.push(k);
    return true;
  });
  // (a list's cards, each with its date or author, keep them; not when a byline of their kind stands
  // beside the page's title outside the cards: an article's own, with its related posts' cards)
  const titles = t.els.flatMap((el, i) => (el.name === 'h1' && !t.gone[i] ? [i] : []));
  const besideTitle = (k: number) => titles.some((h) => isAncestor(t, t.parent[k], h));
  const kinds = new Map<string, number[]>();
  for (const k of out) kinds.set(signature(t.els[k]), [...(kinds.get(signature(t.els[k])) ?? []), k]);
  const cards = new Set<number>();
  for (const like of kinds.values()) {
    const inCards = like.filter((k) => inCard(t, node, k, like));
    if (inCards.length >= CARDS && !like.some((k) => !inCards.includes(k) && besideTitle(k))) for (const k of inCards) cards.add(k);
  }
  // (more than MAX_BYLINES besides the cards', however laid out, are a list's rows' too: a thread typed article)
  const rest = out.filter((k) => !cards.has(k));
  return rest.length > MAX_BYLINES ? [] : rest;
}

/**
 * Whether byline `k` lies in a card of a list (a blog's front page or a news list typed article): an
 * ancestor above it, under `node`, one of CARDS or more siblings of its tag that each hold one of the
 * `like` bylines (of `k`'s kind: tag and classes, digits aside; the cards' own classes may differ, a
 * post's categories and tags among them). An article's own byline stands once, beside its title;
 * one per card is each post's date and author, the list's text.
 */
function inCard(t: Tree, node: number, k: number, like: number[]): boolean {
  for (let a = t.parent[k]; a !== -1 && a !== node && t.parent[a] !== -1; a = t.parent[a]) {
    let n = 0;
    for (const c of elementChildren(t, t.parent[a])) {
      if (t.els[c].name !== t.els[a].name) continue;
      const end = subtreeEnd(t, c);
      if (like.some((b) => b >= c && b <= end) && ++n >= CARDS) return true;
    }
  }
  return false;
}
