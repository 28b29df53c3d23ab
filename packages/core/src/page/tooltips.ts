// A tooltip's text inside a product's content (left-out.ts): the note a shop shows when the reader
// hovers over an info icon beside a spec's name or a sale badge ("More information: open-back
// headphone designs are often higher-performance..."), printed into the page for the stylesheet to
// show on hover. Not the page's text: what it reads is the spec and its value beside the icon.
import { eachLive, type Tree } from './content-tree.ts';

/**
 * A tooltip's body by its class word: `tool-tip__content`, `tooltip-content`, `tooltip__body`,
 * `tooltip-text`, `tooltip-inner`, `tooltipBubble`; not the trigger around it (`has-tooltip`,
 * `tooltip-trigger`), which holds the text shown.
 */
const TOOLTIP_BODY = /(?:^|\s)[\w-]*tool-?tip(?:__|[-_])?(?:content|body|text|inner|bubble)(?:[-_][\w-]*)?(?=\s|$)/i;

/** The tooltips' bodies inside the content `node`: `role="tooltip"` or a tooltip body's class word. */
export function tooltips(t: Tree, node: number): number[] {
  const out: number[] = [];
  eachLive(t, node, (i) => {
    const a = t.els[i].attribs;
    if (a.role !== 'tooltip' && !(a.class !== undefined && TOOLTIP_BODY.test(a.class))) return false;
    out.push(i);
    return true;
  });
  return out;
}
