// Content a caller supplies instead of a URL (parse, scrapers built from content): HTML as it is,
// plain text turned into paragraphs, so extraction and recipes read both the same way.

/** True when the content has HTML structure (a document or common block/inline elements). */
export function looksLikeHtml(s: string): boolean {
  return /<\s*(html|body|div|p|table|ul|ol|span|a|h[1-6]|section|article|main|head)\b/i.test(s);
}

/** Plain text as an HTML document: escaped, blank lines separating paragraphs, line breaks kept. */
export function textAsHtml(s: string): string {
  const esc = s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<html><body>${esc
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, '<br>')}</p>`)
    .join('')}</body></html>`;
}

/** The supplied content as HTML. */
export function suppliedHtml(content: string): string {
  return looksLikeHtml(content) ? content : textAsHtml(content);
}
