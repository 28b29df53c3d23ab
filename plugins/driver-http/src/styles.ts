// The `display` and `visibility` an element gets from the page's own `<style>` elements and its
// inline style, by the cascade (importance, specificity, order): enough for the outline to leave out
// what a browser hides with a class (`.hidden { display: none }`, a closed modal). Linked stylesheets
// are not fetched and `@media`/`@supports` blocks are skipped.

interface Rule {
  selector: string;
  /** What the rightmost compound requires (an id, classes, a tag): a cheap test before matching. */
  key: { id?: string; classes: string[]; tag?: string };
  /** [ids, classes/attributes/pseudo-classes, types], compared in order. */
  specificity: [number, number, number];
  order: number;
  display?: { value: string; important: boolean };
  visibility?: { value: string; important: boolean };
}

export interface OwnStyle {
  display?: string;
  visibility?: string;
}

type Prop = 'display' | 'visibility';

/** `name: value` pairs of a declaration block, lower-cased names, with their !important flag. */
export function declarations(block: string): Map<string, { value: string; important: boolean }> {
  const out = new Map<string, { value: string; important: boolean }>();
  for (const decl of block.split(';')) {
    const i = decl.indexOf(':');
    if (i <= 0) continue;
    const raw = decl
      .slice(i + 1)
      .trim()
      .toLowerCase();
    const important = /!\s*important$/.test(raw);
    out.set(decl.slice(0, i).trim().toLowerCase(), { value: raw.replace(/!\s*important$/, '').trim(), important });
  }
  return out;
}

/** Splits a selector list at top-level commas (not inside parentheses, brackets or strings). */
function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quote) {
      if (c === quote && list[i - 1] !== '\\') quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter(Boolean);
}

function specificity(selector: string): [number, number, number] {
  const s = selector.replace(/"[^"]*"|'[^']*'/g, '').replace(/\[[^\]]*\]/g, ' .a ');
  const ids = (s.match(/#[\w-]+/g) ?? []).length;
  // :not()/:is()/:has() count what they hold, which the other patterns count already (approximate for :where()).
  const classes = (s.match(/\.[\w-]+|:(?!:)(?!(?:not|is|where|has)\()[\w-]+/g) ?? []).length;
  const types = (s.match(/(^|[\s>+~(])[a-zA-Z][\w-]*|::[\w-]+/g) ?? []).length;
  return [ids, classes, types];
}

/** The id, classes and tag the selector's subject must have (from its last compound, outside :not() and brackets). */
function keyOf(selector: string): Rule['key'] {
  const plain = selector.replace(/"[^"]*"|'[^']*'/g, '').replace(/\[[^\]]*\]/g, '[]');
  const last = plain.split(/\s*[\s>+~]\s*(?![^(]*\))/).at(-1) ?? '';
  const outside = last.replace(/\([^)]*\)/g, '()');
  const id = /#([\w-]+)/.exec(outside)?.[1];
  const classes = [...outside.matchAll(/\.([\w-]+)/g)].map((m) => m[1]);
  const tag = /^([a-zA-Z][\w-]*)/.exec(outside)?.[1]?.toLowerCase();
  return { ...(id ? { id } : {}), classes, ...(tag ? { tag } : {}) };
}

function mayMatch(el: Element, key: Rule['key']): boolean {
  if (key.tag && el.localName !== key.tag) return false;
  if (key.id && el.getAttribute('id') !== key.id) return false;
  if (key.classes.length) {
    const own = (el.getAttribute('class') ?? '').split(/\s+/);
    if (!key.classes.every((c) => own.includes(c))) return false;
  }
  return true;
}

/** The most rules kept per document: matching costs rules × elements, and a page decides both. */
const MAX_RULES = 2000;

/** The rules of a style sheet's text that set display or visibility, top level only. */
export function parseRules(css: string, firstOrder: number): Rule[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules: Rule[] = [];
  let i = 0;
  let order = firstOrder;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open < 0) break;
    const prelude = text.slice(i, open).trim();
    let depth = 1;
    let j = open + 1;
    for (; j < text.length && depth > 0; j++) {
      if (text[j] === '{') depth++;
      else if (text[j] === '}') depth--;
    }
    const body = text.slice(open + 1, j - 1);
    i = j;
    // Statements like @import end at ';' before a block: drop them from the prelude.
    const sel = prelude.slice(prelude.lastIndexOf(';') + 1).trim();
    if (!sel || sel.startsWith('@')) continue;
    const decls = declarations(body);
    const display = decls.get('display');
    const visibility = decls.get('visibility');
    if (!display && !visibility) continue;
    for (const selector of splitSelectors(sel)) {
      rules.push({
        selector,
        key: keyOf(selector),
        specificity: specificity(selector),
        order: order++,
        ...(display ? { display } : {}),
        ...(visibility ? { visibility } : {}),
      });
    }
  }
  return rules;
}

const beats = (a: Rule, b: Rule, prop: Prop): boolean => {
  const ai = a[prop]!.important;
  const bi = b[prop]!.important;
  if (ai !== bi) return ai;
  for (let k = 0; k < 3; k++) if (a.specificity[k] !== b.specificity[k]) return a.specificity[k] > b.specificity[k];
  return a.order > b.order;
};

/** The cascade of one document's `<style>` rules, with each element's result kept until invalidated. */
export class DocumentStyles {
  readonly #rules: Rule[];
  #own = new WeakMap<Element, OwnStyle>();

  constructor(doc: Document) {
    const rules: Rule[] = [];
    for (const style of Array.from(doc.querySelectorAll('style'))) {
      const media = (style.getAttribute('media') ?? '').trim().toLowerCase();
      if (media && !/^(all|screen)\b/.test(media)) continue;
      rules.push(...parseRules(style.textContent ?? '', rules.length));
    }
    this.#rules = rules.slice(0, MAX_RULES);
  }

  /** Forgets computed results (after the document changed: an attribute may switch a rule on). */
  invalidate(): void {
    this.#own = new WeakMap();
  }

  /** The element's own display and visibility: inline style over sheet rules, !important sheet rules over both. */
  own(el: Element): OwnStyle {
    let style = this.#own.get(el);
    if (style) return style;
    const inline = declarations(el.getAttribute('style') ?? '');
    style = {};
    for (const prop of ['display', 'visibility'] as const) {
      let best: Rule | undefined;
      for (const rule of this.#rules) {
        if (!rule[prop] || (best && !beats(rule, best, prop)) || !mayMatch(el, rule.key)) continue;
        let hit = false;
        try {
          hit = el.matches(rule.selector);
        } catch {
          hit = false; // a selector css-select does not know never matches, as in a browser
        }
        if (hit) best = rule;
      }
      const fromInline = inline.get(prop);
      const winner = fromInline && !(best?.[prop]?.important && !fromInline.important) ? fromInline : best?.[prop];
      if (winner) style[prop] = winner.value;
    }
    this.#own.set(el, style);
    return style;
  }
}
