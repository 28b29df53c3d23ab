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
