// Labels a site puts between or after the paragraphs of the main content (left-out.ts) that say
// nothing of it: an ad slot's label ("Advertisement", "Sponsor Message", "Article Continues Below")
// left when the ad itself is a script's, a paid card's tag ("Sponsored", "Promoted": the card is an
// item of the list like the others, its tag a note to the reader), the words of a share, save or
// follow control left standing once the control is set aside ("Share", "Followed"), a list's own
// control labels ("Sort by", "Filters (2)"), and the page's tools ("Edit this page on GitHub", "Back
// to blog", "Was this helpful?", a product's "View full details" link to its own page, "Return to
// top of page", "Back to top" or "Scroll to top" as a block of its own, WordPress's "Like this:" with
// its "Like Loading...", "Share this:", "Pin this for later!", "Add <site> as a preferred source on
// Google"), a carousel's position, which
// its script reads out as the slides turn ("Slide 1 of 8", or standing alone "1 of 5"; a video
// player's time readout "0:01/0:56"), and the words of its arrows or of a
// pager ("Previous Next", "Next Page »"), a photo caption's toggle ("hide caption"), a shop's live
// count of visitors beside a product ("16 people are viewing this right now"); and marquees, a
// short call to action repeated across the page ("Book Now ✱" a hundred times).
import type { AnyNode, Element } from 'domhandler';
import { eachLive, HEADINGS, subtreeEnd, textOf, type Tree } from './content-tree.ts';
import type { PageType } from './page-type.ts';

/** A block's whole text (lowercased, spaces collapsed) that is such a label. */
const LABEL =
  /^(?:advertisements?(?: ?[-–—(:] ?[^.!?]{0,40})?|sponsor message|(?:the )?(?:article|story|content|text) continues below(?: advertisement)?|continue reading below|edit this page(?: on (?:github|gitlab))?|back to (?:the )?blog|(?:view|see) full (?:product )?details|(?:back|return|go|scroll) to (?:the )?top(?: of (?:the )?page)?|was this (?:page |article )?helpful\??|like this:|share this:|like loading\.*…?|pin (?:this|it) for later!?|add (?:[\w.-]+ )?(?:as a preferred source )?on google|(?:slide|image|photo) \d+ (?:of|\/) \d+|(?:toggle|show|hide|expand|collapse) caption|sponsored(?: content| post| listing| result)?|promoted|boosted|paid (?:content|post|partnership)|share|save|follow(?:ed)?|unfollow|(?:(?:previous|prev)(?: (?:page|slide))?(?: next(?: (?:page|slide))?)?|next(?: (?:page|slide))?)(?: ?[»›→>])?)$/;
/** Such a label is this short (characters). */
const MAX = 45;
/**
 * A carousel's or a gallery's position, which its script reads out as the slides turn, standing
 * alone ("1 of 5", "1 / 23", "2 von 7"; "1 / of 5" with its hidden word for screen readers), or a video player's time readout ("0:01/0:56", "1:02:03 /
 * 1:30:00"): the widget's, not the content's.
 */
const POSITION = /^(?:\d{1,3} (?:(?:\/ )?(?:of|von|de|sur|di|van)|\/) \d{1,3}|\d{1,2}:\d\d(?::\d\d)? ?\/ ?\d{1,2}:\d\d(?::\d\d)?)$/;
/** A table cell, where a position ("3 of 5") is a score and a bare "Download" a row's file. */
export const CELLS = new Set(['td', 'th']);

/**
 * The blocks inside the content `node` whose whole text is such a label: the largest element around
 * it holding no other text (its wrapper) (a heading so named too).
 */
export function labels(t: Tree, node: number, type: PageType): number[] {
  // (a word of a sentence set in its own element, "their <a>advertisement</a> ran", is no label)
  // (nor a code token, `next(iterator)`, `save()`, in a highlighter's spans)
  const out = wholeTextBlocks(t, node, MAX, (text) => LABEL.test(text)).filter((k) => !inCode(t, node, k));
  // (a slide's or a player's position standing alone, not a table's cell: "3 of 5" there is a score)
  for (const k of wholeTextBlocks(t, node, MAX, (text) => POSITION.test(text))) if (!inCode(t, node, k) && !underTag(t, node, k, CELLS)) out.push(k);
  // (a list's own control labels; not a heading, which on a reference page names a subject: "Filters")
  if (type === 'product') out.push(...wholeTextBlocks(t, node, MAX * 2, (text) => VIEWERS.test(text)));
  if (type !== 'documentation')
    for (const k of wholeTextBlocks(t, node, MAX, (text) => LIST_CONTROL.test(text)))
      if (!HEADINGS.has(t.els[k].name) && !headingWithin(t, k) && !inCode(t, node, k)) out.push(k);
  return out;
}

/**
 * A results list's control labels, left by the controls set aside around them: "Sort by", "Filters
 * (2)", "Clear all filters".
 */
const LIST_CONTROL = /^(?:filters?(?: \(\d+\))?|sort(?: by)?:?|clear (?:all(?: filters)?|filters)|reset filters)$/;
/**
 * A shop's live count of visitors beside a product, which its script draws from a random range ("16
 * people are viewing this right now", "3 others have this in their carts"): not the product's.
 */
const VIEWERS =
  /^\d[\d,]* (?:people|persons?|others?|shoppers|customers|visitors|users) (?:(?:are|is) )?(?:(?:viewing|looking at|watching|browsing) (?:this|it)(?: (?:product|item|page))?|(?:have|has) (?:this|it) in (?:their|his|her) (?:carts?|baskets?|bags?))(?: (?:right )?now)?[.!]?$/;

const CODE = new Set(['pre', 'code']);
const inCode = (t: Tree, node: number, k: number) => underTag(t, node, k, CODE);

/** Whether element `k`, or an element around it below `node`, is one of the tags `names`. */
export function underTag(t: Tree, node: number, k: number, names: ReadonlySet<string>): boolean {
  for (let a = k; a > node; a = t.parent[a]) if (names.has(t.els[a].name)) return true;
  return false;
}

/** Whether element `k` holds a heading (itself not counted). */
export function headingWithin(t: Tree, k: number): boolean {
  const last = subtreeEnd(t, k);
  for (let i = k + 1; i <= last; i++) if (HEADINGS.has(t.els[i].name)) return true;
  return false;
}

/**
 * The blocks inside `node` whose whole text (textOf's: lowercased, spaces collapsed), at most `max`
 * characters, `is` says yes to, each with its wrapper (ownBlock); not such a text set inside a
 * sentence (a text node beside it).
 */
export function wholeTextBlocks(t: Tree, node: number, max: number, is: (text: string) => boolean): number[] {
  const out: number[] = [];
  eachLive(t, node, (i) => {
    const chars = t.txt[i] + t.lnk[i];
    if (chars === 0 || chars > max || !is(textOf(t.els[i]))) return false;
    const k = ownBlock(t, node, i);
    if (k === -1) return false;
    out.push(k);
    return true;
  });
  return out;
}

/**
 * The largest element around `i` (inside `node`) holding no other text than `i`'s: its wrapper; -1
 * when that stands beside a sentence's text (a text node beside it: a word set in its own element).
 */
export function ownBlock(t: Tree, node: number, i: number): number {
  const chars = t.txt[i] + t.lnk[i];
  let k = i;
  while (t.parent[k] > node && t.txt[t.parent[k]] + t.lnk[t.parent[k]] === chars) k = t.parent[k];
  return t.els[k].parent?.children.some((c) => c.type === 'text' && c.data.trim() !== '') ? -1 : k;
}

/** A thread's post tools, each a block's whole text (lowercased, spaces collapsed): Invision's "Link to post" and "Share on other sites", a board's "Report inappropriate content". */
const POST_TOOL =
  /^(?:link to (?:this )?(?:post|comment|reply)|share on other sites|report (?:this )?(?:post|abuse|inappropriate content)|reply with quote|multi-?quote|(?:user (?:is )?)?(?:online|offline)(?: now)?|logged|code: select all)$/;
/** Found in this many posts or more. */
const POST_TOOLS = 2;

/**
 * The blocks inside a thread's content `node` whose whole text is a post's tool (with the wrappers
 * holding nothing else), found twice or more: links a board prints under every post, not its text.
 */
export function postTools(t: Tree, node: number): number[] {
  const out = wholeTextBlocks(t, node, MAX, (text) => POST_TOOL.test(text));
  return out.length >= POST_TOOLS ? out : [];
}

/**
 * A post's edit note, a block's whole text (lowercased, spaces collapsed): "Edited January 29 by
 * jane (see edit history)", "Last edited by jane; 01-02-2024 at 10:00", "Edited: 2:17 am", "Zuletzt
 * bearbeitet von jane", "Modifié par jane", "Editado por jane": who edited the post and when, with a
 * name after "by" or a digit of a date.
 */
const EDIT_LINE =
  /^(?:last |zuletzt )?(?:edited|bearbeitet|modifi[ée]|editado|modificato|bewerkt)(?: on| at| am| le| el| il| op|:)?(?: [^.!?()]{0,60}?)?(?: (?:by|von|par|por|da|door) [^.!?()]{1,60})?(?: \(see edit history\))?$/;
const EDIT_SIGN = /\d| (?:by|von|par|por|da|door) \S/;
/** Such a note is this short (characters). */
const EDIT_MAX = 120;

/** The blocks inside a thread's content `node` whose whole text is a post's edit note (not a heading). */
export function editLines(t: Tree, node: number): number[] {
  return wholeTextBlocks(t, node, EDIT_MAX, (text) => EDIT_LINE.test(text) && EDIT_SIGN.test(text)).filter(
    (k) => !HEADINGS.has(t.els[k].name) && !headingWithin(t, k),
  );
}

/** A list's comparison toggle, each a block's whole text: "Compare", "Add to compare". */
const COMPARE = /^(?:add to |\+ ?)?compare$/;
/** Found in this many items or more (a checkbox's label so named is left-out.ts's cardToggles'). */
const COMPARES = 5;

/**
 * The blocks inside the content `node` whose whole text is a comparison toggle, found in five places
 * or more (a ranking's rows, a list's cards: each its own "Compare"), not a heading: the control every
 * item carries, however drawn (a span a script listens to, a button, a link).
 */
export function compareToggles(t: Tree, node: number): number[] {
  const out = wholeTextBlocks(t, node, MAX, (text) => COMPARE.test(text)).filter((k) => !HEADINGS.has(t.els[k].name) && !headingWithin(t, k));
  return out.length >= COMPARES ? out : [];
}

/** A reply's title repeating the thread's with "Re:" before it ("Re: Turning off all LEDs", "1. Re: Tips from a first visit"). */
const REPLY_TITLE = /^(?:#?\d+\.?\s*)?re:\s/i;
/** Such a title is this short (characters). */
const REPLY_TEXT = 200;
/** A title this long or more (characters) is compared. */
const MIN_TITLE = 8;

/** The document's `<title>` (in the `<head>`, which the measured tree leaves out). */
function documentTitle(t: Tree): Element | undefined {
  const tag = (n: AnyNode | undefined, name: string) =>
    n && 'children' in n ? n.children.find((c): c is Element => c.type === 'tag' && c.name === name) : undefined;
  const root = t.els.find((el) => el.name === 'html');
  return tag(tag(root, 'head'), 'title');
}

/**
 * The blocks inside a thread's content `node` whose whole text is a reply's title ("Re: " and the
 * thread's), with the wrappers holding nothing else, found twice or more: the board's heading over
 * every reply, which says nothing the thread's title does not.
 */
export function replyTitles(t: Tree, node: number): number[] {
  // (the thread's title: its first heading h1, or the document's title)
  const h1 = t.els.find((el) => el.name === 'h1');
  const titles = [h1, documentTitle(t)]
    .filter((el): el is Element => el !== undefined)
    .map((el) => textOf(el))
    .filter((s) => s.length >= MIN_TITLE);
  if (!titles.length) return [];
  const out = wholeTextBlocks(t, node, REPLY_TEXT, (text) => {
    const m = REPLY_TITLE.exec(text);
    if (!m) return false;
    // (the rest is the thread's title, whole or cut short: "Re: Tips from a first time…")
    const rest = text
      .slice(m[0].length)
      .replace(/(?:…|\.\.\.)$/, '')
      .trim();
    return rest.length >= MIN_TITLE && titles.some((ti) => ti.startsWith(rest));
  });
  return out.length >= POST_TOOLS ? out : [];
}

/** A marquee repeats its phrase in this many elements or more... */
const TICKER = 8;
/** ... each this short (characters). */
const TICKER_TEXT = 40;
/** Rows and options repeat a value ("Yes", "✓") without being a marquee. */
const NOT_TICKER = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'select', 'datalist', 'optgroup']);

/**
 * Marquees inside the content `node`: a block of TICKER or more elements that all say the same short
 * phrase and nothing else ("Book Now ✱" scrolled across the page, copied so the loop has no gap).
 * What it says is a call to action or a slogan, and the markdown would write it a hundred times.
 */
export function tickers(t: Tree, node: number): number[] {
  const out: number[] = [];
  eachLive(t, node, (i) => {
    const el = t.els[i];
    if (NOT_TICKER.has(el.name)) return false;
    let count = 0;
    let phrase: string | undefined;
    let same = true;
    for (const c of el.children) {
      if (c.type === 'text') {
        if (c.data.trim() !== '') same = false;
      } else if (c.type === 'tag') {
        const s = textOf(c);
        if (s === '' || s.length > TICKER_TEXT || (phrase !== undefined && s !== phrase)) same = false;
        phrase = s;
        count++;
      }
      if (!same) break;
    }
    // (the text counted agrees: each element's markup text, not only what textOf reads first)
    if (!same || count < TICKER || phrase === undefined || !/\p{L}/u.test(phrase) || t.txt[i] + t.lnk[i] > count * TICKER_TEXT) return false;
    out.push(i);
    return true;
  });
  return out;
}
