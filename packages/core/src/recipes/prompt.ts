/** What the recipe generator tells the model: the recipe language, the page, and the feedback. */
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import type { RecipeComparison } from './compare.ts';

/** One difference between what a recipe did and what was wanted, as sent back to the model. */
export interface RecipeMismatch {
  kind: 'invalid_recipe' | 'no_records' | 'missing_records' | 'missing_field' | 'wrong_field' | 'brittle_selector' | 'empty_field';
  message: string;
  field?: string;
  /** For brittle selectors: where in the recipe (`/fields/price/selector`). */
  path?: string;
  examples?: Array<{ expected: unknown; actual: unknown }>;
}

export const RECIPE_SYSTEM_PROMPT = [
  "You write recipes: declarative JSON that extracts records from web pages with CSS selectors. A program runs your recipe on this page and later on other pages of the same site without you, so it must follow the page structure, not this page's particular values.",
  '',
  'Recipe format:',
  '- container: {"selector": "<css>"} gives one record per matching element; {"jsonld": "<path>"} one record per object a JSON-LD path yields (e.g. "[@type=ItemList].itemListElement[*].item"); null makes the whole page one record (a product or article page).',
  '- fields: one rule per attribute:',
  '  - selector: CSS selector relative to the container element (null = the container itself). Supported: tags, #id, .class, [attr], [attr="v"], [attr^="v"], [attr*="v"], descendant/child/sibling combinators, :not(), :has(), :is(), :contains("text").',
  '  - read: "text" (visible text) | "html" | "attr" (+ attr, e.g. href, src, data-src, content) | "jsonld" (+ path, e.g. offers.price, [@type=Product].name, image[0], @graph[1].name) | "meta" (+ name: a meta name, property or itemprop such as og:title) | "const" (+ value) | "exists" (true when the selector matches, else false).',
  '  - all: true gives a list of every match (for list attributes); false gives the first non-empty match.',
  '  - transforms, applied in order: trim, collapse_whitespace, lowercase, uppercase, regex (pattern, group), replace (pattern, with), split (separator), join (separator), number, integer, bool, absolute_url, strip_tracking, first, last, prefix (value), suffix (value). Patterns are JavaScript regular expressions without slashes; keep them simple: no backreferences, no nested quantifiers like (a+)+, no adjacent quantifiers over the same characters like \\d+\\d+.',
  '  - fallback: another rule tried when this one finds nothing (e.g. attr "src" when "data-src" is missing).',
  '- pagination: {"next": {"selector": "<the next-page link>", "attr": "href"}} or null.',
  'Values are converted to each attribute\'s type afterwards: numbers are read from text like "$1,299.00", booleans from yes/no/in stock/out of stock, image URLs resolved against the page. Links and sources (href, src) are read as absolute URLs without tracking parameters, as on the page you were shown.',
  '',
  'Write selectors that survive layout changes: anchor them on ids, stable semantic class names, data-* attributes, itemprop, aria-label, and text (:contains). Do not use positional selectors (nth-child / nth-of-type chains) or long child chains like div > div > div > span, and avoid generated class names such as css-1x2y3z or sc-AbCdE.',
  'Unused keys are null. Answer with the recipe only.',
].join('\n');

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function show(v: unknown): string {
  return cut(JSON.stringify(v) ?? 'null', 200);
}

export function firstMessage(input: {
  url: string;
  attributes: Attribute[];
  prompt?: string;
  skeleton: string;
  reducedText?: string;
  expected?: ExtractedRecord[];
}): string {
  const parts = [`Page URL: ${input.url}`];
  if (input.attributes.length) {
    parts.push(
      `Attributes (one field each):\n${input.attributes.map((a) => `- ${a.name} (${a.type})${a.description ? `: ${a.description}` : ''}`).join('\n')}`,
    );
  } else {
    parts.push('No attributes were given: choose field names that suit the request.');
  }
  if (input.prompt) parts.push(`Request: ${input.prompt}`);
  if (input.expected?.length) {
    const ex = input.expected;
    const sample = ex.length > 4 ? [...ex.slice(0, 3), ex[ex.length - 1]] : ex;
    parts.push(
      `Standard extraction found ${ex.length} record${ex.length === 1 ? '' : 's'} on this page; the recipe must reproduce them. ` +
        `${ex.length > 4 ? 'The first three and the last' : 'They'}:\n${sample.map((r) => cut(JSON.stringify(r), 600)).join('\n')}`,
    );
  }
  parts.push(`Page skeleton:\n${input.skeleton}`);
  if (input.reducedText) parts.push(`Page text (for orientation):\n${cut(input.reducedText, 4000)}`);
  parts.push('Write the recipe.');
  return parts.join('\n\n');
}

/** The differences between a recipe's output and standard extraction's, as mismatches. */
export function comparisonMismatches(c: RecipeComparison): RecipeMismatch[] {
  const out: RecipeMismatch[] = [];
  if (c.missingRecordCount > 0) {
    out.push({
      kind: 'missing_records',
      message: `The recipe produced ${c.actualCount} records but ${c.missingRecordCount} of the ${c.expectedCount} expected records have no counterpart among them, e.g. ${c.missingRecords.slice(0, 2).map(show).join(' and ')}.`,
    });
  }
  for (const [field, f] of Object.entries(c.fields)) {
    const examples = f.examples.map((e) => `expected ${show(e.expected)}, got ${show(e.actual)}`).join('; ');
    if (f.missing > 0) {
      out.push({
        kind: 'missing_field',
        field,
        examples: f.examples,
        message: `Field "${field}" is missing in ${f.missing} of ${f.expected} matched records (${examples}).`,
      });
    }
    if (f.wrong > 0) {
      out.push({
        kind: 'wrong_field',
        field,
        examples: f.examples,
        message: `Field "${field}" has a different value in ${f.wrong} of ${f.expected} matched records (${examples}).`,
      });
    }
  }
  return out;
}

export function feedbackMessage(mismatches: RecipeMismatch[], produced: ExtractedRecord[]): string {
  const lines = ['Your recipe was run on the page. Problems to fix:', ...mismatches.map((m) => `- ${m.message}`)];
  if (produced.length) {
    lines.push(
      `It produced ${produced.length} record${produced.length === 1 ? '' : 's'}; the first: ${produced
        .slice(0, 2)
        .map((r) => cut(JSON.stringify(r), 400))
        .join(' ')}`,
    );
  }
  lines.push('Answer with the corrected, complete recipe.');
  return lines.join('\n');
}
