// A prompt to sign in standing alone inside the main content (left-out.ts): "Sign in to add this
// item to your wishlist, follow it, or mark it as ignored", "Log in to set a price alert on this
// product.", "Sign in to view additional items selected just for you." — what a signed-in visitor
// would get, said to every visitor who is not; not the page's content.
import type { PageType } from './page-type.ts';
import { ownBlock, underTag } from './labels.ts';
import { eachLive, textOf, type Tree } from './content-tree.ts';
import { holdingText } from './text-marks.ts';

/** The whole text (lowercased, spaces collapsed) of a sign-in prompt: one sentence, saying what signing in lets one do ("to add", "to view"), not where to sign in ("Log in to your account and open Billing": a help page's step). */
const PROMPT =
  /^(?:please )?(?:sign|log) ?in (?:to (?!(?:your|the|my|our|an?) )[^.!?]{3,100}|or (?:register|join|sign up|create an account)[^.!?]{0,60})[.!]?$/;
/** Such a prompt is this short (characters). */
const MAX = 120;
const STEPS = new Set(['ol']);

/**
 * The blocks inside the content `node` whose whole text is a prompt to sign in (a control set aside
 * beside it not counted), with the wrappers holding nothing else; not on articles and documentation,
 * nor in an ordered list, where "Sign in to the console." is a step of a guide.
 */
export function signInPrompts(t: Tree, node: number, type: PageType): number[] {
  if (type === 'article' || type === 'documentation') return [];
  const out: number[] = [];
  const marks = holdingText(t, node, /(?:sign|log) ?in\b/i);
  eachLive(t, node, (i) => {
    if (!marks[i - node]) return true;
    const chars = t.txt[i] + t.lnk[i];
    // (its own text, without a control set aside beside it: the "Sign in" button after the sentence)
    if (chars === 0 || chars > MAX || !PROMPT.test(textOf(t.els[i], MAX + 10, 'button', t))) return false;
    const k = ownBlock(t, node, i);
    if (k === -1 || underTag(t, node, k, STEPS)) return false;
    out.push(k);
    return true;
  });
  return out;
}
