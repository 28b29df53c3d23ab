// Lines of the outline of the rest of a page (reduce.ts) that are the page's controls and prompts,
// not what it says: left out even where the outline's rules would keep them (above a long line, in a
// paragraph with one, or holding a number). They are kinds of text any site's chrome has — a
// button's label, an account or newsletter prompt, a copyright line, a list's result counter, a
// rail's heading — never a page's facts: a product's name, price and specifications are sentences,
// labelled values or table rows.

/** A control's whole label: a shop's cart and list buttons, account links, sharing, loading and
 * expanding placeholders, feedback widgets, sort and pager controls, calls to book or try, legal
 * links, an advertisement's label. */
const CONTROL = new RegExp(
  '^(?:' +
    [
      'add(?: full \\w+)? to (?:cart|bag|basket|wish ?list|list|registry|part list)',
      'buy now|shop now|quick (?:shop|view)|notify me|price alert|added',
      'sign (?:in|up)(?: now| for free| free)?|log ?in|log ?out|register|subscribe|join(?: now| for free)?',
      'share(?: this \\w+)?|like this|save this \\w+|follow',
      'skip (?:to )?\\w+(?: \\w+)?|jump to|loading|click to expand|show more|read more|learn more|(?:see|view) (?:all|more)(?: \\w+)?|back to (?:top|blog)',
      'send feedback|was this (?:page |article |answer )?helpful|how helpful (?:do you find|is|was) .+|rate this (?:page|article)|edit this page|play video|report inappropriate content',
      'advertisement|advertiser disclosure|sponsor(?:ed)? message|article continues below',
      'apply now|book now|get in touch|contact (?:us|sales)|talk to (?:an? |our )?(?:expert|sales|specialist)|get started(?: free| for free)?|try (?:it )?(?:for )?free|download now',
      '(?:request|book|schedule)(?: a| your)?(?: free)? (?:demo|pricing|quote|call|consultation)(?: now)?',
      'sort(?: by| options)?|results per page|display posts from previous|password',
      'reply(?: with quote)?|leave a (?:comment|reply)|keyboard shortcuts|table of contents',
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
/** A consent notice under a form ("By signing up, you agree to our Privacy Policy"). */
const CONSENT = /^by (?:clicking|using|signing up|submitting|providing|subscribing|continuing|posting|registering)\b.*\b(?:agree|consent)/i;
/** A copyright line. */
const COPYRIGHT = /^(?:copyright\s*)?©|^copyright\b/i;
/** A list's result counter ("Showing 24 of 291 results", "Page 1 of 2", "33 Results"). */
const COUNTER = /^(?:(?:showing|displaying)\s+\d[\d,]*\b.*\bof\b.*|\d[\d,]*\s+(?:results|items|products)|page \d+ of \d+)$/i;
/** A rail's heading or label: related, recommended or popular items beside the content. */
const RAIL =
  /^(?:(?:more |browse |see )?related(?: \w+)?|featured(?: \w+)? (?:posts|items|articles|stories|products)|recommended(?: for you)?|you (?:might|may) also like|customers (?:also|who) \w+.*|more to (?:explore|discover)|read (?:this )?next|(?:top|trending|popular|recent|latest)(?: \w+)?|more from .*|more (?:topics|stories|articles|posts)(?: .*)?)$/i;
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
const MAX_RAIL_WORDS = 6;

/** Whether an outline line (markdown) is one of the page's controls or prompts. `text` is its plain
 * text (link and image markup removed). */
export function chromeLine(line: string, text: string): boolean {
  const t = label(text);
  if (!t) return false;
  if (HOME_LINK.test(line.trim())) return true;
  if (CONTROL.test(t) || COPYRIGHT.test(t) || COUNTER.test(t) || MEMBER_STAT.test(t)) return true;
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
  if (words <= MAX_PROMPT_WORDS && (ACCOUNT.test(t) || NEWSLETTER.test(t))) return true;
  if (CONSENT.test(t)) return true;
  return words <= MAX_RAIL_WORDS && RAIL.test(t);
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
