// The control every row of a listing carries, found inside the main content (left-out.ts): a short
// link whose text is the same in five rows or more but whose target differs in most ("hide",
// "discuss", "More like this", "See all reviews"; "View Company Profile", which leads to one page for
// a company's several jobs): an action on that row's item, not what the list says about it. A tag or an author linked from several rows points to one
// page each time, and stays. On a page typed article (a news list so typed) the link must stand alone
// in its element, not inside a sentence ("see <a>here</a>").
import { classId, eachLive, HEADINGS, textOf, type Tree } from './content-tree.ts';
import { GRID, PRICED, pricedGrids } from './link-blocks.ts';

/** A control's text is at most this long (characters), has no digit. */
const CONTROL_TEXT = 30;
/** A link naming a file's format ("PDF", "html", "TeX") is the item's own document, not a control. */
const FORMAT = /^(?:pdf|html?|tex|bib|docx?|pptx?|xlsx?|csv|zip|ps|epub|mp3|mp4|slides|video|audio|code|data)$/;
/** ...and so is a link to a file. */
const FILE = /\.(?:pdf|pptx?|docx?|xlsx?|csv|zip|tex|bib|ps|epub|mp3|mp4)(?:[?#]|$)/i;
/** A colour or size swatch ("Amberlight" in every card) is the item's option, not a control. */
const SWATCH = /swatch/;
/** Rows carrying the same control, at least. */
const ROWS = 5;

/** The links inside the content `node` that are the same control in every row, each to its own row's target (`alone`: none inside a sentence). */
export function rowControls(t: Tree, node: number, alone = false): number[] {
  const byText = new Map<string, { els: number[]; hrefs: Set<string> }>();
  // (a shop's priced cards are cardControls's, left-out.ts: their colour swatches, each to its own product, stay)
  const grid = pricedGrids(t, node);
  const inPricedCard = (i: number) => {
    for (let p = i; p !== node && p !== -1; p = t.parent[p]) {
      if (grid[p - node] & PRICED && grid[t.parent[p] - node] & GRID) return true;
      if (SWATCH.test(classId(t.els[p]))) return true;
    }
    return false;
  };
  eachLive(t, node, (i) => {
    const el = t.els[i];
    if (el.name !== 'a' || HEADINGS.has((el.parent as { name?: string } | null)?.name ?? '')) return false;
    const href = el.attribs.href;
    if (!href || href.startsWith('#') || FILE.test(href) || inPricedCard(i)) return false;
    // (off a listing, a link inside a sentence, "click <a>here</a>", is the sentence's word)
    if (alone && el.parent?.children.some((c) => c.type === 'text' && c.data.trim() !== '')) return false;
    const text = textOf(el).replace(/\s+/g, ' ').trim().toLowerCase();
    if (text === '' || text.length > CONTROL_TEXT || /\d/.test(text) || !/\p{L}/u.test(text) || FORMAT.test(text)) return false;
    const e = byText.get(text) ?? { els: [], hrefs: new Set<string>() };
    e.els.push(i);
    e.hrefs.add(href);
    byText.set(text, e);
    return true;
  });
  const out: number[] = [];
  // (five targets or more, at least half as many as the links: some rows may share one)
  for (const e of byText.values()) if (e.hrefs.size >= ROWS && e.hrefs.size * 2 >= e.els.length) out.push(...e.els);
  return out;
}
