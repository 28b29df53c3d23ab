// The /v1/extract_markdown conversion: readable markdown of a page, main content first (<main>, else a
// single <article>, else the page without its header/footer/aside), then the rest of the page that
// carries something (page header, sidebars, footer). Dropped: scripts, styles, SVG, comments, forms'
// <select>s, navigation menus outside the main content (pagination kept), and outside the main
// content hidden nodes, consent banners and modals. Links and images are absolute and tracking-free;
// tables stay tables. A linear pre-pass (scan.ts) cuts the junk and finds the main content; mdream's
// native engine converts what is left (less to convert: faster than mdream on the raw page).
import { htmlToMarkdown as mdream } from 'mdream';
import { assemble, dropOverlays, scan, type Range } from './scan.ts';
import { stripTrackingParams as stripUrl } from './urls.ts';

export type MarkdownOptions = {
  /** The page's URL: the base for relative links and image sources (a <base href> overrides it). */
  url: string;
  /** Only the page's main content (POST /v1/extract_markdown `only_main_content`, a Gleaner extension). */
  onlyMainContent?: boolean;
};

export function htmlToMarkdown(html: string, opts: MarkdownOptions): string {
  const plan = scan(html);
  const n = html.length;
  let mainRanges: Range[];
  let restRanges: Range[];
  if (plan.main) {
    mainRanges = [plan.main];
    restRanges = [
      [0, plan.main[0]],
      [plan.main[1], n],
    ];
  } else if (plan.chrome.length) {
    mainRanges = complement(plan.chrome, n);
    restRanges = plan.chrome;
  } else {
    mainRanges = [[0, n]];
    restRanges = [];
  }
  // Hidden nodes, consent banners and modals are dropped outside the main content (inside it, hidden
  // tabs and accordions hold content); with no <main>/<article> landmark, everywhere.
  const mainHtml = assemble(html, mainRanges, plan.cuts);
  let origin: string | undefined;
  try {
    origin = new URL(plan.base ?? opts.url, opts.url).href;
  } catch {
    origin = undefined;
  }
  const main = convert(plan.main ? mainHtml : dropOverlays(mainHtml), origin);
  if (opts.onlyMainContent) return stripTrackingParams(main);
  const rest = restRanges.length ? convert(dropOverlays(assemble(html, restRanges, plan.cuts)), origin) : '';
  return stripTrackingParams(main && rest ? `${main}\n\n---\n\n${rest}` : main || rest);
}

function convert(html: string, origin: string | undefined): string {
  return html.trim() ? mdream(html, origin ? { origin } : {}).trim() : '';
}

function complement(ranges: Range[], n: number): Range[] {
  const out: Range[] = [];
  let pos = 0;
  for (const [s, e] of ranges) {
    if (s > pos) out.push([pos, s]);
    pos = Math.max(pos, e);
  }
  if (pos < n) out.push([pos, n]);
  return out;
}

const TRACKED =
  /[?&](?:utm_|fbclid|gclid|gclsrc|dclid|gbraid|wbraid|msclkid|mc_[ce]id|_ga=|_gl=|_hs|mkt_tok|yclid|igshid|twclid|ttclid|li_fat_id|scid=|spm=|ref_src|s_cid|icid)/i;
const TRACKED_URL = /https?:\/\/[^\s()<>?#]*\?[^\s()<>#]*/g;

/** Strips tracking parameters from the URLs in the markdown; a no-op (one search) when there are none. */
function stripTrackingParams(md: string): string {
  if (!TRACKED.test(md)) return md;
  return md.replace(TRACKED_URL, (u) => (TRACKED.test(u) ? stripUrl(u) : u));
}
