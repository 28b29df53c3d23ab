// HTML as plain text for the evaluation: the anchors' HTML output (Readability, defuddle) and the
// page's whole visible text. Block elements end a line, so words of adjacent blocks never merge;
// scripts, styles, templates, the <head> and images are dropped.
import { Parser } from 'htmlparser2';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'iframe', 'object', 'canvas', 'math']);
const BLOCK =
  /^(?:p|div|section|article|main|aside|header|footer|nav|h[1-6]|li|ul|ol|dl|dt|dd|tr|td|th|table|thead|tbody|tfoot|caption|blockquote|pre|figure|figcaption|form|fieldset|br|hr|address|details|summary|option|label|button)$/;

export function htmlToText(html: string): string {
  const out: string[] = [];
  let skip = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIP.has(name)) skip++;
        else if (BLOCK.test(name)) out.push('\n');
      },
      onclosetag(name) {
        if (SKIP.has(name)) skip = Math.max(0, skip - 1);
        else if (BLOCK.test(name)) out.push('\n');
      },
      ontext(t) {
        if (!skip) out.push(t);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out
    .join('')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

/** Attributes whose values are names for code (CSS, scripts), not something the page says. */
const CODE_ATTR = /^(?:class|id|style|on[a-z]+)$/;

/** What a product value is looked for in, "in the HTML": the text (scripts and styles aside), the
 * bodies of data scripts (JSON-LD, JSON) and attribute values (content, value, data-*, href, ...),
 * one per line. CSS, script code, comments and class/id/style/event attributes are left out: an
 * `#outOfStock` rule or id says nothing about this product. */
export function htmlFacts(html: string): string {
  const out: string[] = [];
  let skip = 0;
  let data = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        for (const [k, v] of Object.entries(attrs)) if (v && !CODE_ATTR.test(k)) out.push('\n', v);
        if (name === 'script' && /json/i.test(attrs.type ?? '')) data++;
        else if (name === 'script' || name === 'style') skip++;
        out.push('\n');
      },
      onclosetag(name) {
        if (name === 'script' && data) data--;
        else if ((name === 'script' || name === 'style') && skip) skip--;
        out.push('\n');
      },
      ontext(t) {
        if (!skip) out.push(t);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out.join('');
}
