// What the main content leaves out inside it (main-content.ts), by page type: a product's reviews
// and recommendations, a shop's review widgets, filter facets and menus, the toggle and controls every
// card carries and the parts of a card hidden by a class, sign-up blocks, headings' permalinks, skip
// links, icon links, language menus and the page's footer; and the shop's buy box and buttons, which
// only the markdown leaves out. (A thread's and an article's comments are thread-parts.ts's; link
// blocks link-blocks.ts's; copies copies.ts's; rails rails.ts's; a template's placeholder text
// placeholders.ts's; the reader's own star rating input rating-inputs.ts's; the control every row
// of a list carries row-controls.ts's; a value's short form printed beside its long one short-twins.ts's.)
import type { AnyNode, Element, Text } from 'domhandler';
import { cardHidden, gridBanners } from './cards.ts';
import { classId, elementChildren, HEADINGS, isAncestor, LINKY, named, signature, subtreeEnd, textOf, weight, type Tree } from './content-tree.ts';
import { GRID, HOLDS_GRID, inPricedCard, PRICED, pricedGrids } from './link-blocks.ts';
import type { PageType } from './page-type.ts';
import { compareToggles, labels, tickers } from './labels.ts';
import { illustrations } from './illustrations.ts';
import { codeSamples, marketingPage } from './marketing.ts';
import { placeholders } from './placeholders.ts';
import { sortControls } from './sort-controls.ts';
import { ratingInputs } from './rating-inputs.ts';
import { rowControls } from './row-controls.ts';
import { cardCounters, readMoreLinks, resultsCounts, statusMessages } from './card-counters.ts';
import { threadParts } from './thread-parts.ts';
import { shortTwins } from './short-twins.ts';
import { tooltips } from './tooltips.ts';
import { FACET_SHARE, facets } from './facets.ts';
import { cardBadges, cardTerms } from './card-badges.ts';
import { legalNotes } from './legal-notes.ts';
import { productFaqs } from './product-faqs.ts';
import { signInPrompts } from './sign-in-prompts.ts';
import { finePrint, offerNotes } from './offer-notes.ts';
import { repeatLinks } from './repeat-links.ts';
import { choiceLabels } from './choice-labels.ts';
import { cardNotices } from './card-notices.ts';
import { scriptLinks } from './script-links.ts';
import { chatPrompts } from './chat-prompts.ts';
import { captions } from './captions.ts';
import { authorBlocks } from './references.ts';

/**
 * The blocks inside the content `node` to leave out for its page `type`; `holdsTitle` says whether
 * an element holds the page's title (its first h1).
 */
export function leftOut(t: Tree, node: number, type: PageType, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const add = (found: number[]) => {
    for (const i of found) out.push(i);
  };
  // (a category page typed product, by its markup or its buy buttons, whose grid of priced cards is a
  // good part of it: its cards are a catalog's, so their controls, badges and notices go too)
  const catalog = type === 'product' && gridShare(t, node) >= CATALOG_SHARE;
  if (type === 'product') add(named(t, node, REVIEWS));
  // (a tooltip's note beside a spec's name, shown on hover: tooltips.ts)
  if (type === 'product') add(tooltips(t, node));
  // A shop's review widget is its customers' reviews on any page it is put on (a product page typed
  // as something else, a collection, a landing page).
  else if (type !== 'forum') add(named(t, node, REVIEW_WIDGETS));
  // (a publisher's legal notes under a product's description: legal-notes.ts)
  if (type === 'product') add(legalNotes(t, node, holdsTitle));
  // (the shop's questions and answers beside a product: product-faqs.ts)
  if (type === 'product') add(productFaqs(t, node, holdsTitle));
  if (type !== 'product' && type !== 'forum') add(shopTestimonials(t, node));
  add(threadParts(t, node, type, holdsTitle));
  add(facets(t, node, type, holdsTitle));
  add(sortControls(t, node));
  // (a product's purchase options, "Auto-Replenish: save 5%", are its offer: kept)
  if (type !== 'product') add(choiceLabels(t, node));
  add(cardToggles(t, node));
  add(compareToggles(t, node));
  if (type !== 'product' || catalog) add(cardControls(t, node));
  if (type !== 'product' || catalog) add(cardHidden(t, node));
  if (type !== 'product' || catalog) add(gridBanners(t, node));
  if (type !== 'product' || catalog) add(cardBadges(t, node));
  if (type !== 'product' || catalog) add(cardNotices(t, node));
  add(cardTerms(t, node));
  // (the notes its footnote marks point to, a shop's offers' terms: offer-notes.ts)
  // (not on a thread, where a reply opening with "^" points at the post above it)
  if (type !== 'product' && type !== 'forum') add(offerNotes(t, node));
  if (type !== 'product') add(finePrint(t, node));
  add(repeatLinks(t, node));
  add(disclosureMenus(t, node, holdsTitle));
  // (on a listing or a thread too: a job board's "Get weekly alerts" box between its results, a
  // forum's newsletter box under the posts)
  if (type !== 'empty') add(signups(t, node, holdsTitle, type !== 'product', type === 'article' || type === 'documentation'));
  add(headingAnchors(t, node));
  add(illustrations(t, node, holdsTitle));
  if (type === 'article') add(captions(t, node, holdsTitle));
  if (type === 'article') add(authorBlocks(t, node, holdsTitle));
  // (a marketing page, typed service for it though it shows code: page-type.ts; its code looked for
  // first, so that the walk for its buttons runs only on a page showing some)
  if (type === 'service') {
    const samples = codeSamples(t, node);
    if (samples.length && marketingPage(t, node)) add(samples);
  }
  add(skipLinks(t, node));
  add(languageMenus(t, node, holdsTitle));
  add(pageFooters(t, node, holdsTitle));
  add(iconLinks(t, node));
  add(scriptLinks(t, node));
  add(placeholders(t, node));
  add(labels(t, node, type));
  add(signInPrompts(t, node, type));
  add(tickers(t, node));
  add(ratingInputs(t, node));
  // (a shop's chat or question prompt around a free-text field: chat-prompts.ts)
  if (type === 'product') add(chatPrompts(t, node));
  add(shortTwins(t, node));
  if (type === 'listing' || type === 'article') add(rowControls(t, node, type !== 'listing'));
  if (type === 'listing') add(cardCounters(t, node));
  add(readMoreLinks(t, node));
  add(resultsCounts(t, node));
  if (type !== 'product') add(statusMessages(t, node));
  return out;
}

/** The shop's parts inside the content `node` (buy box, delivery, seller; links styled as buttons); `total` is the page's weight. */
export function shopParts(t: Tree, node: number, total: number): number[] {
  return [...named(t, node, SHOP).filter((i) => weight(t, i) < SHOP_SHARE * total), ...buttons(t, node)];
}

/**
 * A product's customer reviews and questions, the shop's recommendations (`recommend`, `upsell`, its
 * suggested products and accessories: `product-suggest`, `suggested-accessories`, "Complete your order")
 * and its comparison of this product with its others: the shop's content is the description and specifications.
 * Editorial reviews (a book's blurbs and description from the publisher) are content.
 */
const REVIEWS =
  /(?<!editorial[-_]?)review|rating|okendo|yotpo|bazaarvoice|stamped|jdgm|judgeme|trustpilot|questions|recently-viewed|recommend|upsell|cross-sell|product-?suggest|suggested-?(?:products|items|accessories)|complete-?(?:the|your)-?(?:look|order)|product-?comparison|compare-?products/;

/** Customer reviews only (not questions, ratings or recommendations, which can name a product's FAQ or its spec cards). */
export const CUSTOMER_REVIEWS = /(?<!editorial[-_]?)review|okendo|yotpo|bazaarvoice|jdgm|judgeme|trustpilot/;

/** A showcase of customers' words beside a shop's grid: testimonials, a carousel of reviews, a block named as some reviews (`bestselling-reviews`: its bestsellers' reviews; not a company's, an expert's, an editor's or the staff's, nor `no-reviews`); not a reviews section, which a directory's page is about. */
const TESTIMONIALS =
  /(?:^|[-_\s])(?:testimonials?|reviews?[-_](?:carousel|slider|swiper|pane)|customer[-_]?reviews?|(?!(?:company|expert|editorial|staff|critics?|professional|no)[-_])[a-z]+[-_]reviews)(?:$|[-_\s])/;

/**
 * On a shop's category page (the content holds a grid of priced cards), its customers' testimonials
 * (`testimonials`, `reviews-carousel`, `reviews-slider`), not holding the grid, not inside one of its
 * cards and under half the content: what buyers said of the shop, not the category.
 */
function shopTestimonials(t: Tree, node: number): number[] {
  const grid = pricedGrids(t, node);
  if (!(grid[0] & (GRID | HOLDS_GRID))) return [];
  // (not inside a card of the grid: a directory's card quoting its own reviews)
  return named(t, node, TESTIMONIALS).filter(
    (i) => !(grid[i - node] & (GRID | HOLDS_GRID)) && weight(t, i) < 0.5 * weight(t, node) && !inPricedCard(t, node, grid, i),
  );
}

/** The review widgets shops embed, by their class or id prefixes. */
const REVIEW_WIDGETS = /okendo|yotpo|jdgm|judgeme|stamped-|bazaarvoice|trustpilot|junip/;

/**
 * A shop's buy box (product form, add to cart, quantity), delivery estimate, payment-plan note and
 * seller's card, and its selling points (`usp`, `usps`, `trust-badge`: free returns, rewards, "Great
 * customer service"), by class or id.
 */
const SHOP =
  /(?:^|[-_\s])(?:buy-?box|add-to-cart|addtocart|delivery|quantity|qty|payments?|installments?|klarna|afterpay|seller-?info|seller-?card|product-?form|usps?|trust-?badges?)(?:$|[-_\s])/;
/** A block named so that holds this share of the page is a wrapper. */
const SHOP_SHARE = 0.4;

/** A button's class (`button`, `btn`, `button--primary`, `btn-lg`), as a whole token. */
const BUTTON = /^(?:button|btn)(?:--?[a-z]+)*$/i;

/** Links styled as buttons: calls to action ("Get started", "Try it now"), not the content's text. */
function buttons(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name === 'a' && !t.gone[i] && el.attribs.class !== undefined && el.attribs.class.split(/\s+/).some((w) => BUTTON.test(w))) out.push(i);
  }
  return out;
}

const LIST_PARTS = new Set(['li', 'ul', 'ol']);

/** A sign-up block around an email field holds at most this much text (its heading, its pitch, its sent and failed messages). */
const SIGNUP_TEXT = 600;
const EMAIL = /e-?mail/i;
/** A form named (id, class, name, action) as a newsletter's or a subscription's. */
const SIGNUP_FORM = /newsletter|subscri|sign-?up|opt-?in/i;
/** A page's sign-up fields are one or two (above and below its text); this many email fields or more are its items' own. */
const CARD_SIGNUPS = 3;

/**
 * Sign-up blocks (a product's notify me when back in stock, an article's or a service's newsletter):
 * the largest block around an email field holding little text and not the page's title, with its
 * pitch and its success and error messages. Not the page's content (a forum's reply form is
 * thread-parts.ts's).
 */
function signups(t: Tree, node: number, holdsTitle: (i: number) => boolean, offProduct: boolean, namedForms: boolean): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  let fields = 0;
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name !== 'input') continue;
    // (on an article or a documentation page, a sign-up form already left out by its name, that
    // names a newsletter or a subscription (`newsletter-form`, posting to `/subscribe`), leaves its
    // heading and pitch beside it: the climb starts from the form; not a lead form in a page's hero
    // with its offer; under any other block left out, nothing to do)
    let k = i;
    if (t.gone[t.parent[i]]) {
      if (!namedForms) continue;
      let g = t.parent[i];
      while (t.parent[g] > node && t.gone[t.parent[g]]) g = t.parent[g];
      const f = t.els[g].attribs;
      if (t.els[g].name !== 'form' || !SIGNUP_FORM.test(`${f.id ?? ''} ${f.class ?? ''} ${f.name ?? ''} ${f.action ?? ''}`)) continue;
      k = g;
    }
    const a = el.attribs;
    if (a.type !== 'email' && !EMAIL.test(`${a.name ?? ''} ${a.placeholder ?? ''} ${a.autocomplete ?? ''}`)) continue;
    fields++;
    if (out.some((o) => isAncestor(t, o, i))) continue;
    const from = k;
    // (off a product page, not up into a list's item: a card of a grid whose last part is its sign-up)
    while (t.parent[k] > node && !holdsTitle(t.parent[k]) && weight(t, t.parent[k]) <= SIGNUP_TEXT && !(offProduct && LIST_PARTS.has(t.els[t.parent[k]].name)))
      k = t.parent[k];
    if (k !== from) out.push(k);
  }
  // (off a product page, a field in every card of a list, a notify-me or an RSVP form, is the cards':
  // the climb from the first would take the whole list when it is short)
  return offProduct && fields >= CARD_SIGNUPS ? [] : out;
}

/**
 * A disclosure menu (`<details>` opening a list of links: a sort order, a language or date filter, a
 * menu of options): mostly link text, and little of the content. A disclosure of prose (an FAQ's
 * answer) is not one. A closed one is left out however long its list (a hundred languages to filter by).
 */
function disclosureMenus(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const whole = weight(t, node);
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    if (t.els[i].name !== 'details' || t.gone[i]) continue;
    // (a closed one is hidden until opened: however long its list, it is not what the page shows)
    const closed = t.els[i].attribs.open === undefined;
    if (t.lnk[i] > LINKY * (t.txt[i] + t.lnk[i]) && (closed || weight(t, i) < FACET_SHARE * whole) && !holdsTitle(i)) {
      out.push(i);
      i = subtreeEnd(t, i);
    }
  }
  return out;
}

/** A checkbox's label of at most this many characters, the same in this many places or more, is every card's toggle. */
const TOGGLE_TEXT = 30;
const TOGGLES = 5;

const isCheckbox = (n: AnyNode | null) => n?.type === 'tag' && (n as Element).name === 'input' && (n as Element).attribs.type === 'checkbox';

/** A control's text this short (characters), with no digit, in this share of a grid's cards (and CARD_LABELS or more) is the cards' own. */
const LABEL_TEXT = 30;
const LABEL_SHARE = 0.8;
const CARD_LABELS = 5;
/** A field's name beside its value (`<dt>Fuel type</dt>`, `Weight:`) is the item's. */
const LABEL_TAGS = new Set(['dt', 'th', 'label']);
/** Class words of a card's controls. */
const CONTROL = /(?:^|[-_\s])(?:btn|button|quick-?view|quick-?shop|quick-?add|wishlist|cta)(?:$|[-_\s])/;
/** ... or ending a camelCase word (a CSS module's `shipMessageBtn_GoA0`, `addToCartButton`; not a hash's stray capitals). */
const CAMEL_CONTROL = /[a-z](?:Btn|Button)(?:$|[-_\s])/;

/**
 * Whether element `i` of a card is (inside) one of its controls: a link holding this text alone (not
 * the card's one link around its name, brand and price), a button, or a block named as one.
 */
function control(t: Tree, i: number, card: number, text: string): boolean {
  const chars = text.replace(/\s/g, '').length;
  for (let a = i; a !== card; a = t.parent[a]) {
    const el = t.els[a];
    if ((el.name === 'a' && t.txt[a] + t.lnk[a] <= chars) || el.name === 'button' || el.attribs.role === 'button') return true;
    // (a heading holding this text alone inside the card's link, the same in nearly every card,
    // titles nothing: an overlay's call to action over the card's image, "View Details"; a heading
    // outside a link names a section of each card, "Highlights")
    if (HEADINGS.has(el.name) && t.txt[a] + t.lnk[a] <= chars && inLink(t, a, card)) return true;
    // (the caption of a group of choices that show no text of their own, colour swatches: "More options")
    const p = t.parent[a];
    if (el.name === 'legend' && t.els[p].name === 'fieldset' && t.txt[p] + t.lnk[p] <= chars) return true;
    if (el.attribs.class !== undefined && (CONTROL.test(el.attribs.class.toLowerCase()) || CAMEL_CONTROL.test(el.attribs.class))) return true;
  }
  return false;
}

/** Whether element `i` lies inside a link below the card `card`. */
function inLink(t: Tree, i: number, card: number): boolean {
  for (let a = t.parent[i]; a !== card && a !== -1; a = t.parent[a]) if (t.els[a].name === 'a') return true;
  return false;
}

/**
 * The same control in (nearly) every card of a shop's grid of priced cards ("Quick view", "Quick
 * shop", "Add to cart", "More info", "Add to wishlist"): the card's buttons, not what it says about
 * its item. (A line every card shares that is not a control, a brand or a feature, stays.)
 */
function cardControls(t: Tree, node: number): number[] {
  const grid = pricedGrids(t, node);
  const last = subtreeEnd(t, node);
  const out: number[] = [];
  for (let g = node; g <= last; g++) {
    if (!(grid[g - node] & GRID) || t.gone[g]) continue;
    const cards = elementChildren(t, g).filter((c) => grid[c - node] & PRICED);
    const byText = new Map<string, { cards: Set<number>; els: number[] }>();
    for (const c of cards) {
      const end = subtreeEnd(t, c);
      for (let i = c + 1; i <= end; i++) {
        if (t.gone[i]) continue;
        let own = '';
        for (const ch of t.els[i].children) if (ch.type === 'text') own += (ch as Text).data;
        own = own.replace(/\s+/g, ' ').trim().toLowerCase();
        if (own === '' || own.length > LABEL_TEXT || /\d/.test(own) || !/\p{L}/u.test(own) || own.endsWith(':') || LABEL_TAGS.has(t.els[i].name)) continue;
        if (!control(t, i, c, own)) continue;
        const e = byText.get(own) ?? { cards: new Set<number>(), els: [] };
        e.cards.add(c);
        e.els.push(i);
        byText.set(own, e);
      }
    }
    for (const e of byText.values()) if (e.cards.size >= CARD_LABELS && e.cards.size >= LABEL_SHARE * cards.length) out.push(...e.els);
  }
  return out;
}

/**
 * The toggle every card of a grid carries ("Compare", "Add to compare"): a checkbox's label (around
 * it, or after it) whose short text recurs, the same, in five places or more. Facets' labels each
 * differ ("Red (12)", "Steel (30)"); a form's options are not repeated.
 */
function cardToggles(t: Tree, node: number): number[] {
  const byText = new Map<string, number[]>();
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name !== 'label' || t.gone[i] || t.txt[i] + t.lnk[i] === 0 || t.txt[i] + t.lnk[i] > TOGGLE_TEXT) continue;
    let sib: AnyNode | null = el.prev;
    // (past the other labels of the same box: "Compare", then "Remove from comparison" shown once ticked)
    while (sib && ((sib.type === 'text' && !(sib as Text).data.trim()) || (sib.type === 'tag' && (sib as Element).name === 'label'))) sib = sib.prev;
    let box = isCheckbox(sib);
    for (let k = i + 1; !box && k <= subtreeEnd(t, i); k++) box = isCheckbox(t.els[k]);
    if (!box) continue;
    const text = textOf(el);
    if (!byText.has(text)) byText.set(text, []);
    byText.get(text)!.push(i);
  }
  return [...byText.values()].filter((g) => g.length >= TOGGLES).flat();
}

/**
 * A heading's own permalink (`<h3><a href="#usage">Direct link to heading</a>Usage</h3>`, a `¶` or
 * `#` after the title): a link to a fragment inside a heading that has text of its own besides.
 */
function headingAnchors(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name !== 'a' || t.gone[i] || !(el.attribs.href ?? '').startsWith('#')) continue;
    for (let h = t.parent[i], up = 0; h > node && up < 3; h = t.parent[h], up++) {
      if (!HEADINGS.has(t.els[h].name)) continue;
      if (t.txt[h] > 0) out.push(i);
      break;
    }
  }
  return out;
}

const PICTURES = new Set(['img', 'picture', 'video', 'audio', 'object', 'embed']);

/**
 * A link with no text and no picture (an icon drawn by an SVG or an icon font) but a title or an
 * aria-label: a control (share on X, show this post's activity, copy the link), whose label the
 * markdown would otherwise write as the link's text.
 */
function iconLinks(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name !== 'a' || t.gone[i] || t.txt[i] + t.lnk[i] > 0) continue;
    if (el.attribs.title === undefined && el.attribs['aria-label'] === undefined) continue;
    const end = subtreeEnd(t, i);
    let picture = false;
    for (let k = i + 1; k <= end && !picture; k++) picture = PICTURES.has(t.els[k].name);
    if (!picture) out.push(i);
    i = end;
  }
  return out;
}

/** A keyboard user's shortcut: "Skip to product list", "Skip listing", "Skip to filters"; and the
 * way back: "Back to top", "Back to navigation". */
const SKIP_LINK = /^(?:skip\b|(?:back|return|jump) to (?:the )?(?:top|navigation|menu)(?: of (?:the )?page)?\W*$)/;

/** In-page links (`#fragment`) whose text is a skip link's or a way back, left out everywhere. */
function skipLinks(t: Tree, node: number): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name === 'a' && !t.gone[i] && (el.attribs.href ?? '').startsWith('#') && t.lnk[i] < 60 && SKIP_LINK.test(textOf(el))) out.push(i);
  }
  return out;
}

/** A language menu links to the page in this many languages or more. */
const LANGUAGES = 3;
/** ... and their links make up this share of its text. */
const LANGUAGE_SHARE = 0.8;

/**
 * Language menus: the largest block (not holding the page's title) whose text is mostly links to
 * the page in other languages, by their `hreflang` (three or more distinct ones: `de`, `fr`, `ja`).
 * A link marked with the page's own language (every item of a list, `hreflang="en"`) is no such menu.
 */
function languageMenus(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const last = subtreeEnd(t, node);
  const langText = new Float64Array(last - node + 1);
  const langs: (Set<string> | undefined)[] = [];
  for (let i = last; i > node; i--) {
    const el = t.els[i];
    const lang = el.name === 'a' && !t.gone[i] ? el.attribs.hreflang?.toLowerCase() : undefined;
    if (lang) {
      langText[i - node] += t.lnk[i];
      (langs[i - node] ??= new Set()).add(lang);
    }
    const p = t.parent[i] - node;
    langText[p] += langText[i - node];
    const mine = langs[i - node];
    if (mine) {
      const theirs = (langs[p] ??= new Set());
      for (const l of mine) theirs.add(l);
    }
  }
  const out: number[] = [];
  for (let i = node + 1; i <= last; i++) {
    if (t.gone[i] || (langs[i - node]?.size ?? 0) < LANGUAGES) continue;
    if (out.length && isAncestor(t, out[out.length - 1], i)) continue;
    if (langText[i - node] >= LANGUAGE_SHARE * (t.txt[i] + t.lnk[i]) && !holdsTitle(i)) out.push(i);
  }
  return out;
}

/** A copyright notice: the sign or the word. */
const COPYRIGHT = /©|&copy;|\bcopyright\b/i;
/** A footer holding more than this share of the content is its wrapper. */
const FOOTER_SHARE = 0.5;

/**
 * The page's own footer put inside the content (`<main>…<footer>` with the site's links, its newsletter
 * form and its copyright line): a `<footer>` or `role="contentinfo"` holding a copyright notice, not
 * the title and under half the content. (An article's own footer, its tags or its author, has none.)
 */
function pageFooters(t: Tree, node: number, holdsTitle: (i: number) => boolean): number[] {
  const out: number[] = [];
  const last = subtreeEnd(t, node);
  const whole = weight(t, node);
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (t.gone[i] || (el.name !== 'footer' && el.attribs.role !== 'contentinfo')) continue;
    if (out.length && isAncestor(t, out[out.length - 1], i)) continue;
    if (weight(t, i) < FOOTER_SHARE * whole && !holdsTitle(i) && hasCopyright(el)) out.push(i);
  }
  return out;
}

/** Whether an element's text holds a copyright notice. */
function hasCopyright(el: Element): boolean {
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text' && COPYRIGHT.test((n as Text).data)) return true;
    if (n.type === 'tag') for (const c of (n as Element).children) stack.push(c);
  }
  return false;
}

/** A page typed product is a category's when its grids of priced cards hold this share of its content's weight. */
const CATALOG_SHARE = 0.1;

/** The share of the content's weight its grids of priced cards (the outermost) hold. */
function gridShare(t: Tree, node: number): number {
  const grid = pricedGrids(t, node);
  let w = 0;
  const last = subtreeEnd(t, node);
  for (let i = node; i <= last; i++)
    if (t.gone[i]) i = subtreeEnd(t, i);
    else if (grid[i - node] & GRID) {
      w += weight(t, i);
      i = subtreeEnd(t, i);
    }
  return w / (weight(t, node) || 1);
}
