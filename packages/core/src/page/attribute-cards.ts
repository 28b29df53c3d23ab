// Cards a script has yet to render: a run of empty custom elements (Web Components, `<ql-card>`,
// `<course-tile>`) whose items' titles are in their attributes, as a server writes them for the
// component to draw in its shadow DOM (`<x-card name="Feature Engineering" path="/courses/9"></x-card>`
// three times or more). Without a browser the cards are empty, and the page's list reads as nothing;
// their titles, each linked to its item when an attribute names where it leads, are written in their
// place as a list. A single such element (a share button given the page's title, an icon named
// `arrow-right`) is no list and stays empty.

/** An empty custom element: `<x-y attrs></x-y>`, nothing but whitespace inside. */
const EMPTY_CUSTOM = /<([a-z][a-z0-9]*-[a-z0-9-]*)(\s[^<>]*)?>\s*<\/\1\s*>/gi;
/** The attribute naming a card's item. */
const TITLE_ATTR = /\s(?:name|title|heading|headline)\s*=\s*(?:"([^"<>]*)"|'([^'<>]*)')/i;
/** The attribute naming where a card leads. */
const LINK_ATTR = /\s(?:href|path|url|link)\s*=\s*(?:"([^"<>\s]+)"|'([^'<>\s]+)')/i;
/** So many like cards in one run make a list. */
const MIN_RUN = 3;

type Card = { s: number; e: number; tag: string; title: string; link: string | undefined };

const cardAt = (m: RegExpExecArray): Card | undefined => {
  const attrs = m[2] ?? '';
  const t = TITLE_ATTR.exec(attrs);
  const title = (t?.[1] ?? t?.[2] ?? '').trim();
  // A title of words, not a component's identifier (`name="arrow-right"`, `name="hero"`).
  if (!/\s/.test(title) || !/\p{L}/u.test(title)) return undefined;
  const l = LINK_ATTR.exec(attrs);
  return { s: m.index, e: m.index + m[0].length, tag: m[1].toLowerCase(), title, link: l?.[1] ?? l?.[2] };
};

/** The HTML with every run of attribute-only cards written as a list of their titles. */
export function attributeCards(html: string): string {
  if (!html.includes('-')) return html;
  const runs: Card[][] = [];
  let run: Card[] = [];
  EMPTY_CUSTOM.lastIndex = 0;
  for (let m = EMPTY_CUSTOM.exec(html); m; m = EMPTY_CUSTOM.exec(html)) {
    const card = cardAt(m);
    const last = run[run.length - 1];
    // A run: like cards with only whitespace between them.
    if (last && (!card || card.tag !== last.tag || /\S/.test(html.slice(last.e, m.index)))) {
      if (run.length >= MIN_RUN) runs.push(run);
      run = [];
    }
    if (card) run.push(card);
  }
  if (run.length >= MIN_RUN) runs.push(run);
  if (!runs.length) return html;
  const parts: string[] = [];
  let pos = 0;
  for (const r of runs) {
    const items = r.map((c) => `<li>${c.link ? `<a href="${c.link}">${c.title}</a>` : c.title}</li>`);
    parts.push(html.slice(pos, r[0].s), `<ul>${items.join('')}</ul>`);
    pos = r[r.length - 1].e;
  }
  parts.push(html.slice(pos));
  return parts.join('');
}
