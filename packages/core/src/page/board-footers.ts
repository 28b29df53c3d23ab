// A forum's board widgets printed under a thread's posts (thread-parts.ts): the forum jump menu
// ("Forum Jump", "Jump to:"), the list of who is online ("Who is online", "Users browsing this
// forum: …") and the board's posting rules — labels phpBB, vBulletin, MyBB and Invision print alike.
import { eachLive, textOf, weight, type Tree } from './content-tree.ts';
import { ownBlock } from './labels.ts';

/** A widget's label, the element's whole text. */
const BOARD_LABEL =
  /^(?:forum jump|jump to:?|who is online|(?:users|members) (?:who are )?(?:browsing|viewing|reading) this (?:forum|thread|topic)|posting rules|posting permissions)$/i;
/** The list of members reading the thread, by its opening words ("Users browsing this forum: ann, bob"). */
const ONLINE_LIST = /^(?:currently active )?(?:users|members) (?:who are )?(?:browsing|viewing|reading) this (?:forum|thread|topic)\b/i;
const ONLINE_TAGS = new Set(['p', 'div', 'dd', 'li', 'td', 'span']);
/** A label holds at most this much text (characters). */
const LABEL_TEXT = 40;
/** The widget around a label holds at most this much text (characters)... */
const WIDGET_TEXT = 2500;
/** ... and this share of the content. */
const WIDGET_SHARE = 0.25;

/**
 * The largest block around each board label inside the content `node` within the bounds above, and
 * the list of members browsing the thread (a block whose text opens so, within the same bounds).
 */
export function boardFooters(t: Tree, node: number): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  const fits = (k: number) => weight(t, k) <= WIDGET_TEXT && weight(t, k) <= WIDGET_SHARE * whole;
  eachLive(t, node, (i) => {
    const chars = t.txt[i] + t.lnk[i];
    if (ONLINE_TAGS.has(t.els[i].name) && fits(i) && ONLINE_LIST.test(textOf(t.els[i]).trim())) {
      out.push(i);
      return true;
    }
    if (chars === 0 || chars > LABEL_TEXT || !BOARD_LABEL.test(textOf(t.els[i]).trim())) return false;
    let k = ownBlock(t, node, i);
    if (k === -1) k = i;
    if (!fits(k)) return false;
    while (t.parent[k] > node && fits(t.parent[k])) k = t.parent[k];
    out.push(k);
    return true;
  });
  return out;
}
