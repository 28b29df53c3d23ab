// The page type of a page whose main content was found (main-content.ts): from schema.org types
// (JSON-LD, microdata) and Open Graph, else from the shape of the content.
import type { Element } from 'domhandler';
import { classId, eachLive, elementChildren, outermost, signature, subtreeEnd, weight, type Tree } from './content-tree.ts';
import { headingWithin } from './labels.ts';
import { marketingPage } from './marketing.ts';

export type PageType = 'article' | 'forum' | 'listing' | 'product' | 'documentation' | 'service' | 'empty';

/** Page-level signals: schema.org types in JSON-LD or microdata, Open Graph type. */
export function declaredType(html: string): PageType | null {
  const types = new Set<string>();
  for (const m of html.matchAll(/"@type"\s*:\s*\[?\s*"(?:https?:\/\/schema\.org\/)?([A-Za-z]+)"/g)) types.add(m[1]);
  for (const m of html.matchAll(/itemtype\s*=\s*["']?https?:\/\/schema\.org\/([A-Za-z]+)/gi)) types.add(m[1]);
  // A page may carry several og:type tags (a theme's default, then the shop plugin's): any of those in
  // the head counts; tags put in the body are read as before, the first one only (scanning a whole
  // page for every tag costs more than the rest of this function).
  const headEnd = html.search(/<\/head\s*>/i);
  const head = headEnd < 0 ? html : html.slice(0, headEnd);
  const OG = /<meta[^>]+property\s*=\s*["']og:type["'][^>]*content\s*=\s*["']([^"']+)/gi;
  const ogs = [...head.matchAll(OG)].map((m) => m[1].toLowerCase());
  if (!ogs.length) ogs.push(new RegExp(OG.source, 'i').exec(html)?.[1]?.toLowerCase() ?? '');
  const og = ogs[0];
  if (types.has('QAPage') || types.has('DiscussionForumPosting') || types.has('SocialMediaPosting')) return 'forum';
  // Open Graph product price (product:price:amount, og:price:amount) is only given for a single product.
  const price = /<meta[^>]+property\s*=\s*["'](?:product|og):price:amount["']/i.test(head);
  // A schema.org Product carrying a star rating but no offer (no price anywhere in its markup) is a
  // business rating itself for search results (a pest-control or law firm's page), not a product.
  const ratedOnly = types.has('AggregateRating') && !/"offers"\s*:|itemprop\s*=\s*["']?(?:offers|price)\b|(?:product|og):price:amount/i.test(html);
  const product = types.has('Product') && !ratedOnly;
  if (product || price || ogs.some((o) => o === 'product' || o === 'og:product')) return 'product';
  if (types.has('ItemList') || types.has('CollectionPage') || types.has('SearchResultsPage') || termArchive(html)) return 'listing';
  if (types.has('TechArticle') || types.has('APIReference')) return 'documentation';
  if (types.has('NewsArticle') || types.has('BlogPosting') || types.has('Article')) return 'article';
  // Open Graph `article` with a schema.org graph naming the page a plain WebPage (and no Article in it)
  // is a site's static page: SEO plugins (Yoast, Rank Math) tag every page og:type article, and give
  // a post an Article or BlogPosting node of its own. Such a page's type is read from its content.
  if (og === 'article' && !types.has('WebPage')) return 'article';
  return null;
}

/** The body's classes. */
const BODY_CLASS = /<body\b[^>]*?\sclass\s*=\s*["']([^"']*)["']/i;

/**
 * A category's or a tag's archive, by the body classes WordPress themes print (`archive category
 * category-zero-waste`, `archive tag tag-recipes`): a list of the posts filed under it, whatever
 * its og:type.
 */
function termArchive(html: string): boolean {
  const cls = BODY_CLASS.exec(html)?.[1].split(/\s+/);
  return !!cls && cls.includes('archive') && (cls.includes('category') || cls.includes('tag'));
}

/** This many schema.org Products or more in a list's markup are its items. */
const MANY_PRODUCTS = 10;
const PRODUCT_ITEM = /"@type"\s*:\s*\[?\s*"(?:https?:\/\/schema\.org\/)?Product"|itemtype\s*=\s*["']?https?:\/\/schema\.org\/Product\b/gi;
const LIST_ITEM =
  /"@type"\s*:\s*\[?\s*"(?:https?:\/\/schema\.org\/)?(?:ItemList|CollectionPage|SearchResultsPage)"|itemtype\s*=\s*["']?https?:\/\/schema\.org\/(?:ItemList|CollectionPage|SearchResultsPage)\b/i;
/** An Open Graph product: a price tag, or `og:type` product. */
const OG_PRODUCT = /<meta[^>]+property\s*=\s*["'](?:(?:product|og):price:amount["']|og:type["'][^>]*content\s*=\s*["'](?:og:)?product["'])/i;

/**
 * A page declared a product by schema.org alone (no Open Graph product tag or price) that is a list
 * (ItemList, CollectionPage, SearchResultsPage) of many Products: a category page marking up every
 * card as a product, whose grid of priced cards is its results (content-tree.ts's measure()).
 */
export function productList(html: string): boolean {
  if (!LIST_ITEM.test(html) || OG_PRODUCT.test(html)) return false;
  let n = 0;
  for (PRODUCT_ITEM.lastIndex = 0; n < MANY_PRODUCTS && PRODUCT_ITEM.exec(html);) n++;
  return n >= MANY_PRODUCTS;
}

/** Levels looked down from the content for the run of items. */
const RUN_DEPTH = 4;
const ITEM_TAGS = new Set(['div', 'li', 'article', 'section', 'tr', 'a', 'dl', 'figure']);

/** Classes that tell alternate rows or the first and last item apart (`rowodd`, `roweven`, `alt1`, `firstpost`, `message-threadStarterPost`). */
const ROW_CLASS = /(?:^|[-_])(?:row-?)?(?:odd|even|first|last|alt\d*)(?:-?(?:post|row|item|child|message))?$|thread-?starter-?post$/i;

/** An item's signature for the run: tag and classes, whitespace and row-parity classes aside. */
function itemSignature(el: Element): string {
  const cls = (el.attribs.class ?? '')
    .split(/\s+/)
    .filter((c) => c && !ROW_CLASS.test(c))
    .join(' ');
  return signature(el, cls);
}

/** The run of like items (same tag and classes) holding most of the content at `node` or a few levels down. */
function repeatedRun(t: Tree, node: number): number[] | null {
  for (let depth = 0, at = node; depth < RUN_DEPTH && at !== -1; depth++) {
    const groups = new Map<string, number[]>();
    let heaviest = -1;
    for (const k of elementChildren(t, at)) {
      const el = t.els[k];
      if (heaviest === -1 || weight(t, k) > weight(t, heaviest)) heaviest = k;
      if (!ITEM_TAGS.has(el.name)) continue;
      const key = itemSignature(el);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(k);
    }
    const w = weight(t, at);
    for (const g of groups.values()) if (g.length >= 3 && g.reduce((a, k) => a + weight(t, k), 0) >= 0.5 * w) return g;
    at = heaviest;
  }
  return null;
}

const PRODUCT_TITLE = /(?:^|[^a-z])(?:product|pdp)[-_]?(?:title|name|heading)/;

/** The naming attributes of an element (class, id, data-test and other data-*), lowercased. */
const attrText = (el: Element) =>
  Object.entries(el.attribs)
    .filter(([k]) => k === 'class' || k === 'id' || k.startsWith('data-'))
    .map(([, v]) => v)
    .join(' ')
    .toLowerCase();

/**
 * A page without schema.org or Open Graph product markup whose h1, or the element wrapping the h1's
 * text, is named as a product title (`product-title`, `productTitle`, `pdp-title`, `data-test="product-name"`).
 */
export function namedProductTitle(t: Tree): boolean {
  for (const el of t.els) {
    if (el.name !== 'h1') continue;
    if (PRODUCT_TITLE.test(attrText(el))) return true;
    const first = el.children.find((c): c is Element => c.type === 'tag');
    if (first && PRODUCT_TITLE.test(attrText(first))) return true;
  }
  return false;
}

/** This many headlines or more... */
const HEADLINES = 20;
/** ... that are this share of the content's titles or more... */
const HEADLINE_SHARE = 0.6;
/** ... and whose link text is this share of the content's weight or more make a hub of headlines. */
const HEADLINE_WEIGHT = 0.2;
const TITLE_TAG = /^(?:h[1-6]|header)$/;

/**
 * Whether the content is a hub of headlines (a news site's section page, a blog's home page): of its
 * titles (headings, and the `<header>` a card puts its title in), 20 or more and most are all link
 * (`<h3><a>Headline</a></h3>`), each leading to its story, and their link text weighs much of the
 * content. An article's headings are text; its related links are few and set aside as chrome.
 */
function headlines(t: Tree, node: number): boolean {
  const { titles, linked, linkText } = linkedTitles(t, node, (name) => TITLE_TAG.test(name));
  return linked >= HEADLINES && linked >= HEADLINE_SHARE * titles && linkText >= HEADLINE_WEIGHT * weight(t, node);
}

/**
 * The titles inside `node` (the elements `isTitle` names, each counted with what it holds), those
 * all link (no text outside their links but a stray character: `<h3><a>Headline</a></h3>`), and
 * the link text of those.
 */
export function linkedTitles(t: Tree, node: number, isTitle: (name: string) => boolean): { titles: number; linked: number; linkText: number } {
  const n = { titles: 0, linked: 0, linkText: 0 };
  eachLive(t, node, (i) => {
    if (!isTitle(t.els[i].name)) return false;
    n.titles++;
    if (t.txt[i] < 2 && t.lnk[i] > 0) {
      n.linked++;
      n.linkText += t.lnk[i];
    }
    return true;
  });
  return n;
}

/** An id naming a post by its number, as forum software gives each post of a thread (`post123`, `post-123`, `p123`, `msg123`, `message_123`). */
const POST_ID = /^(?:post|p|msg|message)[-_]?\d+$/i;
/** The share of the content's weight the numbered posts hold, or more, for a thread. */
const POSTS_SHARE = 0.5;

/**
 * Whether the content is a thread of numbered posts: two or more elements under it whose id names a
 * post by number (an empty anchor target so named, `<span id="post-123"></span>`, stands for the post
 * it opens: its parent), holding most of its weight. A blog's `<article id="post-123">` (WordPress's
 * template names each post so) and microformats' blog entries (`hentry`, `h-entry`) are not a board's posts.
 */
function numberedPosts(t: Tree, node: number): boolean {
  const posts = new Set<number>();
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (!POST_ID.test(el.attribs.id ?? '')) continue;
    if (el.name === 'article' || /(?:^|\s)h-?entry(?:\s|$)/.test(el.attribs.class ?? '')) return false;
    const post = t.txt[i] + t.lnk[i] === 0 && t.parent[i] > node ? t.parent[i] : i;
    posts.add(post);
    i = subtreeEnd(t, i);
  }
  if (posts.size < 2) return false;
  let w = 0;
  for (const k of outermost(t, posts)) w += weight(t, k);
  return w >= POSTS_SHARE * weight(t, node);
}

/** A class word naming an element a thread's post (`<div class="post">`, `<div class="post firstReply">`). */
const POST_CLASS = /(?:^|\s)post(?:\s|$)/;
/** This many posts or more. */
const POST_ITEMS = 4;

/**
 * Whether the content is a thread of posts each named `post` by a class word of its own (not a
 * compound: `post-title`), wherever they sit (the opening post in a wrapper of its own above the
 * replies), four or more, holding most of its weight, their text mostly outside links (a blog's
 * index of excerpts links each title and "read more"). A blog's `<article class="post">` and
 * microformats' entries (`hentry`, `h-entry`) are not a board's posts.
 */
function postItems(t: Tree, node: number): boolean {
  const items: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (t.gone[i]) {
      i = subtreeEnd(t, i);
      continue;
    }
    const cls = el.attribs.class ?? '';
    if (!POST_CLASS.test(cls)) continue;
    if (el.name === 'article' || /(?:^|\s)h-?entry(?:\s|$)/.test(cls)) return false;
    items.push(i);
    i = subtreeEnd(t, i);
  }
  return items.length >= POST_ITEMS && linkShare(t, items) < 0.3 && items.reduce((a, k) => a + weight(t, k), 0) >= POSTS_SHARE * weight(t, node);
}

/** The run of like cards holding this share of an Article's content or more, ... */
const CARDS_SHARE = 0.6;
/** ... with this share of their text in links or more, make it a listing. */
const CARDS_LINKY = 0.4;

/** ... and this share of them titled by a heading of their own. */
const CARDS_TITLED = 0.5;

/** The share of the text of `run`'s items in links. */
const linkShare = (t: Tree, run: number[]) =>
  run.reduce((a, k) => a + t.lnk[k], 0) /
  Math.max(
    1,
    run.reduce((a, k) => a + t.txt[k] + t.lnk[k], 0),
  );

/**
 * Whether a page declared an article is a grid of cards: a run of three or more like items (same
 * tag and classes) holding most of the content, most titled by a heading of their own, much of their text links (a course catalogue or a
 * site section whose CMS marks every page up as an Article, its cards each a title and a list of links).
 */
function cards(t: Tree, node: number): boolean {
  const run = repeatedRun(t, node);
  if (!run || run.reduce((a, k) => a + weight(t, k), 0) < CARDS_SHARE * weight(t, node) || linkShare(t, run) < CARDS_LINKY) return false;
  const titled = run.filter((k) => headingWithin(t, k));
  return titled.length >= CARDS_TITLED * run.length;
}

/** Class words naming a run's items as a thread's posts. */
const POSTS = /post|comment|message|reply|answer|thread/;
/**
 * The share of the content a declared article's or listing's run of posts must hold to make it a
 * thread (a blog post's comment section may outweigh the post, but not fill the content) ...
 */
const THREAD_SHARE = 0.9;
/** ... its items classed as replies (`comment`, `reply`, `answer`, `message`; not `post`, which a blog's posts are named too). */
const REPLIES = /comment|reply|answer|message/;
/** The share of the content at `node` held by `run`. */
const runShare = (t: Tree, run: number[], node: number) => run.reduce((a, k) => a + weight(t, k), 0) / Math.max(1, weight(t, node));
/** schema.org types a thread's posts are marked up as in microdata. */
const COMMENT = /schema\.org\/(?:Comment|Answer)$/i;
/**
 * Whether two or more elements in the content are marked up (microdata) as schema.org Comments or
 * Answers, holding most of its weight: a thread whatever the page declares (an article's comment
 * section is marked up so too, but its body outweighs it).
 */
function commentItems(t: Tree, node: number): boolean {
  const items: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    if (!COMMENT.test(t.els[i].attribs.itemtype ?? '')) continue;
    items.push(i);
    i = subtreeEnd(t, i);
  }
  return items.length >= 2 && items.reduce((a, k) => a + weight(t, k), 0) >= POSTS_SHARE * weight(t, node);
}

/** An item with less than this share of its text in links is prose, more than 1 − this share all links. */
const PROSE_ITEM = 0.2;
/** A prose item holds this much text outside links or more (a paragraph, not a card's label). */
const PARAGRAPH = 200;
/** Prose items and link items each holding this share of a run's weight or more make it a page's sections. */
const MIXED_SHARE = 0.25;

/**
 * Whether a run of like items is a page's sections rather than a list: its items (a layout's plain
 * wrappers, alike by tag and classes alone) are of two kinds, prose (a service's description under a
 * heading) and link blocks (cards leading to its other services), each holding much of the run. A
 * list's items (search results, events, posts, products) are alike in what they hold too.
 */
function mixedRun(t: Tree, run: number[]): boolean {
  let all = 0;
  let prose = 0;
  let links = 0;
  for (const k of run) {
    const w = weight(t, k);
    const text = t.txt[k] + t.lnk[k];
    all += w;
    if (t.txt[k] >= PARAGRAPH && t.lnk[k] < PROSE_ITEM * text) prose += w;
    else if (t.lnk[k] > (1 - PROSE_ITEM) * text) links += w;
  }
  return prose >= MIXED_SHARE * all && links >= MIXED_SHARE * all;
}

/** The page type; `declared` is declaredType(html), computed once by the caller. */
export function detectType(html: string, t: Tree, node: number, declared: PageType | null): PageType {
  // (a page declared an article or documentation whose content is a hub of headlines is a listing:
  // a blog's or a news site's home page carries its site's Article or TechArticle markup)
  if ((declared === 'article' || declared === 'documentation') && headlines(t, node)) return 'listing';
  if (declared === 'article' && cards(t, node)) return 'listing';
  const run = repeatedRun(t, node);
  const linky = run ? linkShare(t, run) : 0;
  const posts = run && linky < 0.3 && POSTS.test(classId(t.els[run[0]]));
  // (a page declared an article or a listing whose content is a thread: a run of replies filling
  // it, or posts marked up as schema.org Comments or Answers holding most of it)
  if (
    declared &&
    declared !== 'product' &&
    ((posts && REPLIES.test(classId(t.els[run[0]])) && runShare(t, run, node) >= THREAD_SHARE) || commentItems(t, node))
  )
    return 'forum';
  if (declared) return declared;
  if (namedProductTitle(t)) return 'product';
  if (posts) return 'forum';
  if (numberedPosts(t, node)) return 'forum';
  if (postItems(t, node)) return 'forum';
  if (headlines(t, node)) return 'listing';
  const main = t.els[node];
  if (/<pre[\s>]/i.test(html.slice(main.startIndex ?? 0, (main.endIndex ?? 0) + 1))) return marketingPage(t, node) ? 'service' : 'documentation';
  if (run && linky >= 0.3 && !mixedRun(t, run)) return 'listing';
  if (main.name === 'article' || t.els.some((el) => el.name === 'article')) return 'article';
  return 'service';
}
