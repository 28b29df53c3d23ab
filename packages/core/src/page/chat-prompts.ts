// A shop's chat or question prompt inside a product page's content (left-out.ts): a free-text field
// (`<textarea>`) with the few words around it that invite the reader to type ("Find your size with a
// little help", "Whether you're exploring or ready to buy, we can guide you through", "Hit enter to
// chat"). The field is a form control, not what the page says of the product, and its words go with it.
// Not a form asking a question of the product's Q&A ("Ask a Question", "Start typing your question"):
// that is the product's community section, which ground truths keep.
import type { AnyNode, Element } from 'domhandler';
import { eachLive, outermost, type Tree } from './content-tree.ts';

/** The block around the field holding at most this much text (characters) is the prompt's. */
const PROMPT_TEXT = 200;
/** A chat, in the prompt's words or the field's placeholder or label ("Hit enter to chat", "Ask our shopping assistant"). */
const CHAT = /\bchat\b|\bassistant\b/i;

/** The text of element `a` that the tree counts (not a script's, a style's or an icon's), and its controls' labels. */
function shownText(t: Tree, a: number): string {
  let s = '';
  const stack: AnyNode[] = [t.els[a]];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') s += n.data;
    else if (n.type === 'tag') {
      if (n.name === 'button' && n.attribs['aria-label']) s += ` ${n.attribs['aria-label']} `;
      const k = t.index.get(n);
      if (k === undefined || t.gone[k]) continue;
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  }
  return s;
}

/**
 * The prompts inside the content `node`: around each element holding a `<textarea>`, the largest
 * block holding at most PROMPT_TEXT characters of text (not the content itself), saying it is a chat.
 */
export function chatPrompts(t: Tree, node: number): number[] {
  const out = new Set<number>();
  eachLive(t, node, (i) => {
    const field = t.els[i].children.find((c): c is Element => c.type === 'tag' && c.name === 'textarea');
    if (!field) return false;
    let a = i;
    for (let p = t.parent[a]; p !== node && p !== -1 && t.txt[p] + t.lnk[p] <= PROMPT_TEXT; p = t.parent[p]) a = p;
    if (t.txt[a] + t.lnk[a] > PROMPT_TEXT) return false;
    if (!CHAT.test(`${shownText(t, a)} ${field.attribs.placeholder ?? ''} ${field.attribs['aria-label'] ?? ''}`)) return false;
    out.add(a);
    return true;
  });
  return outermost(t, out);
}
