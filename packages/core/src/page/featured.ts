// A hub's featured stories in the page's main landmark, above its feed (main-content.ts): a news
// section page puts its top stories in `<main aria-label="Featured Content">` and the feed of the
// rest in a section of its own after it, which outweighs them and is found as the content. The
// landmark is the page's own word for its content, and its headlines are the section's first
// stories: both are content.
import { HEADINGS, isAncestor, subtreeEnd, weight, type Tree } from './content-tree.ts';
import { linkedTitles } from './page-type.ts';

/** So many headlines, each a heading all link, make a block of stories. */
const MIN_HEADLINES = 3;
/** The headlines' link text is at least this share of the block's weight. */
const HEADLINE_WEIGHT = 0.2;

/** The number of headlines in `node` (headings all link, `<h3><a>Headline</a></h3>` or a link around the heading), if their link text weighs much of it. */
function headlines(t: Tree, node: number): number {
  const { linked, linkText } = linkedTitles(t, node, (name) => HEADINGS.has(name));
  return linkText >= HEADLINE_WEIGHT * weight(t, node) ? linked : 0;
}

/**
 * Whether the page's main landmark `landmark` is a block of featured stories above the content
 * found, `node`: it lies wholly before the content, outside it, and both hold three headlines or more.
 */
export function featuredAbove(t: Tree, landmark: number, node: number): boolean {
  if (landmark === -1 || landmark === node || isAncestor(t, landmark, node) || isAncestor(t, node, landmark)) return false;
  if (subtreeEnd(t, landmark) >= node) return false;
  return headlines(t, landmark) >= MIN_HEADLINES && headlines(t, node) >= MIN_HEADLINES;
}
