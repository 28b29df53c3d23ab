// What render.ts does with each element by its name: never rendered, a block (two line breaks or
// one), a content landmark, scaffolding without attributes, a heading's marker; and the pick lists
// that sort a list (a form's control wherever it is).

type Attrs = Record<string, string>;

/** Never rendered, in any mode (JSON-LD scripts are read, not rendered). */
export const HARD_SKIP = new Set([
  'script',
  'style',
  'svg',
  'math',
  'template',
  'iframe',
  'object',
  'embed',
  'canvas',
  'frame',
  'frameset',
  'applet',
  'audio',
  'video',
  'noembed',
  'noframes',
  'datalist',
]);
export const BLOCK2 = new Set([
  'p',
  'dl',
  'blockquote',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'nav',
  'aside',
  'figure',
  'hr',
  'form',
  'fieldset',
  'details',
  'address',
  'hgroup',
  'body',
]);
export const BLOCK1 = new Set([
  'div',
  'figcaption',
  'summary',
  'legend',
  'center',
  'tbody',
  'thead',
  'tfoot',
  'menu',
  'dialog',
  'select',
  'search',
  'picture',
  'label',
]);
export const CONTENT = new Set(['article', 'main', 'section']);
/** Precision mode shows no attributes for these (document scaffolding and table/list containers). */
export const NO_ATTRS = new Set(['html', 'head', 'body', 'tbody', 'thead', 'tfoot', 'colgroup', 'col']);
export const HEADING: Record<string, string> = { h1: '# ', h2: '## ', h3: '### ', h4: '#### ', h5: '##### ', h6: '###### ' };

/** A select that sorts a list ("Sort by", `name="orderby"`, `id="SortBy"`): a control wherever it is. */
const SORT_WORD = /(?:^|[^a-z])(?:sort(?:ing|by)?|order ?by)(?:[^a-z]|$)/;
export const sortControl = (a: Attrs) =>
  [a.name, a.id, a.class, a['aria-label']].some((v) => v !== undefined && SORT_WORD.test(v.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()));
