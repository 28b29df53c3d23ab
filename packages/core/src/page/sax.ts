// htmlparser2's Parser keeps its open-element stack top-first (`unshift`/`shift`/`indexOf`), which is
// O(depth) per tag: a page of 100k unclosed <div>s or <a>s parses in quadratic time. This swaps the
// parser's two stacks for a top-last array with the same surface (`[0]`, `length`, `shift`, `unshift`,
// `indexOf`) at O(1) amortised per operation: `indexOf` answers -1 at once for a name that is not
// open, and otherwise scans only the elements the parser is about to pop. If the parser's internals
// ever look different, the patch is skipped (correct, just not linear on such pages).
import { Parser, type Handler } from 'htmlparser2';

class TopLastStack<T> {
  private readonly items: T[] = [];
  private readonly open = new Map<T, number>();

  get length(): number {
    return this.items.length;
  }

  set length(n: number) {
    if (n === 0) {
      this.items.length = 0;
      this.open.clear();
    }
  }

  /** The top of the stack (what `stack[0]` means to the parser). */
  get 0(): T | undefined {
    return this.items[this.items.length - 1];
  }

  unshift(x: T): number {
    this.items.push(x);
    this.open.set(x, (this.open.get(x) ?? 0) + 1);
    return this.items.length;
  }

  shift(): T | undefined {
    const x = this.items.pop();
    if (x !== undefined) this.open.set(x, (this.open.get(x) ?? 1) - 1);
    return x;
  }

  /** Distance from the top of the nearest `x`, or -1. */
  indexOf(x: T): number {
    if (!this.open.get(x)) return -1;
    const a = this.items;
    for (let i = a.length - 1; i >= 0; i--) if (a[i] === x) return a.length - 1 - i;
    return -1;
  }
}

/**
 * In HTML (outside SVG and MathML) `<![CDATA[` opens a bogus comment that ends at the first `>`, as
 * browsers read it; htmlparser2 reads on to `]]>`, and one stray marker swallows the rest of the page
 * (forum software prints one in <body>). The tokenizer is made to read it as a declaration instead.
 */
function cdataAsBogusComment(parser: Parser): void {
  const tok = (parser as unknown as { tokenizer?: Record<string, unknown> }).tokenizer;
  const original = tok?.stateCDATASequence;
  if (!tok || typeof original !== 'function') return;
  tok.stateCDATASequence = function (this: { sequenceIndex: number }, c: number) {
    // No character matches past the marker's end: the tokenizer takes its not-CDATA path (a
    // declaration read up to `>`, this character reconsumed).
    this.sequenceIndex = Number.MAX_SAFE_INTEGER;
    return (original as (c: number) => void).call(this, c);
  };
}

/** An HTML-mode htmlparser2 parser whose cost per tag does not grow with nesting depth. */
export function linearParser(handler: Partial<Handler>): Parser {
  const parser = new Parser(handler, { decodeEntities: true });
  cdataAsBogusComment(parser);
  const p = parser as unknown as { stack?: unknown; foreignContext?: unknown };
  if (Array.isArray(p.stack) && p.stack.length === 0 && Array.isArray(p.foreignContext) && p.foreignContext.length === 1) {
    const foreign = new TopLastStack<boolean>();
    foreign.unshift(p.foreignContext[0] as boolean);
    p.stack = new TopLastStack<string>();
    p.foreignContext = foreign;
  }
  return parser;
}
