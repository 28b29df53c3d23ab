// What a reader of the page does not see, as the model-input pass decides it (render.ts): hidden
// markup, except what is hidden only until a script runs or a click opens it (streamed parts, tab
// panels, accordion bodies, a page-level wrapper revealed on load), and the links hidden from screen
// readers that are shown on screen. Also the class words content-tree.ts reads hidden state by
// (disclosure panels, carousel slides, screen-reader-only text, hiding utility classes).
import type { AnyNode, Element } from 'domhandler';
import { isHidden } from './boilerplate.ts';

type Attrs = Record<string, string>;

/** Containers that aria-hidden="true" does not hide from the model: pages set it on their whole body
 * while a cookie dialog is open (the page is still there), while on icons and decorative copies it
 * means what it says. */
const ARIA_CONTAINERS = new Set(['div', 'section', 'main', 'article', 'form', 'table', 'ul', 'ol', 'dl', 'header', 'footer', 'aside', 'body']);

/** React's streamed server rendering sends each finished part as `<div hidden id="S:…">`, moved into
 * place by a script: it is the page's content, not hidden. */
const STREAMED = /^S:[\w-]+$/;
const PAGE_LEVEL = 4;
const VISIBILITY_HIDDEN = /visibility\s*:\s*hidden/i;

/** Class or id words of a part the reader opens with a click: a tab's panel, an accordion's or
 * expander's body, an FAQ's answer, a carousel's slide. Hidden only until clicked, it is the page's content (a
 * product's specifications, a service page's FAQ answers); a menu that collapses is not. */
const DISCLOSURE =
  /tab-?pane|tab-?panel|tabpanel|tab__content|tab-content|tabbed-content|collaps|accordion|expander|faq[-_]*(?:answer|content|body|text)|carousel__(?:cell|slide|item)|carousel-(?:cell|slide|item)|swiper-slide/;
const NOT_DISCLOSURE = /nav|menu|clone|modal|popup|drawer|dropdown|tooltip|search/;

function isDisclosure(a: Attrs): boolean {
  if (a.role === 'tabpanel') return true;
  const names = `${a.class ?? ''} ${a.id ?? ''}`.toLowerCase();
  return names.length > 4 && DISCLOSURE.test(names) && !NOT_DISCLOSURE.test(names);
}

/** A link hidden from screen readers and taken out of the tab order (`aria-hidden="true"
 * tabindex="-1"`): a card's second link to the page its title links (its image, its teaser), shown
 * on screen like the first; only assistive technology skips the repeat. Its text is read, without
 * its target and images (the title's link has them). */
export const visibleRepeat = (tag: string, a: Attrs) =>
  tag === 'a' && a['aria-hidden'] === 'true' && a.tabindex === '-1' && a.hidden === undefined && (a.style === undefined || !isHidden(tag, { style: a.style }));

/** Roles of a part a control opens that is not the page's text (a menu, a dialog, a tooltip). */
const POPUP_ROLE = /^(?:menu|menubar|listbox|dialog|alertdialog|tooltip|combobox|navigation|search)$/;

/** An accordion's panel by its ARIA wiring: opened by a control earlier on the page
 * (`aria-controls` naming it) and labelled by that control (`aria-labelledby`), as the WAI-ARIA
 * accordion pattern writes it, whatever its class names say. */
function isControlledPanel(a: Attrs, controls: Map<string, string>): boolean {
  if (a.id === undefined || a['aria-labelledby'] === undefined || (a.role !== undefined && POPUP_ROLE.test(a.role))) return false;
  const by = controls.get(a.id);
  return by !== undefined && a['aria-labelledby'].split(/\s+/).includes(by);
}

/** Whether the model does not read an element hidden by its markup (what hidden things it reads: streamed parts, closed disclosures, page-level wrappers, aria-hidden containers). */
export function hiddenFromReader(tag: string, a: Attrs, depth: number, controls: Map<string, string>, asShown = false): boolean {
  if (!isHidden(tag, a)) return false;
  if (a.hidden !== undefined && a.id !== undefined && STREAMED.test(a.id) && a['aria-hidden'] !== 'true') return false;
  if (!asShown && tag !== 'input' && (isDisclosure(a) || isControlledPanel(a, controls))) return false;
  // A page-level wrapper (html > body > an app root > it) made invisible until its scripts have run
  // (visibility:hidden, revealed on load): the page itself.
  if (
    depth <= PAGE_LEVEL &&
    a.hidden === undefined &&
    a['aria-hidden'] !== 'true' &&
    a.style &&
    VISIBILITY_HIDDEN.test(a.style) &&
    !/display\s*:\s*none/i.test(a.style)
  )
    return false;
  if (a['aria-hidden'] !== 'true' || !ARIA_CONTAINERS.has(tag)) return true;
  return a.hidden !== undefined || (a.style !== undefined && isHidden(tag, { style: a.style }));
}

/**
 * An inactive tab's panel keyed by a data attribute: hidden by an inline style, after a shown sibling
 * carrying the same `data-` attribute with another value (`<div data-cat="0" style="display:block">`,
 * `<div data-cat="1" style="display:none">`, the tabs above them keyed alike). Hidden until its tab is
 * clicked, it is the page's content.
 */
export function keyedPanel(el: Element): boolean {
  const keys = Object.keys(el.attribs).filter((k) => k.startsWith('data-') && el.attribs[k] !== '');
  if (keys.length === 0) return false;
  for (let p = el.prev; p; p = p.prev) {
    if (p.type !== 'tag') continue;
    const b = (p as Element).attribs;
    return b.style !== undefined && !isHidden((p as Element).name, b) && keys.some((k) => b[k] !== undefined && b[k] !== '' && b[k] !== el.attribs[k]);
  }
  return false;
}

/** A question's text is at most this long (characters). */
const QUESTION = 200;

/**
 * A block whose whole text is one question ("Does pet insurance cover dental work?"), shown: an FAQ's
 * question without heading markup, the row a click on which opens the hidden answer after it. Not a
 * button or a link (a floating "Need help planning?" button opening a chat card), which would name
 * what it opens (`aria-controls`) if it were an accordion's.
 */
export function asksQuestion(el: Element): boolean {
  if (el.name === 'button' || el.name === 'a') return false;
  let s = '';
  const stack: AnyNode[] = [el];
  while (stack.length && s.length <= QUESTION) {
    const n = stack.pop()!;
    if (n.type === 'text') s += n.data;
    else if (n.type === 'tag' && n.name !== 'script' && n.name !== 'style') for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  s = s.trim();
  return s.length > 3 && s.length <= QUESTION && s.endsWith('?') && !s.slice(0, -1).includes('?');
}

/**
 * A part hidden from screen readers inside a link that names itself with `aria-label`: the label says
 * what the part shows (`<a aria-label="4.7 out of 5 stars, 58,483 ratings"><i aria-hidden="true">4.7 out
 * of 5 stars</i> <span aria-hidden="true">58,483</span></a>`, a rating's stars and count), so that
 * screen readers hear it once; the part is shown all the same.
 */
export function labelledPart(el: Element): boolean {
  if (el.attribs['aria-hidden'] !== 'true' || el.attribs.hidden !== undefined || el.attribs.style !== undefined) return false;
  const p = el.parent as Element | null;
  return p?.type === 'tag' && p.name === 'a' && (p.attribs['aria-label'] ?? '').trim() !== '' && p.attribs['aria-hidden'] !== 'true';
}

/** Class words and roles of a disclosure panel: an accordion's body, a tab's pane, a "read more" remainder, an FAQ's answer (`faq__answer`). */
const PANEL =
  /(?:^|[-_\s])(?:collapse|collapsible|accordion|panel|tabs?[-_]*(?:pane|panel|content)|expandable|expander|read[-_]*more|show[-_]*more|more[-_]*text|faq[-_]*(?:answer|content|body|text))(?:$|[-_\s])/;
/** Class words split where a compound's next word begins, as BEM and CSS-in-JS write them (`tab__content`, `AccordionPanel`). */
const CAMEL = /([a-z])(?=[A-Z])/g;
export const isPanel = (tag: string, a: Record<string, string>) =>
  a.role === 'tabpanel' ||
  a.role === 'region' ||
  (tag !== 'nav' && (a.class !== undefined || a.id !== undefined) && PANEL.test(`${a.class ?? ''} ${a.id ?? ''}`.replace(CAMEL, '$1-').toLowerCase()));

/** A carousel's slide, shown in turn (hidden from screen readers while off screen); not a loop's copy of one. */
export const SLIDE = /^(?!.*(?:cloned|duplicate))(?:.*\s)?(?:slick-slide|swiper-slide)(?:\s|$)/;

/**
 * Utility classes that keep text off the screen for screen readers only; besides Bootstrap's and
 * WordPress's, design systems' own: Foundation's `show-for-sr`, Drupal's `element-invisible`,
 * eBay's Skin `clipped`, `assistive-text`.
 */
export const SCREEN_READER =
  /^(?:sr-only|visually-?hidden|screen-?reader-?(?:text|only)|hidden-?visually|a11y-?hidden|u-?hidden-?visually|show-for-sr|element-invisible|clipped|assistive-text)$/i;

/** Utility classes that hide an element (Bootstrap's `hide`, `hidden`, `d-none`; Bulma's `is-hidden`; a marketplace design system's `a-hidden`, `aok-hidden`). */
export const HIDDEN_CLASS = /^(?:hide|hidden|d-none|is-hidden|u-hidden|js-hidden|a-hidden|aok-hidden)$/i;
/** ... and those that show it again on some screens (`d-md-block`, `md:flex`, `visible-lg`, `show-for-medium`). */
export const SHOWN_CLASS = /^(?:d-[a-z]+-(?!none)[a-z-]+|[a-z0-9]+:(?!hidden)[a-z-]+|visible-[a-z-]+|show-[a-z-]+|show@[a-z]+)$/i;
export const hiddenByClass = (cls: string) => {
  const words = cls.split(/\s+/);
  return words.some((w) => HIDDEN_CLASS.test(w)) && !words.some((w) => SHOWN_CLASS.test(w));
};
