// Reading a tag's name straight from the HTML, without a parser (scan.ts, block-space.ts, markdown.ts).

/** A character of a tag's name: a letter, a digit or `-`. */
export const isName = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45;

/** The tag name starting at `at` (after `<` or `</`), lower-cased; '' when none. */
export function tagName(html: string, at: number): string {
  let k = at;
  while (k < html.length && isName(html.charCodeAt(k))) k++;
  return html.slice(at, k).toLowerCase();
}
