// Usage and settings: GET /v1/usage grouped by day, scraper or kind (pages, model calls, tokens,
// credits, unsupported values, money; the totals row is the sum of the rows), and the owner's
// grounding policy and budgets (GET/PUT /v1/settings).
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.ts';
import { api } from './api.ts';
import { ErrorBox } from './widgets.ts';
import type { OwnerSettings, UsageFigures, UsageReport } from '@gleaner/core';

const GROUPS = [
  ['day', 'Day'],
  ['scraper', 'Scraper'],
  ['kind', 'Kind'],
] as const;

const money = (f: UsageFigures) => (f.money ? `$${f.money.amount.toFixed(4)}` : '—');

function Row({ label, f, total }: { label: string; f: UsageFigures; total?: boolean }) {
  const Cell = total ? 'th' : 'td';
  return html`<tr class=${total ? 'total' : undefined}>
    <th scope="row">${label}</th>
    <${Cell}>${f.events}<//
    ><${Cell}>${f.pages}<//
    ><${Cell}>${f.model_calls}<//
    ><${Cell}>${f.input_tokens}<//
    ><${Cell}>${f.output_tokens}<//>
    <${Cell}>${f.credits}<//
    ><${Cell}>${f.unsupported_values}<//
    ><${Cell}>${money(f)}<//>
  </tr>`;
}

function Report() {
  const [groupBy, setGroupBy] = useState('day');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [report, setReport] = useState<UsageReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const q = new URLSearchParams({ group_by: groupBy });
    if (from) q.set('from', from);
    if (to) q.set('to', to);
    // A report asked for earlier can arrive after a later one: only the latest request's answer is shown.
    let latest = true;
    api<UsageReport>('GET', `/v1/usage?${q}`)
      .then((r) => {
        if (!latest) return;
        setReport(r);
        setError(null);
      })
      .catch((e: Error) => latest && setError(e.message));
    return () => {
      latest = false;
    };
  }, [groupBy, from, to]);
  return html`<section aria-labelledby="usage-title">
    <h2 id="usage-title">Usage</h2>
    <div class="row">
      <label
        >Group by
        <select value=${groupBy} onChange=${(e: any) => setGroupBy(e.currentTarget.value)}>
          ${GROUPS.map(([v, l]) => html`<option value=${v}>${l}</option>`)}
        </select></label
      >
      <label>From <input type="date" value=${from} onChange=${(e: any) => setFrom(e.currentTarget.value)} /></label>
      <label>To <input type="date" value=${to} onChange=${(e: any) => setTo(e.currentTarget.value)} /></label>
    </div>
    <${ErrorBox} error=${error} />
    ${
      report === null
        ? html`<p class="muted">Loading…</p>`
        : html`<div class="table-wrap">
            <table>
              <caption>
                Usage from ${report.from.slice(0, 10)} to ${report.to.slice(0, 10)}; unsupported values are those the grounding check did not find on their page
              </caption>
              <thead>
                <tr>
                  <th scope="col">${GROUPS.find(([v]) => v === report.group_by)?.[1]}</th>
                  <th scope="col">Events</th>
                  <th scope="col">Pages</th>
                  <th scope="col">Model calls</th>
                  <th scope="col">Tokens in</th>
                  <th scope="col">Tokens out</th>
                  <th scope="col">Credits</th>
                  <th scope="col">Unsupported values</th>
                  <th scope="col">Money</th>
                </tr>
              </thead>
              <tbody>
                ${report.items.map((i) => html`<${Row} key=${i.key ?? '-'} label=${i.name ?? i.key ?? '(no scraper)'} f=${i} />`)}
                <${Row} label="Total" f=${report.totals} total=${true} />
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}

const BUDGETS = [
  ['daily_credits', 'Credits per day'],
  ['monthly_credits', 'Credits per month'],
  ['daily_tokens', 'Model tokens per day'],
  ['monthly_tokens', 'Model tokens per month'],
] as const;

function Settings() {
  const [settings, setSettings] = useState<OwnerSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    api<OwnerSettings>('GET', '/v1/settings')
      .then(setSettings)
      .catch((e: Error) => setError(e.message));
  }, []);
  if (!settings) return html`<${ErrorBox} error=${error} />`;
  const set = (patch: Partial<OwnerSettings>) => {
    setSaved(false);
    setSettings({ ...settings, ...patch });
  };
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      setSettings(await api<OwnerSettings>('PUT', '/v1/settings', settings));
      setError(null);
      setSaved(true);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return html`<section aria-labelledby="settings-title">
    <h2 id="settings-title">Grounding and budgets</h2>
    <form onSubmit=${save}>
      <label
        >Grounding policy
        <select
          value=${settings.grounding_policy ?? 'keep'}
          onChange=${(e: any) => set({ grounding_policy: e.currentTarget.value === 'keep' ? null : e.currentTarget.value })}
        >
          <option value="keep">keep (flag in provenance only)</option>
          <option value="flag">flag (warnings in the response)</option>
          <option value="drop">drop (set to null and listed)</option>
        </select></label
      >
      ${BUDGETS.map(
        ([k, label]) =>
          html`<label key=${k}
            >${label}
            <input
              type="number"
              min="0"
              step="any"
              placeholder="no budget"
              value=${settings[k] ?? ''}
              onInput=${(e: any) => set({ [k]: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
          /></label>`,
      )}
      <button type="submit">Save settings</button>
      ${saved ? html`<span role="status">Saved.</span>` : null}
    </form>
    <${ErrorBox} error=${error} />
  </section>`;
}

export function Usage() {
  return html`<${Report} /><${Settings} />`;
}
