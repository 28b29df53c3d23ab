// The answers a form offers to pick from (left-out.ts's leftOut, on any page but a product's): the
// labels of a group of radio buttons or checkboxes written as sentences — a self-assessment's answers
// ("Fully integrated with business planning and decision-making"), a pricing table's toggle ("Try
// for free for 14 days", "Save 15% on 10,000 contacts") — are the form's controls, not what the page
// says. A choice named in a word or three (a filter's "Short sleeve", a product's colour "Velvet
// cocoa", a list of topics to show) is a value the page lists, and stays; so does a lone checkbox.
import type { Element } from 'domhandler';
import { subtreeEnd, textOf, type Tree } from './content-tree.ts';

/** A label of this many words or more is a sentence, not a value's name. */
const SENTENCE_WORDS = 5;
/** A group's labels are left out when this share of them or more are sentences. */
const SENTENCE_SHARE = 0.5;
/** A label is looked for this many levels above its input at most (`<label><span><input>…`). */
const LABEL_DEPTH = 3;

const CHOICE = new Set(['radio', 'checkbox']);
const words = (s: string) => s.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0;

/**
 * The labels of the radio-button and checkbox groups inside `node` whose choices are sentences. A
 * lone checkbox ("Send me the care guide", an opt-in the form asks for) is no choice among options, and stays.
 */
export function choiceLabels(t: Tree, node: number): number[] {
  const last = subtreeEnd(t, node);
  const byFor = new Map<string, number>();
  const inputs: number[] = [];
  // (the inputs themselves are set aside as controls when the tree is measured; their labels are not)
  for (let i = node + 1; i <= last; i++) {
    const el = t.els[i];
    if (el.name === 'label' && el.attribs.for && !t.gone[i]) byFor.set(el.attribs.for, i);
    else if (el.name === 'input' && CHOICE.has((el.attribs.type ?? '').toLowerCase())) inputs.push(i);
  }
  if (!inputs.length) return [];
  // (each input's label: the label around it, else the one naming its id)
  const groups = new Map<string, Set<number>>();
  for (const i of inputs) {
    const el = t.els[i];
    let label = -1;
    for (let a = t.parent[i], d = 0; a !== -1 && a !== node && d < LABEL_DEPTH && label === -1; a = t.parent[a], d++) if (t.els[a].name === 'label') label = a;
    if (label === -1 && el.attribs.id) label = byFor.get(el.attribs.id) ?? -1;
    if (label === -1 || t.gone[label]) continue;
    const key = el.attribs.name ? `${el.attribs.type}:${el.attribs.name}` : `#${t.parent[label]}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = new Set()));
    g.add(label);
  }
  const out: number[] = [];
  for (const g of groups.values()) {
    const long = [...g].filter((k) => words(textOf(t.els[k] as Element, 400)) >= SENTENCE_WORDS).length;
    if (g.size >= 2 && long >= SENTENCE_SHARE * g.size) out.push(...g);
  }
  return out;
}
