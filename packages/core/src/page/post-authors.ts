// A thread's post author (link-blocks.ts): the block above or beside each post whose whole text is
// one link, the poster's name leading to their profile (`<div class="username"><a
// href="/members/jane.123/">jane</a></div>`, Discourse's `<span itemprop="author"><a
// href="/u/jane">`, Stack Exchange's `<a href="/users/42/jane">`). Mostly links, it would go as a
// link block, but on a thread it says who wrote the post: forum ground truths keep it beside each
// post, as a reader reads it. Not an avatar's link (its initial alone: "J") nor a profile link
// whose text is not a name ("View profile").
import type { Element } from 'domhandler';
import { eachLive, textOf, type Tree } from './content-tree.ts';

/** A member's profile page by its address: `/u/jane`, `/members/jane.123/`, `/users/42/jane`, `member.php?u=7`, `profile.php?id=7`, `/@jane`. */
const PROFILE =
  /\/(?:u|users?|members?|profiles?|people)\/[^/?#]|\/member\.php|\/profile\.php|[?&]mode=viewprofile|\/@[\w.-]+\/?(?:[?#]|$)|[?&](?:u|uid|userid|showuser)=\d/i;
/** Or marked as the author: `itemprop="author"`, `rel="author"`, a `username` or `author` class word. */
const AUTHOR_CLASS = /(?:^|[\s_-])(?:username|user-?name|author|poster)(?:$|[\s_-])/i;
/** A name's length (characters): a word or a few, not an initial. */
const MIN_NAME = 2;
const MAX_NAME = 60;
/** Profile links whose text is an action, not a name. */
const ACTION = /^(?:view|see|visit|show|open)\b|\bprofile\b|\bfollow\b|\bmessage\b/i;

/** Whether block `k` is a post's author: its whole live text the text of one link to a profile. */
export function postAuthor(t: Tree, k: number): boolean {
  if (t.txt[k] > 0) return false;
  let link = -1;
  let links = 0;
  eachLive(t, k, (i) => {
    if (t.els[i].name !== 'a') return false;
    if (t.lnk[i] > 0) {
      links++;
      link = i;
    }
    return true;
  });
  if (links !== 1 || t.lnk[link] !== t.lnk[k]) return false;
  const el = t.els[link];
  const name = textOf(el, 200, undefined, t).replace(/\s+/g, ' ').trim();
  if (name.length < MIN_NAME || name.length > MAX_NAME || !/\p{L}/u.test(name) || ACTION.test(name)) return false;
  return PROFILE.test(el.attribs.href ?? '') || marked(t, k, el);
}

/** Whether the link or an element between it and block `k` is marked as the author. */
function marked(t: Tree, k: number, el: Element): boolean {
  if (/\bauthor\b/i.test(el.attribs.rel ?? '')) return true;
  for (let i = t.index.get(el) ?? -1; i !== -1; i = t.parent[i]) {
    const a = t.els[i].attribs;
    if (/\bauthor\b/.test(a.itemprop ?? '') || AUTHOR_CLASS.test(a.class ?? '')) return true;
    if (i === k) break;
  }
  return false;
}
