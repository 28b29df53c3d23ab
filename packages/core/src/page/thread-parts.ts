// What the main content leaves out of a thread and of an article with comments (left-out.ts): a
// forum post's signature and its author's profile box, rank and edit notes, the thread's reply box,
// voting controls, counters and reactions, the comments under each post of a questions-and-answers
// thread; and an article's comment thread.
import type { Element } from 'domhandler';
import { elementChildren, isAncestor, named, signature, subtreeEnd, weight, type Tree } from './content-tree.ts';
import type { PageType } from './page-type.ts';
import { editLines, postTools, replyTitles } from './labels.ts';
import { countBadges, profileFields, starterBadges } from './profile-fields.ts';
import { boardFooters } from './board-footers.ts';
import { threadInfo } from './thread-info.ts';

/**
 * The parts of a thread (forum) or of an article's comments inside the content `node` to leave out;
 * `holdsTitle` says whether an element holds the page's title (its first h1).
 */
export function threadParts(t: Tree, node: number, type: PageType, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const add = (found: number[]) => {
    for (const i of found) out.push(i);
  };
  // An article's comment thread is not the article (on a forum the posts are the content).
  // A comment section holding most of the content is still dropped when the article's title lies
  // outside it and the rest is an article's worth of text (a short story under a long thread).
  // A list's comments (readers' remarks under a ranked list) are not the list either.
  if (type === 'article' || type === 'listing')
    for (const i of named(t, node, COMMENTS)) {
      const rest = weight(t, node) - weight(t, i);
      if (weight(t, i) <= COMMENT_SHARE * weight(t, node) || (rest >= MIN_ARTICLE && !holdsTitle(i))) out.push(i);
    }
  // A forum post's signature and its author's profile box (join date, post count) are not the post.
  // So on a page declared an article whose content is a run of posts (a board's theme printing
  // `og:type` article on its threads).
  if (type === 'forum' || (type === 'article' && postRun(t, node))) {
    add(named(t, node, POSTER));
    add(named(t, node, EDIT_NOTE).filter((i) => t.txt[i] + t.lnk[i] <= EDIT_TEXT));
    add(editLines(t, node));
    add(interactionCounters(t, node));
    add(replyAreas(t, node));
    add(sharedNamed(t, node, TOPIC_OVERVIEW, OVERVIEW_SHARE));
    add(postComments(t, node));
    add(voteControls(t, node));
    add(reactionBars(t, node));
    add(profileFields(t, node));
    add(countBadges(t, node));
    add(postTools(t, node));
    add(replyTitles(t, node));
    add(starterBadges(t, node));
    add(smallNamed(t, node, THREAD_STATUS, STATUS_TEXT));
    add(smallNamed(t, node, NOTICE, NOTICE_TEXT).filter((i) => !holdsTitle(i)));
    add(smallNamed(t, node, ALERT, NOTICE_TEXT, POST_BODY).filter((i) => !holdsTitle(i)));
    add(smallNamed(t, node, SIGNATURE, SIGNATURE_TEXT).filter((i) => !holdsTitle(i)));
    add(boardFooters(t, node));
    add(threadInfo(t, node, holdsTitle));
  }
  return out;
}

/** Levels looked down from the content for a run of posts. */
const RUN_DEPTH = 4;
/** A post's class or id word (`message`, `post`, `postbit`, `post-body`, `messageList`'s items). */
const POST_NAME = /(?:^|[-_\s])(?:message|post|postbit|forum-?post|topic-?post)(?:$|[-_\s\d])/;
/** A run of posts holds at least this many items, by at least this many authors (profile links), and this share of the content. */
const RUN_ITEMS = 3;
const RUN_AUTHORS = 2;
const RUN_SHARE = 0.6;

/**
 * Whether the content `node` is a thread whatever the page declares: at `node` or a few levels down
 * (following the heaviest child), three or more like siblings (same tag and classes) named as posts,
 * holding most of the content, whose first links (each post's author) lead to two pages or more.
 */
function postRun(t: Tree, node: number): boolean {
  for (let depth = 0, at = node; depth < RUN_DEPTH && at !== -1; depth++) {
    const groups = new Map<string, number[]>();
    let heaviest = -1;
    for (const k of elementChildren(t, at)) {
      if (heaviest === -1 || weight(t, k) > weight(t, heaviest)) heaviest = k;
      const el = t.els[k];
      if (!POST_NAME.test(splitWords(el))) continue;
      const key = signature(el);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(k);
    }
    const w = weight(t, at);
    for (const g of groups.values()) {
      if (g.length < RUN_ITEMS || g.reduce((a, k) => a + weight(t, k), 0) < RUN_SHARE * w) continue;
      const authors = new Set(g.map((k) => firstHref(t.els[k])).filter((h) => h));
      if (authors.size >= RUN_AUTHORS) return true;
    }
    at = heaviest;
  }
  return false;
}

/** The first link's target inside `el`. */
function firstHref(el: Element): string | undefined {
  for (const c of el.children) {
    if (c.type !== 'tag') continue;
    const e = c as Element;
    if (e.name === 'a' && e.attribs.href) return e.attribs.href;
    const h = firstHref(e);
    if (h) return h;
  }
  return undefined;
}

/** A forum post's signature and its author's profile box, rank or title under their name, by class or id. */
const POSTER =
  /(?:^|[-_\s])(?:signature|signatures|post-?signature|user-?extras|postprofile|user-?info|user-?stats|author-?stats|poster-?info|user-?title|user-?banner|user-?rank|member-?title|member-?rank(?:ing)?|poster-?rank|c?author-?pane[-_]info|author-?fields)(?:$|[-_\s])/;
/** A post's note of its last edit ("Last edited: Jul 9, 2022", "Last edited by … (2024-08-03)"), by class or id. */
const EDIT_NOTE = /(?:^|[-_\s])(?:last-?edit(?:ed)?|post-?edit(?:ed)?|edit-?note|edited-?by)(?:$|[-_\s])/;
/** An edit note holds at most this much text (characters). */
const EDIT_TEXT = 200;

/** The thread's reply box and its prompt to guests, by class, id or data-role word (camelCase split). */
const REPLY_AREA = /(?:^|[-_\s])(?:quick-?reply|reply-?area|reply-?box|post-?form|answer-?form|composer|guest-?teaser)(?:$|[-_\s])/;
/** A block named so holding more than this share of the content is its wrapper. */
const REPLY_SHARE = 0.3;

/**
 * A thread's reply box (a quick-reply editor, the "Your answer" form, a composer) and the prompt
 * shown to guests in its place ("Create an account or sign in to comment", "Register a new account",
 * "Sign in now"): the thread's controls, not its posts.
 */
const replyAreas = (t: Tree, node: number) => sharedNamed(t, node, REPLY_AREA, REPLY_SHARE);

/**
 * A thread's overview box and its featured replies, by class or id word (camelCase split): the
 * topic's figures (replies, views, created, last reply), its top posters and most popular posts
 * (`cTopicOverview`, `topic-map`, `topic-stats`, `thread-stats`), a carousel of recommended replies
 * (`featuredComments`, `recommended-replies`): a summary of the posts or copies of them, not posts.
 */
const TOPIC_OVERVIEW =
  /(?:^|[-_\s])(?:topic-?overview|topic-?map|topic-?stats|thread-?stats|thread-?overview|(?:featured|recommended)-?(?:comments|replies|posts))(?:$|[-_\s])/;
/** An overview holding more than this share of the content is its wrapper. */
const OVERVIEW_SHARE = 0.3;

/** The topmost blocks under `node` whose class, id or data-role words match `re`, holding at most `share` of its weight. */
function sharedNamed(t: Tree, node: number, re: RegExp, share: number): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  const stack = elementChildren(t, node);
  while (stack.length) {
    const k = stack.pop()!;
    const el = t.els[k];
    const a = el.attribs;
    const named = a.class !== undefined || a.id !== undefined || a['data-role'] !== undefined;
    if (named && re.test(splitWords(el)) && weight(t, k) <= share * whole) out.push(k);
    else stack.push(...elementChildren(t, k));
  }
  return out;
}

/** A counter holds at most this much text (characters): "7 Likes", "1,024 views". */
const COUNTER_TEXT = 40;
const COUNTER_ITEM = /schema\.org\/InteractionCounter\/?$/i;

/**
 * A post's counters marked with schema.org microdata (`itemprop="interactionStatistic"`, an
 * `InteractionCounter` item: "7 Likes", "1,024 views"): the readers' reactions, not the post.
 */
function interactionCounters(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const a = t.els[i].attribs;
    if (t.gone[i] || (a.itemprop !== 'interactionStatistic' && !COUNTER_ITEM.test(a.itemtype ?? ''))) continue;
    if (t.txt[i] + t.lnk[i] > 0 && t.txt[i] + t.lnk[i] <= COUNTER_TEXT) out.push(i);
    i = subtreeEnd(t, i);
  }
  return out;
}

/** A post's voting controls by class or id word (`votecell`, `js-voting-container`, `VoteBtn`,
 * `message-cell--vote`, `vote-bar`, `upvote`): not a state class on the post (`unvoted`). */
const VOTE = /(?:^|[-_\s])(?:vote|votes|voting|votecell|votebtn|vote-?count|vote-?bar|vote-?widget|up-?votes?|down-?votes?)(?:$|[-_\s])/;
/** A voting control holds at most this much text (characters): the score and the buttons' labels. */
const VOTE_TEXT = 40;

/**
 * The voting controls beside each post of a thread (up and down arrows, the score, a questions-and-
 * answers site's accepted mark and its link to the post's timeline): small blocks named so.
 */
const voteControls = (t: Tree, node: number) => smallNamed(t, node, VOTE, VOTE_TEXT);

/** Readers' reactions under a post by class or id word (`reactionsBar`, `ipsReact_reactions`, `likesSummary`). */
const REACTIONS = /(?:^|[-_\s])(?:reactions?|reactions?-(?:bar|list|summary|count|overview)|react-count|likes?-summary)(?:$|[-_\s])/;
/** A reactions bar holds at most this much text (characters): "Reactions: ann, bob and 12 others". */
const REACTIONS_TEXT = 300;

/** The readers' reactions under each post ("Like 2", "Reactions: ann, bob and 12 others"): small blocks named so. */
const reactionBars = (t: Tree, node: number) => smallNamed(t, node, REACTIONS, REACTIONS_TEXT);

/** The topmost blocks under `node` whose class, id or data-role words match `re`, holding at most `most` characters. */
function smallNamed(t: Tree, node: number, re: RegExp, most: number, skip?: RegExp): number[] {
  const out: number[] = [];
  const stack = elementChildren(t, node);
  while (stack.length) {
    const k = stack.pop()!;
    const el = t.els[k];
    if (skip && (el.attribs.class !== undefined || el.attribs.id !== undefined) && skip.test(splitWords(el))) continue;
    if ((el.attribs.class !== undefined || el.attribs.id !== undefined) && re.test(splitWords(el)) && t.txt[k] + t.lnk[k] <= most) out.push(k);
    else stack.push(...elementChildren(t, k));
  }
  return out;
}

/** A thread's status notice by class word (`blockStatus`, XenForo's: "Status: Not open for further replies."). */
const THREAD_STATUS = /(?:^|[-_\s])(?:block-status|thread-status|topic-status)(?:$|[-_\s])/;
/** A status notice holds at most this much text (characters). */
const STATUS_TEXT = 200;

/**
 * A board's notice by class or id word (`notice`, `notices`, `bottom-notice`): the site's
 * announcement bar, a post's "Last edited by" line, "This discussion has been archived", a guest's
 * "You must log in to answer" prompt; never the posts themselves.
 */
const NOTICE = /(?:^|[-_\s])notices?(?:$|[-_\s])/;
/** ... and its alert box (`alert`, Bootstrap's: "it looks like you don't have an account yet"), not
 * inside a post's text (POST_BODY), where an alert box is the writer's own warning. */
const ALERT = /(?:^|[-_\s])alerts?(?:$|[-_\s])/;
/** A post's text by class or id word (`postbody`, `post-content`, `message-body`, XenForo's
 * `bbWrapper`, Discourse's `cooked`). */
const POST_BODY =
  /(?:^|[-_\s])(?:post-?body|post-?content|post-?text|post-?message|message-?body|message-?content|message-?text|comment-?body|comment-?content|bb-?wrapper|cooked|entry-?content)(?:$|[-_\s])/;
/** A notice holds at most this much text (characters). */
const NOTICE_TEXT = 1000;
/** A post's signature named by its data-role too (`memberSignature`), camelCase words split. */
const SIGNATURE = /(?:^|[-_\s])signature(?:$|[-_\s])/;
/** A signature holds at most this much text (characters). */
const SIGNATURE_TEXT = 3000;

/** Class, id and data-role lower-cased, camelCase words split (`VoteBtn` as `vote-btn`). */
function splitWords(el: Element): string {
  const a = el.attribs;
  const raw = `${a.class ?? ''} ${a.id ?? ''} ${a['data-role'] ?? ''}`;
  return (/[a-z][A-Z]/.test(raw) ? raw.replace(/([a-z])([A-Z])/g, '$1-$2') : raw).toLowerCase();
}

/** An article's comments, by class or id. */
export const COMMENTS = /(?:^|[-_\s])(?:comments?|comment-?list(?:ing)?|commentlist|comments-area|disqus_thread|replies)(?:$|[-_\s])/;
/** A block named like comments that holds more than this share of the content is the content's wrapper. */
const COMMENT_SHARE = 0.8;
/** Text (characters) outside a larger comment section that makes the article its own. */
const MIN_ARTICLE = 1500;

/**
 * The comments under each post of a questions-and-answers thread (short remarks on the question and
 * on every answer): comment blocks of one kind, two or more, each in a different parent (one per
 * post). A thread whose posts are themselves comments (a run of siblings, a single comment tree)
 * keeps them.
 */
function postComments(t: Tree, node: number): number[] {
  const found = named(t, node, COMMENTS);
  const bySig = new Map<string, number[]>();
  for (const i of found) {
    const sig = signature(t.els[i]);
    if (!bySig.has(sig)) bySig.set(sig, []);
    bySig.get(sig)!.push(i);
  }
  const out: number[] = [];
  for (const group of bySig.values()) {
    if (group.length < 2 || new Set(group.map((i) => t.parent[i])).size < group.length) continue;
    // Each sits beside its post's own text.
    if (group.every((i) => weight(t, t.parent[i]) > weight(t, i))) out.push(...group);
  }
  // By microdata: schema.org Comment items inside an Answer or a Question (a forum's replies, marked
  // as comments of the thread's posting, are not inside either).
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    if (t.gone[i] || !COMMENT_ITEM.test(t.els[i].attribs.itemtype ?? '')) continue;
    let post = false;
    let outer = false;
    for (let a = t.parent[i]; a !== -1 && a >= node; a = t.parent[a]) {
      const it = t.els[a].attribs.itemtype ?? '';
      if (COMMENT_ITEM.test(it)) outer = true;
      if (POST_ITEM.test(it)) post = true;
    }
    if (post && !outer && !out.some((o) => isAncestor(t, o, i))) out.push(i);
  }
  return out;
}
const COMMENT_ITEM = /schema\.org\/Comment\/?$/i;
const POST_ITEM = /schema\.org\/(?:Answer|Question)\/?$/i;
