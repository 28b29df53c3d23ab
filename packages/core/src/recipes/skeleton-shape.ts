/**
 * What makes siblings repeats in the page skeleton: alike in name (tag and classes) and in what
 * they hold. Cards of a grid hold the same parts (one may carry a sale badge the others lack); a
 * page laid out in bare `<table>`s or `<div>`s holds a header in one, the product in the next and
 * the footer in the last: same name, different shape, and none of them a repeat to count away.
 */
import { isTag } from 'domhandler';
import type { Element } from './dom.ts';

/** Descendants looked at, and how deep. */
const SHAPE_NODES = 80;
const SHAPE_DEPTH = 3;
/** Shapes sharing at least this share of their parts (Jaccard) are alike. */
const ALIKE = 0.5;

const part = (el: Element): string => {
  const classes = (el.attribs.class ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((c) => c.replace(/\d+/g, '#'))
    .sort();
  return `${el.name}${classes.length ? `.${classes.join('.')}` : ''}`;
};

const shapes = new WeakMap<Element, Set<string>>();

/** The names (tag and classes, digits ignored) of an element's first descendants, with their depth. */
export function shapeOf(el: Element): Set<string> {
  let out = shapes.get(el);
  if (out) return out;
  out = new Set<string>();
  shapes.set(el, out);
  let level: Element[] = [el];
  for (let depth = 1; depth <= SHAPE_DEPTH && level.length && out.size < SHAPE_NODES; depth++) {
    const next: Element[] = [];
    for (const node of level) {
      for (const c of node.children) {
        if (!isTag(c)) continue;
        out.add(`${depth}:${part(c)}`);
        next.push(c);
        if (out.size >= SHAPE_NODES) break;
      }
      if (out.size >= SHAPE_NODES) break;
    }
    level = next;
  }
  return out;
}

/** Whether two shapes are alike (an empty shape is alike only another empty one). */
export function alike(a: Set<string>, b: Set<string>): boolean {
  if (a.size === 0 || b.size === 0) return a.size === b.size;
  let common = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) common++;
  return common / (a.size + b.size - common) >= ALIKE;
}
