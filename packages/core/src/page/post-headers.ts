// A thread's post header named like an article's meta line (main-content.ts, content-tree.ts): the
// words `post-meta` and `entry-meta` name a blog post's byline and dateline, set aside as chrome,
// but inside a post of a thread marked up with schema.org microdata (an item of type Comment,
// Answer, Question or DiscussionForumPosting) the block holding that post's author
// (`itemprop="author"`) and date (`itemprop="datePublished"` or a `<time>`) is who wrote the reply
// and when: the thread's text, which forum ground truths keep beside each post. Discourse's page
// for crawlers writes each reply so (`<div itemprop="comment" itemtype="http://schema.org/Comment">
// <div class="crawler-post-meta"><span itemprop="author">…</span><time itemprop="datePublished">`).
import type { Element } from 'domhandler';

/** A post of a thread by its schema.org type. */
const POST_ITEM = /schema\.org\/(?:Comment|Answer|Question|DiscussionForumPosting|SocialMediaPosting)\/?$/i;
/** The post item lies this many levels above the header at most. */
const UP = 3;
/** Such a header is this short (elements inside it), a line, not a post's body. */
const MAX_ELEMENTS = 40;

/** Whether `el`, named as a meta line, is a thread's post header (its author and date). */
export function postHeader(el: Element): boolean {
  if (!inPost(el)) return false;
  let author = false;
  let date = false;
  let n = 0;
  const stack: Element[] = [el];
  while (stack.length) {
    const e = stack.pop()!;
    if (++n > MAX_ELEMENTS) return false;
    const prop = e.attribs.itemprop ?? '';
    if (/\bauthor\b/.test(prop)) author = true;
    if (/\bdate(?:Published|Created)\b/.test(prop) || e.name === 'time') date = true;
    for (const c of e.children) if (c.type === 'tag') stack.push(c as Element);
  }
  return author && date;
}

/**
 * A post's number in its header, marked as its schema.org position (`<span itemprop="position">2</span>`
 * beside the author and date): the post's place in the thread, not its text.
 */
export function postNumber(el: Element): boolean {
  if (el.attribs.itemprop !== 'position') return false;
  if (!inPost(el)) return false;
  const text = el.children.map((c) => (c.type === 'text' ? c.data : '')).join('');
  return /^\s*#?\d+\s*$/.test(text) && el.children.every((c) => c.type === 'text');
}

/** Whether an element UP levels above `el` at most is a post of a thread by its schema.org type. */
function inPost(el: Element): boolean {
  for (let p = el.parent, k = 0; p && p.type === 'tag' && k < UP; p = p.parent, k++) if (POST_ITEM.test((p as Element).attribs.itemtype ?? '')) return true;
  return false;
}
