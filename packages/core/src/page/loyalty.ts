// A shop's loyalty note beside a product's buy box (main-content.ts): "Members earn 179 points on
// this purchase.", "Become a member to earn 239 points today.", "Earn $13.70 in rewards, with 5%
// back" — what the shop's rewards programme gives for any order, not the product's description. It is
// returned with the shop's parts, which the markdown leaves out and the model input keeps.
import { HEADINGS, textOf, type Tree } from './content-tree.ts';
import { PRICE } from './prices.ts';
import { holdingText } from './text-marks.ts';

/** Earning a number of points or an amount of rewards: "earn 179 points", "earn up to 4500 Huel+ points", "earn $13.70 in rewards" (not a game's "earn rewards" for its quests: no number). */
const EARN = /\bearn(?:s)?(?: \S+){0,3}? \S*\d\S*(?: \S+){0,2}? (?:points|rewards|reward points)\b/;
/** The note holds at most this many characters, with the wrappers around it (the programme's name beside it). */
const NOTE_TEXT = 200;

/**
 * On a product page, the shop's loyalty notes inside the content `node`: the smallest element whose
 * text, at most NOTE_TEXT characters, says the buyer earns points or rewards, grown to the largest
 * block around it of at most NOTE_TEXT characters that holds no heading, no price of its own beside
 * the note's and not the page's title (`holdsTitle`).
 */
export function loyaltyNotes(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const last = t.last[node];
  const marks = holdingText(t, node, /earn/i);
  for (let i = node + 1; i <= last; i++) {
    if (!marks[i - node]) {
      i = t.last[i];
      continue;
    }
    const chars = t.txt[i] + t.lnk[i];
    if (t.gone[i] || chars === 0 || chars > NOTE_TEXT || holdsTitle(i)) continue;
    const text = textOf(t.els[i], NOTE_TEXT + 10, undefined, t);
    if (!EARN.test(text)) continue;
    // (the smallest such element: none of its children says it alone)
    let a = i;
    for (let k = i + 1; k <= t.last[i]; k++) if (marks[k - node] && !t.gone[k] && EARN.test(textOf(t.els[k], NOTE_TEXT + 10, undefined, t))) a = k;
    if (a !== i) continue;
    for (let p = t.parent[a]; p > node && t.txt[p] + t.lnk[p] <= NOTE_TEXT && !holdsTitle(p); p = t.parent[p]) {
      if (HEADINGS.has(t.els[p].name) || holdsHeading(t, p) || PRICE.test(textOf(t.els[p], NOTE_TEXT + 10, undefined, t).replace(text, ''))) break;
      a = p;
    }
    out.push(a);
    i = t.last[a];
  }
  return out;
}

function holdsHeading(t: Tree, p: number): boolean {
  for (let k = p + 1; k <= t.last[p]; k++) if (HEADINGS.has(t.els[k].name) && !t.gone[k]) return true;
  return false;
}
