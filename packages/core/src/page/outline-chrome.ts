// Lines of the outline of the rest of a page (reduce.ts) that are the page's controls and prompts,
// not what it says: left out even where the outline's rules would keep them (above a long line, in a
// paragraph with one, or holding a number). They are kinds of text any site's chrome has — a
// button's label, an account or newsletter prompt, a copyright line, a list's result counter, a
// rail's heading — never a page's facts: a product's name, price and specifications are sentences,
// labelled values or table rows.

/** A control's whole label: a shop's cart and list buttons, account links, sharing, loading and
 * expanding placeholders, feedback widgets, sort and pager controls, calls to book, try or download,
 * legal links, an advertisement's label. */
const CONTROL = new RegExp(
  '^(?:' +
    [
      'add(?: full \\w+)? to (?:cart|bag|basket|wish ?list|list|registry|part list)',
      'buy now|shop now|quick (?:shop|view)|notify me|price alert|added',
      'sign (?:in|up)(?: now| for free| free)?|log ?in|log ?out|register|subscribe|join(?: now| for free)?',
      'share(?: this \\w+)?|like this|save this \\w+|follow|watch this \\w+',
      'skip (?:to )?\\w+(?: \\w+)?|jump to|loading|click to expand|show more|read more|learn more|(?:see|view) (?:all|more)(?: \\w+){0,3}|back to (?:top|blog)',
      'click (?:here )?to \\w+(?: \\w+){0,3}|get it now|download(?: now| for \\w+| the app| the \\w+ app)?',
      'send feedback|was this (?:page |article |answer )?helpful|how helpful (?:do you find|is|was) .+|rate this (?:page|article)|edit this page|play video|report inappropriate content',
      'advertisement|advertiser disclosure|sponsor(?:ed)? message|article continues below',
      'apply now|book now|get in touch|contact (?:us|sales)|talk to (?:an? |our )?(?:expert|sales|specialist)|get started(?: free| for free)?|try (?:it )?(?:for )?free',
      '(?:request|book|schedule)(?: a| an| your)?(?: free)?(?: \\w+)? (?:demo|pricing|quote|call|consultation)(?: now)?|(?:sign up for|start)(?: a| your)? free trial',
      'sort(?: by| options)?|results per page|display posts from previous|password',
      'reply(?: with quote)?|leave a (?:comment|reply)|keyboard shortcuts|table of contents',
      'page tools|(?:copy|view)(?: page)? (?:as|for|in) (?:markdown|llms?)|ask about this (?:section|page)|show child attributes',
      'privacy(?: policy)?|terms(?: of (?:use|service)| and conditions)?|cookie (?:policy|settings)',
    ].join('|') +
    ')$',
  'i',
);
/** A prompt to sign in or create an account ("You must log in or register to reply here.",
 * "Create an account or sign in to comment"). */
const ACCOUNT =
  /\b(?:you must|you need to|please)\b.{0,20}\b(?:log ?in|sign ?in|sign ?up|register|be a member)\b|\b(?:log ?in|sign ?in|sign ?up|register|create an account)\b.{0,30}\bto (?:reply|post|comment|continue|save|follow)\b|\bor (?:log ?in|sign ?in|sign ?up|register)\b|\bsign up for (?:a )?(?:new|free) account\b|\balready have an account\b|\bnot (?:logged|signed) in\b|\bas a guest\b/i;
/** A newsletter's sign-up prompt ("Sign up for our newsletter", "... delivered to your inbox"): a
 * call to subscribe, not a line that only names a newsletter or a mailing list. */
const NEWSLETTER =
  /\b(?:subscribe|sign[ -]?up|join|get|receive)\b.*\b(?:newsletters?|mailing list|inbox)\b|\b(?:newsletters?|mailing list)\b.*\b(?:subscribe|sign[ -]?up)\b|^(?:\w+ )?newsletters?$|\bdelivered\b.*\bto your inbox\b/i;
/** A call to subscribe or be notified ("Subscribe to our blog and receive notifications ...",
 * "Subscribe to stay in the know", "Sign up for deals, updates and a free guide", "Get notified by
 * email when this product is in stock", "Join Medium for free to get updates"). */
const SUBSCRIBE = /^(?:subscribe\b|sign[ -]?up for\b.*\b(?:deals|updates|offers|news)\b|get notified by (?:e-?mail|text|sms)\b|join \S+ for free\b)/i;
/** A control's label naming its item ("Add Moab 3 Mid Hiking Boots to Compare", a checkbox's or a
 * button's label for a screen reader): add ... to compare, cart, bag, basket, wish list, favourites. */
const ADD_ITEM = /^add .+ to (?:compare|comparison|cart|bag|basket|wish ?list|favou?rites)$/i;
/** A cookie notice ("This site uses cookies to ...", "We use cookies"). */
const COOKIES = /\b(?:site|website|we|store|shop|page|app|platform) (?:uses?|using) cookies\b/i;
/** A widget's keyboard or screen-reader help ("Use left/right arrows to navigate the slideshow",
 * "Press Enter for accessibility ...", "Press S or / to search"). */
const KEY_HELP =
  /^(?:use (?:the )?(?:[\w/]+ )?arrows? (?:keys? )?to\b|press (?:the )?[^\p{L}\p{N}\s]{0,3}\s?(?:enter|tab|esc(?:ape)?|space(?:bar)?)\b|press \S{1,3} (?:or \S{1,3} )?to\b)/iu;
/** A notice bar with its dismiss control ("Notice: Forums Closed ×", "... Hide announcement"). */
const DISMISSABLE = /\s(?:[×✕✖]|hide announcement|dismiss(?: (?:announcement|notice))?)$/i;
/** A thread closed to replies ("Status: Not open for further replies."). */
const CLOSED = /\bnot open for further replies\b/i;
/** A link to another page of the same list (`?page=3`, `/page/3/`): pagination, however it is labelled. */
export const PAGE_LINK = /\]\([^)\s]*(?:[?&](?:page|pg|p|start|offset)=\d+|\/page\/\d+)/i;
/** A link to the previous or next post (its text opens with Previous, Next, Older, Newer). */
const PREV_NEXT = /^(?:previous|prev|next|older|newer)(?![a-z])/i;
/** A consent notice under a form ("By signing up, you agree to our Privacy Policy"). */
const CONSENT = /^by (?:clicking|using|signing up|submitting|providing|subscribing|continuing|posting|registering)\b.*\b(?:agree|consent)/i;
/** A copyright line. */
const COPYRIGHT = /^(?:copyright\s*)?©|^copyright\b/i;
/** A list's result counter ("Showing 24 of 291 results", "Page 1 of 2", "33 Results"). */
const COUNTER = /^(?:(?:showing|displaying)\s+\d[\d,]*\b.*\bof\b.*|\d[\d,]*\s+(?:results|items|products)|page \d+ of \d+)$/i;
/** A rail's heading or label: related, recommended or popular items beside the content. */
const RAIL =
  /^(?:(?:more |browse |see )?related(?: \w+)?|featured(?: \w+)? (?:posts|items|articles|stories|products)|recommended(?: for you)?|you (?:might|may) also like|customers (?:also|who) \w+.*|more to (?:explore|discover)|read (?:this )?next|(?:top|trending|popular|recent|latest)(?: \w+)?|more from .*|more (?:topics|stories|articles|posts)(?: .*)?)$/i;
/** A site section's heading beside the content: the company's pages and contact blocks ("About us",
 * "Our services", "Stay in touch", "Follow us on Instagram", "Contact us for a quote"). */
const SITE_SECTION =
  /^(?:about us|our (?:services|partners|brands|company|locations|team)|stay in touch|stay connected|connect with us|follow us(?: on \w+)?|contact us(?: for .*)?|get in touch(?: .*)?)$/i;
/** A forum member's counters beside each post ("Joined: Feb 8, 2023", "Posts: 1,077", "Reaction
 * score: 10"): the poster's profile, repeated on every post, not what the thread says. */
const MEMBER_STAT =
  /^(?:joined|join date|member since|posts|messages|threads|reaction score|likes(?: received)?|points|trophies|solutions)\s*:\s*[\p{L}\p{N}][\p{L}\p{N}, ]*$/iu;
/** A line of a few button labels said over and over ("Reply Reply Reply Start a new thread Reply"):
 * at least this many words, of which at most a third are different, and no number (a product's
 * options, "Sofa, dark gray, 55 7/8 in" again and again, or a run of dated headlines repeat words too). */
const MIN_REPEATED_WORDS = 8;
/** A link's text in a line's markdown. */
const LINK_TEXT = /\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)\s]*\)/g;
/** A line that is one link to the site's home page (`](/)`): the site's logo or name, or "Home". */
const HOME_LINK = /^(?:[-*+]\s+)?\[(?:[^[\]]|\[[^\]]*\])*\]\(\/\)$/;
/** Prompts and rail headings are short; a longer line is what the page says. */
const MAX_PROMPT_WORDS = 25;
/** An account prompt saying what an account allows, or a cookie notice, runs longer. */
const MAX_NOTICE_WORDS = 50;
const MAX_RAIL_WORDS = 6;

/** Whether an outline line (markdown) is one of the page's controls or prompts. `text` is its plain
 * text (link and image markup removed). */
export function chromeLine(line: string, text: string): boolean {
  const t = label(text);
  if (!t) return false;
  if (HOME_LINK.test(line.trim())) return true;
  if (CONTROL.test(t) || COPYRIGHT.test(t) || COUNTER.test(t) || MEMBER_STAT.test(t) || controlRow(t) || prevNext(line)) return true;
  // A row of buttons, links among them ("[Try for free](/register) [Sign in](/login)"): every part of
  // the line, linked or not, a control's label.
  const parts = line
    .split(LINK_TEXT)
    .map(label)
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
  if (parts.length > 1 && line.includes('](') && parts.every((p) => CONTROL.test(p))) return true;
  const all = t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (all.length >= MIN_REPEATED_WORDS && new Set(all).size * 3 <= all.length && !/\p{N}/u.test(t)) return true;
  const words = t.split(' ').length;
  if (words <= MAX_PROMPT_WORDS && (NEWSLETTER.test(t) || SUBSCRIBE.test(t) || KEY_HELP.test(t) || DISMISSABLE.test(t) || CLOSED.test(t))) return true;
  if (words <= MAX_NOTICE_WORDS && (ACCOUNT.test(t) || COOKIES.test(t))) return true;
  if (CONSENT.test(t)) return true;
  if (words <= MAX_PROMPT_WORDS && ADD_ITEM.test(t)) return true;
  return words <= MAX_RAIL_WORDS && (RAIL.test(t) || SITE_SECTION.test(t));
}

/** A line's or a link's text without list and heading marks, trailing punctuation, and a button's
 * label written twice (its text and a screen reader's copy: "Send feedback Send feedback"). */
function label(text: string): string {
  const t = text
    .replace(/!\[[^\]]*\]\([^)\s]*\)/g, ' ')
    .replace(/^[\s#>*+•-]*(?:\d+\.\s+(?:#+\s*)?)?/, '')
    .replace(/[\s:.!?…*|()\-]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return /^(.+?) ?\1$/i.exec(t)?.[1] ?? t;
}

/** A line of links to the previous and next posts, nothing else but separators (a list's pages,
 * PAGE_LINK, stay). */
function prevNext(line: string): boolean {
  if (PAGE_LINK.test(line)) return false;
  let n = 0;
  for (const m of line.matchAll(LINK_TEXT)) {
    if (!PREV_NEXT.test(label(m[1]))) return false;
    n++;
  }
  return n > 0 && !/[\p{L}\p{N}]/u.test(line.replace(LINK_TEXT, ''));
}

/** Words of the longest row of button labels written without links read as one. */
const MAX_ROW_WORDS = 16;
/** A line of button labels one after the other, without links ("Download for macOS Download for
 * Windows"): its words split into whole controls' labels. */
function controlRow(t: string): boolean {
  const w = t.split(' ');
  if (w.length < 2 || w.length > MAX_ROW_WORDS) return false;
  // ok[i]: the first i words split into labels.
  const ok = [true];
  for (let i = 1; i <= w.length; i++) {
    ok[i] = false;
    for (let j = 0; j < i && !ok[i]; j++) if (ok[j] && (j > 0 || i < w.length) && CONTROL.test(w.slice(j, i).join(' '))) ok[i] = true;
  }
  return ok[w.length];
}
