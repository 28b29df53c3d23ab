// Selector matching for linkedom documents with compiled selectors kept: linkedom compiles a selector
// (css-select) on every matches/closest/querySelector call, and the outline script asks the same long
// "interactive element" selector of every element (measured: ~250 compilations, most of an outline's
// time, on a 60-link page). The same css-select linkedom uses, with an adapter like linkedom's own.
import { compile } from 'css-select';
import type { Options } from 'css-select';

type Adapter = NonNullable<Options<Node, Element>['adapter']>;

type Test = (el: Element) => boolean;

const isTag = (node: Node): node is Element => node.nodeType === 1;
const children = (node: Node): Node[] => Array.from(node.childNodes);

function textOf(node: Node | Node[]): string {
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isTag(node)) return textOf(children(node));
  return node.nodeType === 3 ? (node as Text).data : '';
}

const adapter: Adapter = {
  isTag,
  getAttributeValue: (el, name) => el.getAttribute(name) ?? undefined,
  getChildren: children,
  getName: (el) => el.localName.toLowerCase(),
  getParent: (node) => node.parentNode as Element | null,
  getSiblings: (node) => (node.parentNode ? children(node.parentNode) : [node]),
  getText: textOf,
  hasAttrib: (el, name) => el.hasAttribute(name),
  prevElementSibling: (node) => (node as Element).previousElementSibling,
  removeSubsets: (nodes) => nodes.filter((n, i) => nodes.indexOf(n) === i && !nodes.some((o) => o !== n && o.contains(n))),
};

const cache = new Map<string, Test>();
const CACHE_MAX = 2000;

/** The compiled test for `selectors`; `:scope` selectors depend on their element and are not kept. */
function compiled(selectors: string, scope: Node): Test {
  if (selectors.includes(':scope')) return compile<Node, Element>(selectors, { adapter, xmlMode: false }, scope) as Test;
  let test = cache.get(selectors);
  if (!test) {
    test = compile<Node, Element>(selectors, { adapter, xmlMode: false }) as Test;
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(selectors, test);
  }
  return test;
}

/** Elements under `root` in tree order (not inside `<template>`, as linkedom and browsers query). */
function walk(root: Node, visit: (el: Element) => boolean): boolean {
  for (let c = (root as ParentNode).firstElementChild; c; c = c.nextElementSibling) {
    if (visit(c)) return true;
    if (c.localName !== 'template' && walk(c, visit)) return true;
  }
  return false;
}

export function querySelectorAll(root: Node, selectors: string): Element[] {
  const test = compiled(selectors, root);
  const out: Element[] = [];
  walk(root, (el) => {
    if (test(el)) out.push(el);
    return false;
  });
  return out;
}

export function querySelector(root: Node, selectors: string): Element | null {
  const test = compiled(selectors, root);
  let found: Element | null = null;
  walk(root, (el) => {
    if (test(el)) found = el;
    return found !== null;
  });
  return found;
}

export function matches(el: Element, selectors: string): boolean {
  return compiled(selectors, el)(el);
}

export function closest(el: Element, selectors: string): Element | null {
  const test = compiled(selectors, el);
  for (let cur: Element | null = el; cur; cur = cur.parentElement) if (test(cur)) return cur;
  return null;
}
