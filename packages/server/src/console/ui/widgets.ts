// Small shared pieces: the attribute builder, records as a table, errors, JSON.
import { useState } from 'preact/hooks';
import { html } from './html.ts';
import { download, toCsv } from './download.ts';

export interface Attr {
  name: string;
  type: string;
  description: string;
}

const TYPES = ['string', 'number', 'integer', 'bool', 'list', 'object', 'image', 'any'];

export const blankAttr = (): Attr => ({ name: '', type: 'string', description: '' });

/** The API's attribute list from the builder's rows (rows without a name are left out). */
export const toAttributes = (attrs: Attr[]) =>
  attrs
    .filter((a) => a.name.trim())
    .map((a) => ({ name: a.name.trim(), type: a.type, ...(a.description.trim() ? { description: a.description.trim() } : {}) }));

export function AttributeBuilder({ attrs, onChange }: { attrs: Attr[]; onChange: (a: Attr[]) => void }) {
  const set = (i: number, patch: Partial<Attr>) => onChange(attrs.map((a, k) => (k === i ? { ...a, ...patch } : a)));
  return html`<fieldset class="attrs">
    <legend>Attributes</legend>
    ${attrs.map(
      (a, i) =>
        html`<div class="attr-row" key=${i}>
          <label>Name <input value=${a.name} onInput=${(e: any) => set(i, { name: e.currentTarget.value })} placeholder="title" /></label>
          <label
            >Type
            <select value=${a.type} onChange=${(e: any) => set(i, { type: e.currentTarget.value })}>
              ${TYPES.map((t) => html`<option value=${t}>${t}</option>`)}
            </select></label
          >
          <label class="grow"
            >Description
            <input value=${a.description} onInput=${(e: any) => set(i, { description: e.currentTarget.value })} placeholder="what this field holds"
          /></label>
          <button
            type="button"
            class="secondary"
            aria-label=${`Remove attribute ${a.name || i + 1}`}
            onClick=${() => onChange(attrs.filter((_, k) => k !== i))}
          >
            Remove
          </button>
        </div>`,
    )}
    <button type="button" class="secondary" onClick=${() => onChange([...attrs, blankAttr()])}>Add attribute</button>
  </fieldset>`;
}

export function ErrorBox({ error }: { error: string | null }) {
  return error ? html`<p class="error" role="alert">${error}</p>` : null;
}

export function Json({ value, label }: { value: unknown; label: string }) {
  return html`<pre class="json" tabindex="0" aria-label=${label}>${JSON.stringify(value, null, 2)}</pre>`;
}

const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Records as a table; `order` (e.g. the scraper's attribute names) puts those columns first. */
export function RecordsTable({ records, caption, order = [] }: { records: Array<Record<string, unknown>>; caption: string; order?: string[] }) {
  if (!records.length) return html`<p class="muted">No records.</p>`;
  const columns = [...new Set([...order, ...records.flatMap((r) => Object.keys(r))])];
  return html`<div class="table-wrap">
    <table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${columns.map((c) => html`<th scope="col">${c}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${records.map(
          (r) =>
            html`<tr>
              ${columns.map((c) => html`<td>${cell(r[c])}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** Records and JSON as two tabs, and the records as a CSV file (`name`.csv). */
export function Results({ data, extra, name = 'records' }: { data: Array<Record<string, unknown>>; extra?: unknown; name?: string }) {
  const [tab, setTab] = useState<'table' | 'json'>('table');
  return html`<section class="results" aria-label="Results">
    <div role="tablist" aria-label="Result views">
      <button role="tab" aria-selected=${tab === 'table'} onClick=${() => setTab('table')}>Table</button>
      <button role="tab" aria-selected=${tab === 'json'} onClick=${() => setTab('json')}>JSON</button>
      <button class="secondary" disabled=${!data.length} onClick=${() => download(`${name}.csv`, toCsv(data), 'text/csv')}>Download CSV</button>
    </div>
    ${tab === 'table' ? html`<${RecordsTable} records=${data} caption=${`${data.length} record${data.length === 1 ? '' : 's'}`} />` : html`<${Json} value=${extra ?? data} label="Result as JSON" />`}
  </section>`;
}

export function StatusBadge({ status }: { status: string | null }) {
  return html`<span class=${`badge badge-${status ?? 'none'}`}>${status ?? 'not built'}</span>`;
}
