// A product's marketing page with code samples (page-type.ts, left-out.ts): a page whose title sits
// in a hero section (class word `hero`: `hero-content`, `homepage-hero`, `hero-module__main`) and
// whose content carries call-to-action buttons is a product's home or feature page, not
// documentation, though it shows code: its samples (an API call beside "Build scalable apps with
// Functions") are a picture of the product, left out as its drawings are, while documentation's
// code is its text.
import type { Element } from 'domhandler';
import { elementChildren, type Tree } from './content-tree.ts';

/** A hero section's class word. */
const HERO = /(?:^|[\s_-])hero(?=$|[\s_-])/;
/** A link styled as a button (`btn`, `button`, `cta`; `data-button-variant="primary"`). */
const BUTTON = /(?:^|[\s_-])(?:btn|button|cta)(?=$|[\s_-])/;
/** At least this many button links in the content. */
const MIN_BUTTONS = 2;

/** Whether the page's title is in a hero section and the content `node` holds button links. */
export function marketingPage(t: Tree, node: number): boolean {
  const title = t.els.findIndex((el, i) => el.name === 'h1' && !t.gone[i]);
  if (title === -1) return false;
  let hero = false;
  for (let p: Element | null = t.els[title]; p && !hero; p = p.parent?.type === 'tag' ? (p.parent as Element) : null)
    hero = HERO.test((p.attribs.class ?? '').toLowerCase());
  if (!hero) return false;
  let buttons = 0;
  const stack = [node];
  while (stack.length && buttons < MIN_BUTTONS) {
    const k = stack.pop()!;
    const el = t.els[k];
    if (el.name === 'a' && (BUTTON.test((el.attribs.class ?? '').toLowerCase()) || Object.keys(el.attribs).some((a) => /^data-[\w-]*button/.test(a))))
      buttons++;
    stack.push(...elementChildren(t, k));
  }
  return buttons >= MIN_BUTTONS;
}

/** The code blocks (`<pre>`, topmost) in the content `node` of a marketing page. */
export function codeSamples(t: Tree, node: number): number[] {
  const out: number[] = [];
  const stack = elementChildren(t, node);
  while (stack.length) {
    const k = stack.pop()!;
    if (t.els[k].name === 'pre') out.push(k);
    else stack.push(...elementChildren(t, k));
  }
  return out;
}
