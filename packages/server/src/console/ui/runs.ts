import { useState } from 'preact/hooks';
import { usePoll } from './poll.ts';
import { html } from './html.ts';
import { api } from './api.ts';
import { navigate } from './router.ts';
import { usePagedList } from './paged.ts';
import { download, runCsvRows, toCsv } from './download.ts';
import { ErrorBox, StatusBadge } from './widgets.ts';
import type { FinishedRunStatus, RunListItem } from '@gleaner/core';

// FINISHED_RUN_STATUSES, written out: the console's bundle takes only types from core.
const FINISHED: readonly string[] = ['completed', 'completed_partial', 'failed'] satisfies readonly FinishedRunStatus[];

/** A run's progress bar and its "n/N URLs (p%)" text. */
function Progress({ completed, total, label }: { completed: number; total: number; label: string }) {
  const pct = total ? Math.round((completed / total) * 100) : 0;
  return html`<span class="progress-line">
    <progress max=${total} value=${completed} aria-label=${label} aria-valuetext=${`${completed} of ${total} URLs`}></progress>
    <span>${completed}/${total} URLs (${pct}%)</span>
  </span>`;
}

/** The caller's runs, newest first (GET /v1/runs), followed while any is moving; and any run by id. */
export function RunsList() {
  const [id, setId] = useState('');
  const {
    items: runs,
    error,
    more,
    loadMore,
  } = usePagedList<RunListItem>(
    '/v1/runs?limit=20',
    'runs',
    (r) => r.run_id,
    (r) => !FINISHED.includes(r.status),
  );
  return html`<section aria-labelledby="runs-title">
    <h2 id="runs-title">Runs</h2>
    <${ErrorBox} error=${error} />
    ${
      runs === null
        ? html`<p class="muted">Loading…</p>`
        : runs.length === 0
          ? html`<p class="muted">No runs yet: start one from a scraper's page.</p>`
          : html`<div class="table-wrap">
                <table>
                  <caption>
                    Your runs, newest first
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Run</th>
                      <th scope="col">Scraper</th>
                      <th scope="col">Status</th>
                      <th scope="col">Progress</th>
                      <th scope="col">Started</th>
                      <th scope="col">Credits</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${runs.map(
                      (r) =>
                        html`<tr>
                          <td>
                            <a href=${`#/runs/${r.run_id}`}><code>${r.run_id.slice(0, 8)}</code></a>
                          </td>
                          <td>
                            ${r.scraper_name ? html`<a href=${`#/scrapers/${r.scraper_id}`}>${r.scraper_name}</a>` : html`<span class="muted">deleted</span>`}
                          </td>
                          <td><${StatusBadge} status=${r.status} />${r.failed ? html` <span class="error-text">${r.failed} failed</span>` : null}</td>
                          <td><${Progress} completed=${r.completed} total=${r.total} label=${`Progress of run ${r.run_id.slice(0, 8)}`} /></td>
                          <td>${new Date(r.created_at).toLocaleString()}</td>
                          <td>${FINISHED.includes(r.status) ? r.credits_charged : ''}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>
              ${more ? html`<button class="secondary" onClick=${loadMore}>Load more runs</button>` : null}`
    }
    <form
      class="row"
      onSubmit=${(e: Event) => {
        e.preventDefault();
        if (id.trim()) navigate(`/runs/${id.trim()}`);
      }}
    >
      <label>Run id <input value=${id} onInput=${(e: any) => setId(e.currentTarget.value)} /></label>
      <button type="submit" class="secondary">Open</button>
    </form>
  </section>`;
}

/** One run: a live progress bar (the status endpoint, polled), then results and errors per URL, downloadable. */
export function RunDetail({ id }: { id: string }) {
  const { value: run, error } = usePoll<any>(
    id,
    () => api('GET', `/v1/scrapers/run_async/${encodeURIComponent(id)}`),
    (body) => FINISHED.includes(body.status),
    500,
  );
  if (!run)
    return html`<section>
      <h2>Run</h2>
      <${ErrorBox} error=${error} />
    </section>`;
  const urls = Object.keys(run.data ?? {});
  // Failed URLs too (a run may report one in `errors` only).
  const rows = runCsvRows([...new Set([...urls, ...Object.keys(run.errors ?? {})])], run.data ?? {}, run.errors ?? {});
  return html`<section aria-labelledby="run-title">
    <h2 id="run-title">Run <code>${id}</code> <${StatusBadge} status=${run.status} /></h2>
    <${ErrorBox} error=${error} />
    <div data-testid="progress-text"><${Progress} completed=${run.completed} total=${run.total} label="Run progress" /></div>
    ${
      FINISHED.includes(run.status)
        ? html`<div class="row">
              <span>${run.credits_charged ?? 0} credits</span>
              <button class="secondary" onClick=${() => download(`run-${id}.json`, JSON.stringify(run, null, 2), 'application/json')}>Download JSON</button>
              <button class="secondary" onClick=${() => download(`run-${id}.csv`, toCsv(rows), 'text/csv')}>Download CSV</button>
            </div>
            <div class="table-wrap">
              <table>
                <caption>
                  Per URL
                </caption>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Records</th>
                  </tr>
                </thead>
                <tbody>
                  ${urls.map(
                    (u) =>
                      html`<tr>
                        <td class="url">${u}</td>
                        <td>${run.errors?.[u] !== undefined ? html`<span class="error-text">${run.errors[u]}</span>` : 'completed'}</td>
                        <td>
                          ${
                            run.errors?.[u] !== undefined
                              ? ''
                              : html`<details>
                                  <summary>${run.data[u].length}</summary>
                                  <pre class="json">${JSON.stringify(run.data[u], null, 2)}</pre>
                                </details>`
                          }
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
        : html`<p role="status" class="muted">Running… this page follows the run.</p>`
    }
  </section>`;
}
