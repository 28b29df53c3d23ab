// The space written at a block's end for the markdown converter (scan.ts assemble): a browser sets a
// block's text apart from what follows it, while the converter (mdream) writes a list item's, a table
// cell's or a heading's blocks on one line and glues them. What that space must be depends on what
// follows the block, found by a short look ahead past whitespace, comments and closing tags:
//  - inline content (text, an inline element, an image): the space is needed, and it must survive the
//    converter, which trims the trailing whitespace of the last text node at a block's end when that
//    node holds whitespace of the source (`<div>Plain name&#32;</div><span>then` read "Plain namethen")
//    and forgets a space it trimmed from an inline element just before (`<a>Renato Losio</a> </span>
//    &#32;</div>on` read "Losio)on"). An empty `<i></i>` before the space makes it a text node of its
//    own, without source whitespace, and writes out a space pending from an inline element (the
//    converter drops the empty pair itself);
//  - closing punctuation (`.,:;!?)]}%`): no space ("Color: Black", not "Color : Black");
//  - a paragraph: no space (in a list item or a quote the converter would write the paragraph on the
//    same line after a space, instead of after a blank line);
//  - anything else (a block, a line break, the end of the container or of a link, an unknown element):
//    the plain space, as before; the block boundary trims it.
import { tagName } from './tag-names.ts';

/** Inline elements: their text runs on after the block's (a browser's default display). */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'img',
  'ins',
  'kbd',
  'label',
  'mark',
  'picture',
  'q',
  's',
  'samp',
  'small',
  'source',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);
const PUNCT = new Set([...'.,:;!?)]}%']);
const SPACE = '&#32;';
const FLUSHED = '<i></i>&#32;';
/** Elements the pre-pass drops with their content (an icon between a name and a date): looked past. */
const DROPPED = new Set(['script', 'style', 'svg', 'template']);
/** How far to look (characters): past a run of closing tags and indentation, not across the page. */
const AHEAD = 600;

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13 || c === 12;

/** The space to write before the block's closing tag at `at` (`</div>` and the like), looking no
 * further than `limit` (the end of the part of the page kept). */
export function blockSpace(html: string, at: number, limit = html.length): string {
  // (every search stays inside the look-ahead window: a block end costs a constant, on any page)
  let k = within(html, '>', at, Math.min(limit, at + AHEAD));
  if (k === -1) return SPACE;
  k++;
  const end = Math.min(limit, k + AHEAD);
  while (k < end) {
    const c = html.charCodeAt(k);
    if (isSpace(c)) {
      k++;
      continue;
    }
    if (c !== 60) {
      // text: closing punctuation belongs to the word before; an entity or a word is inline content
      return PUNCT.has(html[k]) ? '' : FLUSHED;
    }
    if (html.startsWith('<!--', k)) {
      const e = within(html, '-->', k + 4, end);
      if (e === -1) return SPACE;
      k = e + 3;
      continue;
    }
    const closing = html.charCodeAt(k + 1) === 47;
    const name = tagName(html, k + (closing ? 2 : 1));
    if (!name) return SPACE;
    if (closing) {
      // (a link's end: the space would end the link's text; markdown.ts flattenLinks moves it after the link)
      if (name === 'a' || !INLINE.has(name)) return SPACE;
    } else if (name === 'p') return '';
    else if (name === 'img') return FLUSHED;
    else if (DROPPED.has(name)) {
      // (its closing tag in any case: `</SCRIPT>`)
      const e = html.slice(k, end).toLowerCase().indexOf(`</${name}`);
      const gt = e === -1 ? -1 : within(html, '>', k + e, end);
      if (gt === -1) return SPACE;
      k = gt + 1;
      continue;
    } else if (!INLINE.has(name)) return SPACE;
    const gt = within(html, '>', k, end);
    if (gt === -1) return SPACE;
    k = gt + 1;
  }
  return SPACE;
}

/** `html.indexOf(s, from)` found before `end`, or -1. */
function within(html: string, s: string, from: number, end: number): number {
  if (from >= end) return -1;
  const i = html.slice(from, end).indexOf(s);
  return i === -1 ? -1 : from + i;
}
