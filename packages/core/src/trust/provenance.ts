/**
 * Per-field provenance (`provenance: true`, a Gleaner extension) and the grounding policy: where
 * each value was found on which page (its URL and content hash), how — a text span and quote of
 * what the model read, a JSON-LD / microdata / meta path, a recipe selector, or computed — and the
 * transform between the page and the value. The pipeline fills a {@link TrustLog} per extraction;
 * the operations turn it into `_provenance` on each record, `warnings`, and the usage count of
 * values the page does not support.
 */
import { createHash } from 'node:crypto';
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import type { Recipe, RecipeFieldRule } from '../recipes/schema.ts';
import type { ReducedPage } from '../page/index.ts';
import { PageText } from './page-text.ts';
import { groundRecord } from './grounding.ts';

export type Grounding = 'verbatim' | 'normalised' | 'not_found' | 'exempt';
export type GroundingPolicy = 'keep' | 'flag' | 'drop';
export const GROUNDING_POLICIES: readonly GroundingPolicy[] = ['keep', 'flag', 'drop'];

/** Where one value (or one list item) was found. */
export interface ItemProvenance {
  grounding: Grounding;
  /** [start, end) in the page text the model read (`details.pages[i].model_input.text`). */
  span?: [number, number];
  /** The text at `span` (cut at 300 characters). */
  quote?: string;
  /** The appendix of the model's text the span is in, when not the page body. */
  source?: 'json-ld' | 'microdata' | 'meta';
  /** JSON-LD / microdata path (`[@type=Product].offers.price`) or meta key. */
  path?: string;
  /** What turned the quote into the value: number, round, url, date, bool, or a recipe's transforms. */
  transform: string[];
}

export interface FieldProvenance extends Omit<ItemProvenance, 'grounding'> {
  url: string;
  /** `sha256:<hex>` of the page's HTML as fetched (or supplied). */
  content_hash: string;
  method: 'text' | 'structured' | 'selector' | 'computed' | 'absent';
  /** null for an absent value (nothing to check). */
  grounding: Grounding | null;
  /** Why the value was not checked. */
  exempt?: string;
  /** Code mode: the recipe rule that read the value. */
  selector?: { container: string | null; selector: string | null; read: string; attr?: string; name?: string; path?: string; fallback: number };
  /** Lists: each item's own grounding. */
  items?: ItemProvenance[];
  /** The value was set to null by the `drop` policy. */
  dropped?: boolean;
}

export type RecordProvenance = Record<string, FieldProvenance>;

/** A page as the grounding check sees it. */
export interface PageSource {
  url: string;
  contentHash: string;
  text: PageText;
  structured?: { jsonLd: unknown[]; microdata: unknown[] };
}

export interface GroundingWarning {
  /** Index in `data`; null when the record was left with no value at all and is not in `data`. */
  record: number | null;
  field: string;
  value: unknown;
  url: string;
  action: 'flagged' | 'dropped';
  msg: string;
}

export function contentHash(html: string): string {
  return `sha256:${createHash('sha256').update(html).digest('hex')}`;
}

/** What an extraction learnt about its values, filled page by page. */
export class TrustLog {
  private readonly byRecord = new Map<ExtractedRecord, RecordProvenance>();

  readonly policy: GroundingPolicy;

  constructor(policy: GroundingPolicy) {
    this.policy = policy;
  }

  /** Records a model read from `reduced` (standard, precision): each value checked; `drop` nulls the unsupported ones. */
  modelPage(page: { url: string; html: string }, reduced: ReducedPage, records: ExtractedRecord[], attributes: Attribute[]): void {
    if (!records.length) return;
    const src: PageSource = {
      url: page.url,
      contentHash: contentHash(page.html),
      text: new PageText(reduced.text),
      structured: { jsonLd: reduced.jsonLd, microdata: reduced.microdata },
    };
    for (const record of records) {
      const prov = groundRecord(src, record, attributes);
      if (this.policy === 'drop') {
        for (const [name, p] of Object.entries(prov)) {
          if (p.grounding !== 'not_found') continue;
          p.dropped = true;
          (p as FieldProvenance & { value?: unknown }).value = record[name];
          record[name] = null;
        }
      }
      this.byRecord.set(record, prov);
    }
  }

  /**
   * Records a recipe read (code mode, runs): each value's rule; constants are computed, the rest
   * read by selector. One provenance object per rule and page, shared by the records it read (they
   * are never changed afterwards).
   */
  recipePage(page: { url: string; html: string }, recipe: Recipe, traced: Array<[ExtractedRecord, Record<string, number>]>, attributes: Attribute[]): void {
    const base = { url: page.url, content_hash: contentHash(page.html) };
    const types = new Map(attributes.map((a) => [a.name, a.type]));
    const container =
      recipe.container && 'selector' in recipe.container ? recipe.container.selector : recipe.container ? `jsonld:${recipe.container.jsonld}` : null;
    const absent: FieldProvenance = { ...base, method: 'absent', grounding: null, transform: [] };
    const byRule = new Map<string, FieldProvenance>();
    const ruleProvenance = (name: string, depth: number): FieldProvenance => {
      const key = `${depth}:${name}`;
      const hit = byRule.get(key);
      if (hit) return hit;
      let rule: RecipeFieldRule | undefined = recipe.fields[name];
      for (let d = 0; d < depth && rule; d++) rule = rule.fallback ?? undefined;
      let prov: FieldProvenance = absent;
      if (rule) {
        const transform: string[] = (rule.transforms ?? []).map((t) => (typeof t === 'string' ? t : t.op));
        const type = types.get(name);
        const coercion = type === 'image' ? 'url' : type === 'integer' ? 'number' : type;
        if (
          (coercion === 'number' || coercion === 'bool' || coercion === 'url') &&
          !transform.includes(coercion) &&
          !(coercion === 'url' && transform.includes('absolute_url'))
        )
          transform.push(coercion);
        const selector = {
          container,
          selector: rule.selector ?? null,
          read: rule.read,
          ...(rule.attr ? { attr: rule.attr } : {}),
          ...(rule.name ? { name: rule.name } : {}),
          ...(rule.path ? { path: rule.path } : {}),
          fallback: depth,
        };
        prov =
          rule.read === 'const'
            ? { ...base, method: 'computed', grounding: 'exempt', exempt: 'a constant of the recipe', selector, transform }
            : { ...base, method: 'selector', grounding: transform.length ? 'normalised' : 'verbatim', selector, transform };
      }
      byRule.set(key, prov);
      return prov;
    };
    for (const [record, rules] of traced) {
      const prov: RecordProvenance = {};
      for (const [name, value] of Object.entries(record)) {
        const empty = value === null || value === '' || (Array.isArray(value) && !value.length);
        prov[name] = empty ? absent : ruleProvenance(name, rules[name] ?? 0);
      }
      this.byRecord.set(record, prov);
    }
  }

  provenanceOf(record: ExtractedRecord): RecordProvenance | undefined {
    return this.byRecord.get(record);
  }

  /**
   * The records of `data`, and those every value of which the `drop` policy removed (a record
   * merged away as a duplicate of an earlier one is not counted twice).
   */
  private counted(data: ExtractedRecord[]): Array<[ExtractedRecord, RecordProvenance, number | null]> {
    const index = new Map(data.map((r, i) => [r, i]));
    const out: Array<[ExtractedRecord, RecordProvenance, number | null]> = [];
    for (const [record, prov] of this.byRecord) {
      const i = index.get(record);
      if (i !== undefined) out.push([record, prov, i]);
      else if (Object.values(record).every((v) => v === null || v === '' || (Array.isArray(v) && !v.length))) out.push([record, prov, null]);
    }
    return out;
  }

  /** Values found nowhere in what the model read, over the records answered (kept or emptied by `drop`). */
  unsupported(data: ExtractedRecord[]): number {
    let n = 0;
    for (const [, prov] of this.counted(data)) for (const p of Object.values(prov)) if (p.grounding === 'not_found') n++;
    return n;
  }

  /** How many values of the records answered had each grounding outcome (for /metrics). */
  outcomes(data: ExtractedRecord[]): Partial<Record<Grounding, number>> {
    const out: Partial<Record<Grounding, number>> = {};
    for (const [, prov] of this.counted(data)) for (const p of Object.values(prov)) if (p.grounding) out[p.grounding] = (out[p.grounding] ?? 0) + 1;
    return out;
  }

  /** The `warnings` of the flag and drop policies, by index in `data`. */
  warnings(data: ExtractedRecord[]): GroundingWarning[] {
    const out: GroundingWarning[] = [];
    for (const [record, prov, i] of this.counted(data)) {
      for (const [field, p] of Object.entries(prov)) {
        if (p.grounding !== 'not_found') continue;
        const dropped = Boolean(p.dropped);
        const value = dropped ? (p as { value?: unknown }).value : record[field];
        out.push({
          record: i,
          field,
          value,
          url: p.url,
          action: dropped ? 'dropped' : 'flagged',
          msg: `${JSON.stringify(value)} was not found on the page the model read${dropped ? '; the field was set to null' : ''}`,
        });
      }
    }
    return out.sort((a, b) => (a.record ?? Infinity) - (b.record ?? Infinity));
  }
}

/** `data` with `_provenance` on each record (a copy; the records stay as they are). */
export function withProvenance(data: ExtractedRecord[], log: TrustLog): ExtractedRecord[] {
  return data.map((r) => {
    const prov = log.provenanceOf(r);
    if (!prov) return { ...r, _provenance: {} };
    // The dropped value is in `warnings`, not repeated in provenance.
    const clean = Object.fromEntries(Object.entries(prov).map(([k, p]) => [k, stripValue(p)]));
    return { ...r, _provenance: clean };
  });
}

function stripValue(p: FieldProvenance): FieldProvenance {
  if (!('value' in p)) return p;
  const { value: _v, ...rest } = p as FieldProvenance & { value?: unknown };
  return rest;
}
