// A scraper's versions (recipe or script) and its self-heal attempts: GET /v1/scrapers/{id}/versions.
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.ts';
import { api } from './api.ts';
import type { ScraperHistory } from '@gleaner/core';
import { ErrorBox, Json } from './widgets.ts';

const when = (iso: string) => new Date(iso).toLocaleString();

/** Read again whenever `version` (the scraper's current one) changes. */
export function Versions({ id, version }: { id: string; version: number | null }) {
  const [history, setHistory] = useState<ScraperHistory | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<ScraperHistory>('GET', `/v1/scrapers/${encodeURIComponent(id)}/versions`).then(setHistory, (e: Error) => setError(e.message));
  }, [id, version]);
  if (!history) return html`<${ErrorBox} error=${error} />`;
  const what = history.type === 'agentic' ? 'Script' : 'Recipe';
  return html`<section aria-labelledby="versions-title">
    <h3 id="versions-title">Versions</h3>
    ${
      history.versions.length
        ? html`<div class="table-wrap">
              <table>
                <caption>
                  ${history.versions.length} version${history.versions.length === 1 ? '' : 's'}, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Version</th>
                    <th scope="col">Created</th>
                    <th scope="col">Why</th>
                    <th scope="col">Sample</th>
                  </tr>
                </thead>
                <tbody>
                  ${history.versions.map(
                    (v) =>
                      html`<tr>
                        <td>${v.version}${v.current ? html` <span class="badge badge-ready">current</span>` : ''}</td>
                        <td>${when(v.created_at)}</td>
                        <td>${v.reason}</td>
                        <td class="url">${v.sample_url ?? ''}${v.sample_data ? ` (${v.sample_data.length} records)` : ''}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
            ${history.versions.map(
              (v) =>
                html`<details>
                  <summary>${what} ${v.version}</summary>
                  <${Json} value=${v.recipe ?? v.script} label=${`${what} version ${v.version}`} />
                </details>`,
            )}`
        : html`<p class="muted">No version yet.</p>`
    }
    <h3 id="heals-title">Heal history</h3>
    ${
      history.heals.length
        ? html`<div class="table-wrap">
            <table aria-labelledby="heals-title">
              <caption>
                Regenerations after layout drift, newest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Drift seen</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Versions</th>
                  <th scope="col">Credits</th>
                </tr>
              </thead>
              <tbody>
                ${history.heals.map(
                  (h) =>
                    html`<tr>
                      <td>${when(h.at)}</td>
                      <td>${h.trigger}${h.url ? html`<div class="muted url">${h.url}</div>` : null}</td>
                      <td>
                        ${h.outcome === 'healed' ? 'healed' : html`<span class="error-text">failed</span>`}${h.detail ? html`<div class="muted">${h.detail}</div>` : null}
                      </td>
                      <td>${h.from_version ?? '–'} → ${h.to_version ?? '–'}</td>
                      <td>${h.credits}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
        : html`<p class="muted">No heals: the scraper has not drifted since it was built.</p>`
    }
  </section>`;
}
