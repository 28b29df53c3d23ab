// Placeholder text a page template left in ("Lorem ipsum dolor sit amet"), found inside the main
// content (left-out.ts) to be left out, and a loading placeholder ("Loading...") a script replaces: no page means it, whether its stylesheet hides the unused
// component or shows it by mistake. So is the notice a consent manager puts where an embed would be
// until the reader accepts its cookies ("This content isn't visible due to your cookie preferences").
import { eachLive, outermost, subtreeEnd, textOf, type Tree } from './content-tree.ts';

/** Placeholder text, as an element's own text begins. */
const LOREM = /^\s*lorem ipsum\b/i;
/** A block around placeholder text holding at most this much other text (characters: its heading "Head Line 1", its "Learn more") is the template's. */
const OTHER_TEXT = 100;

/**
 * Blocks of placeholder text inside the content `node`: the largest block around an element whose
 * own text begins "Lorem ipsum" that holds at most OTHER_TEXT characters of other text (the unused
 * component's heading, its button), not the content around it.
 */
export function placeholders(t: Tree, node: number): number[] {
  return [...lorem(t, node), ...loading(t, node), ...consentNotices(t, node)];
}

/**
 * The opening of a consent manager's notice in place of an embed it blocks (a post, a video, a map):
 * "This content isn't visible due to your cookie preferences", "This video is blocked by your cookie
 * settings", "Please accept marketing cookies to watch this video", "To view this content, allow
 * cookies", "We need your consent to load the YouTube service", "Dieser Inhalt ist aufgrund Ihrer
 * Cookie-Einstellungen nicht sichtbar", "Bitte akzeptieren Sie die Cookies, um dieses Video anzusehen".
 */
const CONSENT_NOTICE = new RegExp(
  '^(?:' +
    [
      String.raw`this (?:content|embed|video|media|post|map|tweet|element|widget)(?: is|'s)?(?: not|n't| currently)? (?:visible|displayed|shown|available|loaded|blocked|hidden)\b.{0,20}\b(?:due to|because of|until|unless|without|by)\b.{0,30}\b(?:cookies?|consent)`,
      String.raw`(?:to|in order to) (?:view|see|load|display|watch|play) this (?:content|embed|video|media|post|map|tweet)\b.{0,40}\b(?:allow|accept|enable|consent to)\b.{0,30}\bcookies?`,
      String.raw`(?:please )?(?:accept|allow|enable|activate) (?:the )?[\p{L} -]{0,30}cookies,? (?:in order )?to (?:view|see|load|display|watch|play)\b`,
      String.raw`we need your (?:consent|permission) to load\b`,
      String.raw`(?:dieser|diese|dieses) (?:inhalt|video|karte|beitrag)\b.{0,60}\bcookie`,
      String.raw`bitte (?:akzeptieren|aktivieren|erlauben) sie\b.{0,40}\bcookies?\b`,
    ].join('|') +
    ')',
  'u',
);
/** What every such notice names. */
const COOKIE_WORD = /cookie|consent|permission/;
/** Such a notice, with its buttons' labels set aside, is at most this long (characters). */
const CONSENT_LENGTH = 400;

/** The blocks whose whole text is a consent manager's notice standing in for an embed it blocks. */
function consentNotices(t: Tree, node: number): number[] {
  const out: number[] = [];
  eachLive(t, node, (i) => {
    const chars = t.txt[i] + t.lnk[i];
    if (chars === 0 || chars > CONSENT_LENGTH) return chars === 0;
    const text = textOf(t.els[i], CONSENT_LENGTH + 1, undefined, t);
    // (every wording names cookies, consent or permission: a block saying none holds no notice, nor do its parts)
    if (!COOKIE_WORD.test(text)) return true;
    if (!CONSENT_NOTICE.test(text)) return false;
    out.push(i);
    return true;
  });
  return out;
}

/** A loading placeholder's whole text ("Loading...", "Loading prices for your region…"), as textOf() reads it. */
const LOADING = /^loading(?: \p{L}+){0,4} ?(?:\.{2,3}|…)$/u;
/** A spinner's bare "Loading" (not a list item or table cell of that one word: a removal firm's services). */
const BARE_LOADING = /^loading(?: content)?$/;
const ITEM = new Set(['li', 'td', 'th', 'dt', 'dd']);
/** An element this long or shorter (characters) may be a loading placeholder. */
const LOADING_LENGTH = 40;

/**
 * Blocks whose whole text says something is loading ("Loading...", "Loading…"): the spinner a script
 * shows until its part arrives, left in the HTML it served; not the part.
 */
function loading(t: Tree, node: number): number[] {
  const out: number[] = [];
  eachLive(t, node, (i) => {
    if (t.txt[i] + t.lnk[i] > LOADING_LENGTH || t.txt[i] + t.lnk[i] === 0) return t.txt[i] + t.lnk[i] === 0;
    const s = textOf(t.els[i]);
    if (!LOADING.test(s) && !(BARE_LOADING.test(s) && !ITEM.has(t.els[i].name))) return false;
    out.push(i);
    return true;
  });
  return out;
}

function lorem(t: Tree, node: number): number[] {
  const last = subtreeEnd(t, node);
  const lorem = new Float64Array(last - node + 1);
  const found: number[] = [];
  eachLive(t, node, (i) => {
    const first = t.els[i].children.find((c) => c.type === 'text' && c.data.trim() !== '');
    if (first === undefined || first.type !== 'text' || !LOREM.test(first.data)) return false;
    found.push(i);
    lorem[i - node] = t.txt[i] + t.lnk[i];
    return true;
  });
  if (found.length === 0) return [];
  for (let i = last; i > node; i--) lorem[t.parent[i] - node] += lorem[i - node];
  const out = new Set<number>();
  for (const f of found) {
    let a = f;
    for (let p = t.parent[a]; p !== node && p !== -1 && t.txt[p] + t.lnk[p] - lorem[p - node] <= OTHER_TEXT; p = t.parent[p]) a = p;
    out.add(a);
  }
  return outermost(t, out);
}
