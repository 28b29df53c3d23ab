// What reduction drops as carrying no facts: hidden nodes, page chrome (navigation, page header and
// footer, sidebars), consent banners, newsletter modals, share bars and ad slots; and, for precision
// mode, which element attributes are shown to the model; and the side sheets (non-modal dialogs) main-content detection reads.

type Attrs = Record<string, string>;

/** Consent / marketing overlays: matched anywhere in class or id. */
const CONSENT = /cookie|consent|gdpr|ccpa|onetrust|cookiebot|didomi|cc-window|cc-banner|(?:^|\s)cky-|email-capture|signup-modal|subscribe-modal/;
/** Newsletter sign-up boxes, matched per class token / id: a newsletter's own text ("newsletter-content"
 * on a newsletter archive page) is content. */
const NEWSLETTER =
  /^newsletter$|^newsletter[-_]?(?:signup|sign-up|form|modal|popup|pop-up|subscribe|subscription|box|widget|cta|banner|overlay|bar|block|optin|opt-in|container|footer)|(?:signup|subscribe|modal|popup|footer)[-_]?newsletter/;
/** Page chrome and clutter: matched against whole class tokens / the id. */
const CHROME_TOKEN =
  /^(?:(?:site|page|global|main|top|primary|mobile|sticky|mega)[-_]?)?(?:nav|navbar|navigation|menu|megamenu|mega-menu|masthead|topbar|top-bar|sidebar|side-bar|offcanvas)$|^navbar|^(?:social|share|sharing|social-share|social-links|share-buttons?|share-bar|sharebar|advert|advertisement|ad-slot|ad-container|ad-wrapper|adsbygoogle|ad-unit|popup|modal|skip-link|skip-to-content|back-to-top)$/;
/** Header/footer tokens: chrome only outside article/main/section (a card's header holds its title). */
const EDGE_TOKEN = /^(?:(?:site|page|global|main)[-_]?)?(?:header|footer)$/;
const PAGINATION = /pagination|pager|paging|page-numbers/;
const CHROME_ROLE = new Set(['navigation', 'banner', 'contentinfo', 'search']);
const NEVER = new Set(['html', 'body', 'main', 'article', 'table', 'tr', 'td', 'th', 'li', 'ul', 'ol']);

/** True when the element is page chrome (standard mode drops it with everything inside). */
export function isBoilerplate(tag: string, attrs: Attrs, inContent: boolean): boolean {
  if (NEVER.has(tag)) return false;
  const cls = attrs.class;
  const id = attrs.id;
  const label = attrs['aria-label'];
  const names = `${cls ?? ''} ${id ?? ''} ${label ?? ''}`.toLowerCase();
  if (names.length > 2 && PAGINATION.test(names)) return false;
  if (tag === 'nav' || isOverlay(tag, attrs)) return true;
  if ((tag === 'header' || tag === 'footer' || tag === 'aside') && !inContent) return true;
  const role = attrs.role;
  if (role !== undefined) {
    // A banner role inside the content is a hero, not the page's header.
    if (CHROME_ROLE.has(role) && !(inContent && role === 'banner')) return true;
    if (role === 'complementary' && !inContent) return true;
  }
  if (cls === undefined && id === undefined) return false;
  if (id !== undefined && tokenIsChrome(id.toLowerCase(), inContent)) return true;
  if (cls !== undefined) {
    for (const t of cls.toLowerCase().split(/\s+/)) if (t && tokenIsChrome(t, inContent)) return true;
  }
  return false;
}

/** Consent banners, newsletter popups and modal dialogs (dropped by the markdown endpoint too). */
export function isOverlay(tag: string, attrs: Attrs): boolean {
  if (tag === 'dialog' || attrs['aria-modal'] === 'true' || attrs.role === 'dialog' || attrs.role === 'alertdialog') return true;
  // A page builder's popup template, printed into the page for a script to show on a trigger
  // (Elementor's `data-elementor-type="popup"`, whose class `elementor-location-popup` is kept
  // where a cache plugin strips the data attributes).
  if (attrs['data-elementor-type'] === 'popup') return true;
  const cls = attrs.class;
  const id = attrs.id;
  if (cls === undefined && id === undefined) return false;
  const names = `${cls ?? ''} ${id ?? ''}`.toLowerCase();
  if (CONSENT.test(names)) return true;
  if (names.includes('newsletter') && names.split(/\s+/).some((t) => NEWSLETTER.test(t))) return true;
  return cls !== undefined && /(?:^|\s)(?:modal|popup|elementor-location-popup)(?:\s|$)/i.test(cls);
}

function tokenIsChrome(t: string, inContent: boolean): boolean {
  return CHROME_TOKEN.test(t) || (!inContent && EDGE_TOKEN.test(t));
}

const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** Hidden by markup: the hidden attribute, aria-hidden, inline display:none, hidden inputs, closed dialogs. */
export function isHidden(tag: string, attrs: Attrs): boolean {
  if (attrs.hidden !== undefined) return true;
  if (attrs['aria-hidden'] === 'true') return true;
  const style = attrs.style;
  if (style !== undefined && style.length > 8 && HIDDEN_STYLE.test(style)) return true;
  if (tag === 'input' && attrs.type?.toLowerCase() === 'hidden') return true;
  // Parts of a form its plugin's stylesheet hides: the status messages its script shows only once the
  // form is sent ("Thank you! Your submission has been received!", "Oops! Something went wrong";
  // Webflow's classes and its conventions'), and Gravity Forms' fields hidden from visitors.
  if (attrs.class !== undefined && FORM_HIDDEN.test(attrs.class)) return true;
  return false;
}
const FORM_HIDDEN = /(?:^|\s)(?:w-form-(?:done|fail)|form[-_]message[-_](?:success|error)|gfield_visibility_hidden)(?:\s|$)/i;

// Precision mode: attributes rendered inline. Tracking, styling, framework and event attributes are dropped.
const SHOWN = new Set([
  'id',
  'name',
  'title',
  'value',
  'content',
  'datetime',
  'placeholder',
  'label',
  'rel',
  'role',
  'type',
  'selected',
  'checked',
  'disabled',
  'hidden',
  'itemprop',
  'itemtype',
  'aria-label',
  'aria-current',
  'aria-hidden',
  'aria-valuenow',
  'for',
  'min',
  'max',
  'step',
  'colspan',
  'rowspan',
  'headers',
  'abbr',
  'cite',
  'open',
]);
const TRACKING_DATA =
  /^data-(?:ga|gtm|analytics|track|tracking|event|layer|testid|test|qa|cy|v-|reactid|react|n-|hk|hydrat|astro|svelte|sentry|click|impression|ved|ei|jsl)/;
const LAZY_IMG = /^data-(?:src|srcset|lazy|lazy-src|original|url)$/;
const URL_ATTR = new Set(['href', 'src', 'poster', 'action', 'data']);

/** Attributes of an element as `{tag k="v" ...}` for precision mode, or '' when none is worth showing. */
export function renderAttrs(tag: string, attrs: Attrs, resolve: (u: string) => string | null): string {
  let out = '';
  for (const name in attrs) {
    let v = attrs[name];
    if (SHOWN.has(name)) {
      // shown as is
    } else if (name.startsWith('data-')) {
      if (TRACKING_DATA.test(name) || (tag === 'img' && LAZY_IMG.test(name))) continue;
    } else if (name === 'class') {
      if (v.length > 40) continue;
    } else if (URL_ATTR.has(name) && tag !== 'a' && tag !== 'img') {
      v = resolve(v) ?? '';
      if (!v) continue;
    } else if (name.startsWith('aria-') && name !== 'aria-describedby' && name !== 'aria-controls' && name !== 'aria-labelledby') {
      // other aria state is informative
    } else {
      continue;
    }
    v = v.replace(/\s+/g, ' ').trim();
    if (v.length > 200) v = `${v.slice(0, 200)}…`;
    out += v === '' ? ` ${name}` : ` ${name}="${v.replace(/"/g, "'")}"`;
  }
  return out ? `{${tag}${out}}` : '';
}

/** Names of a non-modal dialog that is not a sheet of the page's text (a popup, a cart, a chat, a menu). */
const NOT_SHEET = /overlay|popup|popmake|modal|cart|basket|bag|chat|cookie|consent|newsletter|subscribe|sign-?in|login|search|menu|nav|drawer/;

/**
 * A side sheet: a non-modal dialog (`role="dialog" aria-modal="false"`) the page opens beside itself
 * from a button (a product's description, its delivery terms), its content shown on a click like a
 * disclosure panel's; not one named as a popup, a cart, a chat or a menu.
 */
export function isSheet(name: string, a: Attrs): boolean {
  return a.role === 'dialog' && a['aria-modal'] === 'false' && !isHidden(name, a) && !NOT_SHEET.test(`${a.class ?? ''} ${a.id ?? ''}`.toLowerCase());
}
