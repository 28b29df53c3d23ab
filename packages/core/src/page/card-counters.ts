// Found inside the main content (left-out.ts): the engagement counters every card of a listing's run
// carries ("84 reactions 9 comments", "12 likes", "3 min read"), the site's tally of each item, not what
// the list says about it; a "Read more" link standing alone, or a collapsed text's toggle ("READ MORE",
// "read less read more") however drawn; a list's results count and page-size label
// ("1-30 of 1000", "Results per page:"); a live region's status message ("loaded 338 results").
import type { Element } from 'domhandler';
import { eachLive, HEADINGS, signature, textOf, type Tree } from './content-tree.ts';
import { CELLS, headingWithin, ownBlock, underTag } from './labels.ts';

/** A count ("84", "1.2k", "3,400"). */
const NUM = String.raw`\d[\d,.]*\s?[km]?`;
/** What the count tallies. */
const UNIT = String.raw`(?:reactions?|comments?|likes?|repl(?:y|ies)|views?|shares?|claps?|votes?|points?|responses?|upvotes?)`;
/** A block's whole text that is such a counter, or several side by side, or a reading time. */
const COUNTER = new RegExp(String.raw`^(?:${NUM} ${UNIT}(?: ?[·•|,]? ?${NUM} ${UNIT})*|${NUM} min(?:ute)?s? read)$`);
/** Such a block is this short (characters). */
const MAX = 40;
/**
 * A link aggregator's line under each submission: its score, who submitted it and when, and the
 * row's controls and comment count after it ("1 point by breve 0 minutes ago | hide | past | 1
 * comment", "12 votes by ana 3 hours ago · 4 comments"): the site's tally of each item, like a counter.
 * (A line that goes on with anything else, a tag, is the row's text too, and stays.)
 */
const SUBMITTED = new RegExp(
  String.raw`^${NUM} (?:points?|votes?|upvotes?) by [\p{L}\p{N}_.-]+ \d+ (?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?) ago(?: ?[|·•] ?(?:hide|past|discuss|flag|favou?rite|save|share|report|${NUM} comments?))*$`,
  'u',
);
/** Such a line is this short (characters). */
const SUBMITTED_MAX = 120;
/** Cards carrying such a counter in blocks of one kind (tag and classes), at least. */
const CARDS = 5;

/** An element's text, its icons' titles aside (an SVG's `<title>Comments</title>`), up to a long counter's length. */
const ownText = (el: Element) => textOf(el, MAX * 2 + 1, 'svg');

/**
 * The blocks inside the content `node` whose whole text is an engagement counter or a reading time,
 * when CARDS or more blocks of one kind say one: the counters of a run of cards, not a count an
 * article's text gives once.
 */
export function cardCounters(t: Tree, node: number): number[] {
  const byKind = new Map<string, number[]>();
  eachLive(t, node, (i) => {
    const chars = t.txt[i] + t.lnk[i];
    if (chars === 0 || chars > SUBMITTED_MAX) return false;
    const text = textOf(t.els[i], SUBMITTED_MAX + 1, 'svg');
    if (!(chars <= MAX * 2 && COUNTER.test(text)) && !SUBMITTED.test(text)) return false;
    const k = ownBlock(t, node, i);
    if (k === -1) return false;
    const kind = signature(t.els[k]);
    byKind.set(kind, [...(byKind.get(kind) ?? []), k]);
    return true;
  });
  return [...byKind.values()].filter((ks) => ks.length >= CARDS).flat();
}

/**
 * A card's link to the rest of its item ("Read more", "Continue reading →", "Read the full story"), or
 * a section's link to the rest of its list ("View all", "See more", "Explore all ›"): saying nothing of
 * what it leads to, it is a way out of the page, not its text.
 */
const READ_MORE =
  /^(?:read more|continue reading|read (?:the )?(?:full|whole|entire) (?:story|article|post|review)|read the rest|(?:view|see|show|explore|browse|load) (?:all|more))(?: ?[.…»›→>+]+)?$/;

/**
 * A link back up the page to one of its own parts ("Back to top", "Back to Project", "Return to the
 * list", "↑ Top", "Nach oben", "Retour en haut", "Volver arriba"), to a `#fragment`: a way round the
 * page, printed after each of its sections, not its text.
 */
const BACK_UP =
  /^(?:[↑⬆▲^]\s?)?(?:(?:back|return|scroll) (?:up )?to (?:the )?\p{L}+(?: \p{L}+)?|(?:to )?(?:the )?top(?: of (?:the )?page)?|(?:zurück )?nach oben|(?:retour|revenir) en haut(?: de (?:la )?page)?|haut de (?:la )?page|volver (?:arriba|al inicio)|torna (?:su|all'inizio)|naar boven|voltar ao topo)(?:\s?[↑⬆▲])?$|^[↑⬆▲]$/u;

/**
 * A collapsed text's toggle, whatever element draws it ("READ MORE" under a clipped description, "read
 * less read more" with one of its two words shown at a time, "Show less"): the script's control, not
 * the text it opens.
 */
const TOGGLE = /^(?:(?:read|show|see|view) (?:more|less)(?: ?[.…+−-]+)?)(?: (?:read|show|see|view) (?:more|less)(?: ?[.…+−-]+)?)?$/;

/**
 * A bare "Download" link: a story's audio file, an app's installer, named by nothing but the control; in
 * a table it is a row's file (a course's lecture notes), the table's data.
 */
const DOWNLOAD = /^download(?: now)?$/;

/** A URL fragment as the id it names (`#caf%C3%A9` is `café`); as written when it does not decode. */
function decodeFragment(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

/**
 * The links inside the content `node` whose whole text says "Read more" (standing alone in their block):
 * a card's way to its item or a teaser's toggle, not text of the page. (Repeated in five rows of a listing
 * they are row-controls.ts's too.)
 */
export function readMoreLinks(t: Tree, node: number): number[] {
  const out: number[] = [];
  // (a "Back to …" link leads back up: one whose target comes after it is an entry of the page's own
  // contents, "Back to Basics" to its section; the ids are indexed once, on the first such link)
  let ids: Map<string, number> | undefined;
  const targetAfter = (id: string, i: number) => {
    if (!ids) {
      ids = new Map();
      for (let j = 0; j < t.els.length; j++) {
        const a = t.els[j].attribs;
        for (const v of [a.id, a.name]) if (v && !ids.has(v)) ids.set(v, j);
      }
    }
    const j = ids.get(decodeFragment(id));
    return j !== undefined && j > i;
  };
  eachLive(t, node, (i) => {
    if (t.els[i].name !== 'a') {
      // (a toggle drawn by another element, standing alone in its block; not a heading, which names a section)
      const chars = t.txt[i] + t.lnk[i];
      if (chars === 0 || chars > MAX || HEADINGS.has(t.els[i].name) || !TOGGLE.test(textOf(t.els[i], MAX * 2 + 1, 'svg')) || headingWithin(t, i)) return false;
      const k = ownBlock(t, node, i);
      if (k !== -1 && !HEADINGS.has(t.els[k].name)) out.push(k);
      return k !== -1;
    }
    if (t.lnk[i] === 0 || t.lnk[i] > MAX) return false;
    // (its text without the parts set aside inside it: a link's words for screen readers only,
    // `Read full article<span class="sr-only">: How to choose boots</span>`)
    const text = textOf(t.els[i], MAX * 2 + 1, 'svg', t);
    const href = t.els[i].attribs.href ?? '';
    const backUp = /^#\S/.test(href) && BACK_UP.test(text) && !targetAfter(href.slice(1), i);
    if (!backUp && !READ_MORE.test(text) && !TOGGLE.test(text) && !(DOWNLOAD.test(text) && !underTag(t, node, i, CELLS))) return false;
    const k = ownBlock(t, node, i);
    if (k !== -1) out.push(k);
    return true;
  });
  return out;
}

/**
 * A listing's count of results and its page-size control ("1-30 of 1000", "Showing 1–20 of 345
 * results", "1-24 items of 33", "Displaying 1 to 24 (of 204 products)", "Showing 24 of 291 results"
 * over a "Show more" button, "Results per page:").
 */
const RESULTS_COUNT =
  /^(?:(?:showing|displaying|viewing)?\s?(?:results?|items?)?\s?\d[\d,]* ?(?:[-–]|to) ?\d[\d,]*(?: (?:results?|items?|products))? \(?(?:of|out of) \d[\d,]*(?: (?:results?|items?|entries|products))?\)?|(?:showing|displaying|viewing) \d[\d,]* (?:of|out of) \d[\d,]*(?: (?:results?|items?|entries|products))?|(?:results?|items?|entries|products|show|display)? ?per page:?)$/;

/** The blocks inside the content `node` whose whole text is a listing's results count or page-size label. */
export function resultsCounts(t: Tree, node: number): number[] {
  const out: number[] = [];
  eachLive(t, node, (i) => {
    const chars = t.txt[i] + t.lnk[i];
    if (chars === 0 || chars > MAX || !RESULTS_COUNT.test(ownText(t.els[i]))) return false;
    const k = ownBlock(t, node, i);
    if (k === -1) return false;
    out.push(k);
    return true;
  });
  return out;
}

/** A status message is at most this long (characters). */
const STATUS_TEXT = 60;

/**
 * The status messages inside the content `node`: a live region (`role="status"`, `aria-live`) of at
 * most STATUS_TEXT characters, holding no heading, what a script announces to screen readers when
 * the list changes ("loaded 338 results", "Added to cart"), not the page's text. (Not on a product
 * page, whose availability may be written in one: left-out.ts.)
 */
export function statusMessages(t: Tree, node: number): number[] {
  const out: number[] = [];
  eachLive(t, node, (i) => {
    const a = t.els[i].attribs;
    if (a.role !== 'status' && (a['aria-live'] === undefined || a['aria-live'] === 'off')) return false;
    const chars = t.txt[i] + t.lnk[i];
    if (chars === 0 || chars > STATUS_TEXT || headingWithin(t, i)) return false;
    out.push(i);
    return true;
  });
  return out;
}
