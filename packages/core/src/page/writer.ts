// The output side of the reducer: compact markdown written through a stack of sinks (the page, a link's
// text, a table cell, a caption). Breaks and spaces are requested, not written, so runs collapse and a
// pending break is emitted only before the next text. Every operation is O(1) amortised.

export type Sink = {
  parts: string[];
  inline: boolean;
  brk: number;
  space: boolean;
  started: boolean;
  prefix: string;
  lead: boolean;
  /** A space before the next text if it starts with a letter or digit (text glued to a link). */
  soft: boolean;
};
type Table = { rows: string[][]; row: string[] | null; layout: boolean; caption: string };

const IMG_ONLY = /^(?:!\[[^\]]*\]\([^)\s]*\)\s*)+$/;
export const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

const LETTER = /[\p{L}\p{N}]/u;
/** A letter or digit: text glued to a link gets a space before it ("[Docs](/d) page"), punctuation
 * does not ("[Minnow](/m)’s", "[Docs](/d)—"). */
const wordStart = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c > 191 && LETTER.test(String.fromCharCode(c)));

function sink(inline: boolean): Sink {
  return { parts: [], inline, brk: 0, space: false, started: false, prefix: '', lead: false, soft: false };
}

export class Writer {
  readonly sinks: Sink[] = [sink(false)];
  readonly tables: Table[] = [];
  links = 0;
  images = 0;
  private lastLink: { sink: Sink; index: number; href: string; inner: string; imageOnly: boolean } | null = null;
  private readonly dedupeLinks: boolean;

  /** `dedupeLinks`: a target linked again close by shows its URL once (standard mode). */
  constructor(dedupeLinks: boolean) {
    this.dedupeLinks = dedupeLinks;
  }

  get top(): Sink {
    return this.sinks[this.sinks.length - 1];
  }

  /** Writes formatted text, preceded by the pending break or space and the pending line prefix. */
  emit(str: string): void {
    const s = this.top;
    if (s.started) {
      if (s.brk) s.parts.push(s.inline ? ' ' : s.brk >= 2 ? '\n\n' : '\n');
      else if (s.space || (s.soft && wordStart(str.charCodeAt(0)))) s.parts.push(' ');
    }
    if (s.prefix && !s.inline) s.parts.push(s.prefix);
    s.brk = 0;
    s.space = false;
    s.soft = false;
    s.prefix = '';
    s.started = true;
    s.parts.push(str);
  }

  /** Requests a line break (1) or a blank line (2) before the next text; a space in inline sinks. */
  block(n: number): void {
    const s = this.top;
    if (s.inline) s.space = s.started;
    else if (!s.prefix && s.started && n > s.brk) s.brk = n;
  }

  /** Whether what is written so far is empty or ends a line (a newline inside <pre>, or a pending break). */
  endsLine(): boolean {
    const s = this.top;
    return !s.started || s.brk > 0 || (s.parts[s.parts.length - 1] ?? '').endsWith('\n');
  }

  space(): void {
    if (this.top.started) this.top.space = true;
  }

  /** A text node: whitespace collapsed (kept verbatim inside <pre>). */
  text(t: string, pre: boolean): void {
    const s = this.top;
    if (pre && !s.inline) {
      if (!s.started && !t.trim()) return;
      this.emit(!s.started || s.brk > 0 ? t.replace(/^\n/, '') : t);
      return;
    }
    const core = collapse(t);
    const c0 = t.charCodeAt(0);
    if (c0 === 32 || c0 === 10 || c0 === 9 || c0 === 13 || c0 === 160 || !core) {
      if (s.started) s.space = true;
      else s.lead = true;
    }
    if (!core) return;
    this.emit(core);
    if (/\s$/.test(t)) s.space = true;
  }

  /** Writes `str` glued to the previous text (no pending space). */
  glue(str: string): void {
    this.top.space = false;
    this.emit(str);
  }

  push(inline: boolean): void {
    this.sinks.push(sink(inline));
  }

  pop(): Sink {
    return this.sinks.pop()!;
  }

  /** Closes a link sink: `[text](href)`; the same target linked again close by shows its URL once; a
   * link whose text matches `dropText` is left out with what it holds. */
  closeLink(href: string | null, label: string, dropText?: RegExp): void {
    const s = this.pop();
    const text = s.parts.join('').trim();
    const parent = this.top;
    if (dropText?.test(text)) return;
    if (s.lead && parent.started) parent.space = true;
    else if (parent.started && !parent.brk && parent.parts[parent.parts.length - 1]?.endsWith(')')) parent.space = true;
    const shown = text || collapse(label);
    if (href && shown) {
      const prev = this.lastLink;
      const imageOnly = text.startsWith('![') && IMG_ONLY.test(text);
      if (this.dedupeLinks && prev && prev.href === href && prev.sink === parent && parent.parts.length - prev.index <= 40) {
        if (!prev.imageOnly || imageOnly) {
          this.emit(shown);
          if (s.space) parent.space = true;
          return;
        }
        // The earlier link only wrapped an image (a card's picture): unwrap it, keep this one.
        parent.parts[prev.index] = prev.inner;
        this.links--;
      }
      this.links++;
      this.emit(`[${shown}](${href})`);
      parent.soft = true;
      this.lastLink = { sink: parent, index: parent.parts.length - 1, href, inner: shown, imageOnly };
    } else if (text) this.emit(text);
    if (s.space) parent.space = true;
  }

  openTable(layout: boolean): void {
    const outer = this.tables[this.tables.length - 1];
    if (outer && this.sinks.length > 1) outer.layout = true;
    this.tables.push({ rows: [], row: null, layout, caption: '' });
    this.block(2);
  }

  /** A heading inside a table cell makes the table a layout table. */
  markLayout(): void {
    const t = this.tables[this.tables.length - 1];
    if (t && this.sinks.length > 1) t.layout = true;
  }

  openRow(): boolean {
    const t = this.tables[this.tables.length - 1];
    if (t) t.row = [];
    return t !== undefined;
  }

  openCell(): boolean {
    const t = this.tables[this.tables.length - 1];
    if (!t) return false;
    t.row ??= [];
    this.push(false);
    return true;
  }

  closeCell(colspan: number): void {
    const text = this.pop().parts.join('');
    const t = this.tables[this.tables.length - 1];
    if (text.length > 1500) t.layout = true;
    t.row ??= [];
    t.row.push(text);
    for (let i = 1; i < colspan; i++) t.row.push('');
  }

  closeRow(): void {
    const t = this.tables[this.tables.length - 1];
    if (t.row?.length) t.rows.push(t.row);
    t.row = null;
  }

  closeCaption(): void {
    this.tables[this.tables.length - 1].caption = this.pop().parts.join('');
  }

  /** A data table becomes a markdown table; a layout table (nested tables, headings, one column) its cells. */
  closeTable(): void {
    const t = this.tables.pop()!;
    if (t.row?.length) t.rows.push(t.row);
    let cols = 0;
    for (const r of t.rows) if (r.length > cols) cols = r.length;
    if (cols <= 1 || t.layout) {
      if (t.caption) this.emit(t.caption);
      for (const r of t.rows) {
        for (const c of r) {
          if (!c.trim()) continue;
          this.block(2);
          this.emit(this.top.inline ? collapse(c) : c);
        }
      }
      return;
    }
    const lines: string[] = [];
    for (const r of t.rows) {
      let line = '|';
      let any = false;
      for (let i = 0; i < cols; i++) {
        const c =
          i < r.length
            ? r[i]
                .replace(/\s*\n\s*/g, ' ')
                .replace(/\|/g, '\\|')
                .trim()
            : '';
        if (c) any = true;
        line += ` ${c} |`;
      }
      if (any) lines.push(line);
      if (lines.length === 1 && any) lines.push(`|${'---|'.repeat(cols)}`);
    }
    if (!lines.length) return;
    this.block(2);
    if (t.caption) {
      this.emit(collapse(t.caption));
      this.block(1);
    }
    this.emit(this.top.inline ? lines.join(' ') : lines.join('\n'));
    this.block(2);
  }
}
