// One streaming pass over a page (htmlparser2's SAX parser, no tree): decides per element what the
// model reads (writer.ts renders it as compact markdown) and collects structured data on the way.
// Work per event is O(1) amortised, so the whole pass is linear in the page size.
import { isBoilerplate, renderAttrs } from './boilerplate.ts';
import { BLOCK1, BLOCK2, CONTENT, HARD_SKIP, HEADING, NO_ATTRS, sortControl } from './render-tags.ts';
import { PRICE } from './prices.ts';
import { hiddenFromReader, visibleRepeat } from './hidden.ts';
import { CODE_LINE } from './scan.ts';
import { linearParser } from './sax.ts';
import { Microdata, collectMeta, parseJsonLd, type MicroFrame } from './structured.ts';
import { isTrackingPixel, pickImageSrc, redirectTarget, urlResolver, type UrlResolver } from './urls.ts';
import { Writer, collapse } from './writer.ts';
import { own } from '../own.ts';

type Attrs = Record<string, string>;
/** [start, end) offsets into the HTML. */
export type Range = [number, number];
export type RenderOptions = {
  url: string;
  precision: boolean;
  dropChrome: boolean;
  /** Render only what starts inside these sorted, disjoint ranges, minus `drop` (the page's main
   * content); structured data, meta and the title are still read from the whole page. `main`: the
   * ranges are the main content, whose article, main or section ancestors hold it; `'header'`: the
   * ranges are what the main content left out, and its unrendered article, main or section still
   * holds a header inside (a byline), not the footers and asides it dropped. */
  only?: { ranges: Range[]; drop: Range[]; main?: boolean | 'header' };
  /** Link and image URLs on this origin (scheme://host[:port]) are written from the site's root
   * (`/path?query`): the same URL, resolved against the page, in fewer tokens. */
  siteOrigin?: string;
  /** Leave out parts hidden until a click (tab panels, accordion bodies, slides) as the browser does:
   * the agent, which can click them open, reads the page as shown. Default: they are read. */
  asShown?: boolean;
  /** Start offsets of elements read although their markup says chrome or hidden (MainContent.wrappers). */
  wrappers?: ReadonlySet<number>;
  /** A form's pick lists are controls (the rest of a page, outside its main content): a select inside
   * a form (a sort order, a forum's jump menu, a country picker, a search's scope) or one named for
   * sorting is left out unless one of its options holds a price, and an option with an empty value
   * (the prompt: "Choose an option") is never written. */
  formChoices?: boolean;
};
export type Rendered = {
  title: string;
  body: string;
  jsonLd: unknown[];
  microdata: Microdata;
  meta: Record<string, string>;
  links: number;
  images: number;
};

// What an element's start did, so that its end undoes exactly that.
const F_SKIP = 1,
  F_SOFT = 2,
  F_B1 = 4,
  F_B2 = 8,
  F_LINK = 16,
  F_TABLE = 32,
  F_ROW = 64,
  F_CELL = 128;
const F_LIST = 256,
  F_LI = 512,
  F_PRE = 1024,
  F_DEL = 2048,
  F_TITLE = 4096,
  F_JSONLD = 8192;
const F_CONTENT = 16384,
  F_NOSCRIPT = 32768,
  F_DT = 65536,
  F_CAPTION = 131072,
  F_SPACE = 262144,
  F_REPEAT = 524288,
  F_LANDMARK = 1048576,
  F_FORM = 2097152,
  F_CHOICES = 4194304;

/** Output sinks (link text, table cells) nest at most this deep, so no text is re-joined more than this often. */
const MAX_SINKS = 12;

type Entry = { f: number; micro: MicroFrame | null; data: unknown };

/** A link to a place on the same page saying so ("Skip to main content", "Jump to footer"): a
 * keyboard user's shortcut, not the page's text. */
const SKIP_LINK = /^(?:skip|jump) to\b/i;

export function renderPage(html: string, opts: RenderOptions): Rendered {
  const r = new Renderer(opts);
  const parser = linearParser(r);
  r.at = () => parser.startIndex;
  parser.write(html);
  parser.end();
  const w = r.w;
  return {
    title: r.title,
    body: w.sinks[0].parts.join(''),
    jsonLd: r.jsonLd,
    microdata: r.micro,
    meta: r.meta,
    links: w.links,
    images: w.images,
  };
}

class Renderer {
  readonly w: Writer;
  readonly micro = new Microdata();
  readonly meta: Record<string, string> = {};
  readonly jsonLd: unknown[] = [];
  title = '';
  private readonly o: RenderOptions;
  private readonly stack: Entry[] = [];
  private readonly lists: Array<{ ordered: boolean; n: number }> = [];
  private readonly emittedImages = new Set<string>();
  private readonly urls: UrlResolver;
  private readonly resolve: (u: string) => string | null;
  private raw: string | null = null; // text of <title> or a JSON-LD script being read
  private hard = 0; // inside script/style/svg/...
  private soft = 0; // inside a hidden or chrome element (standard mode)
  private noscript = 0;
  private repeat = 0; // inside a visible repeat link (visibleRepeat)
  /** The id of each element named by an `aria-controls` so far, with its control's id. */
  private readonly controls = new Map<string, string>();
  private content = 0; // inside article/main/section
  private landmark = 0; // inside an element with role=main
  private pre = 0;
  private afterDt = false;
  private firstOption = true;
  private forms = 0; // inside a form (counted whether shown or not)
  private rowAttrs = '';
  /** The offset of the current parser event (set by renderPage). */
  at: () => number = () => 0;
  private readonly inRanges: ((pos: number) => boolean) | null;
  private readonly inDrop: ((pos: number) => boolean) | null;

  constructor(o: RenderOptions) {
    this.inRanges = o.only ? rangeCursor(o.only.ranges) : null;
    this.inDrop = o.only?.drop.length ? rangeCursor(o.only.drop) : null;
    this.o = o;
    this.w = new Writer(!o.precision);
    this.urls = urlResolver(o.url);
    this.resolve = (u) => this.urls.resolve(u);
  }

  ontext(t: string): void {
    if (this.raw !== null) {
      this.raw += t;
      return;
    }
    if (this.hard > 0) return;
    if (this.micro.collecting) this.micro.text(t);
    if (this.soft > 0 || this.noscript > 0 || !this.shown()) return;
    this.w.text(t, this.pre > 0);
  }

  onopentag(tag: string, a: Attrs): void {
    const e: Entry = { f: 0, micro: null, data: null };
    this.stack.push(e);
    if (this.hard > 0) return;
    if (tag === 'form') {
      e.f = F_FORM;
      this.forms++;
    }
    if (a.itemscope !== undefined || a.itemprop !== undefined) {
      e.micro = this.micro.open(tag, a, this.resolve, tag === 'img' ? pickImageSrc(a) : undefined);
    }
    if (tag === 'meta') return collectMeta(a, this.meta, this.resolve);
    if (tag === 'link') {
      if (a.rel?.toLowerCase() === 'canonical' && a.href) this.meta.canonical ??= this.resolve(a.href) ?? a.href;
      return;
    }
    if (tag === 'base') return a.href ? this.urls.setBase(a.href) : undefined;
    if (tag === 'title') {
      if (!this.title && this.soft === 0) {
        e.f = F_TITLE;
        this.raw = '';
      }
      return;
    }
    if (HARD_SKIP.has(tag)) {
      e.f = F_SKIP;
      this.hard++;
      if (tag === 'script' && a.type?.toLowerCase().includes('ld+json')) {
        e.f |= F_JSONLD;
        this.raw = '';
      }
      return;
    }
    if (tag === 'noscript') {
      e.f = F_NOSCRIPT;
      this.noscript++;
      return;
    }
    if (a['aria-controls'] !== undefined && a.id !== undefined) for (const c of a['aria-controls'].split(/\s+/)) if (c) this.controls.set(c, a.id);
    if (this.soft > 0) return;
    if (!this.shown()) {
      // The article, main or section around the main content holds it: a header inside is its own
      // (a title, a byline), not the page's; so does an element with role=main, for a header.
      if (this.o.only?.main) this.enterContent(tag, a, e, this.o.only.main === 'header');
      return;
    }
    const repeat = !this.o.precision && visibleRepeat(tag, a);
    if (
      !this.o.precision &&
      ((!repeat && hiddenFromReader(tag, a, this.stack.length, this.controls, this.o.asShown)) ||
        (this.o.dropChrome && isBoilerplate(tag, a, this.content > 0 || (tag === 'header' && this.landmark > 0)))) &&
      !this.o.wrappers?.has(this.at())
    ) {
      e.f |= F_SOFT;
      this.soft++;
      return;
    }
    if (repeat) {
      e.f |= F_REPEAT;
      this.repeat++;
      return;
    }
    this.enterContent(tag, a, e);
    if (tag !== 'dd') this.afterDt = false;
    this.render(tag, a, e);
  }

  /**
   * Counts an element that holds content (an article, main or section; an element with role=main)
   * while it is open; `forHeader`: only as holding a header (counted as the landmark).
   */
  private enterContent(tag: string, a: Attrs, e: Entry, forHeader = false): void {
    if (forHeader) {
      if (CONTENT.has(tag) || a.role === 'main') {
        e.f |= F_LANDMARK;
        this.landmark++;
      }
      return;
    }
    if (CONTENT.has(tag)) {
      e.f |= F_CONTENT;
      this.content++;
    }
    if (a.role === 'main') {
      e.f |= F_LANDMARK;
      this.landmark++;
    }
  }

  /** A resolved URL as written: from the site's root when it is on the page's origin. */
  private written(u: string | null): string | null {
    const o = this.o.siteOrigin;
    return u && o && u.length > o.length && u.startsWith(o) && u[o.length] === '/' && u[o.length + 1] !== '/' ? u.slice(o.length) : u;
  }

  /** A link's resolved target; in standard mode a click-tracking redirect is written as its destination. */
  private linkTarget(href: string | undefined): string | null {
    const u = this.resolve(href ?? '');
    return u && !this.o.precision ? (redirectTarget(u) ?? u) : u;
  }

  /** Whether the current event lies in the part of the page being rendered. */
  private shown(): boolean {
    if (!this.inRanges) return true;
    const pos = this.at();
    return this.inRanges(pos) && !this.inDrop?.(pos);
  }

  private render(tag: string, a: Attrs, e: Entry): void {
    const w = this.w;
    let attrs = this.o.precision && !NO_ATTRS.has(tag) ? renderAttrs(tag, a, this.resolve) : '';
    const h = own(HEADING, tag);
    if (h !== undefined) {
      w.block(2);
      e.f |= F_B2;
      if (!w.top.inline) w.top.prefix += h;
      w.markLayout();
    } else if (BLOCK2.has(tag)) {
      w.block(2);
      e.f |= F_B2;
    } else if (BLOCK1.has(tag)) {
      w.block(1);
      e.f |= F_B1;
      if (tag === 'select') {
        this.firstOption = true;
        if (this.o.formChoices && (this.forms > 0 || sortControl(a)) && w.sinks.length < MAX_SINKS) {
          e.f |= F_CHOICES;
          w.push(true);
        }
      }
    } else if (this.pre > 0 && a.class !== undefined && CODE_LINE.test(a.class) && !w.endsLine()) {
      // A highlighter's line (Shiki's `<span class="line">`, prism's `token-line`) is a line of
      // the code even where no newline separates them: a stylesheet makes each a block.
      w.block(1);
    }
    switch (tag) {
      case 'a':
        if (w.sinks.length >= MAX_SINKS || this.repeat > 0) break; // links nested in links nested in ...: plain text
        e.f |= F_LINK;
        e.data = { href: this.written(this.linkTarget(a.href)), label: a['aria-label'] ?? a.title ?? '', skip: !this.o.precision && a.href?.startsWith('#') };
        w.push(true);
        break;
      case 'img': {
        if (this.repeat > 0) break;
        const src = pickImageSrc(a);
        const abs = src ? this.resolve(src) : null;
        if (!abs || isTrackingPixel(a, abs) || (this.noscript > 0 && this.emittedImages.has(abs))) break;
        this.emittedImages.add(abs);
        w.images++;
        w.emit(`${attrs}![${collapse(a.alt ?? a.title ?? '').replace(/[[\]]/g, '')}](${this.written(abs)})`);
        return;
      }
      case 'br':
        w.block(1);
        break;
      case 'ul':
      case 'ol':
        this.lists.push({ ordered: tag === 'ol', n: tag === 'ol' && a.start ? (Number(a.start) || 1) - 1 : 0 });
        w.block(this.lists.length === 1 ? 2 : 1);
        e.f |= F_LIST;
        break;
      case 'li': {
        w.block(1);
        e.f |= F_LI;
        const l = this.lists[this.lists.length - 1];
        const indent = '  '.repeat(Math.min(8, Math.max(0, this.lists.length - 1)));
        if (!w.top.inline) w.top.prefix = indent + (l?.ordered ? `${++l.n}. ` : '- ');
        break;
      }
      case 'dt':
        w.block(1);
        e.f |= F_DT;
        break;
      case 'dd':
        if (this.afterDt) w.space();
        else w.block(1);
        this.afterDt = false;
        break;
      case 'pre':
        w.block(2);
        e.f |= F_PRE | F_B2;
        if (!w.top.inline) {
          w.emit('```');
          w.top.brk = 1;
        }
        this.pre++;
        break;
      case 'del':
      case 's':
      case 'strike':
        e.f |= F_DEL;
        w.emit('~~');
        break;
      case 'table':
        w.openTable(a.role === 'presentation');
        e.f |= F_TABLE;
        break;
      case 'tr':
        if (w.openRow()) e.f |= F_ROW;
        else w.block(1);
        this.rowAttrs = attrs; // shown in the row's first cell
        attrs = '';
        break;
      case 'td':
      case 'th':
        if (w.sinks.length < MAX_SINKS && w.openCell()) {
          e.f |= F_CELL;
          e.data = Math.min(20, Math.max(1, Number(a.colspan) || 1));
        } else w.block(1);
        if (this.rowAttrs) {
          w.emit(this.rowAttrs);
          this.rowAttrs = '';
        }
        break;
      case 'caption':
        if (w.tables.length) {
          e.f |= F_CAPTION;
          w.push(true);
        }
        break;
      case 'option':
        if (this.o.formChoices && a.value !== undefined && !a.value.trim()) {
          e.f |= F_SOFT;
          this.soft++;
          return;
        }
        if (!this.firstOption) {
          w.glue(',');
          w.space();
        }
        this.firstOption = false;
        break;
      case 'button':
        w.space();
        e.f |= F_SPACE;
        break;
      case 'input':
        if (!this.o.precision && (a.type === 'submit' || a.type === 'button') && a.value) w.emit(collapse(a.value));
        break;
    }
    if (attrs) w.emit(attrs);
  }

  onclosetag(): void {
    const e = this.stack.pop();
    if (!e) return;
    if (e.micro) this.micro.close(e.micro);
    const f = e.f;
    if (f === 0) return;
    if (f & (F_TITLE | F_JSONLD)) {
      const raw = this.raw ?? '';
      this.raw = null;
      if (f & F_TITLE) this.title = collapse(raw);
      else {
        const v = parseJsonLd(raw);
        if (v !== undefined) this.jsonLd.push(v);
      }
    }
    if (f & F_FORM) this.forms--;
    if (f & F_SKIP) return void this.hard--;
    if (f & F_SOFT) return void this.soft--;
    if (f & F_NOSCRIPT) return void this.noscript--;
    if (f & F_REPEAT) return void this.repeat--;
    if (f & F_CONTENT) this.content--;
    if (f & F_LANDMARK) this.landmark--;
    const w = this.w;
    if (f & F_LINK) {
      const d = e.data as { href: string | null; label: string; skip: boolean };
      w.closeLink(d.href, d.label, d.skip ? SKIP_LINK : undefined);
    } else if (f & F_CELL) w.closeCell(e.data as number);
    else if (f & F_ROW) w.closeRow();
    else if (f & F_TABLE) w.closeTable();
    else if (f & F_CAPTION) w.closeCaption();
    else if (f & F_CHOICES) {
      const text = w.pop().parts.join('');
      if (PRICE.test(text)) w.emit(text);
    } else if (f & F_LIST) this.lists.pop();
    else if (f & F_PRE) {
      this.pre--;
      if (!w.top.inline) {
        w.top.brk = 1;
        w.emit('```');
      }
    } else if (f & F_DEL) w.glue('~~');
    else if (f & F_DT) {
      if (w.top.started) w.glue(':');
      this.afterDt = true;
      return;
    }
    if (f & F_SPACE) w.space();
    if (f & (F_B2 | F_TABLE)) w.block(2);
    else if (f & (F_B1 | F_LI | F_ROW)) w.block(1);
  }
}

/** Membership in sorted, disjoint ranges for positions asked in increasing order: O(1) amortised. */
function rangeCursor(ranges: Range[]): (pos: number) => boolean {
  let i = 0;
  return (pos) => {
    while (i < ranges.length && ranges[i][1] <= pos) i++;
    return i < ranges.length && ranges[i][0] <= pos;
  };
}
