/**
 * Layout drift: a recipe that worked on the scraper's sample page returns nothing, or misses its
 * required fields on most records, on a page of a run. Required fields are those the sample filled
 * in most of its records (a field that was often empty in the sample proves nothing when empty).
 */
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import { isEmptyValue } from '../recipes/transforms.ts';

/** The fields filled in more than half of the sample records. */
export function requiredFields(sample: readonly ExtractedRecord[], attributes: readonly Attribute[]): string[] {
  if (!sample.length) return [];
  const names = attributes.length ? attributes.map((a) => a.name) : [...new Set(sample.flatMap((r) => Object.keys(r)))];
  return names.filter((name) => sample.filter((r) => !isEmptyValue(r[name])).length * 2 > sample.length);
}

/**
 * Why the page looks drifted (a message starting `layout changed: `), or null when it does not.
 * Only judged when the sample had records: a scraper whose sample was empty has nothing to compare.
 */
export function detectDrift(
  records: readonly ExtractedRecord[],
  sample: readonly ExtractedRecord[] | null,
  attributes: readonly Attribute[],
  url: string,
): string | null {
  if (!sample?.length) return null;
  if (!records.length) {
    return `layout changed: the scraper found no records on ${url}, where its sample page gave ${sample.length}`;
  }
  const required = requiredFields(sample, attributes);
  if (!required.length) return null;
  const missing = new Map<string, number>();
  let incomplete = 0;
  for (const r of records) {
    const absent = required.filter((name) => isEmptyValue(r[name]));
    if (absent.length) incomplete++;
    for (const name of absent) missing.set(name, (missing.get(name) ?? 0) + 1);
  }
  if (incomplete * 2 <= records.length) return null;
  const fields = [...missing.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => name);
  return `layout changed: ${incomplete} of ${records.length} records on ${url} miss ${fields.length === 1 ? 'the field' : 'the fields'} ${fields.join(', ')}, which the sample page filled`;
}
