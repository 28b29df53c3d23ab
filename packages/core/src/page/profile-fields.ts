// A forum post's author details written as labelled fields ("Join Date: Aug 2008", "Posts: 673",
// "Likes Received: 12", "Location: AMS"), found by what they say whatever the forum package names
// them: every package prints the same few fields beside each post.
import type { AnyNode, Element } from 'domhandler';
import { elementChildren, type Tree } from './content-tree.ts';
import { wholeTextBlocks } from './labels.ts';

/** The labels of a poster's profile fields, each followed by a colon. */
const LABEL =
  /(?:join(?:ed)?(?: date)?|registered|member since|posts|messages|likes(?: received)?|reaction score|trophy points|points|reputation|rep power|karma|thanks(?: received| given)?|thanked|location|gender|credits)\s*:/gy;
/** A block of fields holds at most this much text (characters), and each field's value at most FIELD_VALUE. */
const FIELDS_TEXT = 400;
const FIELD_VALUE = 60;
/** Blocks of fields found in at least this many places (one per post) are the posters' details. */
const MIN_BLOCKS = 2;

/**
 * The topmost blocks inside `node` whose whole text is profile fields, one or more ("Registered:
 * 2016-07-02 Posts: 710"), when there are two or more of them: the details a forum prints beside
 * every post, not the post. A block starting otherwise (a post saying "Location: the shed") is not one.
 */
export function profileFields(t: Tree, node: number): number[] {
  const out: number[] = [];
  const stack = elementChildren(t, node);
  while (stack.length) {
    const k = stack.pop()!;
    const size = t.txt[k] + t.lnk[k];
    if (size > 0 && size <= FIELDS_TEXT * 2 && onlyFields(rawText(t.els[k]))) out.push(k);
    else stack.push(...elementChildren(t, k));
  }
  return out.length >= MIN_BLOCKS ? out : [];
}

/** Whether `text` is one or more `Label: value` fields and nothing else. */
export function onlyFields(text: string): boolean {
  const s = text.replace(/\s+/g, ' ').trim().toLowerCase();
  if (s.length === 0 || s.length > FIELDS_TEXT) return false;
  let at = 0;
  let n = 0;
  while (at < s.length) {
    LABEL.lastIndex = at;
    const m = LABEL.exec(s);
    if (m === null) return false;
    n++;
    // The value runs to the next label (or the end).
    let next = s.length;
    for (let j = LABEL.lastIndex; j < s.length; j++) {
      if (j > 0 && s[j - 1] !== ' ') continue;
      LABEL.lastIndex = j;
      if (LABEL.exec(s) !== null) {
        next = j;
        break;
      }
    }
    if (next - (m.index + m[0].length) > FIELD_VALUE) return false;
    at = next;
  }
  return n > 0;
}

/** An element's text, scripts and styles aside, up to a little over FIELDS_TEXT characters. */
function rawText(el: Element): string {
  let s = '';
  const stack: AnyNode[] = [el];
  while (stack.length && s.length <= FIELDS_TEXT) {
    const n = stack.pop()!;
    if (n.type === 'text') s += `${n.data} `;
    else if (n.type === 'tag' && n.name !== 'script' && n.name !== 'style')
      for (let i = (n as Element).children.length - 1; i >= 0; i--) stack.push((n as Element).children[i]);
  }
  return s;
}

/** A poster's count badge: a number and what it counts ("9,239 posts", "105 helpful votes", "1.2k reactions"). */
const COUNT_BADGE =
  /^\d[\d,.]*\s*[km]?\s+(?:forum )?(?:posts?|messages?|(?:helpful )?votes?|reviews?|reactions?|likes?|points?|thanks|contributions?|answers?|followers?)$/i;
/** Such a badge is this short (characters). */
const COUNT_TEXT = 30;

/**
 * The blocks inside the content `node` whose whole text is a poster's count badge, with the wrappers
 * that hold nothing else, when there are two or more (one beside each post): the author's box, written
 * with the label after the number instead of a `Posts:` field; not a count in a sentence.
 */
export function countBadges(t: Tree, node: number): number[] {
  const out = wholeTextBlocks(t, node, COUNT_TEXT, (text) => COUNT_BADGE.test(text));
  return out.length >= MIN_BLOCKS ? out : [];
}

/** The badge a forum puts on the thread starter's posts: "Author", "Original poster", "OP", "Topic starter". */
const STARTER_BADGE = /^(?:author|original poster|op|topic starter|thread starter)$/;
/** Such a badge is this short (characters). */
const BADGE_TEXT = 20;

/**
 * The blocks inside the content `node` whose whole text is the thread starter's badge, with the
 * wrappers that hold nothing else; not such a word inside a sentence (a text beside it).
 */
export function starterBadges(t: Tree, node: number): number[] {
  return wholeTextBlocks(t, node, BADGE_TEXT, (text) => STARTER_BADGE.test(text));
}
